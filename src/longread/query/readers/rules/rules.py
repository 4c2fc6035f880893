"""The rules' reading of a question, for a fast path a model's reading confirms and for runs where
no model reads questions: whether its own words ask to count, rank or list (cues), else a fact
or a chain of two; and a word whose mentions it counts over the whole text (quoted, called a
word, said or mentioned), counted by code. Every other counting question is the model's: the
rules say they did not count it."""

from __future__ import annotations

from typing import Any

from longread.query.core.catalog import Catalog
from longread.query.core.plan import TEXT, Filter, Operation, Plan, Shape, Test
from longread.query.readers.rules import cues, reply_form
from longread.query.readers.rules.named_documents import named_documents
from longread.text.rank import terms

DOCUMENT = "document"
TIMES = frozenset("time times occurrence occurrences mention mentions".split())
LISTING = (Operation.LIST, Operation.ARGMAX, Operation.ARGMIN)
UNREAD = (
    "no model reads counting questions in this run (--reader rules), and the rules count only a "
    "word's mentions in the text"
)


def fact_plan(question: str) -> Plan | None:
    """The plan of a question asking for no operation (one fact, or a chain of two), read
    without the source; None for one that asks to count, rank, add up or list."""
    asked = reply_form.without_format(question)
    if cues.operation(asked) is not None or cues.whether(asked):
        return None  # (`Does Banquo speak in Act 4?`: whether rows are there, if a table says)
    return _fact(question, asked)


def as_fact(question: str) -> Plan:
    """The question's plan as a fact (or a chain of two) whatever its words ask."""
    return _fact(question, reply_form.without_format(question))


def _fact(question: str, asked: str) -> Plan:
    shape = Shape.CHAIN if cues.chain(asked) else Shape.FACT
    return Plan(question, shape, **_flags(asked))


def _flags(asked: str) -> dict[str, Any]:
    return {
        "words": tuple(dict.fromkeys(terms(asked))),
        "starts": cues.counted_starts(asked),
        "whole_text": cues.whole_text(asked),
        "names_wanted": cues.names_wanted(asked),
    }


def unqueried(question: str, why: str) -> Plan:
    """A counting question's plan with no table to count in (`why` says why): what the text
    states of it answers, the answer saying why no records were counted."""
    asked = reply_form.without_format(question)
    operation = cues.operation(asked) or Operation.EXISTS
    return Plan(question, Shape.AGGREGATE, operation, notes=(why,), **_flags(asked))


def read_rules(question: str, catalog: Catalog) -> Plan:
    """The plan the rules read in the question: a fact or chain plan when it asks for no
    operation (or whether something is so), a word's mentions counted over the whole text,
    else a counting plan the rules could not read (`unqueried`)."""
    asked = reply_form.without_format(question)
    if cues.operation(asked) is None:
        return _fact(question, asked)
    return text_plan(question, catalog) or unqueried(question, UNREAD)


def text_plan(question: str, catalog: Catalog) -> Plan | None:
    """A word's mentions over the whole text (`How many times does 'blood' appear?`): counted,
    or the documents or sections holding it (`Which plays mention Rome?`, `In how many acts does
    'crown' appear?`), in the documents the question names; None where it counts no word."""
    asked = reply_form.without_format(question)
    operation, said = cues.operation(asked), cues.term(asked)
    if operation is None or said is None:
        return None
    group, noun = None, None
    counted = cues.counted(asked)
    if counted is not None and counted[0].split()[0].lower() not in TIMES:
        first = counted[0].split()[0]
        group = _section_word(first, catalog) or (DOCUMENT if len(catalog.documents) > 1 else None)
        if group is not None and operation is Operation.COUNT:
            operation, noun = Operation.DISTINCT, first.lower()
    if group is None and operation in LISTING and len(catalog.documents) > 1:
        group = DOCUMENT
    named = [
        held
        for held, start, end, _ in named_documents(asked, catalog)
        if end <= said[1] or start >= said[2]  # (not the word counted: `Rome` of rome.md)
    ]
    filters = (Filter(DOCUMENT, Test.IN, tuple(sorted({d for h in named for d in h}))),)
    return Plan(
        question,
        Shape.AGGREGATE,
        operation,
        TEXT,
        term=said[0],
        filters=filters if named else (),
        group_by=group,
        noun=noun,
        **_flags(asked),
    )


def _section_word(noun: str, catalog: Catalog) -> str | None:
    """The kind of section a noun names (`acts` → act), if the source's sections have it."""
    sections = catalog.tables.get("sections")
    if sections is None:
        return None
    noun = noun.lower()
    for column in sections.columns:
        if column.name in (noun, noun.rstrip("s")) and column.name not in ("title", "kind"):
            return column.name
    return None
