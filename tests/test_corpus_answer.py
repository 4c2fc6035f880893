"""Answering about a corpus (map for a weak root, rlm over the corpus tools), the MultiDocRLM API
(build, update counting sub-model calls, save and load) and the corpus commands."""

from __future__ import annotations

import json
import os
import re
import sqlite3

import pytest

from corpus_fixtures import ARTICLES, write_bad_files, write_corpus
from longread.api import MultiDocRLM, SingleDocRLM
from longread.errors import InputError
from longread.llm.scripted import ScriptedLM
from test_cli import EXAMPLES, longread

QUESTION = "Who captained the ship that carried the royal letters to Norway?"


def reads_two_documents(request) -> str:
    """A small model that states what the passage in front of it says, or NONE."""
    prompt = request.messages[-1]["content"]
    if "captained by Ingrid Vale" in prompt:
        return "The Silver Heron was captained by Ingrid Vale."
    if "royal letters" in prompt and "Silver Heron" in prompt:
        return "The ship that carried the royal letters to Norway was the Silver Heron."
    return "NONE"


@pytest.fixture
def corpus(tmp_path):
    return write_corpus(tmp_path / "corpus")


def check_citations(answer, root):
    for c in answer.citations:
        assert (root / c.doc_id).read_text(encoding="utf-8")[c.start : c.end] == c.text


def test_map_answers_a_two_document_question_citing_both(corpus, tmp_path):
    weak = ScriptedLM(reads_two_documents, writes_code=False, context_window=2048)
    rlm = MultiDocRLM(corpus, weak, weak, store_path=tmp_path / "c.sqlite", cache=False)
    answer = rlm.query(QUESTION)
    assert answer.mode == "map" and "cannot drive" in answer.reason
    assert "Ingrid Vale" in answer.text and "Silver Heron" in answer.text
    assert {c.doc_id for c in answer.citations} == {"news/heron.md", "news/log.txt"}
    check_citations(answer, corpus)
    assert answer.stats["documents_ranked"][:2] == ["news/heron.md", "news/log.txt"]


def test_retrieval_answers_from_the_best_passages_of_the_best_documents(corpus, tmp_path):
    def answers_from_passages(request) -> str:
        prompt = request.messages[-1]["content"]
        passages = prompt.split("Question:")[0]
        assert (
            "captained by Ingrid Vale" in passages and "Tomatoes" not in passages
        )  # ranked, not all
        number = re.search(r"\[(\d+)\] \(news/log\.txt\)", passages)[
            1
        ]  # each passage is headed by its document
        return f"Ingrid Vale captained the Silver Heron [{number}]."

    root = ScriptedLM(answers_from_passages, writes_code=True)
    rlm = MultiDocRLM(
        corpus, root, root, store_path=tmp_path / "c.sqlite", cache=False, mode="retrieval"
    )
    rlm.options.top_k = 2
    answer = rlm.query(QUESTION)
    assert answer.mode == "retrieval" and answer.text.startswith(
        "Ingrid Vale captained the Silver Heron [1]"
    )
    assert [c.doc_id for c in answer.citations] == ["news/log.txt"]
    assert "captained by Ingrid Vale" in answer.citations[0].text
    check_citations(answer, corpus)
    assert answer.stats["chunks_read"] <= 2 and len(root.requests) == 1


def test_rlm_explores_with_the_corpus_functions(corpus, tmp_path):
    code = (
        '```repl\nhits = rank_documents("layoffs announced", top_k=2)\nprint(hits[0][0])\n'
        'print(ask_about_document("Who announced layoffs?", hits[0][0]))\n```'
    )
    root = ScriptedLM([code, '```repl\nFINAL("Acme Corp announced layoffs of 300 workers.")\n```'])
    sub = ScriptedLM(lambda r: "Acme Corp announced layoffs of 300 workers.")
    rlm = MultiDocRLM(corpus, root, sub, store_path=tmp_path / "c.sqlite", cache=False)
    answer = rlm.query("Which company announced layoffs?")
    assert answer.mode == "rlm" and answer.text == "Acme Corp announced layoffs of 300 workers."
    assert answer.citations and answer.citations[0].doc_id == "reports/layoffs.md"
    check_citations(answer, corpus)
    first_turn = root.requests[0].messages[1]["content"]
    assert "reports/layoffs.md" in first_turn  # the first search ran before turn 1
    system = root.requests[0].messages[0]["content"]
    assert (
        "corpus of 5 documents" in system
        and "grep_corpus(" in system
        and "ask_across_documents(" in system
    )


