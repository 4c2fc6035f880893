"""The corpus REPL functions and the metadata a sub-model reads (checked, with
the rules filling in)."""

from __future__ import annotations

import json

import pytest

from corpus_fixtures import ARTICLES, built, write_corpus
from longread.index.enrich.llm_metadata import llm_meta
from longread.ingest.metadata import find_dates, rule_meta
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.tools.corpus import CorpusTools


@pytest.fixture
def tools(tmp_path):
    index = built(write_corpus(tmp_path / "corpus"), tmp_path / "c.sqlite")
    return CorpusTools(index, ScriptedLM(lambda r: "NONE"), Gateway(concurrency=4))


def test_every_corpus_function_is_exposed_with_its_name():
    expected = {
        "list_documents",
        "get_doc_meta",
        "get_doc_summary",
        "get_all_summaries",
        "search_by_keyword",
        "search_by_entity",
        "search_by_keywords",
        "grep_corpus",
        "rank_documents",
        "read_document",
        "read_document_chunk",
        "grep_document",
        "get_doc_toc",
        "get_doc_sections",
        "read_doc_section",
        "llm_query",
        "ask_about_document",
        "ask_across_documents",
    }
    assert expected <= set(CorpusTools.TOOL_NAMES + CorpusTools.CORE_NAMES)


def test_navigation(tools):
    assert (
        tools.list_documents() == sorted(ARTICLES)
        and tools.list_documents(2) == sorted(ARTICLES)[:2]
    )
    meta = tools.get_doc_meta("reports/merger.md")
    assert meta["title"] == "Merger Announcement" and meta["date"] == "2024-10-12"
    assert "Globex Industries" in meta["entities"]
    assert tools.get_doc_summary("notes/garden.txt").startswith("Tomatoes need sun")
    assert set(tools.get_all_summaries()) == set(ARTICLES)
    with pytest.raises(KeyError, match="no document 'nope.md'"):
        tools.get_doc_meta("nope.md")


def test_index_searches(tools):
    assert tools.search_by_keyword("Layoffs") == ["reports/layoffs.md"]
    assert tools.search_by_entity("ACME corp") == ["reports/layoffs.md"]
    assert tools.search_by_keywords(["heron", "merger"]) == [
        "news/heron.md",
        "news/log.txt",
        "reports/merger.md",
    ]
    assert tools.search_by_keywords(["heron", "merger"], mode="all") == []
    assert tools.search_by_date("2024-10", "2024-11") == ["reports/layoffs.md", "reports/merger.md"]
    assert tools.search_by_date("March 3, 2024") == ["news/heron.md", "news/log.txt"]
    assert tools.search_by_keyword("zeppelin") == []
    with pytest.raises(ValueError):
        tools.search_by_keywords(["a"], mode="most")


def test_rank_grep_and_links(tools):
    ranked = tools.rank_documents("Who announced layoffs?", top_k=2)
    assert ranked[0][0] == "reports/layoffs.md" and ranked[0][1] > 0 and "Acme Corp" in ranked[0][2]
    hits = tools.grep_corpus(r"leith\s+harbour")
    assert set(hits) == {"news/heron.md", "news/log.txt"}
    first = hits["news/log.txt"][0]
    assert first["line"] == 3 and ARTICLES["news/log.txt"][first["start"] :].startswith(
        "Leith Harbour"
    )
    assert len(tools.grep_corpus("the", max_docs=2)) == 2
    assert tools.grep_document("reports/layoffs.md", "acme corp") == [
        {"match": "Acme Corp", "start": m, "line": 3}
        for m in (
            ARTICLES["reports/layoffs.md"].index("Acme Corp"),
            ARTICLES["reports/layoffs.md"].rindex("Acme Corp"),
        )
    ]
    assert tools.get_links("news/heron.md") == {"references": [], "referenced_by": ["news/log.txt"]}


def test_reads_and_level_two(tools):
    text = ARTICLES["news/heron.md"]
    assert tools.read_document("news/heron.md") == text
    assert tools.read_document_chunk("news/heron.md", 2, 18) == text[2:18]
    assert tools.get_doc_sections("news/heron.md") == ["The Silver Heron"]
    assert tools.get_doc_toc("news/heron.md")["sections"][0]["title"] == "The Silver Heron"
    assert tools.read_doc_section("news/heron.md", "The Silver Heron") == text
    with pytest.raises(KeyError, match="get_doc_sections"):
        tools.read_doc_section("news/heron.md", "Nope")


