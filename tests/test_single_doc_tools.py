"""The document REPL functions over an indexed document."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from longread.index.single import SingleDocIndex
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.store.docstore import DocStore
from longread.tools.single_doc import SingleDocTools

MACBETH = Path(__file__).resolve().parents[1] / "examples" / "macbeth.md"
TEXT = MACBETH.read_text(encoding="utf-8")


@pytest.fixture
def tools(tmp_path):
    index = SingleDocIndex.build(MACBETH, DocStore(tmp_path / "i.sqlite", block_chars=997))
    sub = ScriptedLM(lambda request: "sub: " + request.messages[-1]["content"][:60])
    return SingleDocTools(index, sub, Gateway())


def test_grep_all_streams_blocks_and_finds_every_match_with_offsets(tools):
    pattern = r"birnam\s+wood"
    expected = [(m.start(), m.end()) for m in re.finditer(pattern, TEXT, re.IGNORECASE)]
    found = tools.grep_all(pattern)
    hits = sorted((h["start"], h["end"]) for hits in found.values() for h in hits)
    assert hits == expected and len(expected) >= 5
    for section, section_hits in found.items():
        start, end = tools.index.section_map[section]
        assert all(start <= h["start"] < end for h in section_hits)
        assert all(TEXT[h["start"] : h["end"]] == h["match"] for h in section_hits)


def test_reading_functions(tools):
    names = tools.get_section_names()
    scene = next(n for n in names if n.startswith("SCENE III. A heath"))
    start, end = tools.index.section_map[scene]
    assert tools.read_section(scene) == TEXT[start:end]
    assert tools.read_section_chunk(scene, 1, chunk_size=500) == TEXT[start + 500 : start + 1000]
    assert tools.read_section_chunk(scene, 999) == ""
    assert tools.read_range(100, 160) == TEXT[100:160]
    assert [h["match"].lower() for h in tools.grep_section(r"thane of cawdor", scene)][:1] == [
        "thane of cawdor"
    ]
    assert tools.get_toc()["sections"][0]["title"] == "Macbeth"
    with pytest.raises(KeyError, match="did you mean"):
        tools.read_section("heath near")


def test_summaries_keywords_and_search(tools):
    names = tools.get_section_names()
    target = names[4]
    tools.index.store.summaries.put(
        tools.index.rows[4].id, "Witches greet Macbeth.", ["witches", "cawdor"], "t"
    )
    assert tools.get_summary(target) == "Witches greet Macbeth."
    assert tools.get_summary(names[5]) == "No summary available"
    assert tools.find_sections_by_keyword("Witch") == [target]
    best = tools.search("Birnam wood Dunsinane", k=3)
    assert len(best) == 3 and all(
        "Birnam" in TEXT[b["start"] : b["end"]] or "Dunsinane" in TEXT[b["start"] : b["end"]]
        for b in best
    )
    first = best[0]["snippet"]  # (the best sentence of the section's own text, shown with it)
    assert ("Birnam" in first or "Dunsinane" in first) and len(first) <= 300
    assert " ".join(first.split()[:4]) in " ".join(TEXT[best[0]["start"] : best[0]["end"]].split())


def test_sub_model_functions(tools):
    name = tools.get_section_names()[2]
    assert tools.ask_about_section("Who speaks first?", name).startswith(
        "sub: Answer this question"
    )
    assert tools.llm_query("hello") == "sub: hello"
    assert set(tools.functions()) >= {"get_toc", "grep_all", "ask_about_section", "search"}


def test_literal_grep_fast_path_matches_the_regex_everywhere(tools):
    for literal in ["Macduff", "thane of", "DUNSINANE", "no-such-phrase-anywhere"]:
        expected = [m.start() for m in re.finditer(re.escape(literal), TEXT, re.IGNORECASE)]
        found = sorted(
            h["start"] for hits in tools.grep_all(literal, max_hits=10_000).values() for h in hits
        )
        assert found == expected


def test_answering_reads_only_the_sections_it_needs(tmp_path, monkeypatch):
    """A tool asked about one section of a huge document must not load all of them: the brief,
    search, citing, grep and section reads go to the store a few rows at a time."""
    store = DocStore(tmp_path / "i.sqlite")
    store_id = SingleDocIndex.build(MACBETH, store).store_id
    store.search.build(store_id)  # (built once, as `index` and `ask` do before answering)

    def every_section(*args):
        raise AssertionError("all sections were loaded")

    monkeypatch.setattr(store.sections, "all", every_section)
    tools = SingleDocTools(SingleDocIndex.build(MACBETH, store), ScriptedLM([]), Gateway())
    brief = tools.brief("Who is the thane of Cawdor?")
    assert "ACT I" in brief.intro and f"{tools.index.section_count} sections" in brief.intro
    hit = tools.search("thane of Cawdor", k=1)[0]
    assert tools.read_section(hit["section"]) == TEXT[hit["start"] : hit["end"]]
    found = tools.grep_all("Birnam")
    assert found and all(
        TEXT[h["start"] : h["end"]].lower() == "birnam" for hits in found.values() for h in hits
    )
    assert tools.cite("Macbeth is thane of Cawdor", "Who is the thane of Cawdor?")
    assert len(tools.get_section_names()) == tools.index.section_count


PATTERNS = [
    r" Porter\.",
    r" Seyt\w+",
    r" Seyton, ",
    r"\. Knock, knock",
    "thane of Cawdor",
    r"\. Exeunt\.",
]


@pytest.mark.parametrize("pattern", PATTERNS)
def test_grep_reads_only_around_the_sections_holding_a_rare_word(tools, pattern):
    """A pattern that spells out a rare word (whole, or its start) is looked for only around the
    sections the full-text index says hold it, and finds exactly what a scan of the whole text
    finds."""
    tools.index.store.search.build(tools.index.store_id)
    expected = [(m.start(), m.end()) for m in re.finditer(pattern, TEXT, re.IGNORECASE)]
    read: list[tuple[int, int | None]] = []
    every_block = tools.store.documents.iter_blocks

    def recorded(store_id, start=0, end=None):
        read.append((start, end))
        return every_block(store_id, start, end)

    tools.store.documents.iter_blocks = recorded
    found = tools.grep_all(pattern, max_hits=1_000)
    assert sorted((h["start"], h["end"]) for hits in found.values() for h in hits) == expected
    whole_text = (0, len(TEXT))
    if pattern in PATTERNS[:3]:  # a word of three sections at most: not read whole
        assert whole_text not in read and read


def test_the_outline_in_the_brief_shows_the_levels_that_fit(tools):
    lines = tools._outline_summary(max_lines=8).splitlines()
    assert lines == [
        "Macbeth",
        "  ACT I",
        "  SCENE I. A desert place.",
        "  ACT II",
        "  ACT III",
        "  ACT IV",
        "  ACT V",
        f"… {tools.index.section_count - 7} more sections",
    ]
    assert len(tools._outline_summary(max_lines=60).splitlines()) == tools.index.section_count
