"""The summary tree in use: documents without headings take their sections from the smart chunks,
structured ones get a tree over their sections, the REPL's tree tools, the MemWalker-style `tree`
walk with backtracking, a resumed tree build, and `longread tree` (scripted models throughout)."""

from __future__ import annotations

import itertools
import subprocess
import sys

import pytest

from longread.api import SingleDocRLM
from longread.errors import LongreadError
from longread.index.enrich.summary_tree import build_tree
from longread.index.tree import TreeOptions
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.strategies import modes
from longread.strategies.common import Run, RunOptions

FACT = "The lighthouse keeper was paid in salted herring every second Tuesday."
QUESTION = "How was the lighthouse keeper paid?"


def story(paragraphs: int = 40, fact_at: int = 33) -> str:
    """Prose without headings; the fact sits in a late paragraph."""
    lines = []
    for k in range(paragraphs):
        lines.append(
            f"On day {k} the boats went out past the cliffs and the nets came back full of cod. "
            f"The village counted the catch {k} times before the evening bell rang."
        )
        if k == fact_at:
            lines.append(FACT)
    return "\n\n".join(lines) + "\n"


def summarizer(request) -> str:
    prompt = request.messages[-1]["content"]
    return "About herring pay." if "herring" in prompt else "About boats and cod."


def reads_the_fact(request) -> str:
    prompt = request.messages[-1]["content"]
    return "He was paid in salted herring every second Tuesday." if "herring" in prompt else "NONE"


@pytest.fixture
def unstructured(tmp_path):
    path = tmp_path / "story.txt"
    path.write_text(story(), encoding="utf-8")
    return path


def built(path, tmp_path, sub=None, **tree):
    sub = sub or ScriptedLM(summarizer, writes_code=False)
    rlm = SingleDocRLM(path, sub, sub, cache=False, store_path=tmp_path / "index.sqlite")
    rlm.build_index(tree=TreeOptions(target_chunk_tokens=100, group_size=3, **tree))
    return rlm


def test_a_document_without_headings_takes_its_sections_from_the_smart_chunks(
    unstructured, tmp_path
):
    rlm = built(unstructured, tmp_path)
    index, store = rlm.index, rlm.store
    chunks = store.summaries.chunks(index.store_id)
    assert len(chunks) > 5 and not index.structured
    assert [(r.start, r.end) for r in index.rows] == list(
        zip(
            [c.start for c in chunks],
            [c.start for c in chunks[1:]] + [index.total_chars],
            strict=True,
        )
    )
    assert index.names[0] == "Part 1" and len(index.summaries) == len(chunks)
    herring = [name for name, summary in index.summaries.items() if summary == "About herring pay."]
    assert (
        herring and FACT in rlm.tools(run_of(rlm)).read_section(herring[0]) + FACT
    )  # the fact's chunk
    hits = store.search.sections_matching(index.store_id, "salted herring", 3)
    assert hits and index.read_range(
        *next((r.start, r.end) for r in index.rows if r.id == hits[0][0])
    ).count("herring")


def run_of(rlm, root=None, sub=None):
    return Run(root or rlm.root, sub or rlm.sub, Gateway(), RunOptions())


def test_tree_tools_in_the_repl(unstructured, tmp_path):
    rlm = built(unstructured, tmp_path)
    tools = rlm.tools(run_of(rlm))
    functions = tools.functions()
    root = functions["get_tree"](1)
    assert root["start"] == 0 and root["end"] == rlm.index.total_chars and root["level"] >= 2
    assert functions["get_root_summary"]() == root["summary"]
    children = functions["get_children"](root["id"])
    assert [c["id"] for c in children] == [c["id"] for c in root["children"]] and 2 <= len(
        children
    ) <= 3
    assert children[0]["start"] == 0 and children[-1]["end"] == root["end"]
    leaf = root
    while leaf["children"]:
        leaf = functions["get_children"](leaf["id"])[-1]
    assert functions["get_children"](leaf["id"]) == [] and leaf["level"] == 0
    assert functions["get_node"](leaf["id"]) == leaf
    text = unstructured.read_text(encoding="utf-8")
    assert functions["read_node"](leaf["id"]) == text[leaf["start"] : leaf["end"]]
    with pytest.raises(KeyError, match="no node"):
        functions["get_node"](10**9)
    assert tools.touched


def test_tree_tools_explain_a_missing_tree(unstructured, tmp_path):
    rlm = SingleDocRLM(unstructured, ScriptedLM([]), cache=False, store_path=tmp_path / "i.sqlite")
    with pytest.raises(LongreadError, match="no summary tree"):
        rlm.tools(run_of(rlm)).get_root_summary()


