"""Every REPL tool runs on the host, so each bounds its own work whatever model code passes it:
hostile patterns, batch sizes, queries, names, ranges and hypotheses, and nested RLMs and model
retries, end with the cell's time and leave no memory behind (a second attack review)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import make_run
from corpus_fixtures import built, write_corpus
from longread import deadline
from longread.index.single import SingleDocIndex
from longread.llm.base import TransientModelError
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.repl.sandbox import RESTART_NOTE, Sandbox
from longread.store.docstore import DocStore
from longread.strategies.rlm import RLMLoop
from longread.text.patterns import compile_search
from longread.text.slices import ContextSlicer
from longread.tools.context_tools import ContextTools
from longread.tools.corpus import CorpusTools
from longread.tools.single_doc import SingleDocTools
from security.harness import GUARD_OFF

MACBETH = Path(__file__).resolve().parents[2] / "examples" / "macbeth.md"
REPLY_FD = "import os, sys, time\nreply = int(sys.argv[2])\n"


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


@pytest.fixture(scope="module")
def macbeth(tmp_path_factory) -> SingleDocTools:
    folder = tmp_path_factory.mktemp("macbeth")
    index = SingleDocIndex.build(MACBETH, DocStore(folder / "i.sqlite"))
    return SingleDocTools(index, ScriptedLM(lambda r: "sub answer"), Gateway())


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> CorpusTools:
    folder = tmp_path_factory.mktemp("corpus")
    index = built(write_corpus(folder / "docs"), folder / "c.sqlite")
    return CorpusTools(index, ScriptedLM(lambda r: "sub answer"), Gateway())


def timed(sandbox: Sandbox, code: str) -> tuple[float, str]:
    started = time.monotonic()
    output = sandbox.run(code).render()
    return time.monotonic() - started, output


@pytest.mark.parametrize("pattern", [r"(((.{100}){100}){100}){100}", r"(.{1000}){20}\1"])
def test_a_pattern_that_unrolls_is_refused_before_it_is_compiled(macbeth, pattern):
    before = rss_mb()
    with Sandbox(macbeth.functions(), cell_timeout=5) as sandbox:
        seconds, output = timed(sandbox, f"grep_all({pattern!r})")
    assert seconds < 3 and "unrolls to over 10,000 steps" in output
    assert rss_mb() - before < 100


def test_a_batch_is_bounded_and_ends_at_its_first_failure():
    tools = ContextTools(
        ContextSlicer.from_context("text " * 100),
        ScriptedLM(lambda r: "a"),
        Gateway(),
        context="text " * 100,
    )
    with Sandbox(tools.functions(), cell_timeout=5) as sandbox:
        seconds, output = timed(sandbox, "llm_query_batched(['q'] * 1_000_000)")
    assert seconds < 3 and "at most 256 at a time" in output
    calls: list[int] = []

    def work(item: int) -> int:
        calls.append(item)
        if item == 0:
            raise ValueError("first fails")
        time.sleep(0.05)
        return item

    with pytest.raises(ValueError):
        Gateway(concurrency=2).map(work, list(range(200)))
    assert len(calls) < 20  # the rest were cancelled, not each run to its own failure


@pytest.mark.parametrize(
    "code", ["search('macbeth ' * 12000)", "search(' '.join(f'w{i}' for i in range(20000)))"]
)
def test_a_long_query_is_cut_to_its_first_distinct_words(macbeth, code):
    with Sandbox(macbeth.functions(), cell_timeout=5) as sandbox:
        seconds, output = timed(sandbox, code)
    assert seconds < 3 and RESTART_NOTE not in output


def test_citing_a_huge_answer_stays_fast(macbeth):
    started = time.monotonic()
    macbeth.cite("macbeth " * 8000, "Who is Macbeth?")
    assert time.monotonic() - started < 3


def test_bm25_over_many_distinct_query_terms_stays_fast():
    text = " ".join(f"word{i}" for i in range(200_000))
    tools = ContextTools(
        ContextSlicer.from_context(text, chunk_chars=5_000),
        ScriptedLM(["-"]),
        Gateway(),
        context=text,
    )
    with Sandbox(tools.functions(), cell_timeout=10) as sandbox:
        sandbox.run("search('word1')")  # (builds the index)
        seconds, output = timed(sandbox, "search(' '.join(set(context.split())))")
    assert seconds < 5 and RESTART_NOTE not in output


def test_a_child_rlm_ends_with_its_parents_cell():
    """rlm_query's child runs its own cells and turns: all of it within the parent cell's time."""
    child_turn = "```repl\nwhile True:\n    pass\n```"
    root = ScriptedLM(
        ["```repl\nimport time\ntime.sleep(2.2)\nrlm_query('q', 'some text ' * 50)\n```"]
        + [child_turn] * 20,
        context_window=200,
    )
    events: list = []
    run = make_run(root, events=events, max_depth=2, cell_timeout=3, max_iterations=1)
    RLMLoop(run, "context text " * 100).answer("q")
    [parent_cell] = [
        e for e in events if e.kind == "output" and e.depth == 0 and e.data["turn"] == 1
    ]
    assert parent_cell.data["seconds"] < 3 + 0.5  # not 2.2 s + the child's own 3 s cell


def test_model_retries_stop_at_the_deadline():
    throttled = ScriptedLM([TransientModelError("429", retry_after=10)] * 5 + ["late"])
    gateway = Gateway(backoff=0.01)
    started = time.monotonic()
    with deadline.until(time.monotonic() + 1.5), pytest.raises(deadline.DeadlineExceeded):
        gateway.complete(throttled, "q", purpose="subcall")
    assert time.monotonic() - started < 2.5
    assert all(r.timeout is not None and r.timeout <= 1.5 for r in throttled.requests)


def test_hypotheses_are_capped(macbeth):
    with Sandbox(macbeth.functions(), cell_timeout=20) as sandbox:
        sandbox.run("for n in range(60):\n    update_hypothesis('H' * 2_000_000 + str(n))")
        output = sandbox.run(
            "print(len(get_hypothesis()), len(get_hypothesis_history()))"
        ).output.split()
    assert int(output[0]) <= 20_100 and int(output[1]) <= 50


def test_corpus_names_and_queries_are_cut_before_any_cache(corpus):
    before = rss_mb()
    with Sandbox(corpus.functions(), cell_timeout=20) as sandbox:
        for code in (
            "for n in range(20):\n    search_by_keyword(str(n) + 'k' * 4_000_000)",
            "for n in range(20):\n    search_by_entity(str(n) + 'E' * 4_000_000)",
            "for n in range(20):\n    rank_documents(str(n) + ' ship' * 800_000)",
        ):
            seconds, output = timed(sandbox, code)
            assert seconds < 10 and RESTART_NOTE not in output, output
    assert rss_mb() - before < 150


@pytest.mark.parametrize(
    "code, refusal",
    [
        ("search_by_date('2024 ' * 1_500_000)", None),
        ("search_by_keywords([f'w{i}' for i in range(200_000)])", "at most 256 at a time"),
        ("ask_across_documents('q', [f'd{i}' for i in range(100_000)])", "at most 256 at a time"),
    ],
)
def test_corpus_lists_and_dates_are_bounded(corpus, code, refusal):
    with Sandbox(corpus.functions(), cell_timeout=5) as sandbox:
        seconds, output = timed(sandbox, code)
    assert seconds < 3 and RESTART_NOTE not in output
    assert refusal is None or refusal in output


def test_reads_are_bounded_and_long_ones_not_cached(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text("# Part\n" + "a line of the long document\n" * 200_000, encoding="utf-8")
    tools = SingleDocTools(
        SingleDocIndex.build(path, DocStore(tmp_path / "i.sqlite")), ScriptedLM(["-"]), Gateway()
    )
    before = rss_mb()
    with Sandbox(tools.functions(), cell_timeout=20) as sandbox:
        output = sandbox.run(
            "for n in range(20):\n    text = read_range(0, 10**12 + n)\nprint(len(text))"
        )
    assert output.output.strip() == "1000000"
    assert any("at most 1,000,000" in notice for notice in tools.take_notices())
    assert rss_mb() - before < 150


def test_a_huge_section_name_fails_fast(tmp_path):
    path = tmp_path / "many.md"
    path.write_text(
        "".join(f"# Section {n}\n\nText {n}.\n\n" for n in range(5_000)), encoding="utf-8"
    )
    tools = SingleDocTools(
        SingleDocIndex.build(path, DocStore(tmp_path / "i.sqlite")), ScriptedLM(["-"]), Gateway()
    )
    with Sandbox(tools.functions(), cell_timeout=5) as sandbox:
        seconds, output = timed(sandbox, "read_section('A' * 7_000_000)")
    assert seconds < 2 and "no section named" in output


def test_a_prompt_with_a_slice_is_cut_to_fit():
    sub = ScriptedLM(lambda r: "a", context_window=8_000)
    text = "slice text " * 1000
    tools = ContextTools(
        ContextSlicer.from_context(text, chunk_chars=5_000), sub, Gateway(), context=text
    )
    tools.llm_query("x" * 5_000_000, slice_id=tools.list_slices()[0])
    assert len(sub.requests[0].messages[-1]["content"]) < 40_000


def test_lone_surrogates_in_tool_arguments_are_replaced_at_the_boundary(macbeth):
    forged = (
        REPLY_FD
        + 'body = b\'{"op": "call", "name": "update_hypothesis", "args": ["partial \\\\ud800"]}\'\n'
        "os.write(reply, len(body).to_bytes(4, 'big') + body)\ntime.sleep(60)"
    )
    with Sandbox(macbeth.functions(), cell_timeout=3) as sandbox:
        sandbox.run(GUARD_OFF + forged)
    assert macbeth.hypothesis.current == "partial ?"


@pytest.mark.parametrize(
    "pattern",
    [
        "(" * 950 + "-thane-" + ")" * 950,  # nesting that reading the pattern's words must survive
        "-" + "-".join(f"w{n}" for n in range(380)) + "-",  # 380 whole words for the index
    ],
)
def test_the_words_a_grep_looks_up_in_the_index_are_bounded(macbeth, pattern):
    macbeth.index.store.search.build(macbeth.index.store_id)
    with Sandbox(macbeth.functions(), cell_timeout=5) as sandbox:
        seconds, output = timed(sandbox, f"print(len(grep_all({pattern!r})))")
    assert seconds < 3 and RESTART_NOTE not in output and "Traceback" not in output


def test_map_chunks_and_tally_bound_what_model_code_asks_of_them(macbeth):
    """Many words, words that are patterns, a word given as a string, a huge instruction, a
    tally of millions: each refused or bounded, and the regex built from words is escaped."""
    slow_sub = ScriptedLM(lambda r: "NONE", latency=1.5)
    tools = SingleDocTools(macbeth.index, slow_sub, Gateway())
    with Sandbox(tools.functions(), cell_timeout=2) as sandbox:
        refused = sandbox.run("map_chunks('list', must_contain=['w'] * 10_000)").render()
        assert "at most 256 at a time" in refused
        took, output = timed(
            sandbox,
            "print(len(map_chunks('x' * 10**6, must_contain=['(a+)+$', 'zqx'])))",
        )
        assert took < 2.5 and output.strip().endswith("0")  # (no chunk holds those: none read)
        assert slow_sub.requests == []
        took, output = timed(sandbox, "map_chunks('List every king', must_contain='king')")
        assert took < 2 + 1.5 + 0.5, output  # (ended with the cell, and the calls in flight)
        assert "ran longer than 2 s and was stopped" in output
        assert len(slow_sub.requests) < 30
        assert all(len(r.messages[-1]["content"]) < 40_000 for r in slow_sub.requests)
        refused = sandbox.run("tally([0] * 1_100_000)").render()  # (3 MB: within a frame)
        assert "more than 1,000,000 records" in refused


def test_a_search_for_a_huge_number_of_sections_is_bounded(macbeth):
    """search() reads each hit's text for its snippet: model code asking for a billion hits gets
    at most a hundred, and reads the text of ten."""
    with Sandbox(macbeth.functions(), cell_timeout=5) as sandbox:
        took, output = timed(
            sandbox,
            "hits = search('king thane blood', k=10**9)\n"
            "print(len(hits), sum(1 for h in hits if h['snippet']))",
        )
    hits, with_snippet = map(int, output.split())
    assert 0 < hits <= 100 and with_snippet <= 10 and took < 5


def test_a_backtracking_pattern_ends_by_wall_time_on_a_busy_machine():
    burners = [  # every core kept busy by other processes, as on a loaded server
        subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(3)
    ]
    try:
        pattern = compile_search(r"(?=(x+x+)+y)")  # lookaround: the backtracking engine
        for limit in (1.0, 2.0):
            started = time.monotonic()
            with deadline.until(started + limit), pytest.raises(deadline.DeadlineExceeded):
                list(pattern.finditer("x" * 5_000))
            assert time.monotonic() - started < limit + 0.5  # wall time, not CPU time
        assert [m[2] for m in pattern.finditer("xxy")] == [""]  # (a fresh helper answers)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


def test_references_and_follow_bound_what_model_code_passes_them(macbeth, corpus):
    from longread.errors import LongreadError

    huge = "see Related documents " * 400_000  # (9 MB: a reference no document writes)
    started = time.monotonic()
    for reference in (huge, {"text": huge}):
        with pytest.raises(LongreadError, match="at most"):
            macbeth.follow(reference)
    assert time.monotonic() - started < 1.0
    with pytest.raises(LongreadError, match="takes a reference"):
        macbeth.follow(12345)
    with pytest.raises(KeyError, match="no section"):
        macbeth.references("no such section " * 1_000)
    with pytest.raises(LongreadError, match="name the document"):
        corpus.follow("Trademarks")
    assert len(macbeth.references()) <= 500
