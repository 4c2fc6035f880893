"""A question over records spread across the source, answered by code from every document: the
highest, lowest, total or mean of figures (`Which town had the highest ferry toll?`, `What do the
tolls add up to?`: each sentence stating one such figure taken with its number and the name it is
about), or everyone a relation names (`Who joined the guild of weavers?`: each sentence holding
the question's specific words, and the name it gives). The answer leads with the result, lists
every record it rests on and cites each. No model is called."""

from __future__ import annotations

import re
from collections.abc import Iterator

from longread.answer import Answer, Citation
from longread.errors import InputError
from longread.events import EventKind
from longread.query.core.plan import Operation, Plan
from longread.strategies.common import Run
from longread.strategies.sources import catalog_of, cite
from longread.text.figures import SCALES, Figure, figures, in_one_unit, named, topic


class NothingStated(InputError):
    """No figures or names stated across the text answer the question."""


CITED = 12  # figures listed and cited under the answer
MAX_CHARS = 10_000_000  # what these rules read at most before the other modes have their turn
REASON = (
    "the question asks for the highest, lowest, total or mean of figures stated across the text: "
    "every document read, code computed"
)
REASON_NAMED = (
    "the question asks who or which, and its words hold in several sentences across the text: "
    "every document read, code listed the names they give"
)
_WORDS = {"max": "the highest", "min": "the lowest"}
_OPERATIONS = {
    Operation.ARGMAX: "max",
    Operation.MAX: "max",
    Operation.ARGMIN: "min",
    Operation.MIN: "min",
    Operation.SUM: "sum",
    Operation.MEAN: "mean",
}


def texts(source: object, limit: int = MAX_CHARS) -> Iterator[tuple[str, str]]:
    """(name, text) of each document of the source, `limit` characters in all at most."""
    read = 0
    for doc in catalog_of(source).docs:
        if read + doc.chars > limit:
            return
        read += doc.chars
        yield doc.name, doc.store.documents.read_range(doc.store_id, 0, doc.chars)


def figure_operation(plan: Plan) -> str | None:
    """max, min, sum or mean, for a plan asking for one over figures; None otherwise."""
    return _OPERATIONS.get(plan.operation) if plan.operation is not None else None


def run_stated(plan: Plan, source: object, run: Run) -> Answer:
    """`run_figures` for a plan asking for the highest, lowest, total or mean; else `run_named`
    for one asking who or which; NothingStated when neither finds what answers it."""
    if figure_operation(plan) is not None:
        return run_figures(plan, source, run)
    if plan.names_wanted:
        return run_named(plan, source, run)
    raise NothingStated("the question asks for no figure, and not who or which")


def run_figures(plan: Plan, source: object, run: Run) -> Answer:
    """The highest, lowest, total or mean of the figures the question asks about (two words of
    what, at least), over the whole source (MAX_CHARS at most); NothingStated when fewer than two
    figures (each about a different name, for the highest or lowest) are stated."""
    operation, words = figure_operation(plan), topic(plan.words)
    if operation is None or len(words) < 2:  # (`the largest planet`: one fact, most likely)
        raise NothingStated("the question asks for no highest, lowest, total or mean of a thing")
    question = plan.question
    found: list[tuple[Figure, Citation]] = []
    documents = 0
    for name, text in texts(source):
        documents += 1
        for figure in figures(text, words, question):
            found.append((figure, cite(source, name, figure.start, figure.end)))
    found = _distinct(in_one_unit(found), by_name=operation in _WORDS)
    if len(found) < 2:
        raise NothingStated(f"fewer than two figures stated with {', '.join(words)}")
    run.emit(EventKind.MODE, mode="aggregate", reason=REASON)
    run.emit(EventKind.PHASE, name="FIGURES", figures=len(found), documents=documents)
    if operation in _WORDS:
        pick = max if operation == "max" else min
        found.insert(0, found.pop(pick(range(len(found)), key=lambda i: _value(found[i][0]))))
        figure = found[0][0]
        lead = (
            f"{figure.name}: {_shown(_value(figure), figure.scale)} {figure.unit}, "
            f"{_WORDS[operation]} of the {len(found)} figures stated [1]."
        )
    else:
        stated = [f for f, _ in found]
        values = [_value(f) for f in stated]
        total = sum(values)
        result = total if operation == "sum" else total / len(values)

        def amount(value: float) -> str:
            return _shown(value, _scale_for(value, stated))

        how = "in all" if operation == "sum" else f"on average ({amount(total)} over {len(values)})"
        listed = " + ".join(_shown(_value(f), f.scale) for f in stated[:CITED])
        more = " + …" if len(values) > CITED else ""
        lead = (
            f"{amount(result)} {stated[0].unit} {how}: {listed}{more}, "
            f"from {len(values)} figures stated."
        )
    shown = found[:CITED]
    support = [
        f"Read over the whole source ({documents:,} documents); code took every sentence stating "
        f"a figure with {', '.join(words)}:"
    ] + [
        f"- {f.name or 'unnamed'}: {_shown(_value(f), f.scale)} {f.unit} [{n}]"
        for n, (f, _) in enumerate(shown, 1)
    ]
    if len(found) > CITED:
        support.append(f"- … {len(found) - CITED} more")
    text = f"{lead}\n\n" + "\n".join(support)
    return _answer(run, text, [c for _, c in shown], REASON, len(found), documents)


