"""The REPL worker: isolation, limits, output capture, FINAL, tool proxies."""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from longread.errors import BudgetExceededError
from longread.repl import isolation, workers
from longread.repl.protocol import JsonText, decoded, json_object
from longread.repl.sandbox import RESTART_NOTE, Sandbox


def echo(text: str, times: int = 1) -> str:
    """Repeat text."""
    return text * times


def broken() -> str:
    raise ValueError("the index is gone")


@pytest.fixture
def sandbox():
    with Sandbox(
        {"echo": echo, "broken": broken}, context="The context text.", cell_timeout=2
    ) as sb:
        yield sb


def test_namespace_persists_and_last_expression_is_shown(sandbox):
    assert sandbox.run("x = 41").output == ""
    assert sandbox.run("x + 1").output.strip() == "42"


def test_the_worker_outlives_the_thread_that_started_it():
    """A conversation's REPL is started by one request's thread and used by the next one's (the
    kernel kills a child whose starting thread ends, if that thread is the one that started it)."""
    sb = Sandbox({}, cell_timeout=5)

    def first_question() -> None:
        sb.start()
        sb.run("x = 41")

    try:
        first = threading.Thread(target=first_question)
        first.start()
        first.join()
        time.sleep(0.3)
        result = sb.run("x + 1")
        assert result.output.strip() == "42" and sb.restarts == 0, result.output
    finally:
        sb.close()
    assert not _spawner_threads()  # (closed, it leaves no thread: the process may fork again)


def _spawner_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("longread-spawner")]


def test_the_thread_that_starts_workers_lasts_while_one_of_them_lives():
    first, second = Sandbox({}, cell_timeout=5), Sandbox({}, cell_timeout=5)
    try:
        first.start()
        second.start()
        assert len(_spawner_threads()) == 1
        first.close()
        assert len(_spawner_threads()) == 1 and second.run("1 + 1").output.strip() == "2"
    finally:
        first.close()
        second.close()
    assert not _spawner_threads()


def test_context_and_tools_are_available(sandbox):
    assert sandbox.run("print(context.upper())").output.strip() == "THE CONTEXT TEXT."
    assert sandbox.run("print(echo('ab', times=3))").output.strip() == "ababab"


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(st.dictionaries(st.text(), st.tuples(_json_values, st.booleans()), max_size=5))
def test_a_json_object_holds_json_text_as_it_is_and_other_values_encoded(members):
    values = {
        name: JsonText(json.dumps(value)) if as_text else value
        for name, (value, as_text) in members.items()
    }
    plain = {name: value for name, (value, _) in members.items()}
    assert json.loads(json_object(values)) == plain == decoded(values)


def test_variables_are_preset_and_json_text_arrives_decoded():
    names = ["Act I", 'Scene "2"', "Ünï\nline"]
    variables = {"total": 3, "names": JsonText(json.dumps(names)), "path": Path("/a")}
    with Sandbox({}, variables=variables) as sandbox:
        shown = sandbox.run(f"print(total, names == {names!r}, type(names).__name__, path)")
    assert shown.output.strip() == "3 True list /a"


def test_final_and_final_var(sandbox):
    assert sandbox.run("FINAL('the answer')").final == "the answer"
    assert sandbox.run("result = {'n': 3}\nFINAL_VAR('result')").final == '{"n": 3}'
    missing = sandbox.run("FINAL_VAR('nope')")
    assert missing.final is None and "no variable named 'nope'" in missing.error


def test_final_is_not_swallowed_by_except(sandbox):
    assert sandbox.run("try:\n    FINAL('kept')\nexcept Exception:\n    pass").final == "kept"


def test_infinite_loop_is_killed_and_the_session_goes_on(sandbox):
    sandbox.run("keep = 1")
    started = time.monotonic()
    result = sandbox.run("while True:\n    pass")
    assert time.monotonic() - started < 6
    assert "longer than 2 s" in result.render() and RESTART_NOTE in result.notices
    assert "NameError" in sandbox.run("keep").error
    assert sandbox.run("print('alive')").output.strip() == "alive"


def test_huge_print_keeps_head_and_tail(sandbox):
    result = sandbox.run("print('HEAD' + 'x' * 2_000_000 + 'TAIL')")
    assert result.output.startswith("HEAD") and result.output.rstrip().endswith("TAIL")
    assert "characters cut from the middle" in result.output
    assert len(result.output) < 21_000


