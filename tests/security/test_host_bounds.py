"""The host's side of the REPL is bounded whatever the worker does: frames read with a deadline
and a size cap, FINAL and output capped, host-side searches stopped at the cell's deadline, the
run's deadline and cancellation stop a cell at once."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from longread.errors import BudgetExceededError, CancelledError
from longread.index.single import SingleDocIndex
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.repl.sandbox import RESTART_NOTE, Sandbox
from longread.store.docstore import DocStore
from longread.tools.single_doc import SingleDocTools
from security.harness import GUARD_OFF

REPLY_FD = "import os, sys, time\nreply = int(sys.argv[2])\n"  # the worker's pipe to the host


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_a_partial_frame_ends_the_cell_at_its_time_limit(mode):
    with Sandbox({}, cell_timeout=2) as sandbox:
        worker = sandbox._process.pid
        started = time.monotonic()
        result = sandbox.run(REPLY_FD + "os.write(reply, b'\\x00\\x00')\ntime.sleep(120)")
        assert time.monotonic() - started < 2 + 5
        assert "longer than 2 s" in result.render() and RESTART_NOTE in result.notices
        assert not _alive(worker) or worker != sandbox._process.pid
        assert sandbox.run("print('fresh')").output.strip() == "fresh"


def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + body


BAD_FRAMES = {
    "2 GB header": b"\x7f\xff\xff\xff",
    "not JSON": _frame(b"nope!"),
    "not an object": _frame(b"[]"),
    "nested 100,000 deep": _frame(b'{"a":' + b"[" * 100_000),
    "3 million empty objects": _frame(b"[" + b"{}," * 2_700_000 + b"{}]"),
    "a 5,000-digit integer": _frame(b'{"op": "result", "output": ' + b"9" * 5000 + b"}"),
    "output not a string": _frame(b'{"op": "result", "output": [1], "error": null, "final": null}'),
    "restored names not strings": _frame(b'{"op": "result", "output": "", "restored": [[1]]}'),
}


@pytest.mark.parametrize("name", sorted(BAD_FRAMES))
def test_a_bad_frame_restarts_the_worker_at_once(mode, name):
    frame = BAD_FRAMES[name]
    with Sandbox({}, cell_timeout=20) as sandbox:
        started = time.monotonic()
        result = sandbox.run(REPLY_FD + f"os.write(reply, {frame!r})\ntime.sleep(120)")
        assert time.monotonic() - started < 5
        if name == "restored names not strings":  # harmless: the names are dropped
            assert result.notices == [] and sandbox.restarts == 0
            sandbox.restart()  # (the forged result left the worker asleep in its cell)
        else:
            assert "broke the protocol" in result.render() and RESTART_NOTE in result.notices
            assert sandbox.restarts == 1
        assert sandbox.run("print(1)").output.strip() == "1"


def test_a_worker_that_stops_reading_cannot_hold_the_host(mode):
    """Forged tool calls until the host's replies fill the pipe the worker never reads."""
    flood = (
        REPLY_FD
        + "import json\nframe = json.dumps({'op': 'call', 'name': 'echo', 'args': ['x' * 1000]})"
        ".encode()\nos.write(reply, (len(frame).to_bytes(4, 'big') + frame) * 3000)\n"
        "time.sleep(1e6)"
    )
    with Sandbox({"echo": lambda text: text}, cell_timeout=3) as sandbox:
        started = time.monotonic()
        result = sandbox.run(flood)
        assert time.monotonic() - started < 3 + 5 and RESTART_NOTE in result.notices
        assert sandbox.run("print(echo('back'))").output.strip() == "back"


def test_a_lone_surrogate_in_the_output_does_not_break_the_run(mode):
    forged = (
        REPLY_FD + 'body = b\'{"op": "result", "output": "a\\\\ud800b", "final": "\\\\udfff"}\'\n'
        "os.write(reply, len(body).to_bytes(4, 'big') + body)\ntime.sleep(60)"
    )
    with Sandbox({}, cell_timeout=10) as sandbox:
        result = sandbox.run(forged)
    assert result.output == "a?b" and result.final == "?"
    result.render().encode("utf-8")  # (would raise on a surrogate)


def test_tool_arguments_cannot_make_a_huge_reply(mode):
    """grep's context and hit counts are clamped; any tool's reply is capped."""
    from longread.text.slices import ContextSlicer
    from longread.tools.context_tools import ContextTools

    text = "lorem ipsum dolor sit amet. " * 4_000
    tools = ContextTools(
        ContextSlicer.from_context(text, chunk_chars=10_000),
        ScriptedLM(["-"]),
        Gateway(),
        context=text,
    )
    with Sandbox(
        {**tools.functions(), "big": lambda: "x" * 40_000_000}, cell_timeout=20
    ) as sandbox:
        hits = sandbox.run(
            "h = grep('.', context_chars=10**9, max_hits=10**9)\n"
            "print(len(h), max(len(x['snippet']) for x in h))"
        ).output.split()
        assert int(hits[0]) <= 1_000 and int(hits[1]) <= 4_001
        assert "over the 32 MB a tool may return" in sandbox.run("big()").error