def test_the_walk_backtracks_from_an_empty_branch_and_cites_the_fact(unstructured, tmp_path):
    rlm = built(unstructured, tmp_path)

    def root(request):  # a capable root that always picks the first part, then joins findings
        prompt = request.messages[-1]["content"]
        return "1" if "Which part" in prompt else "He was paid in salted herring [1]."

    sub = ScriptedLM(reads_the_fact, writes_code=False)
    answer = modes.answer(
        QUESTION,
        rlm.tools(run_of(rlm, sub=sub)),
        run_of(rlm, ScriptedLM(root, writes_code=True), sub),
        mode="tree",
    )
    assert answer.mode == "tree" and "herring" in answer.text
    assert answer.stats["backtracks"] >= 1 and answer.stats["leaves_read"] >= 2
    text = unstructured.read_text(encoding="utf-8")
    assert any(c.text == text[c.start : c.end] and "herring" in c.text for c in answer.citations)


def test_a_weak_root_follows_search_first_and_reads_one_leaf(unstructured, tmp_path):
    rlm = built(unstructured, tmp_path)
    sub = ScriptedLM(reads_the_fact, writes_code=False)
    weak_root = ScriptedLM(lambda request: "3", writes_code=False)
    answer = modes.answer(
        QUESTION, rlm.tools(run_of(rlm, sub=sub)), run_of(rlm, weak_root, sub), mode="tree"
    )
    assert answer.stats["leaves_read"] == 1 and answer.stats["backtracks"] == 0
    assert "herring" in answer.text and answer.citations


def test_a_structured_document_gets_a_tree_over_its_sections(tmp_path):
    path = tmp_path / "manual.md"
    path.write_text(
        "".join(f"# Chapter {k}\n\nText of chapter {k} about topic {k}.\n\n" for k in range(1, 8)),
        encoding="utf-8",
    )
    rlm = built(path, tmp_path)
    nodes = rlm.store.summaries.nodes(rlm.index.store_id)
    leaves = [n for n in nodes if n.level == 0]
    assert len(leaves) == len(rlm.index.rows) == 7 and all(n.chunk_id is None for n in leaves)
    assert leaves[2].summary.startswith("Chapter 3: ")
    assert [n.level for n in nodes].count(1) == 3 and max(n.level for n in nodes) == 2
    assert rlm.store.summaries.chunks(rlm.index.store_id) == []
    smart = built(path, tmp_path, smart_chunks=True)  # same store: the tree over sections gives way
    assert all(
        n.chunk_id is not None
        for n in smart.store.summaries.nodes(smart.index.store_id)
        if n.level == 0
    )
    assert [r.title for r in smart.index.rows][:2] == ["Chapter 1", "Chapter 2"]  # sections stay


def test_an_interrupted_tree_build_resumes_without_resummarizing(unstructured, tmp_path):
    asked: list[str] = []

    def flaky(request):
        prompt = request.messages[-1]["content"]
        asked.append(prompt)
        if "consecutive parts" in prompt and sum("consecutive parts" in p for p in asked) == 4:
            raise RuntimeError("the model went away")
        return f"Summary {len(asked)}."

    lm = ScriptedLM(flaky, writes_code=False)
    rlm = SingleDocRLM(unstructured, lm, lm, cache=False, store_path=tmp_path / "i.sqlite")
    options = TreeOptions(target_chunk_tokens=100, group_size=2)
    with pytest.raises(RuntimeError):
        rlm.build_index(gateway=Gateway(concurrency=2), tree=options)
    doc_id = rlm.index.store_id
    assert (
        sum(n.level > 0 for n in rlm.store.summaries.nodes(doc_id)) >= 3
    )  # what was paid for is kept
    rlm.build_index(gateway=Gateway(concurrency=2), tree=options)
    nodes = rlm.store.summaries.nodes(doc_id)
    groups = [p for p in asked if "consecutive parts" in p]
    assert len(groups) == len(set(groups)) + 1  # only the failed request was asked again
    assert len(groups) - 1 == sum(n.level > 0 for n in nodes if len(children(nodes, n)) > 1)
    chunk_calls = [p for p in asked if "consecutive parts" not in p]
    assert len(chunk_calls) == len(rlm.store.summaries.chunks(doc_id))  # no chunk summarized twice
    assert build_tree(rlm.store, doc_id, lm, Gateway(), group_size=2).level == max(
        n.level for n in nodes
    )