def test_questions_to_the_sub_model_run_in_parallel(tools):
    import threading
    import time

    active, most, lock = [0], [0], threading.Lock()

    def reply(request) -> str:
        with lock:
            active[0] += 1
            most[0] = max(most[0], active[0])
        time.sleep(0.1)
        with lock:
            active[0] -= 1
        return "Acme Corp." if "Acme" in request.messages[-1]["content"] else "NONE"

    tools.sub = ScriptedLM(reply)
    answers = tools.ask_across_documents("Who announced layoffs?", tools.list_documents())
    assert most[0] >= 2  # several at once, not one after another
    assert answers["reports/layoffs.md"] == "Acme Corp." and answers["notes/garden.txt"] == "NONE"
    assert tools.gateway.usage.subcalls == 5


def test_cite_finds_the_sentence_in_the_right_document(tools):
    citations = tools.cite("Acme Corp announced layoffs of 300 workers.", "Who announced layoffs?")
    assert citations and citations[0].doc_id == "reports/layoffs.md"
    text = ARTICLES["reports/layoffs.md"]
    assert (
        text[citations[0].start : citations[0].end] == citations[0].text
        and "300" in citations[0].text
    )


def test_rules_metadata():
    sample = (
        "Minutes\n=======\n\nAuthor: Jo Park\n\n"
        "On 5 May 2023 the Harbour Board met. The Harbour Board "
        "approved the Dock Plan. Dock repairs start in June 2023 at the North Pier.\n"
    )
    meta = rule_meta(sample, [], "fallback")
    assert (
        meta.title == "Minutes"
        and meta.author == "Jo Park"
        and meta.dates == ["2023-05-05", "2023-06"]
    )
    assert meta.entities[0] == "Harbour Board" and "North Pier" in meta.entities
    assert "harbour" in meta.keywords and "dock" in meta.keywords
    assert rule_meta("just words here\n" * 3, [], "fallback").title == "just words here"
    running_header = "FROB(1)\t\tUser Commands\t\tFROB(1)\n\nNAME\n       frob - make gadgets\n"
    assert rule_meta(running_header, [], "frob").title == "frob"  # its name, not its columns
    assert find_dates("2024-13-01, 2023-02-29, February 31, 2024, 2024-02-29") == ["2024-02-29"]


def test_a_sub_model_reading_is_checked_against_the_text():
    sample = ARTICLES["reports/merger.md"]
    rules = rule_meta(sample, [], "merger")
    reply = {
        "title": "Merger Announcement",
        "summary": "Globex Industries agreed a merger with Initech Systems.",
        "keywords": ["merger", "widget", "blockchain"],
        "entities": ["Globex Industries", "Umbrella Corp"],
        "doc_type": "article",
        "date": "12 October 2024",
        "author": "Invented Person",
    }
    lm = ScriptedLM([json.dumps(reply)], name="scripted:meta")
    meta = llm_meta(sample, [], "merger.md", rules, lm, Gateway(), 2_000)
    assert meta.source == "scripted:meta" and meta.doc_type == "article"
    assert meta.keywords[:2] == ["merger", "widget"] and "blockchain" not in meta.keywords
    assert "Umbrella Corp" not in meta.entities and meta.entities[0] == "Globex Industries"
    assert meta.author == "" and meta.dates[0] == "2024-10-12"


def test_malformed_json_from_the_sub_model_leaves_the_rules_metadata():
    sample = ARTICLES["reports/layoffs.md"]
    rules = rule_meta(sample, [], "layoffs")
    lm = ScriptedLM(["not json at all", '{"title": 3}'], name="scripted:bad")
    meta = llm_meta(sample, [], "layoffs.md", rules, lm, Gateway(), 2_000)
    assert (
        meta.title == rules.title
        and meta.keywords == rules.keywords
        and meta.source == "scripted:bad"
    )
    assert len(lm.requests) == 2  # asked once more after the first bad reply


