"""The smart chunker and the summary tree, driven by scripted models that answer well, badly or not
at all: level 0 always covers the text, every step makes progress, and a killed run resumes
without paying for a chunk twice."""

from __future__ import annotations

import itertools
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from longread.index.enrich.smart_chunks import SmartChunker, boundaries, check_cut, rule_cut, snap
from longread.index.enrich.summary_tree import build_tree, tree_calls
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.llm.types import Request
from longread.store.docstore import DocStore

MARK = re.compile(r"«(\d+)»")
BAD_REPLIES = [
    '{"cut": -40, "next_start": -50, "summary": "negative"}',
    '{"cut": 99999999, "next_start": 99999990, "summary": "beyond the buffer"}',
    '{"cut": 0, "next_start": -3, "summary": "before the cursor"}',
    '{"cut": 10, "next_start": 5, "summary": "a cut too early"}',
    "I think the best place to cut is after the second paragraph.",
    '{"cut": "end", "next_start": "soon", "summary": "strings"}',
    '{"cut": 190, "next_start": 180}',
    "",
]
BAD_NEXT_STARTS = [
    '{"cut": 190, "next_start": 1, "summary": "an overlap that would make no progress"}',
    '{"cut": 190, "next_start": 195, "summary": "next start after the cut"}',
    '{"cut": 190, "next_start": -7, "summary": "next start before the cursor"}',
]


