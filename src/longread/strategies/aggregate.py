"""Counting by structure, the `aggregate` strategy's first way, for a question whose answer
depends on the whole text (how many, who or which the most, every case): every part of the
source is read, its records taken (each speech and its speaker, each mention of a word, each
section of a kind), those the question names kept (a speaker, an act, a document), and code
counts them. The answer leads with the result, then says what was counted, and cites the
records counted. No model is called."""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from functools import cached_property

from longread.answer import Answer, Citation
from longread.errors import InputError
from longread.events import EventKind
from longread.strategies.common import Run
from longread.strategies.texts import InMemory, TextDocs
from longread.text.questions import (
    SECTION_KINDS,
    Aggregate,
    aggregate_question,
    names,
    names_any_section,
    names_section,
)
from longread.text.records import mentions, speeches
from longread.tools.corpus import CorpusTools
from longread.tools.single_doc import SingleDocTools

MAX_CHARS = 50_000_000  # what one aggregate reads at most: more is refused (say why)
SHOWN = 10  # groups listed under the answer
CITED = 3  # records cited
_NOUNS = {"speeches": "speeches", "lines": "lines spoken", "mentions": "mentions"}


class NothingToCount(InputError):
    """The question is not an aggregate, or the source holds no records of what it counts."""


@dataclass
class Part:
    """One document of the source: its name, text, headings (title, start) in order and how to
    cite a span of it."""

    name: str
    text: str
    headings: list[tuple[str, int]]
    cite: Callable[[int, int], Citation]
    title: str = ""  # what the document calls itself, where known
    works: list[tuple[str, int]] = field(default_factory=list)  # several in one file (12 plays)
    _by_kind: dict[str, list[tuple[str, int]]] = field(default_factory=dict, repr=False)

    def work_at(self, offset: int) -> str:
        """The title of the work (of several in one file) a text at `offset` falls in, else the
        document's name."""
        at = bisect.bisect_right(self.works, offset, key=lambda work: work[1]) - 1
        return self.works[at][0] if at >= 0 else self.name

    def under(self, kind: str, offset: int) -> tuple[str, int] | None:
        """The heading of this kind (`act`) that a text at `offset` falls under: the last one at
        or before it, however the headings nest (a source's levels are not always consistent)."""
        of_kind = self._by_kind.get(kind)
        if of_kind is None:  # (sorted out once per kind, not once per record)
            of_kind = self._by_kind[kind] = [h for h in self.headings if kind_of(h[0]) == kind]
        at = bisect.bisect_right(of_kind, offset, key=lambda heading: heading[1]) - 1
        return of_kind[at] if at >= 0 else None

    @cached_property
    def title_counts(self) -> Counter[str]:
        """How many headings bear each title."""
        return Counter(title for title, _ in self.headings)


@dataclass
class Record:
    part: Part
    label: str  # the speaker, the word, the section's title
    start: int
    end: int
    weight: int = 1


def count_records(question: str, source: object, run: Run) -> Answer:
    """Count over the whole source the records the question asks about, found by their
    structure: the run's answer (see `tallied`)."""
    answer = tallied(question, source, run)
    run.emit(EventKind.FINAL, answer=answer.text)
    return answer


def tallied(question: str, source: object, run: Run) -> Answer:
    """The count over the whole source of the records the question asks about, found by their
    structure, as an answer citing the records counted; NothingToCount when it names no such
    records or the source has none (an InputError when the source is too large to read whole)."""
    plan = aggregate_question(question)
    if plan is None:
        raise NothingToCount("the question asks for no count, most, least or list")
    read = list(parts(source, _needs_headings(question, plan)))
    records = [r for part in read for r in _records(part, plan)]
    if not records:
        raise NothingToCount(f"no {_noun(plan)} to count in the source")
    kept = _named(question, plan, records, read)
    tally = _tally(kept, plan)
    run.emit(EventKind.PHASE, name="AGGREGATE", records=len(records), kept=len(kept))
    total = plan.operation == "count" and plan.group is None
    lead = _total(plan, kept) if total else _ranked(plan, tally)
    text = f"{lead}\n\n{_support(plan, records, kept, [] if total else tally, read)}"
    cited = kept if total or not tally else [r for r in kept if _group_of(r, plan) == tally[0][0]]
    return Answer(
        text=text,
        mode="aggregate",
        citations=[r.part.cite(r.start, min(r.end, r.start + 200)) for r in cited[:CITED]],
        computed=text,
        usage=run.gateway.usage.to_dict(),
        stats={"records": len(records), "counted": len(kept), "groups": len(tally)},
    )