def test_asking_across_long_documents_indexes_them_on_one_thread(tmp_path):
    folder = tmp_path / "long"
    folder.mkdir()
    for n in range(6):  # each longer than the sub-model's window: each needs its own level-2 index
        parts = "".join(
            f"## Part {k}\n\n" + f"Quay {n} report {k}: nets mended, boats counted. " * 40 + "\n\n"
            for k in range(6)
        )
        (folder / f"report-{n}.md").write_text(
            f"# Report {n}\n\n{parts}Harbour master {n} signs.\n", encoding="utf-8"
        )
    index = built(folder, tmp_path / "long.sqlite")
    sub = ScriptedLM(lambda r: "Signed.", context_window=1_500, latency=0.05)
    tools = CorpusTools(index, sub, Gateway(concurrency=4))
    answers = tools.ask_across_documents("Who signs the report?", tools.list_documents())
    assert answers == {f"report-{n}.md": "Signed." for n in range(6)}
    assert all(
        len(r.messages[-1]["content"]) < 4 * 2_000 for r in sub.requests
    )  # passages, not whole files


def test_short_reads_are_cached_and_long_ones_are_not(tools, monkeypatch):
    from longread.tools import bounds

    reads = []
    store_read = tools.store.documents.read_range
    monkeypatch.setattr(
        tools.store.documents, "read_range", lambda *args: reads.append(args) or store_read(*args)
    )
    monkeypatch.setattr(bounds, "CACHED_READ_CHARS", 50)
    first = tools.read_document_chunk("news/heron.md", 0, 40)
    assert (
        tools.read_document_chunk("news/heron.md", 0, 40) == first == ARTICLES["news/heron.md"][:40]
    )
    assert len(reads) == 1
    whole = tools.read_document("news/heron.md")  # longer than 50 characters: read each time
    assert tools.read_document("news/heron.md") == whole == ARTICLES["news/heron.md"]
    assert len(reads) == 3


def test_grep_corpus_reads_only_documents_holding_a_rare_word_and_finds_what_a_full_pass_finds(
    tmp_path,
):
    articles = {
        f"notes/{i:03}.txt": f"Plain note {i}: the harbour and the wind.\n" for i in range(60)
    }
    articles |= {
        "a.txt": "The Quokka-Zeppelin Treaty was signed.\n",
        "b.txt": "A treatymaker's quokka-x treaty.\n",
        "c.txt": "Not a retreaty, but quokka-y treatyx.\n",
    }
    index = built(write_corpus(tmp_path / "corpus", articles), tmp_path / "c.sqlite")
    tools = CorpusTools(index, ScriptedLM(lambda r: "NONE"), Gateway())
    tools.store.search.build()
    passes: list[str | None] = []  # each pass over every document's text
    every_block = tools.store.catalog.iter_blocks
    tools.store.catalog.iter_blocks = lambda doc_ids=None: passes.append(doc_ids) or every_block()
    read_all = {}
    for pattern in [r"quokka-\w+ treaty", r" treaty\w*", r"-zeppelin ", r"harbour and"]:
        before = len(passes)
        found = tools.grep_corpus(pattern)
        read_all[pattern] = len(passes) > before
        holding = tools.store.search.documents_holding
        tools.store.search.documents_holding = lambda terms: None  # the reference: a pass over all
        try:
            assert found == tools.grep_corpus(pattern), pattern
        finally:
            tools.store.search.documents_holding = holding
    assert set(tools.grep_corpus(r" treaty\w*")) == {"a.txt", "b.txt", "c.txt"}
    # only the pattern whose one word most documents hold ("and") needed a pass over them all
    assert [pattern for pattern, whole in read_all.items() if whole] == ["harbour and"]


def test_documents_are_ranked_by_words_spelled_as_the_index_spells_them(tmp_path):
    articles = {
        **ARTICLES,
        "greek.md": "# Ταξίδι\n\nΗ Αθήνα είναι η πρωτεύουσα της Ελλάδας.\n",
        "korean.md": "# 문서\n\n한국어 문서입니다.\n",
    }
    index = built(write_corpus(tmp_path / "corpus", articles), tmp_path / "c.sqlite")
    tools = CorpusTools(index, ScriptedLM(lambda r: "NONE"), Gateway())
    assert tools.rank_documents("Αθήνα", top_k=1)[0][0] == "greek.md"
    assert tools.rank_documents("한국어", top_k=1)[0][0] == "korean.md"
