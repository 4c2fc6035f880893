"""The rules' reading of a question, for a fast path a model's reading confirms and for runs where
no model reads questions: whether its own words ask to count, rank or list (cues), else a fact
or a chain of two; and a word whose mentions it counts over the whole text (quoted, called a
word, said or mentioned), counted by code. Every other counting question is the model's: the
rules say they did not count it."""

from __future__ import annotations

from typing import Any

from longread.query.core.catalog import Catalog
from longread.query.core.plan import Operation, Plan, Shape
from longread.query.core.schema_prompt import STRUCTURAL
from longread.query.readers.rules import cues, reply_form
from longread.query.readers.rules.named_documents import named_documents
from longread.store.record_tables import quoted
from longread.text.rank import terms

DOCUMENT = "document"
TIMES = frozenset("time times occurrence occurrences mention mentions".split())
LISTING = (Operation.LIST, Operation.ARGMAX, Operation.ARGMIN)
TOTALS = (Operation.COUNT, Operation.DISTINCT, Operation.SUM)  # (of mentions, a total is a count)
UNREAD = "no model reads counting questions in this run (--reader rules)"
NO_RECORDS = "the source holds no records to count"


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
    states of it answers (an aggregate where its words say it needs the whole text, else a fact
    or a chain), the answer saying why no records were counted."""
    asked = reply_form.without_format(question)
    flags, operation = _flags(asked), cues.operation(asked)
    if operation is None:  # (`Did Mordecai bow to Haman?`, no row answering it: a fact)
        return _fact(question, asked).with_(notes=(why,))
    shape = Shape.AGGREGATE if flags["whole_text"] else _fact(question, asked).shape
    return Plan(question, shape, operation, notes=(why,), **flags)  # (`Which came first, A or B?`)


def read_rules(question: str, catalog: Catalog) -> Plan:
    """The plan the rules read in the question: a fact or chain plan when it asks for no
    operation (or whether something is so), a word's mentions counted over the whole text of a
    source with no records (in one with records, the word may be said by someone, somewhere: the
    model's to read), else a counting plan the rules could not read (`unqueried`)."""
    asked = reply_form.without_format(question)
    if cues.operation(asked) is None:
        return _fact(question, asked)
    if any(name not in STRUCTURAL for name in catalog.tables):  # (whose words, where: a model's)
        return unqueried(question, UNREAD)
    return text_plan(question, catalog) or unqueried(question, NO_RECORDS)


def text_plan(question: str, catalog: Catalog) -> Plan | None:
    """A word's mentions over the whole text (`How many times does 'blood' appear?`) counted by
    one statement over the table of its mentions: counted, or the documents or sections holding
    it (`Which plays mention Rome?`, `In how many acts does 'crown' appear?`), in the documents
    the question names; None where it counts no word, or asks what no count of mentions gives."""
    asked = reply_form.without_format(question)
    operation, said = cues.operation(asked), cues.term(asked)
    if operation not in (*TOTALS, *LISTING) or said is None:
        return None
    group = _grouped_by(asked, operation, catalog)
    named = sorted(
        {
            document
            for held, start, end, _ in named_documents(asked, catalog)
            if end <= said[1] or start >= said[2]  # (not the word counted: `Rome` of rome.md)
            for document in held
        }
    )
    table = quoted(catalog.mentions_table(said[0]).name)
    held = ", ".join("'" + name.replace("'", "''") + "'" for name in named)
    where = f" WHERE document IN ({held})" if named else ""
    if group is None:
        sql = f"SELECT count(*) AS mentions FROM {table}{where}"
    elif operation in TOTALS:
        sql = f"SELECT count(DISTINCT {quoted(group)}) AS {quoted(group)} FROM {table}{where}"
    else:
        order = "ASC" if operation is Operation.ARGMIN else "DESC"
        limit = "" if operation is Operation.LIST else " LIMIT 1"
        sql = (
            f"SELECT {quoted(group)}, count(*) AS mentions FROM {table}{where} "
            f"GROUP BY {quoted(group)} ORDER BY mentions {order}{limit}"
        )
    flags = _flags(asked)
    return Plan(question, Shape.AGGREGATE, operation, sql=sql, **flags)


def _grouped_by(asked: str, operation: Operation, catalog: Catalog) -> str | None:
    """What the mentions are grouped by: the kind of section (or the documents, in a source of
    several) named as what is counted (`how many acts`); the documents, where a source of
    several is ranked or listed by them."""
    counted = cues.counted(asked)
    noun = counted[0].split()[0] if counted is not None else None
    if operation in TOTALS and (noun is None or noun.lower() in TIMES):
        return None
    column = _section_word(noun, catalog) if noun is not None else None
    if column is None and (noun is not None or operation in LISTING):
        return DOCUMENT if len(catalog.documents) > 1 else None
    return column


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