def test_build_update_save_and_load_count_the_sub_model_calls(corpus, tmp_path):
    def reads_meta(request) -> str:
        sample = request.messages[-1]["content"]
        title = sample.split('"""')[1].strip().splitlines()[0].lstrip("# ")
        return json.dumps(
            {"title": title, "summary": "", "keywords": [], "entities": [], "doc_type": "article"}
        )

    sub = ScriptedLM(reads_meta)
    rlm = MultiDocRLM(corpus, sub, sub, store_path=tmp_path / "c.sqlite", cache=False)
    events = []
    report = rlm.build_index(save_path=tmp_path / "corpus.index.json", on_event=events.append)
    assert len(report.added) == 5 and len(sub.requests) == 5
    finished = {
        e.data["task"]: (e.data["done"], e.data["total"]) for e in events if e.kind == "progress"
    }
    assert finished == {"documents": (5, 5), "metadata": (5, 5), "full text": (5, 5)}
    assert not rlm.index.store.db.execute("SELECT count(*) FROM fts_pending").fetchone()[
        0
    ]  # searchable now
    assert rlm.index.meta("news/log.txt").doc_type == "article"
    assert rlm.index.meta("news/log.txt").meta_source == "scripted:test"
    for name in ("news/log.txt", "notes/garden.txt"):
        (corpus / name).write_text((corpus / name).read_text() + "One more line.\n")
    report = rlm.build_index()
    assert sorted(report.changed) == ["news/log.txt", "notes/garden.txt"] and len(sub.requests) == 7
    saved = json.loads((tmp_path / "corpus.index.json").read_text())
    assert saved["total_docs"] == 5 and saved["links"] == {"news/log.txt": ["news/heron.md"]}
    assert (
        saved["keyword_index"]["heron"]
        and saved["documents"]["news/heron.md"]["doc_type"] == "article"
    )

    again = MultiDocRLM(corpus, sub, sub, store_path=tmp_path / "other.sqlite", cache=False)
    again.load_index(tmp_path / "corpus.index.json")
    assert len(sub.requests) == 7  # unchanged documents took the saved metadata
    assert again.index.meta("news/heron.md").doc_type == "article"
    assert again.index.meta("news/log.txt").meta_source == "rules"  # changed since it was saved


def test_bad_input(corpus, tmp_path):
    with pytest.raises(InputError, match="not a folder"):
        MultiDocRLM(corpus / "news" / "heron.md")
    with pytest.raises(InputError, match="unknown mode"):
        MultiDocRLM(corpus, mode="tree")
    empty = tmp_path / "empty"
    empty.mkdir()
    weak = ScriptedLM(lambda r: "NONE", writes_code=False)
    with pytest.raises(InputError, match="has no readable documents"):
        MultiDocRLM(empty, weak, weak, store_path=tmp_path / "e.sqlite").query("q")


@pytest.mark.parametrize("shards", [[], ["--shards", "3"]])
def test_corpus_commands(corpus, tmp_path, shards):
    write_bad_files(corpus)
    env = {"LONGREAD_CACHE_DIR": str(tmp_path / "cache")}
    result = longread("index", str(corpus), "--no-llm-meta", *shards, env=env)
    assert result.returncode == 0, result.stderr
    assert (
        "5 documents" in result.stdout
        and "5 added" in result.stdout
        and "4 skipped" in result.stdout
    )
    assert "skipped bad/blob.bin" in result.stdout
    listing = longread("corpus", "ls", str(corpus), env=env).stdout
    assert all(doc_id in listing for doc_id in ARTICLES) and "Merger Announcement" in listing
    shown = re.findall(r"^shard-(\d)\.sqlite +ready +(\d+) documents", listing, re.M)
    assert len(shown) == (3 if shards else 0)
    assert sum(int(docs) for _, docs in shown) == (5 if shards else 0)
    result = longread("corpus", "rm", str(corpus), "notes/garden.txt", env=env)
    assert result.returncode == 0 and "removed notes/garden.txt" in result.stdout
    (corpus / "news" / "heron.md").unlink()
    os.utime(corpus / "reports" / "merger.md")
    result = longread("corpus", "update", str(corpus), "--no-llm-meta", env=env)
    assert result.returncode == 0, result.stderr
    assert "1 added, 0 changed, 1 removed, 3 unchanged" in result.stdout  # garden back, heron gone
    result = longread(
        "corpus", "add", str(corpus), str(corpus / "bad" / "blob.bin"), "--no-llm-meta", env=env
    )
    assert result.returncode != 0 and "cannot index bad/blob.bin" in result.stderr
    result = longread("index", str(corpus), "--no-llm-meta", "--rebuild", env=env)
    assert result.returncode == 0, result.stderr
    assert "4 added, 0 changed, 0 removed, 0 unchanged" in result.stdout  # (read again, all)
    listing = longread("corpus", "ls", str(corpus), env=env).stdout
    assert len(re.findall(r"^shard-\d\.sqlite +ready", listing, re.M)) == (3 if shards else 0)


