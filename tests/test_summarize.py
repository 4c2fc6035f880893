"""Section summaries: one call per section, keywords without calls, and a killed build resumed."""

from __future__ import annotations

import pytest

from longread.index.enrich.summaries import clean_summary, section_keywords, summarize_sections
from longread.index.single import SingleDocIndex
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.store.docstore import DocStore

DOC = "\n\n".join(
    f"# Chapter {i}\n\n" + (f"The {word} appears often. " * 20)
    for i, word in enumerate(["lighthouse", "orchard", "glacier", "foundry", "harbour"], 1)
)


@pytest.fixture
def index(tmp_path):
    path = tmp_path / "book.md"
    path.write_text(DOC, encoding="utf-8")
    return SingleDocIndex.build(path, DocStore(tmp_path / "i.sqlite"))


def summary_of(request) -> str:
    return "Summary of " + request.messages[-1]["content"].split("Section: ")[1].split("\n")[0]


def test_every_section_is_summarized_once_with_keywords(index):
    sub = ScriptedLM(summary_of, latency=0.05)
    gateway = Gateway(concurrency=4)
    assert summarize_sections(index, sub, gateway) == len(index.rows)
    assert len(sub.requests) == len(index.rows)
    assert index.summaries["Chapter 3"] == "Summary of Chapter 3"
    assert "glacier" in index.keywords["Chapter 3"] and "orchard" not in index.keywords["Chapter 3"]
    assert summarize_sections(index, sub, gateway) == 0 and len(sub.requests) == len(index.rows)


def test_a_killed_build_resumes_without_paying_twice(index, tmp_path):
    calls = {"n": 0}

    def dies_after_three(request):
        calls["n"] += 1
        if calls["n"] > 3:
            raise KeyboardInterrupt("killed")
        return summary_of(request)

    with pytest.raises(KeyboardInterrupt):
        summarize_sections(index, ScriptedLM(dies_after_three), Gateway(concurrency=1))
    saved = len(index.summaries)
    assert saved == 3
    reopened = SingleDocIndex.open(DocStore(tmp_path / "i.sqlite"), index.store_id)
    again = ScriptedLM(summary_of)
    summarize_sections(reopened, again, Gateway(concurrency=2))
    assert len(again.requests) == len(index.rows) - saved
    assert len(reopened.summaries) == len(index.rows)


def test_keywords_are_distinctive():
    words = section_keywords(
        ["apples apples pears common", "plums plums common", "common figs"], k=1
    )
    assert words == [["apple"], ["plum"], ["fig"]]


@pytest.mark.parametrize(
    "reply",
    [
        "",
        "ספקקקקקקקקקקקקקקק",
        "He was told to destroy them, and to destroy them, and to destroy them, "
        "and to destroy them",
    ],
)
def test_a_derailed_summary_gives_way_to_the_opening_of_the_text(reply):
    source = "Est3:15 The posts went out, being hastened by the king's commandment. " * 8
    lead = clean_summary(reply, source)
    assert (
        lead.startswith("Est3:15 The posts went out")
        and lead.endswith("commandment.")
        and len(lead) <= 300
    )
    assert (
        clean_summary("Haman plots against the Jews; Esther pleads.", source)
        == "Haman plots against the Jews; Esther pleads."
    )
