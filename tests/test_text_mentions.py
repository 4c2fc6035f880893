"""A word's mentions counted by the rules over a text with no records (no model is called): the
statement they write over the table of the word's mentions, run by the one executor, the figure
leading and the mentions cited; in a folder, the documents holding the word ranked. Gold by
counting the word in the text here."""

from __future__ import annotations

import re
from pathlib import Path

from longread.api import MultiDocRLM, SingleDocRLM
from longread.llm.scripted import ScriptedLM

PARAGRAPHS = [
    "The harbour was quiet when the storm came in. The lamp on the pier went out and the boats "
    "knocked against the stones all night.",
    "In the morning the storm had passed. Nobody on the pier had seen a storm like it, and the "
    "lamp was found in the water.",
    "The keeper wrote that the lamp would be mended by spring, and that the pier would hold.",
]


def never_called(request) -> str:
    raise AssertionError("a word's mentions are counted by code, with no model call")


def mentions(text: str, word: str) -> int:
    return len(re.findall(rf"(?<!\w){word}(?!\w)", text, flags=re.IGNORECASE))


def test_a_quoted_word_is_counted_over_a_text_of_no_records(tmp_path):
    path = tmp_path / "harbour.txt"
    text = "\n\n".join(PARAGRAPHS) + "\n"
    path.write_text(text, encoding="utf-8")
    model = ScriptedLM(never_called, writes_code=False)
    with SingleDocRLM(path, model, model, store_path=tmp_path / "i.sqlite", cache=False) as doc:
        answer = doc.query("How many times is the word 'lamp' used?")
    assert answer.mode == "aggregate" and answer.usage["calls"] == 0
    assert answer.text.splitlines()[0] == str(mentions(text, "lamp")) == "3"
    assert "text_mentions" in answer.text  # (the statement that counted, shown)
    assert answer.citations and all(c.text.lower().startswith("lamp") for c in answer.citations)
    other = doc_answer(path, tmp_path, "How many times is the word 'storm' used?")
    assert other.splitlines()[0] == str(mentions(text, "storm"))  # (not the last word's count)


def doc_answer(path: Path, tmp_path: Path, question: str) -> str:
    model = ScriptedLM(never_called, writes_code=False)
    with SingleDocRLM(path, model, model, store_path=tmp_path / "j.sqlite", cache=False) as doc:
        return doc.query(question).text


def test_the_documents_of_a_folder_that_mention_a_word_are_ranked(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    for n, paragraph in enumerate(PARAGRAPHS):
        (folder / f"note{n}.txt").write_text(paragraph + "\n", encoding="utf-8")
    model = ScriptedLM(never_called, writes_code=False)
    with MultiDocRLM(folder, model, model, store_path=tmp_path / "c.sqlite", cache=False) as rlm:
        answer = rlm.query("Which note mentions 'storm' the most?")
    counts = {f"note{n}.txt": mentions(p, "storm") for n, p in enumerate(PARAGRAPHS)}
    best = max(counts, key=counts.__getitem__)
    assert sorted(counts.values()) == [0, 1, 2]  # (one leads)
    assert answer.mode == "aggregate" and answer.text.splitlines()[0] == best
    assert answer.citations and all(c.doc_id == best for c in answer.citations)
