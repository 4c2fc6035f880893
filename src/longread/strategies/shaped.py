"""A bridge or a comparison answered in steps, where the root model cannot join findings (the
bundled small one) and a stronger model states answers (`answer_writer`). Its reading of the
question (`fact_shape`) says the steps; each step searches the source for its own question and
has the answer stated from the best sentences found and their passages (`stated`, checked by
code):
- a bridge states its first question's answer (what the question names only by a fact), then
  its second question, naming that answer, from what a new search finds;
- a comparison states each side's value of the measure, and code compares the two (dates by
  their order, amounts by their size);
- a question whether two things are both so is asked of each, and is yes where both are.
A step that states nothing, values code cannot read or compare, or a second answer resting on
the first one's sentence, leave the question to the reading of passages as before (None)."""

from __future__ import annotations

import re
from collections.abc import Callable

from longread.answer import Answer, Citation
from longread.errors import LongreadError
from longread.events import EventKind
from longread.ingest.metadata import find_dates
from longread.llm.base import LM
from longread.strategies.common import Run
from longread.strategies.fact_shape import FactShape, Kind, Pick, read_fact_shape
from longread.strategies.query_writer import answer_writer
from longread.strategies.reading import Finding, Readable
from longread.strategies.stated import Stated, answer_from, state_answer
from longread.text.fold import tokens
from longread.text.rank import terms

Search = Callable[[str], tuple[Readable, list[Finding]]]  # a query's best sentences, and where
SENTENCES = 3  # best sentences a step's answer is stated from
OPENING = 200  # characters of a passage opening its document that name what it is about
_YEAR = re.compile(r"(?<![\d.])(1\d{3}|20\d{2})(?![\d.\w])")  # (not a decade: 1940s)
_NUMBER = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?")
Value = tuple[str, str | float]  # ("date", ISO text) or ("amount", a number)
Stepped = tuple[str, list[Citation]]  # the answer's text and its citations


def stepped_answer(question: str, run: Run, search: Search) -> Answer | None:
    """The answer where the question is a bridge or a comparison and its steps state it; None
    where it is neither, no model states answers, or a step fails."""
    if run.root.writes_code:
        return None  # (a capable root joins the findings of the passages it reads)
    try:
        writer = answer_writer(run)
    except LongreadError:  # (the model is not fetched and cannot be)
        return None
    if writer is None:
        return None
    shape = read_fact_shape(question, run, writer)
    if shape.kind is Kind.SINGLE:
        return None
    run.emit(EventKind.PHASE, name="STATE", shape=shape.kind.value)
    steps = {Kind.COMPARISON: compared, Kind.BOTH: both, Kind.BRIDGE: bridged}[shape.kind]
    stated = steps(shape, run, search, writer)
    if stated is None:
        return None
    text, citations = stated
    run.emit(EventKind.FINAL, answer=text)
    return Answer(
        text=text,
        mode="map",
        citations=citations,
        usage=run.gateway.usage.to_dict(),
        stats={"shape": shape.kind.value, "steps": len(citations)},
    )


def _stated(question: str, run: Run, search: Search, writer: LM) -> Stated | None:
    source, found = search(question)
    return state_answer(question, found, run, source, writer) if found else None


def bridged(shape: FactShape, run: Run, search: Search, writer: LM) -> Stepped | None:
    """A bridge's answer: its first question's answer found and stated, then the second question
    (naming it) from what a search for it finds, resting on another sentence of a passage that
    names the first answer."""
    first = _stated(shape.first, run, search, writer)
    if first is None:
        return None
    then = _stated(shape.second(first.answer), run, search, writer)
    if (
        then is None
        or then.citation == first.citation
        or not _names(then, first.answer, every=True)
        or set(tokens(then.answer)) <= set(tokens(first.answer))
    ):
        return None
    text = (
        f"{then.answer} [1]\n“{then.quote}” ({then.section})\n\n"
        f"Through [2] “{first.quote}” ({first.section})"
    )
    return text, [then.citation, first.citation]