def children(nodes, node):
    return [n for n in nodes if n.parent_id == node.id]


def test_longread_tree_prints_the_tree_root_first(unstructured, tmp_path):
    sub = ScriptedLM(summarizer, writes_code=False)
    rlm = SingleDocRLM(unstructured, sub, sub, cache=False)
    rlm.build_index(tree=TreeOptions(target_chunk_tokens=100))
    result = subprocess.run(
        [sys.executable, "-m", "longread.cli", "tree", str(unstructured)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("level 2") and "About" in result.stdout
    depths = [len(line) - len(line.lstrip()) for line in lines]
    assert (
        depths[0] == 0
        and max(depths) == 4
        and all(b - a <= 2 for a, b in itertools.pairwise(depths))
    )
    levels = [int(line.split()[1]) for line in lines]
    assert all(level == 2 - depth // 2 for level, depth in zip(levels, depths, strict=True))
    assert (
        levels.count(0) == len(rlm.store.summaries.chunks(rlm.index.store_id))
        and levels.count(2) == 1
    )
    shallow = subprocess.run(
        [sys.executable, "-m", "longread.cli", "tree", str(unstructured), "--depth", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert [int(line.split()[1]) for line in shallow.stdout.splitlines()] == [2] + [
        1
    ] * levels.count(1)


def test_longread_tree_without_a_tree_says_how_to_build_one(unstructured):
    result = subprocess.run(
        [sys.executable, "-m", "longread.cli", "tree", str(unstructured)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0 and "Traceback" not in result.stderr
    assert "no summary tree" in result.stderr and f"longread index {unstructured}" in result.stderr


def test_the_rlm_brief_shows_the_root_summary_and_the_tree_tools(unstructured, tmp_path):
    rlm = built(unstructured, tmp_path)
    brief = rlm.tools(run_of(rlm)).brief(QUESTION)
    root = rlm.tools(run_of(rlm)).get_tree(0)
    assert (
        f"SUMMARY TREE: {root['level'] + 1} levels" in brief.intro
        and root["summary"] in brief.intro
        and "get_children(node_id)" in brief.intro
    )
    plain = SingleDocRLM(
        unstructured, ScriptedLM([]), cache=False, store_path=tmp_path / "plain.sqlite"
    )
    assert "SUMMARY TREE" not in plain.tools(run_of(plain)).brief(QUESTION).intro


def test_a_tree_built_with_another_group_size_is_regrouped(unstructured, tmp_path):
    rlm = built(unstructured, tmp_path)  # group size 3
    store, doc_id = rlm.store, rlm.index.store_id
    lm = ScriptedLM(lambda request: "Regrouped.", writes_code=False)
    root = build_tree(store, doc_id, lm, Gateway(), group_size=5)
    nodes = store.summaries.nodes(doc_id)
    leaves = sum(n.level == 0 for n in nodes)
    assert sum(n.level == 1 for n in nodes) == -(-leaves // 5) and root.summary == "Regrouped."
    assert (
        all(len(children(nodes, n)) <= 5 for n in nodes)
        and sum(n.parent_id is None for n in nodes) == 1
    )


def test_a_stopped_smart_chunking_is_resumed_not_taken_for_a_whole_tree(tmp_path):
    path = tmp_path / "manual.md"
    path.write_text(
        "".join(f"# Chapter {k}\n\n{story(6, 99)}\n" for k in range(1, 5)), encoding="utf-8"
    )
    calls = {"n": 0}

    def dies_at_the_fourth_chunk(request):
        calls["n"] += 1
        if calls["n"] == 4:
            raise RuntimeError("killed")
        return "A summary."

    lm = ScriptedLM(dies_at_the_fourth_chunk, writes_code=False)
    rlm = SingleDocRLM(path, lm, lm, cache=False, store_path=tmp_path / "i.sqlite")
    with pytest.raises(RuntimeError):
        rlm.build_index(tree=TreeOptions(smart_chunks=True, target_chunk_tokens=100))
    assert (
        rlm.tools(run_of(rlm)).summary_tree is None
    )  # three chunks are not a tree of the document
    rlm.build_index(tree=TreeOptions(target_chunk_tokens=100))  # no --smart-chunks: the cut goes on
    chunks = rlm.store.summaries.chunks(rlm.index.store_id)
    assert chunks[-1].end == rlm.index.total_chars
    assert rlm.tools(run_of(rlm)).get_tree(0)["end"] == rlm.index.total_chars
