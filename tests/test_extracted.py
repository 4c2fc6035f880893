"""Aggregate questions with nothing to count by structure: the sub-model lists records from every
chunk (none answered from top-k passages), a record stays only where its chunk holds it, code
counts them, and the answer cites them; failed calls and a spent budget are said, not hidden.
The same reading is the REPL's `map_chunks` and `tally`."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from conftest import make_run
from longread.api import MultiDocRLM, SingleDocRLM
from longread.errors import InputError, ModelError
from longread.llm.scripted import ScriptedLM
from longread.llm.usage import Budget
from longread.strategies import extracted
from longread.strategies.rlm import RLMLoop
from longread.tools.extract import Extraction, Failed, _keep, extract, tally_values

MACBETH = Path(__file__).resolve().parents[1] / "examples" / "macbeth.md"
FILLER = [p for p in MACBETH.read_text(encoding="utf-8").split("\n\n") if len(p) > 200][:300]
SHIPS = ["Aurora"] * 6 + ["Brisk Tern"] * 4 + ["Calder"] * 2 + ["Dove"]
SHIP = re.compile(r"\bship ([A-Z]\w+(?: [A-Z]\w+)?)")


def ship_log() -> str:
    """Real prose with ship arrivals planted in every fifth of its first paragraphs."""
    paragraphs = []
    for number, paragraph in enumerate(FILLER):
        paragraphs.append(paragraph)
        if number % 5 == 2 and number // 5 < len(SHIPS):
            paragraphs.append(f"At noon the ship {SHIPS[number // 5]} came into the harbour.")
    return "\n\n".join(paragraphs) + "\n"


def passage(request) -> str:
    return request.messages[-1]["content"].split("Passage:\n", 1)[-1]


def lister(request) -> str:
    """The scripted sub-model: every ship its passage names, and one it does not."""
    found = SHIP.findall(passage(request))
    return "\n".join(f"- {name}" for name in found) + "\n- Titanic" if found else "NONE"


def never_called(request) -> str:
    raise AssertionError("the root model has nothing to do here")


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "log.md"
    path.write_text(ship_log(), encoding="utf-8")
    return path


def ask(path: Path, tmp_path: Path, question: str, sub: ScriptedLM, mode=None, **settings):
    root = settings.pop("root", ScriptedLM(never_called))
    with SingleDocRLM(
        path, root, sub, store_path=tmp_path / "i.sqlite", cache=False, **settings
    ) as rlm:
        return rlm.query(question, mode=mode)


def test_every_chunk_is_read_and_the_records_are_counted_and_cited(log, tmp_path):
    sub = ScriptedLM(lister, writes_code=False)
    answer = ask(log, tmp_path, "How many different ships are named in the log?", sub)
    assert answer.mode == "aggregate" and "every chunk" in answer.reason
    assert answer.text.splitlines()[0] == f"{len(set(SHIPS))}: Aurora, Brisk Tern, Calder, Dove."
    assert "Titanic" not in answer.text.split("\n\n")[0]  # (not in any chunk: dropped)
    stats = answer.stats
    assert stats["asked"] == len(sub.requests) == stats["chunks"] > 1 and stats["skipped"] == 0
    text = log.read_text(encoding="utf-8")
    sent = sorted((passage(r) for r in sub.requests), key=text.index)  # (asked several at once)
    assert "".join(sent) == text  # every chunk, each once
    assert stats["records"] == len(SHIPS)
    assert answer.citations and all(c.text in set(SHIPS) for c in answer.citations)


def test_a_long_source_passes_over_chunks_without_the_words_and_says_so(log, tmp_path, monkeypatch):
    monkeypatch.setattr(extracted, "PREFILTER_CHUNKS", 1)  # (as if the log were long)
    sub = ScriptedLM(lister, writes_code=False)
    answer = ask(log, tmp_path, "How many different ships are named in the log?", sub)
    lead = answer.text.splitlines()[0]
    assert lead.startswith(f"{len(set(SHIPS))}: ") and "holding none of ship, log" in lead
    stats = answer.stats
    assert stats["skipped"] > 0 and stats["asked"] + stats["skipped"] == stats["chunks"]
    sent = "".join(passage(r) for r in sub.requests)
    assert len(SHIP.findall(sent)) == len(SHIPS)  # every chunk holding a ship was read


def test_the_most_frequent_record_leads_and_its_own_records_are_cited(log, tmp_path):
    sub = ScriptedLM(lister, writes_code=False)
    answer = ask(log, tmp_path, "Which ship is mentioned most often?", sub)
    top, count = Counter(SHIPS).most_common(1)[0]
    assert answer.text.startswith(f"{top}: {count} times, the most often.")
    assert {c.text for c in answer.citations} == {top}
    assert tally_values(["Aurora", "aurora ", "Dove", "AURORA", "dove", "Calder"]) == [
        ("Aurora", 3),
        ("Dove", 2),
        ("Calder", 1),
    ]


def test_a_failed_call_and_a_spent_budget_are_said_in_the_answer(log, tmp_path):
    def failing(request) -> str:
        if "Brisk Tern" in passage(request):
            raise ModelError("the server answered 500")
        return lister(request)

    answer = ask(log, tmp_path, "List every ship.", ScriptedLM(failing, writes_code=False))
    lead = answer.text.splitlines()[0]
    assert "(from the chunks read; some were not)" in lead and "Brisk Tern" not in lead
    assert "calls failed" in answer.text and answer.stats["failed"] >= 1
    sub = ScriptedLM(lister, writes_code=False)
    answer = ask(
        log,
        tmp_path,
        "List every ship.",
        sub,
        budget=Budget(max_subcalls=2),
        mode="aggregate",
    )
    assert len(sub.requests) == 2 and "some were not" in answer.text.splitlines()[0]
    assert "not read" in answer.text and "budget" in answer.text.lower()


def test_nothing_found_in_every_chunk_is_said_not_read_again_from_top_passages(log, tmp_path):
    babble = ScriptedLM(lambda request: "- a ship of gold\n- Neverland", writes_code=False)
    answer = ask(log, tmp_path, "How many different ships are named?", babble)  # (root: no call)
    assert answer.mode == "aggregate" and answer.text.startswith("Not counted:"), answer.text
    assert "nothing the question counts was found" in answer.text
    assert answer.claims and all(claim.supported for claim in answer.claims)  # (code's report)
    with pytest.raises(InputError, match="nothing the question counts was found"):
        ask(log, tmp_path, "How many different ships are named?", babble, mode="aggregate")


def test_a_corpus_is_read_document_by_document_and_cited_in_each(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    text = ship_log()
    half = len(text) // 2
    (folder / "a.md").write_text(text[:half], encoding="utf-8")
    (folder / "b.md").write_text(text[half:], encoding="utf-8")
    sub = ScriptedLM(lister, writes_code=False)
    lm = ScriptedLM(never_called)
    with MultiDocRLM(folder, lm, sub, store_path=tmp_path / "c.sqlite", cache=False) as rlm:
        rlm.build_index(parallel=False, llm_meta=False)
        answer = rlm.query("How many different ships are named?")
    assert answer.text.startswith(f"{len(set(SHIPS))}: ")
    files = {"a.md": text[:half], "b.md": text[half:]}
    assert answer.citations and all(
        files[c.doc_id][c.start : c.end] == c.text for c in answer.citations
    )


def test_the_repl_maps_every_chunk_and_tallies_in_one_cell(log):
    sub = ScriptedLM(lister, writes_code=False)
    code = (
        "recs = map_chunks('List every ship name', must_contain='ship')\n"
        "top = tally(recs)[0]\n"
        "FINAL(f'{top[0]} {top[1]} {len(recs)} {recs[0][\"start\"]}')"
    )
    root = ScriptedLM([f"```repl\n{code}\n```"])
    text = log.read_text(encoding="utf-8")
    answer = RLMLoop(make_run(root, sub), text).answer("Which ship came most often?")
    top, count = Counter(SHIPS).most_common(1)[0]
    name, times, records, first = answer.text.rsplit(" ", 3)
    assert (name, int(times), int(records)) == (top, count, len(SHIPS))
    assert text[int(first) : int(first) + len(SHIPS[0])] == SHIPS[0]


def test_a_counting_question_shows_the_root_how_to_read_every_chunk(log):
    sub = ScriptedLM(lister, writes_code=False)
    root = ScriptedLM(["```repl\nFINAL('done')\n```"] * 3)
    RLMLoop(make_run(root, sub), log.read_text(encoding="utf-8")).answer(
        "How many different ships came in?"
    )
    shown = root.requests[0].messages[-1]["content"]
    assert "map_chunks(" in shown and "['ship', 'came']" in shown
    code = shown.split("Read every chunk:\n```repl\n", 1)[1].split("```", 1)[0]
    compile(code, "hint", "exec")  # (the hint is code that runs as shown)


def test_a_reply_is_kept_line_by_line_where_the_chunk_holds_it():
    chunk = "The Brisk\nTern sailed in 1588. Then aurora came, and Aurora again, in 12 days."
    result = Extraction()
    _keep(
        "- Brisk Tern\n1588\n1. Aurora\naurora\nAURORA\n12\nNONE\nunread: budget",
        chunk,
        100,
        result,
    )
    assert [(f.item, f.start - 100) for f in result.found] == [
        ("Brisk\nTern", chunk.index("Brisk")),
        ("1588", chunk.index("1588")),
        ("aurora", chunk.index("aurora")),
        ("Aurora", chunk.index("Aurora")),
        ("12", chunk.index(" 12 ") + 1),
    ]
    assert result.dropped == 2  # (a third Aurora, and a line that is no signal, only text)
    assert {f.key for f in result.found} == {"brisk tern", "1588", "aurora", "12"}


def test_a_spent_budget_stops_the_reading_and_the_rest_is_counted_unread():
    text = "ship Aurora.\n" * 4_000  # (52,000 characters: 52 chunks of 1,000)
    calls = []

    def ask(prompts):
        calls.extend(prompts)
        return [Failed("budget exceeded", unread=len(calls) > 20) for _ in prompts]

    result = extract(len(text), lambda a, b: text[a:b], "List ships", ask, chunk_chars=1_000)
    assert len(calls) == 32 and result.unread == result.chunks - 16 and result.failed == 16
    assert result.partial and "budget exceeded" in result.summary()