def compared(shape: FactShape, run: Run, search: Search, writer: LM) -> Stepped | None:
    """A comparison's answer: each side's value of the measure stated from its own search, from a
    passage naming that side, and compared by code; then the question asked again of the two
    passages, the answer kept where the model and code agree (the side code picked; or yes or
    no, as code found the first side picked or not)."""
    sides: list[tuple[str, Stated, Value]] = []
    for side in shape.sides:
        asked = f"What is the {shape.measure} of {side}?" if shape.measure else f"{side}?"
        stated = _stated(asked, run, search, writer)
        value = None if stated is None else value_of(stated.answer)
        if stated is None or value is None or not _names(stated, side):
            return None
        sides.append((side, stated, value))
    (one_side, one, one_value), (other_side, other, other_value) = sides
    order = _order(one_value, other_value)
    if order is None:
        return None
    first_wins = order < 0 if shape.pick in (Pick.EARLIER, Pick.LESS) else order > 0
    ones, others = (one_side, one), (other_side, other)
    (picked, won), (passed, lost) = (ones, others) if first_wins else (others, ones)
    final = answer_from(shape.question, [one.passage, other.passage], run, writer)
    if final is None:
        return None
    said = set(terms(final[0]))
    if final[0] in ("Yes", "No"):
        if not shape.yes_no or (final[0] == "Yes") != first_wins:
            return None
        lead = final[0]  # (each side's value under it)
    elif said and said <= set(terms(picked)) and not said <= set(terms(passed)):
        lead = f"{picked} ({won.answer}, against {lost.answer})"
    else:
        return None
    return _sided(lead, [(side, stated) for side, stated, _ in sides])


def both(shape: FactShape, run: Run, search: Search, writer: LM) -> Stepped | None:
    """Whether two things are both so: the question asked of each side, answered yes or no from
    a passage naming it; yes where both are."""
    said: list[tuple[str, Stated]] = []
    for side in shape.sides:
        stated = _stated(shape.second(side), run, search, writer)
        if stated is None or stated.answer not in ("Yes", "No") or not _names(stated, side):
            return None
        said.append((side, stated))
    lead = "Yes" if all(stated.answer == "Yes" for _, stated in said) else "No"
    return _sided(lead, said)


def _sided(lead: str, said: list[tuple[str, Stated]]) -> Stepped:
    """A lead over two sides, and under it each side's answer, quote and where it stands (the
    claims check finds the lead's words in the quotes), cited in that order."""
    lines = [
        f"{side}: {stated.answer} [{n}] “{stated.quote}” ({stated.section})"
        for n, (side, stated) in enumerate(said, 1)
    ]
    return "\n".join([f"{lead} [1][2]\n", *lines]), [stated.citation for _, stated in said]


def _names(stated: Stated, side: str, every: bool = False) -> bool:
    """Whether what a side's value was stated from names the side: half its naming words at least
    (`every`: all of them; those written with a capital or a digit, `Lynx` of `the Lynx text-mode
    web browser`; else all its words), in the sentence quoted, where it stands (its section, its
    document), or the opening of the passage where it opens its section (a one-paragraph document
    names what it is about there; a man page names many things further on)."""
    naming = [w for w in side.split() if w[:1].isupper() or any(c.isdigit() for c in w)]
    words = set(terms(" ".join(naming) or side))
    opening = stated.passage.text[:OPENING] if stated.passage.opens else ""
    held = set(terms(f"{stated.quote} {stated.section} {opening}"))
    return bool(words) and (1 if every else 2) * len(words & held) >= len(words)


def value_of(answer: str) -> Value | None:
    """What code compares of a stated value: its date (a full date, else a year), else its first
    number; None where it holds neither."""
    dates = find_dates(answer, 1)
    if dates:
        return "date", dates[0]
    year = _YEAR.search(answer)
    if year:
        return "date", year.group(1)
    number = _NUMBER.search(answer)
    return ("amount", float(number.group(0).replace(",", ""))) if number else None


def _order(one: Value, other: Value) -> int | None:
    """-1, 0 or 1 as `one` comes before, with or after `other`; None where they are of different
    kinds or tie (a year and a date in that year)."""
    if one[0] != other[0]:
        return None
    a, b = one[1], other[1]
    if isinstance(a, str) and isinstance(b, str):
        a, b = a[: min(len(a), len(b))], b[: min(len(a), len(b))]  # (to the coarser of the two)
    if a == b:
        return None
    return -1 if a < b else 1  # type: ignore[operator]