def parts(source: object, headings: bool, limit: int = MAX_CHARS) -> Iterator[Part]:
    """The source's documents, read whole (`limit` characters in all at most: NothingToCount
    for more), with their headings when the count needs them (a corpus document's are read from
    its own index, built on first use)."""
    if isinstance(source, InMemory):
        source = source.as_texts(1_800)
    if isinstance(source, SingleDocTools):
        total = _checked(source.index.total_chars, limit)
        rows = source.index.rows
        works = _works([(r.title, r.start, r.level) for r in rows])
        yield Part(
            source.doc_id,
            source.index.read_range(0, total),  # (whole: the tool reads 1,000,000 at most)
            [(r.title, r.start) for r in rows] if headings else [],
            source.citation,
            works=works,
        )
    elif isinstance(source, TextDocs):
        _checked(source.total_chars, limit)
        for doc, base in zip(source.docs, source.offsets.starts, strict=True):
            yield Part(doc.name, doc.text, [], _shifted(source.citation, base))
    elif isinstance(source, CorpusTools):
        _checked(source.index.totals()[1], limit)
        for doc_id in source.list_documents():
            stored = source.index.doc(doc_id)
            rows = (
                [(r.title, r.start) for r in source.index.document_index(doc_id).rows]
                if headings
                else []
            )
            text = source.store.read_range(stored.store_id, 0, stored.chars)
            cite = _bound(source.citation, doc_id)
            yield Part(doc_id, text, rows, cite, str(stored.meta.get("title", "")))


def _works(headings: list[tuple[str, int, int]]) -> list[tuple[str, int]]:
    """The works of a file holding several (twelve plays, each `# Title` over its acts): its top
    headings that have sections of a kind under them (not an `EPILOGUE` alone); none for one."""
    top = min((level for _, _, level in headings), default=0)
    works: dict[tuple[str, int], bool] = {}
    current: tuple[str, int] | None = None
    for title, start, level in headings:
        if level == top:
            current = (title, start)
            works[current] = False
        elif current is not None and kind_of(title) in SECTION_KINDS:
            works[current] = True
    found = [work for work, holds_sections in works.items() if holds_sections]
    return found if len(found) > 1 else []


def _needs_headings(question: str, plan: Aggregate) -> bool:
    """Whether counting needs the documents' headings: to count sections, to group by a kind of
    section, or to keep to one the question names (`Act 3`)."""
    return (
        plan.unit == "sections"
        or plan.across is not None
        or plan.group not in (None, "speaker", "document")
        or names_any_section(question)
    )


def _checked(chars: int, limit: int) -> int:
    if chars > limit:
        raise NothingToCount(
            f"the source has {chars:,} characters; counting over it reads at most {limit:,}"
        )
    return chars


def _shifted(cite: Callable[[int, int], Citation], base: int) -> Callable[[int, int], Citation]:
    return lambda start, end: cite(base + start, base + end)


def _bound(
    cite: Callable[[str, int, int], Citation], doc_id: str
) -> Callable[[int, int], Citation]:
    return lambda start, end: cite(doc_id, start, end)


def _records(part: Part, plan: Aggregate) -> list[Record]:
    if plan.unit in ("speeches", "lines"):
        return [
            Record(part, u.label, u.start, u.end, u.lines if plan.unit == "lines" else 1)
            for u in speeches(part.text)
        ]
    if plan.unit == "mentions" and plan.term:
        return [Record(part, plan.term, s, e) for s, e in mentions(part.text, plan.term)]
    return [
        Record(part, title, start, start + len(title))
        for title, start in part.headings
        if plan.term and kind_of(title) == plan.term
    ]


def kind_of(title: str) -> str:
    """A heading's kind, its first word (`act` for `ACT III`)."""
    words = title.split()
    return words[0].lower().rstrip(".:") if words else ""


def _named(
    question: str, plan: Aggregate, records: list[Record], parts: list[Part]
) -> list[Record]:
    """The records of the speakers, documents and sections the question names (all of them for
    what it names none of): for sections, within one named section of each kind (`Scene 2 of
    Act III`)."""
    compared = plan.group == "speaker" and plan.operation in ("most", "least")
    if plan.unit in ("speeches", "lines") and (plan.group != "speaker" or compared):
        titles = [t for p in parts for t in _titles(p)]
        named = {
            r.label
            for r in records
            if names(question, r.label) and not _only_as_title(question, r.label, titles)
        }
        longest = {n for n in named if not any(n != o and names(o, n) for o in named)}
        if longest and (len(longest) > 1 or not compared):  # (`Hamlet or Horatio?`: those two)
            records = [r for r in records if r.label in longest]
    if len(parts) > 1 and plan.group != "document":
        chosen = {p.name for p in parts if any(names(question, t) for t in _titles(p))}
        records = [r for r in records if r.part.name in chosen] if chosen else records
    works = {t for p in parts for t, _ in p.works if names(question, t)}
    if works and plan.group != "document":  # (one file of several works: those it names)
        records = [r for r in records if r.part.work_at(r.start) in works]
    scopes: dict[str, set[str]] = {}  # kind -> the titles of that kind the question names
    for part in parts:
        for title, _ in part.headings:
            if kind_of(title) != plan.group and names_section(question, title):
                scopes.setdefault(kind_of(title), set()).add(title)
    return [
        r
        for r in records
        if all(
            (under := r.part.under(kind, r.start)) and under[0] in titles
            for kind, titles in scopes.items()
        )
    ]


