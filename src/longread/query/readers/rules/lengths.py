"""Documents (or the works of one file) ranked by their length, where a question asks which is
longest or shortest and names no number to rank them by (`Which play is the longest?`, `Which
is shorter, Othello or Macbeth?`)."""

from __future__ import annotations

import re

from longread.query.core.plan import Filter, Inner, Operation, Plan, Shape, Test
from longread.query.readers.rules import cues
from longread.query.readers.rules.reading import LENGTH_WORDS, LENGTHS, Reading, names_documents


def works_by_length(reading: Reading) -> Plan:
    """The works of one file (its titled top headings over numbered sections) ranked by their
    length: each one's heading row of the sections table, by its words."""
    titles = tuple(v for v, _ in reading.catalog.values("sections", "work"))
    least = cues.compares(reading.asked) is Operation.ARGMIN or bool(
        {"shortest", "shorter"} & {w.lower() for w in re.findall(r"[\w'’-]+", reading.asked)}
    )
    named = [lk.value[0] for lk in reading.links if lk.column == "work"]
    chosen = tuple(v for v in named if v in titles) if len(named) >= 2 else titles
    return Plan(
        reading.question,
        Shape.AGGREGATE,
        Operation.ARGMIN if least else Operation.ARGMAX,
        "sections",
        "words",
        filters=(Filter("title", Test.IN, chosen),),
        group_by="title",
        inner=Inner.MIN if least else Inner.MAX,
        words=reading.words,
    )


def ranks_documents_by_length(reading: Reading) -> bool:
    """Whether the question ranks the source's documents by their length (`Which play is the
    longest?`, `Which is shorter, A or B?`), naming no number column to rank them by."""
    said = {w.lower() for w in re.findall(r"[\w'’-]+", reading.asked)}
    if not said & LENGTH_WORDS or "documents" not in reading.catalog.tables:
        return False
    if any(lk.what == "column" and lk.column not in LENGTHS for lk in reading.links):
        return False  # (`by words`: a length is what ranks them)
    named = any(names_documents(reading, s, s + len(w)) for w, s in cues.groups(reading.asked))
    return named or (
        len(reading.catalog.documents) > 1
        and sum(1 for lk in reading.links if lk.what == "document") >= 2
    )
