"""Figures stated across a folder's documents (a ferry toll here, another there): the highest, the
lowest, the total and the mean computed by code over every document, each figure cited, no model
called; a question for one fact, or a source stating fewer than two figures, goes elsewhere."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from longread.api import MultiDocRLM, SingleDocRLM
from longread.llm.scripted import ScriptedLM
from longread.query.core.catalog import Catalog
from longread.query.readers.rules.rules import read_rules
from longread.strategies.figures import figure_operation
from longread.text.figures import figures, in_one_unit, topic
from longread.text.rank import terms


def operation_of(question: str) -> str | None:
    return figure_operation(read_rules(question, Catalog.empty()))


MACBETH = Path(__file__).resolve().parents[1] / "examples" / "macbeth.md"
TOLLS = {
    "one.md": "The ferry toll at Carrick was 12 pence.",
    "two.md": "At Dunholm the ferry toll came to 1,057 pence.",
    "three.md": "Travellers crossing at Belcross paid a ferry toll of 9 pence.",
}


def never_called(request) -> str:
    raise AssertionError("figures must not call a model")


@pytest.mark.parametrize(
    ("question", "operation"),
    [
        ("Which town had the highest ferry toll?", "max"),
        ("Which town charged the lowest toll?", "min"),
        ("What do the ferry tolls add up to?", "sum"),
        ("What was the average toll?", "mean"),
        ("Who hid the brass key?", None),
        ("Who hid the key, and where?", None),
    ],
)
def test_a_question_asks_for_an_operation_over_figures_or_not(question, operation):
    assert operation_of(question) == operation


def test_each_sentence_stating_a_figure_gives_its_number_and_name():
    question = "Which town had the highest ferry toll in 1603?"
    text = (
        "A ferry sank in 1740 off the coast.\n\n"  # (one of the topic's words only)
        + " ".join(TOLLS.values())
        + " In 1603 the ferry toll at Eskdale was 30 pence."  # (the question's year is not it)
        + " The ferry toll at St. Ives was 14 pence."  # (one sentence, `St.` and all)
    )
    found = figures(text, topic(terms(question)), question)
    assert [(f.value, f.name) for f in found] == [
        (12, "Carrick"),
        (1057, "Dunholm"),
        (9, "Belcross"),
        (30, "Eskdale"),
        (14, "St. Ives"),
    ]
    assert all(text[f.start : f.end].rstrip(".").endswith("pence") for f in found)


def test_a_sentence_gives_its_number_in_the_unit_the_others_share():
    question = "Which town had the highest ferry toll?"
    text = (
        "At Carrick the ferry toll came to 12 pence. "
        "The ferry toll at Dunholm, where 3 boats ran, was 40 pence. "  # (not 3 boats)
        "At Belcross the ferry toll was 9 pence, paid in 2 coins. "
        "The ferry toll at Ovenden was 7 boats' worth."  # (no figure in pence: left out)
    )
    kept = in_one_unit([(f,) for f in figures(text, topic(terms(question)), question)])
    assert [(f.value, f.unit, f.name) for (f,) in kept] == [
        (12, "pence", "Carrick"),
        (40, "pence", "Dunholm"),
        (9, "pence", "Belcross"),
    ]


@pytest.fixture
def folder(tmp_path):
    filler = MACBETH.read_text(encoding="utf-8")
    docs = tmp_path / "towns"
    docs.mkdir()
    for name, sentence in TOLLS.items():
        at = filler.find("\n\n", len(filler) // 2)
        (docs / name).write_text(f"{filler[:at]}\n\n{sentence}{filler[at:]}", encoding="utf-8")
    return docs


@pytest.mark.parametrize(
    ("question", "lead", "first_cited"),
    [
        (
            "Which town had the highest ferry toll?",
            "Dunholm: 1,057 pence, the highest of the 3",
            "1,057",
        ),
        (
            "Which town had the lowest ferry toll?",
            "Belcross: 9 pence, the lowest of the 3",
            "of 9 pence",
        ),
        ("What do the ferry tolls add up to, in pence?", "1,078 pence in all: ", None),
        ("What was the average ferry toll?", "359.33 pence on average (1,078 over 3)", None),
    ],
)
def test_figures_across_a_folder_are_computed_by_code_and_each_cited(
    folder, tmp_path, question, lead, first_cited
):
    lm = ScriptedLM(never_called)
    with MultiDocRLM(folder, lm, lm, store_path=tmp_path / "c.sqlite", cache=False) as rlm:
        rlm.build_index(parallel=False, llm_meta=False)
        answer = rlm.query(question)
    assert answer.mode == "aggregate" and answer.text.startswith(lead)
    assert sorted(c.text for c in answer.citations) == sorted(TOLLS.values())
    assert len({c.doc_id for c in answer.citations}) == 3  # (one figure in each document)
    if first_cited:
        assert first_cited in answer.citations[0].text
    assert all(claim.supported for claim in answer.claims)
    assert answer.usage["calls"] == 0


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        ("Which company reported the highest revenue?", "Brent & Co: 1.2 billion dollars, the"),
        ("Which company reported the lowest revenue?", "Calder Works: 800 million dollars, the"),
        ("What was the total reported revenue?", "2.95 billion dollars in all: "),
    ],
)
def test_a_figure_is_compared_at_its_scale_and_shown_in_its_words(tmp_path, question, lead):
    folder = tmp_path / "revenue"
    folder.mkdir()
    for name, figure in (("Harlow Mills", "950 million"), ("Brent & Co", "1.2 billion")) + (
        ("Calder Works", "800 million"),
    ):
        text = f"{name} reported revenue of {figure} dollars in 2023."
        (folder / f"{name.split()[0].lower()}.md").write_text(text, encoding="utf-8")
    lm = ScriptedLM(never_called)
    with MultiDocRLM(folder, lm, lm, store_path=tmp_path / "c.sqlite", cache=False) as rlm:
        rlm.build_index(parallel=False, llm_meta=False)
        assert rlm.query(question).text.startswith(lead)  # (not the most millions)


def test_a_fact_or_a_single_figure_goes_to_the_other_modes(tmp_path):
    doc = tmp_path / "one.md"
    doc.write_text(MACBETH.read_text(encoding="utf-8") + "\n\n" + TOLLS["one.md"], "utf-8")
    reader = ScriptedLM(lambda request: "Carrick.", writes_code=False)
    with SingleDocRLM(doc, reader, reader, store_path=tmp_path / "i.sqlite", cache=False) as rlm:
        answer = rlm.query("Which town had the highest ferry toll?")
    assert answer.mode != "aggregate"  # (one figure: nothing to compare; the reader answers)


def test_who_a_relation_names_across_a_folder_is_listed_from_every_document(tmp_path):
    filler = MACBETH.read_text(encoding="utf-8")
    folder = tmp_path / "guilds"
    folder.mkdir()
    records = [
        "Alda Brook joined the guild of weavers.",
        "In the spring Cora Dunn was admitted to the guild of weavers.",
        "Bram Colley joined the guild of chandlers.",  # (another guild: not listed)
        "The guild of weavers took Esme Ford as a member.",
    ]
    for n, record in enumerate(records):
        (folder / f"{n}.md").write_text(
            f"{filler[:5_000]}\n\n{record}\n\n{filler[5_000:]}", "utf-8"
        )
    lm = ScriptedLM(lambda request: "Not stated.", writes_code=False)
    with MultiDocRLM(folder, lm, lm, store_path=tmp_path / "c.sqlite", cache=False) as rlm:
        rlm.build_index(parallel=False, llm_meta=False)
        answer = rlm.query("Who joined the guild of weavers?")
        assert answer.usage["calls"] == 0
        lead = answer.text.split("\n\n")[0]
        assert {"Alda Brook", "Cora Dunn", "Esme Ford"} == set(
            re.findall(r"[A-Z]\w+ [A-Z]\w+", lead)
        ) and answer.mode == "aggregate"
        assert sorted(c.text for c in answer.citations) == sorted(
            r for r in records if "weavers" in r
        )
        fact = rlm.query("Who hid the brass key of Dunmore?")  # (no sentence holds it: not listed)
        assert fact.mode != "aggregate"


@pytest.mark.parametrize(
    ("question", "operation"),
    [
        ("What does the GNU standard mean by a free software license?", None),
        ("What is the total number of ships?", None),  # (a count, not a sum)
        ("Must there be at least one maintainer?", None),
        ("What was the total toll paid?", "sum"),
        ("What is the mean temperature?", "mean"),
    ],
)
def test_words_that_only_look_like_an_operation_are_not_one(question, operation):
    assert operation_of(question) == operation


@pytest.mark.parametrize(
    ("document", "question"),
    [
        ("esther-kjv.txt", "Who sat in the king's gate?"),
        ("esther-kjv.txt", "Who was hanged on the gallows fifty cubits high?"),
        ("esther-kjv.txt", "What was the largest number of provinces?"),
        ("gnu-coding-standards.txt", "What is the maximum line length for source code?"),
    ],
)
def test_ordinary_questions_are_left_to_the_reading_modes(tmp_path, document, question):
    """Verse numbers, line references and `And`/`Now` opening a verse are neither figures nor
    names: these questions go to the modes that read passages."""
    reader = ScriptedLM(lambda request: "NONE", writes_code=False)
    path = MACBETH.parent / document
    with SingleDocRLM(path, reader, reader, store_path=tmp_path / "i.sqlite", cache=False) as rlm:
        assert rlm.query(question).mode != "aggregate"


def test_negative_and_huge_numbers_are_read_as_stated_or_not_at_all():
    question = "What was the average noon temperature?"
    text = (
        "At Tromso the noon temperature was -12 degrees. At Bergen the noon temperature was "
        "3 degrees. At Kiruna the noon temperature was −20 degrees. The noon temperature at "
        f"Oslo was {'9' * 400} degrees."
    )
    found = figures(text, topic(terms(question)), question)
    assert [(f.value, f.name) for f in found] == [(-12, "Tromso"), (3, "Bergen"), (-20, "Kiruna")]