def test_a_huge_exception_text_is_cut_and_the_variables_stay(sandbox):
    sandbox.run("keep = 41")
    result = sandbox.run("raise ValueError('E' * 20_000_000 + 'END')")
    assert "ValueError" in result.error and result.error.rstrip().endswith("END")
    assert len(result.error) < 25_000 and RESTART_NOTE not in result.notices
    assert sandbox.run("keep + 1").output.strip() == "42"


def test_exit_calls_end_neither_run_nor_host(sandbox):
    assert "SystemExit" in sandbox.run("import sys\nsys.exit(3)").error
    assert "not allowed" in sandbox.run("import os\nos._exit(1)").error
    died = sandbox.run("import posix\nposix._exit(1)")
    assert "exited" in died.render() and RESTART_NOTE in died.notices
    assert sandbox.run("1 + 1").output.strip() == "2"


def test_refusals_are_explained(sandbox):
    """The audit hook only explains; what it names is also refused by the kernel
    (tests/security)."""
    assert "starting a process" in sandbox.run("import subprocess\nsubprocess.run(['true'])").error
    assert (
        "network"
        in sandbox.run("import socket\ns = socket.socket()\ns.connect(('127.0.0.1', 9))").error
    )
    assert "not allowed" in sandbox.run(f"open({os.path.expanduser('~/.bashrc')!r}).read()").error
    assert (
        "sending signals"
        in sandbox.run("import os, signal\nos.kill(os.getppid(), signal.SIGTERM)").error
    )


def test_run_folder_is_removed_after_close_and_after_a_kill():
    sb = Sandbox({}, cell_timeout=1)
    sb.start()
    first = sb.run_dir
    sb.run("while True: pass")
    assert not os.path.exists(first)
    second = sb.run_dir
    sb.close()
    assert not os.path.exists(second)


def test_reserved_names_are_restored_and_reported(sandbox):
    result = sandbox.run("context = 'hijacked'\necho = None\nFINAL_VAR = 1")
    assert "restored" in result.render()
    assert sandbox.run("print(context)").output.strip() == "The context text."
    assert sandbox.run("print(echo('z'))").output.strip() == "z"


def test_exceptions_show_the_failing_line(sandbox):
    error = sandbox.run("a = 1\nb = a / 0\n").error
    assert "line 2" in error and "b = a / 0" in error and "ZeroDivisionError" in error
    assert "SyntaxError" in sandbox.run("def (").error


def test_tool_errors_and_bad_arguments_come_back_as_text(sandbox):
    assert "the index is gone" in sandbox.run("broken()").error
    assert "usage: echo(text: str, times: int = 1)" in sandbox.run("echo()").error
    assert "arguments must be" in sandbox.run("echo(object())").error


def test_memory_limit():
    with Sandbox({}, memory_mb=256) as sb:
        assert "MemoryError" in sb.run("x = bytearray(600 * 1024 * 1024)").error
        assert sb.run("print('still here')").output.strip() == "still here"


def test_budget_error_from_a_tool_ends_the_cell_at_once_and_reaches_the_host():
    def spend() -> str:
        raise BudgetExceededError(
            "budget exceeded: sub-call budget of 0 is used up", "max_subcalls"
        )

    with Sandbox({"spend": spend}, cell_timeout=30) as sb:
        started = time.monotonic()
        with pytest.raises(BudgetExceededError):
            sb.run("while True:\n    try:\n        spend()\n    except Exception:\n        pass")
        assert time.monotonic() - started < 5


def test_isolation_layers_are_reported():
    with Sandbox({}) as sb:
        assert set(sb.layers) == {"rlimits", "uid", "landlock", "seccomp", "namespaces"}
        assert all(layer["detail"] for layer in sb.layers.values())
        confined = sb.layers["landlock"]["active"] or sb.layers["namespaces"]["active"]
        assert sb.isolated == (sb.layers["seccomp"]["active"] and confined)


def test_a_prespawned_worker_is_taken_confined_and_a_dead_one_replaced():
    workers.prespawn()
    spare = workers._spare[0]
    with Sandbox({"echo": echo}, context="ctx", cell_timeout=5) as sb:
        assert sb._process is spare.process and not workers._spare
        assert sb.isolated == isolation.is_isolated(sb.layers)
        assert sb.run("print(echo(context, times=2))").output.strip() == "ctxctx"
    assert spare.process.poll() is not None and not os.path.exists(spare.run_dir)
    workers.prespawn()
    dead = workers._spare[0]
    dead.process.kill()
    dead.process.wait()
    with Sandbox({"echo": echo}, context="ctx", cell_timeout=5) as sb:
        assert sb._process is not dead.process
        assert sb.run("print(echo('ok'))").output.strip() == "ok"
    assert not os.path.exists(dead.run_dir)