def test_a_second_hop_reads_again_with_the_first_finding_in_view(tmp_path):
    def first_line(request) -> str:  # like a very small model: repeats the first line it is shown
        return request.messages[-1]["content"].split("Text: ", 1)[1].splitlines()[0]

    weak = ScriptedLM(first_line, writes_code=False, context_window=2048)
    harbour = EXAMPLES / "harbour"
    rlm = MultiDocRLM(harbour, weak, weak, store_path=tmp_path / "h.sqlite", cache=False)
    answer = rlm.query(QUESTION)
    assert "Silver Heron" in answer.stats["second_hop"]
    assert "captained by Ingrid Vale" in answer.text and "Hugh Carrick" not in answer.text
    lead = answer.text.split("\n\n", 1)[0]  # what the second hop read leads the answer
    assert "Ingrid Vale" in lead and answer.citations[0].doc_id == "records/crew-register.txt"
    assert {"news/royal-letters.md", "records/crew-register.txt"} <= {
        c.doc_id for c in answer.citations
    }
    check_citations(answer, harbour)


def test_the_second_hop_follows_the_name_the_best_matching_sentence_states(tmp_path):
    """Many ships, each with its cargo in one play and its captain in another: the ship the
    question's cargo names is looked up where other documents name it, and its captain leads."""
    filler = "The weather held and the market was busy all week.\n\n" * 30
    facts = {
        "a.md": "The Silver Crane carried the casks of wine to Calloway.",
        "b.md": "The Iron Gull carried the chests of tea to Penhallow.",
        "c.md": "The captain of the Iron Gull was Odo Brant.",
        "d.md": "The captain of the Silver Crane was Ilse Varga.",
        "e.md": "The Amber Swift carried the jars of honey to Ashby.",
        "f.md": "The captain of the Amber Swift was Nell Ashgrove.",
    }
    folder = tmp_path / "ships"
    folder.mkdir()
    for name, fact in facts.items():
        (folder / name).write_text(f"# Log {name}\n\n{filler}{fact}\n\n{filler}", encoding="utf-8")

    def sentence(request) -> str:  # like a small model: the shown sentence that names a ship
        shown = request.messages[-1]["content"].split("Text: ", 1)[1]
        return next(
            (
                line
                for line in shown.splitlines()
                if "The " in line
                and "ship" not in line
                and ("carried" in line or "captain" in line)
            ),
            "NONE",
        )

    def garbles_the_second(request) -> str:  # a tiny model's second hop: the name, twice
        if "(Known:" in request.messages[-1]["content"]:
            return "The Silver Crane was the Silver Crane."
        return sentence(request)

    def garbles_both(request) -> str:  # the first round's reply is not borne out either
        reply = garbles_the_second(request)
        return "The Crane is not the only one who sailed." if "carried" in reply else reply

    question = "Who was the captain of the ship that carried the casks of wine to Calloway?"
    for reads in (sentence, garbles_the_second, garbles_both):
        weak = ScriptedLM(reads, writes_code=False, context_window=2048)
        with MultiDocRLM(folder, weak, weak, store_path=tmp_path / "s.sqlite", cache=False) as rlm:
            answer = rlm.query(question)
        assert answer.stats["second_hop"][0] == "Silver Crane"
        assert answer.text.splitlines()[0] == "The captain of the Silver Crane was Ilse Varga. [1]"
        assert answer.citations[0].doc_id == "d.md"


def test_repl_binds_the_corpus_functions_for_a_person(corpus, tmp_path):
    import subprocess
    import sys

    env = {
        **{k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"},
        "LONGREAD_CACHE_DIR": str(tmp_path),
    }
    code = "print(total_docs, rank_documents('merger widgets', top_k=1)[0][0])\n"
    result = subprocess.run(
        [sys.executable, "-m", "longread.cli", "repl", str(corpus)],
        input=code,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "5 reports/merger.md" in result.stdout and "5 documents" in result.stderr


def test_a_budget_stop_keeps_what_was_found(corpus, tmp_path):
    from longread.errors import BudgetExceededError
    from longread.llm.usage import Budget

    weak = ScriptedLM(reads_two_documents, writes_code=False, context_window=2048)
    rlm = MultiDocRLM(
        corpus,
        weak,
        weak,
        store_path=tmp_path / "c.sqlite",
        cache=False,
        budget=Budget(max_subcalls=1),
    )
    with pytest.raises(BudgetExceededError) as stop:
        rlm.query(QUESTION)
    partial = stop.value.partial
    assert (
        partial.stopped_by == "max_subcalls"
        and partial.usage["subcalls"] == 1
        and partial.mode == "map"
    )


def test_the_api_objects_close_their_stores_and_cache(corpus, tmp_path, monkeypatch):
    monkeypatch.setenv("LONGREAD_CACHE_DIR", str(tmp_path / "cache"))
    document = corpus / "news" / "heron.md"
    with (
        MultiDocRLM(corpus, store_path=tmp_path / "c.sqlite") as many,
        SingleDocRLM(document, store_path=tmp_path / "d.sqlite") as one,
    ):
        assert (
            len(many.build_index(llm_meta=False).added) == 5
            and one.index.total_chars == document.stat().st_size
        )
    for db in (many.index.store.db, one.store.db):
        with pytest.raises(sqlite3.ProgrammingError, match="closed"):
            db.execute("SELECT 1")
    with pytest.raises(sqlite3.ProgrammingError, match="closed"):
        many.cache.get("any key")