def good_reply(request: Request) -> str:
    """A well-behaved chunker answer: cut at the middle mark shown, no overlap."""
    marks = MARK.findall(request.messages[-1]["content"])
    cut = int(marks[len(marks) // 2])
    return json.dumps({"cut": cut, "next_start": cut, "summary": f"Part ending at {cut}."})


def chunker_lm(cut_replies) -> ScriptedLM:
    """Answers cut requests (they carry a JSON schema) from `cut_replies`, summaries with a line."""
    replies = iter(cut_replies)

    def respond(request: Request) -> str:
        if request.json_schema is None:
            return "Summary: " + " ".join(request.messages[-1]["content"].split()[-6:])
        reply = next(replies)
        return reply(request) if callable(reply) else reply

    return ScriptedLM(respond, writes_code=True)


def stored(tmp_path: Path, text: str) -> tuple[DocStore, int]:
    store = DocStore(tmp_path / "index.db")
    return store, store.documents.add("doc.txt", "text", text, structured=False)


def assert_covers(store: DocStore, doc_id: int, total: int) -> None:
    """Chunks start where the previous one said the next starts, never end before it, make progress
    and end at the end of the text: every character lies in a chunk, twice only in an overlap."""
    chunks = store.summaries.chunks(doc_id)
    assert chunks[0].start == 0 and chunks[-1].end == total
    for before, after in itertools.pairwise(chunks):
        assert after.start == before.next_start
        assert before.start < before.next_start <= before.end
    covered = [0] * total
    for chunk in chunks:
        for i in range(chunk.start, chunk.end):
            covered[i] += 1
    overlaps = {i for b in chunks[:-1] for i in range(b.next_start, b.end)}
    assert all(count == 1 or (count == 2 and i in overlaps) for i, count in enumerate(covered))
    level0 = [n for n in store.summaries.nodes(doc_id) if n.level == 0]
    assert [(n.start, n.end, n.chunk_id) for n in level0] == [
        (c.start, c.end, c.id) for c in chunks
    ]


def prose(paragraphs: int, seed: int = 0) -> str:
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel"]
    out = []
    for p in range(paragraphs):
        sentences = [
            " ".join(words[(p + s + k + seed) % 8] for k in range(5 + (s * 3 + p) % 7)).capitalize()
            + "."
            for s in range(2 + (p + seed) % 4)
        ]
        out.append(" ".join(sentences))
    return "\n\n".join(out)


def test_boundaries_snap_and_rule_cut():
    text = "One two. Three four.\nFive six\n\nSeven eight. Nine"
    marks = boundaries(text)
    assert [(text[m : m + 5], s) for m, s in marks] == [
        ("Three", 0),
        ("Five ", 1),
        ("Seven", 2),
        ("Nine", 0),
    ]
    assert snap(23, marks, 0, len(text)) == marks[1][0]
    assert snap(5, [], 0, 10) == 5
    assert rule_cut(text, marks) == text.index("Nine")  # the last quarter holds only a sentence end
    assert rule_cut("x" * 40, []) == 40


@pytest.mark.parametrize("reply", [json.loads(r) if r.startswith("{") else r for r in BAD_REPLIES])
def test_every_bad_answer_is_refused_with_a_reason(reply):
    buffer = prose(4)
    with pytest.raises(ValueError):
        check_cut(reply, buffer, boundaries(buffer))


@pytest.mark.parametrize("reply", [json.loads(r) for r in BAD_NEXT_STARTS])
def test_a_bad_next_start_alone_keeps_the_cut_and_summary(reply):
    buffer = prose(4)[:240]
    marks = boundaries(buffer)
    cut, next_start, summary = check_cut(reply, buffer, marks)
    assert (
        next_start is None and cut in {m for m, _ in marks} | {190} and summary == reply["summary"]
    )


def test_bad_cut_points_fall_back_to_boundaries_and_still_cover_the_text(tmp_path):
    text = prose(60)
    store, doc_id = stored(tmp_path, text)
    lm = chunker_lm(itertools.cycle(BAD_REPLIES + BAD_NEXT_STARTS + [good_reply]))
    report = SmartChunker(store, doc_id, lm, Gateway(), target_chunk_tokens=60).run()
    assert_covers(store, doc_id, len(text))
    assert report.rule_cuts >= 10 and report.model_cuts >= 4
    bad_next = sum(reason.startswith("next_start") for reason in report.refused)
    assert bad_next >= 3 and len(report.refused) == report.rule_cuts + bad_next
    assert report.chunks == len(store.summaries.chunks(doc_id))
    chunks = store.summaries.chunks(doc_id)
    inner = [c.end for c in chunks[:-1] if c.cut_by == "rule"]
    assert all(
        text[cut - 1] in " \n" or text[cut - 2] == "." for cut in inner
    )  # cuts at boundaries
    root = build_tree(store, doc_id, lm, Gateway(), group_size=3)
    assert root is not None and (root.start, root.end) == (0, len(text))


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    paragraphs=st.integers(1, 40),
    seed=st.integers(0, 7),
    target=st.integers(50, 120),
    replies=st.lists(
        st.sampled_from(BAD_REPLIES + BAD_NEXT_STARTS + [good_reply]), min_size=1, max_size=12
    ),
    group_size=st.integers(2, 6),
)
def test_any_mix_of_answers_terminates_and_covers_every_character(
    tmp_path_factory, paragraphs, seed, target, replies, group_size
):
    text = prose(paragraphs, seed)
    store, doc_id = stored(tmp_path_factory.mktemp("doc"), text)
    lm = chunker_lm(itertools.cycle(replies))
    SmartChunker(store, doc_id, lm, Gateway(), target_chunk_tokens=target).run()
    assert_covers(store, doc_id, len(text))
    leaves = len(store.summaries.chunks(doc_id))
    root = build_tree(store, doc_id, lm, Gateway(), group_size=group_size)
    nodes = store.summaries.nodes(doc_id)
    assert (root.start, root.end) == (0, len(text)) and root.parent_id is None
    assert sum(n.parent_id is None for n in nodes) == 1
    for level in range(1, root.level + 1):  # each level groups the one below, in order
        below = [n for n in nodes if n.level == level - 1]
        for node in (n for n in nodes if n.level == level):
            children = [c for c in below if c.parent_id == node.id]
            assert 1 <= len(children) <= group_size and children[0].start == node.start
    calls = sum(1 for r in lm.requests if "consecutive parts" in r.messages[-1]["content"])
    assert calls <= tree_calls(leaves, group_size)


def test_a_small_model_is_not_asked_for_cuts_and_sees_only_its_chunk(tmp_path):
    text = prose(30)
    store, doc_id = stored(tmp_path, text)
    lm = ScriptedLM(lambda request: "A summary.", writes_code=False)
    report = SmartChunker(store, doc_id, lm, Gateway(), target_chunk_tokens=80).run()
    chunks = store.summaries.chunks(doc_id)
    assert report.model_cuts == 0 and all(r.json_schema is None for r in lm.requests)
    assert len(lm.requests) == len(chunks)
    for request, chunk in zip(lm.requests, chunks, strict=True):  # exactly [cursor, cut)
        assert text[chunk.start : chunk.end] in request.messages[-1]["content"]
    shown = sum(len(r.messages[-1]["content"]) for r in lm.requests)
    assert shown < 1.3 * len(text) + 300 * len(chunks)


def test_input_tokens_stay_near_the_documents_own(tmp_path):
    text = prose(400)
    store, doc_id = stored(tmp_path, text)
    gateway = Gateway()
    lm = chunker_lm(itertools.repeat(good_reply))
    SmartChunker(store, doc_id, lm, gateway, target_chunk_tokens=1_500).run()
    assert gateway.usage.total("input_tokens") <= 1.3 * lm.count_tokens(text)


KILLED_RUN = """
import sys, time
from longread.index.enrich.smart_chunks import SmartChunker
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.store.docstore import DocStore

def respond(request):
    with open(sys.argv[2], "a") as log:
        log.write(request.messages[-1]["content"][-60:].replace("\\n", " ") + "\\n")
    time.sleep(0.15)
    return "A summary."

store = DocStore(sys.argv[1])
SmartChunker(store, 1, ScriptedLM(respond, writes_code=False), Gateway(), \
target_chunk_tokens=60).run()
"""


def test_a_killed_run_resumes_without_paying_for_a_chunk_twice(tmp_path):
    text = prose(80)
    store, doc_id = stored(tmp_path, text)
    store.close()
    log = tmp_path / "calls.log"
    child = subprocess.Popen(
        [sys.executable, "-c", KILLED_RUN, str(tmp_path / "index.db"), str(log)]
    )
    deadline = time.monotonic() + 60
    while (
        not log.exists() or len(log.read_text().splitlines()) < 6
    ) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(child.pid, signal.SIGKILL)
    child.wait()
    store = DocStore(tmp_path / "index.db")
    saved = len(store.summaries.chunks(doc_id))
    assert 3 <= saved < 40
    lm = ScriptedLM(lambda request: "A summary.", writes_code=False)
    SmartChunker(store, doc_id, lm, Gateway(), target_chunk_tokens=60).run()
    assert_covers(store, doc_id, len(text))
    first_run = log.read_text().splitlines()
    assert (
        len(lm.requests) == len(store.summaries.chunks(doc_id)) - saved
    )  # the resumed run asks only for new chunks
    assert len(first_run) - saved <= 1  # at most the call that was under way when the kill came


def test_a_cut_between_boundaries_snaps_and_keeps_its_overlap_within_the_chunk():
    buffer = prose(6)
    marks = boundaries(buffer)
    end = len(buffer)
    cut, next_start, summary = check_cut(
        {"cut": end, "next_start": end, "summary": "All of it."}, buffer, marks
    )
    assert cut == max(m for m, _ in marks) and next_start == cut and summary == "All of it."
    near = marks[-1][0]
    cut, next_start, _ = check_cut(
        {"cut": near + 3, "next_start": near - 20, "summary": "Most of it."}, buffer, marks
    )
    assert (
        cut == near and 0 < next_start <= cut and next_start in {m for m, _ in marks} | {near - 20}
    )