def test_a_huge_pattern_is_refused_before_it_is_compiled(mode, big_document_tools):
    pattern = "(" + "|".join(f"z{i}" for i in range(300_000)) + ")\\1"
    with Sandbox(big_document_tools.functions(), cell_timeout=10) as sandbox:
        started = time.monotonic()
        result = sandbox.run(f"grep_all({pattern!r})")
        assert time.monotonic() - started < 3
        assert "characters is over the 2,000 allowed" in result.error


def test_model_calls_made_for_a_cell_stop_at_its_deadline(mode):
    """20 sub-calls of 1 s each, 4 at a time, in a cell of 2 s: the batch does not run on for
    5 s."""
    gateway = Gateway(concurrency=4)
    slow = ScriptedLM(lambda request: "answer", latency=1.0)

    def ask_all(prompts: list) -> list:
        return [c.text for c in gateway.complete_many(slow, prompts, purpose="subcall")]

    with Sandbox({"ask_all": ask_all}, cell_timeout=2) as sandbox:
        started = time.monotonic()
        result = sandbox.run("ask_all(['q'] * 20)")
        assert time.monotonic() - started < 2 + 1.5, result.render()
        assert len(slow.requests) < 20


def test_a_forged_result_frame_is_capped_by_the_host(mode):
    """Model code writing its own result frame skips the worker's caps: the host applies them."""
    forged = (
        REPLY_FD + "import json, struct\n"
        "body = json.dumps({'op': 'result', 'output': 'O' * 3_000_000, 'final': 'F' * 3_000_000,"
        " 'error': None, 'restored': ['not_a_tool', 'x' * 1000]}).encode()\n"
        "os.write(reply, struct.pack('>I', len(body)) + body)\ntime.sleep(120)"
    )
    with Sandbox({}, cell_timeout=10, max_output_chars=1_000, max_final_chars=5_000) as sandbox:
        result = sandbox.run(forged)
    assert len(result.output) < 1_200 and len(result.final) < 5_200
    assert "characters cut" in result.final
    assert result.notices == []  # names that are not the REPL's own are not echoed back


def test_final_of_100_million_characters_is_capped(mode):
    with Sandbox({}, cell_timeout=30) as sandbox:
        started = time.monotonic()
        result = sandbox.run("FINAL('A' * 100_000_000)")
        seconds = time.monotonic() - started
    assert len(result.final) <= 1_000_000 + 200 and "characters cut" in result.final
    assert seconds < 10


def test_writing_to_the_inherited_output_reaches_nobody(mode):
    with Sandbox({}, cell_timeout=10) as sandbox:
        result = sandbox.run(
            "import os\nos.write(1, b'x' * 10_000_000)\nos.write(2, b'y' * 1000)\nprint('ok')"
        )
        assert result.output.strip() == "ok" and result.error is None


def test_the_run_deadline_stops_a_cell(mode):
    with Sandbox({}, cell_timeout=60, run_deadline=time.monotonic() + 2) as sandbox:
        started = time.monotonic()
        with pytest.raises(BudgetExceededError) as stopped:
            sandbox.run("while True:\n    pass")
        assert stopped.value.limit == "max_seconds"
        assert time.monotonic() - started < 2 + 2
        assert sandbox._process is None  # the worker is gone


def test_cancelling_the_run_kills_the_worker_at_once(mode):
    cancelled = threading.Event()
    with Sandbox({}, cell_timeout=60, cancelled=cancelled) as sandbox:
        worker = sandbox._process
        threading.Timer(0.5, cancelled.set).start()
        started = time.monotonic()
        with pytest.raises(CancelledError):
            sandbox.run("while True:\n    pass")
        assert time.monotonic() - started < 0.5 + 1
        assert worker.poll() is not None