def _answer(
    run: Run, text: str, citations: list[Citation], reason: str, records: int, documents: int
) -> Answer:
    run.emit(EventKind.FINAL, answer=text)
    return Answer(
        text=text,
        mode="aggregate",
        citations=citations,
        computed=text,
        usage=run.gateway.usage.to_dict(),
        stats={"records": records, "documents": documents},
        reason=reason,
    )


MAX_NAMED = 20  # more sentences than this hold the words: they are not one relation's records


def run_named(plan: Plan, source: object, run: Run) -> Answer:
    """Everyone (or everything) the sentences holding the question's specific words name, over the
    whole source: all its words of what is asked but its most frequent one (`join` in `Who joined
    the guild of weavers?`), three at least. NothingStated when it has fewer than three words,
    or fewer than two (or more than MAX_NAMED) names are found."""
    words = topic(plan.words)
    if len(words) < 3:
        raise NothingStated("the question asks who or which of fewer than three words")
    read = list(texts(source))
    frequency = {w: sum(_count(w, text) for _, text in read) for w in words}
    required = [w for w in words if w != max(words, key=frequency.__getitem__)]
    found = _distinct(
        [
            (f, cite(source, name, f.start, f.end))
            for name, text in read
            for f in named(text, required, plan.question)
        ],
        by_name=True,
    )
    if not 2 <= len(found) <= MAX_NAMED:
        raise NothingStated(f"{len(found)} names stated with {', '.join(required)}")
    run.emit(EventKind.MODE, mode="aggregate", reason=REASON_NAMED)
    run.emit(EventKind.PHASE, name="NAMED", records=len(found), documents=len(read))
    names = [f.name for f, _ in found]
    marks = "".join(f"[{n}]" for n in range(1, len(found) + 1))
    listed = f"{', '.join(names[:-1])} and {names[-1]}"
    text = f"{listed} {marks}.\n\n" + "\n".join(
        [
            f"Read over the whole source ({len(read):,} documents); code took every sentence "
            f"holding {', '.join(required)}:"
        ]
        + [f"- {name} [{n}]" for n, name in enumerate(names, 1)]
    )
    return _answer(run, text, [c for _, c in found], REASON_NAMED, len(found), len(read))


def _distinct(found: list[tuple[Figure, Citation]], by_name: bool) -> list[tuple[Figure, Citation]]:
    """For the highest or lowest, one figure a name (the first stated; unnamed ones left out);
    else one a sentence (a sentence in two documents is two)."""
    seen: dict[object, tuple[Figure, Citation]] = {}
    for figure, citation in found:
        if by_name and not figure.name:
            continue
        key = figure.name.casefold() if by_name else (citation.doc_id, citation.start)
        seen.setdefault(key, (figure, citation))
    return list(seen.values())


def _count(word: str, text: str) -> int:
    """How many words of `text` start with `word`."""
    return sum(1 for _ in re.finditer(rf"\b{re.escape(word)}", text, re.I))


def _value(figure: Figure) -> float:
    return figure.value or 0.0  # (a figure's sentence always states one)


def _scale_for(value: float, found: list[Figure]) -> str:
    """The scale word to show a value computed from figures all stated with one (the largest of
    theirs it holds one of: 2.95 billion from 950 million + 2 billion), else ''."""
    scales = sorted({figure.scale for figure in found}, key=lambda scale: SCALES.get(scale, 0))
    if not scales or "" in scales:
        return ""
    return next((s for s in reversed(scales) if SCALES[s] <= abs(value)), scales[0])


def _shown(value: float, scale: str = "") -> str:
    """A value as a reader writes it, in its scale word if it has one (`4.5 billion`)."""
    if scale:
        return f"{_shown(value / SCALES[scale])} {scale}"
    return f"{value:,.0f}" if value == int(value) else f"{value:,.2f}".rstrip("0").rstrip(".")