def _only_as_title(question: str, name: str, titles: list[str]) -> bool:
    """Whether a speaker's name stands in the question only within the title of a play (`the
    most speeches in Macbeth`, `Doctor … in King Lear`; not `does Othello speak in Othello`)."""
    rest = question
    for title in titles:
        if names(title, name):
            words = r"\s+".join(map(re.escape, title.split()))
            rest = re.sub(rf"\b(?:in|of|from)\s+{words}(?!\w|'s)", " ", rest, flags=re.I)
    return rest != question and not names(rest, name)


def _titles(part: Part) -> list[str]:
    """How a question may name a document: its file name (`plays/hamlet.md` → `hamlet`), its
    title, the titles of the works it holds."""
    stem = part.name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    titles = [stem.replace("-", " ").replace("_", " "), *([part.title] if part.title else [])]
    return titles + [title for title, _ in part.works]


def _group_of(record: Record, plan: Aggregate) -> str | None:
    if plan.group == "speaker":
        return record.label
    if plan.group == "document":
        return record.part.work_at(record.start)
    if plan.group is not None:  # a kind of section: the one of that kind the record is under
        under = record.part.under(plan.group, record.start)
        return None if under is None else _section_name(record.part, plan.group, under)
    return record.label if plan.operation in ("most", "least", "list") else None


def _section_name(part: Part, kind: str, heading: tuple[str, int]) -> str:
    """A section's title, after the title of the section of another kind it falls under when
    that tells apart sections of the same title (`ACT II, SCENE I. A room.`)."""
    title, start = heading
    if part.title_counts[title] < 2:
        return title
    before = [(t, s) for t, s in part.headings if s < start and kind_of(t) not in ("", kind)]
    return f"{before[-1][0]}, {title}" if before else title


def _tally(records: list[Record], plan: Aggregate) -> list[tuple[str, int]]:
    """(group, total weight, or the sections of kind `across` its records fall in), ordered as
    the operation ranks them (ties by name)."""
    totals: Counter[str] = Counter()
    for group, weight in _weighed(records, plan):
        if group is not None:
            totals[group] += weight
    sign = 1 if plan.operation == "least" else -1
    return sorted(totals.items(), key=lambda item: (sign * item[1], item[0]))


def _weighed(records: list[Record], plan: Aggregate) -> Iterator[tuple[str | None, int]]:
    """Each record's group and weight; for `across`, each section its group's records fall in,
    once."""
    if plan.across is None:
        yield from ((_group_of(r, plan), r.weight) for r in records)
        return
    seen = set()
    for record in records:
        section = record.part.under(plan.across, record.start)
        key = (_group_of(record, plan), record.part.name, section)
        if section is not None and key not in seen:
            seen.add(key)
            yield key[0], 1


def _noun(plan: Aggregate) -> str:
    if plan.across:
        return f"{plan.across}s"
    if plan.unit == "sections":
        return f"{plan.term}s"
    if plan.unit == "mentions":
        return f"mentions of “{plan.term}”"
    return _NOUNS[plan.unit]


def _total(plan: Aggregate, kept: list[Record]) -> str:
    return f"{sum(weight for _, weight in _weighed(kept, plan)):,} {_noun(plan)}."


def _ranked(plan: Aggregate, tally: list[tuple[str, int]]) -> str:
    """The direct answer for a ranking, a list or a count per group: the group that ranks first,
    with its figure."""
    noun = _noun(plan)
    if not tally:
        return f"None: no {noun} of what the question names were found."
    if plan.operation == "list":
        return ", ".join(group for group, _ in tally) + f" ({len(tally)})."
    if plan.operation == "distinct":
        shown = ", ".join(group for group, _ in tally[:SHOWN])
        return f"{len(tally)}: {shown}" + (", …" if len(tally) > SHOWN else "") + "."
    (best, count), rest = tally[0], tally[1:]
    if plan.operation == "count":  # a count per group: the first is one of several
        return f"{sum(n for _, n in tally):,} {noun} in all; {best} has {count:,}."
    tied = [group for group, n in rest if n == count]
    which = "most" if plan.operation == "most" else "fewest"
    return f"{best}: {count:,} {noun}, the {which}" + (
        f" (tied with {', '.join(tied)})." if tied else "."
    )


def _support(
    plan: Aggregate,
    records: list[Record],
    kept: list[Record],
    tally: list[tuple[str, int]],
    parts: list[Part],
) -> str:
    """What was counted, and the first groups with their figures."""
    where = f"{len(parts)} documents" if len(parts) > 1 else "the whole text"
    text = (
        f"Counted by code over {where}: {len(records):,} {_noun(replace(plan, across=None))} "
        f"found, {len(kept):,} of them about what the question names"
        + (f", and the {plan.across}s they fall in." if plan.across else ".")
    )
    if tally:
        text += "\n" + "\n".join(f"- {group}: {n}" for group, n in tally[:SHOWN])
        if len(tally) > SHOWN:
            text += f"\n- … {len(tally) - SHOWN} more"
    return text