def test_a_repl_kept_for_the_next_question_answers_to_that_questions_limits(mode):
    """A conversation keeps its REPL: the next question's run brings its own tools, deadline and
    cancellation, and a cell of it can outlast neither."""
    with Sandbox({"source": lambda: "first"}, cell_timeout=60) as sandbox:
        assert sandbox.run("kept = source()\nprint(kept)").output.strip() == "first"
        with pytest.raises(ValueError, match="same tools"):  # no tool slipped in or out
            sandbox.rebind({"source": str, "shell": str}, None, None)
        sandbox.rebind({"source": lambda: "second"}, time.monotonic() + 2, None)
        assert sandbox.run("print(kept, source())").output.strip() == "first second"
        started = time.monotonic()
        with pytest.raises(BudgetExceededError):
            sandbox.run("while True:\n    pass")
        assert time.monotonic() - started < 2 + 2 and sandbox._process is None
    cancelled = threading.Event()
    with Sandbox({}, cell_timeout=60) as sandbox:
        sandbox.run("kept = 1")
        sandbox.rebind({}, None, cancelled)
        threading.Timer(0.5, cancelled.set).start()
        with pytest.raises(CancelledError):
            sandbox.run("while True:\n    pass")


@pytest.fixture
def big_document_tools(tmp_path) -> SingleDocTools:
    """A 12 MB document of lines like 'aaaa…a' (what catastrophic patterns feed on)."""
    path = tmp_path / "big.txt"
    line = "a" * 40 + "\n"
    path.write_text("# Part 1\n" + line * 150_000 + "# Part 2\n" + line * 150_000, encoding="utf-8")
    index = SingleDocIndex.build(path, DocStore(tmp_path / "i.sqlite"))
    return SingleDocTools(index, ScriptedLM(["-"]), Gateway())


@pytest.mark.parametrize(
    "pattern",
    ["(a+)+$", "(a|aa)+(?=b)", "(a|a)*\\\\1b"],
    ids=["nested quantifier (RE2)", "lookahead (regex with a timeout)", "backreference"],
)
def test_host_side_grep_stops_at_the_cells_time_limit(mode, big_document_tools, pattern):
    """grep_all runs on the host: a pattern built to backtrack must not run past the cell."""
    tools = big_document_tools.functions()
    with Sandbox(tools, cell_timeout=3) as sandbox:
        started = time.monotonic()
        result = sandbox.run(
            f"hits = grep_all({pattern!r})\nprint(sum(len(v) for v in hits.values()))"
        )
        seconds = time.monotonic() - started
        assert seconds < 3 + 5, result.render()
        assert sandbox.run("print('still here')").output.strip() == "still here"


def test_a_loop_of_tool_calls_is_bounded_by_the_cell_time(mode):
    calls = []
    with Sandbox({"ping": lambda: calls.append(1) or "pong"}, cell_timeout=2) as sandbox:
        started = time.monotonic()
        result = sandbox.run("while True:\n    ping()")
    assert time.monotonic() - started < 2 + 5 and "longer than 2 s" in result.render()
    assert len(calls) > 10


def test_guard_off_changes_nothing_for_the_host(mode):
    """Switching the hook off gives model code no new way to hold the host."""
    with Sandbox({}, cell_timeout=2) as sandbox:
        started = time.monotonic()
        result = sandbox.run(GUARD_OFF + "import os\nos._exit = None\nwhile True: pass")
        assert time.monotonic() - started < 2 + 5 and RESTART_NOTE in result.notices


def test_the_context_file_is_the_hosts_alone(mode):
    with Sandbox({}, context="private text") as sandbox:
        context_file = Path(sandbox.run_dir) / "context.txt"
        assert context_file.stat().st_mode & 0o077 == 0
        assert sandbox.run("print(context)").output.strip() == "private text"


@pytest.fixture
def many_kinds_tools(tmp_path) -> SingleDocTools:
    """A document whose 1,000 headings name 500 kinds of part (`## Aaab 1`, `## Aaab 2`), none
    written in lower case: each kind is looked for through the whole text (~20 s in all)."""
    words = [f"Q{a}{b}{c}" for a in "abcdefgh" for b in "abcdefgh" for c in "abcdefgh"][:500]
    path = tmp_path / "kinds.md"
    parts = "".join(f"## {word} {n}\n\nText of {word} {n}.\n\n" for word in words for n in (1, 2))
    path.write_text(parts + "x " * 500_000, encoding="utf-8")
    index = SingleDocIndex.build(path, DocStore(tmp_path / "i.sqlite"))
    return SingleDocTools(index, ScriptedLM(["-"]), Gateway())


def test_references_stop_at_the_cells_time_limit(mode, many_kinds_tools):
    """references() learns what the document's headings name on the host: that too ends with
    the cell (it ran 141 s past a 60 s limit at 100,000 headings)."""
    with Sandbox(many_kinds_tools.functions(), cell_timeout=2) as sandbox:
        started = time.monotonic()
        result = sandbox.run("refs = references()")
        assert time.monotonic() - started < 2 + 5, result.render()
        assert "longer than 2 s" in result.render()
        assert sandbox.run("print('still here')").output.strip() == "still here"
