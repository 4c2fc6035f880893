"""Counting by structure, the `aggregate` strategy's first way, for a question whose answer
depends on the whole text (how many, who or which the most, every case): every part of the
source is read, its records taken (each speech and its speaker, each mention of a word, each
section of a kind), those the question names kept (a speaker, an act, a document), and code
counts them. The answer leads with the result, then says what was counted, and cites the
records counted. No model is called."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace

from longread.answer import Answer
from longread.events import EventKind
from longread.strategies.common import Run
from longread.strategies.source_parts import NothingToCount, Part, kind_of, parts
from longread.strategies.speakers import speakers_named, titles_of
from longread.text.questions import (
    ONE_RECORD,
    ORDINALS,
    SECTION_KINDS,
    Aggregate,
    aggregate_question,
    names,
    names_any_section,
    sections_named,
)
from longread.text.records import Unit, mentions, paragraphs

SHOWN = 10  # groups listed under the answer
CITED = 3  # records cited
_NOUNS = {
    "speeches": "speeches",
    "lines": "lines spoken",
    "words spoken": "words spoken",
    "mentions": "mentions",
    "speakers": "characters speaking",
    "words": "words",
}
_RECORDS = {
    "speakers": "speeches",
    "words spoken": "speeches",
    "words": "paragraphs",
}  # what is read to count them


@dataclass
class Record:
    part: Part
    label: str  # the speaker, the word, the section's title
    start: int
    end: int
    weight: int = 1
    speaker: str = ""  # who says it, in a script


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
    if plan.group not in (None, "speaker") and all(_group_of(r, plan) is None for r in records):
        raise NothingToCount(f"no {plan.group} in the source to group by")
    said = plan.unit in ("speeches", "lines", "words spoken", "mentions")
    speakers = speakers_named(question, read, plan.term) if said else set()
    compared = len(speakers) > 1 and plan.operation in ("most", "least")
    if compared and plan.unit == "mentions" and plan.group is None:  # (`A or B say blood more?`)
        plan = replace(plan, group="speaker")
    kept = _named(question, plan, records, read, speakers)
    tally = _tally(kept, plan, speakers if compared and plan.group == "speaker" else set())
    run.emit(EventKind.PHASE, name="AGGREGATE", records=len(records), kept=len(kept))
    if plan.operation in ONE_RECORD:
        cited = _one(plan, kept)
        lead = f"{cited[0].label}: the {plan.operation} speech" if cited else "None"
        if cited and plan.unit == "lines":
            lead += f", {cited[0].weight:,} lines"
        text = f"{lead}.\n\n{_support(plan, records, kept, [], read)}"
    else:
        total = plan.operation == "count" and plan.group is None
        lead = _total(plan, kept) if total else _ranked(plan, tally)
        text = f"{lead}\n\n{_support(plan, records, kept, [] if total else tally, read)}"
        place = min(plan.rank, len(tally)) - 1
        cited = (
            kept
            if total or not tally
            else [r for r in kept if _group_of(r, plan) == tally[place][0]]
        )
    return Answer(
        text=text,
        mode="aggregate",
        citations=[r.part.cite(r.start, min(r.end, r.start + 200)) for r in cited[:CITED]],
        computed=text,
        usage=run.gateway.usage.to_dict(),
        stats={"records": len(records), "counted": len(kept), "groups": len(tally)},
    )


def _one(plan: Aggregate, kept: list[Record]) -> list[Record]:
    """The one record asked for: the first or last in the text's order, or the longest or
    shortest (the first of a tie)."""
    if not kept:
        return []
    if plan.operation in ("first", "last"):
        return [kept[0] if plan.operation == "first" else kept[-1]]
    pick = max if plan.operation == "longest" else min
    return [pick(kept, key=lambda record: record.weight)]


def _needs_headings(question: str, plan: Aggregate) -> bool:
    """Whether counting needs the documents' headings: to count sections, to group by a kind of
    section, or to keep to one the question names (`Act 3`)."""
    return (
        plan.unit == "sections"
        or plan.across is not None
        or plan.group not in (None, "speaker", "document")
        or names_any_section(question)
    )


def _records(part: Part, plan: Aggregate) -> list[Record]:
    if plan.unit == "words":
        return [Record(part, "", s, e, words) for s, e, words in paragraphs(part.text)]
    if plan.unit in ("speeches", "lines", "speakers", "words spoken"):
        return [
            Record(part, u.label, u.start, u.end, _weight(part.text, u, plan.unit), u.label)
            for u in part.speeches
        ]
    if plan.unit == "mentions" and plan.term:
        return [
            Record(part, plan.term, s, e, speaker=part.speaker_at(s))
            for s, e in mentions(part.text, plan.term)
        ]
    return [
        Record(part, title, start, start + len(title))
        for title, start in part.headings
        if plan.term and kind_of(title) == plan.term
    ]


def _weight(text: str, unit: Unit, counted: str) -> int:
    """What one speech counts for: its lines spoken, its words (its label's not), or one."""
    if counted == "lines":
        return unit.lines
    if counted == "words spoken":
        return len(text[unit.start : unit.end].split()) - len(unit.label.split())
    return 1


def _named(
    question: str, plan: Aggregate, records: list[Record], parts: list[Part], speakers: set[str]
) -> list[Record]:
    """The records of the speakers, documents and sections the question names (all of them for
    what it names none of): for sections, within one named section of each kind (`Scene 2 of
    Act III`)."""
    ranked = plan.group == "speaker" and plan.operation in ("most", "least")
    if speakers and (plan.group != "speaker" or len(speakers) > 1 and ranked):  # (`A or B?`)
        records = [r for r in records if r.speaker in speakers]
    chosen = {p.name for p in parts if any(names(question, t) for t in titles_of(p))}
    if len(parts) > 1 and (plan.group != "document" or len(chosen) > 1):  # (`Lear or Othello?`)
        records = [r for r in records if r.part.name in chosen] if chosen else records
    works = {t for p in parts for t, _ in p.works if names(question, t)}
    if works and plan.group != "document":  # (one file of several works: those it names)
        records = [r for r in records if r.part.work_at(r.start) in works]
    held = {kind for part in parts for kind in part.kind_counts}
    places = {  # (of the kinds the source has: `Henry IV, Part I` has no part headings)
        kind: found
        for kind in SECTION_KINDS
        if kind in held and (found := sections_named(question, kind))
    }
    if len(places.get(plan.group or "", ())) < 2:  # (of the kind ranked, only those compared)
        places.pop(plan.group or "", None)
    if not places:
        return records
    within = {part.name: _sections_at(part, places) for part in parts}
    return [
        r
        for r in records
        if all(
            (under := r.part.under(kind, r.start)) and under[1] in within[r.part.name][kind]
            for kind in places
        )
    ]


def _sections_at(part: Part, places: dict[str, set[int]]) -> dict[str, set[int]]:
    """kind -> where the sections of that kind at these places start (`the last scene`: of
    each work; `scene 2 of Act 3`: counted within the act, the kind with fewer sections)."""
    outer = min(places, key=lambda kind: part.kind_counts[kind])
    chosen = {}
    for kind, wanted in places.items():
        runs: dict[tuple[str, object], list[int]] = {}  # (work, the outer section) -> starts
        for _, start in part.headings_of(kind):
            held_by = part.under(outer, start) if kind != outer else None
            runs.setdefault((part.work_at(start), held_by), []).append(start)
        chosen[kind] = {
            starts[n - 1 if n > 0 else n]
            for starts in runs.values()
            for n in wanted
            if n <= len(starts)
        }
    return chosen


def _group_of(record: Record, plan: Aggregate) -> str | None:
    if plan.group == "speaker":
        return record.speaker or None
    if plan.group == "document":
        return record.part.work_at(record.start)
    if plan.group is not None:  # a kind of section: the one of that kind the record is under
        under = record.part.under(plan.group, record.start)
        return None if under is None else _section_name(record.part, plan.group, under)
    return record.label if plan.operation in ("most", "least", "list") else None


def _section_name(part: Part, kind: str, heading: tuple[str, int]) -> str:
    """A section's title, after the title of the section holding it when that tells apart
    sections of the same title (`ACT II, SCENE I. A room.`), and after its work's or
    document's in a source of several (`Hamlet, ACT III`)."""
    title, start = heading
    if part.title_counts[title] > 1:
        kinds = part.kind_counts
        outer = [k for k in SECTION_KINDS if k != kind and 0 < kinds[k] < kinds[kind]]  # (acts)
        held_by = [h for k in outer if (h := part.under(k, start)) is not None]
        title = f"{max(held_by, key=lambda h: h[1])[0]}, {title}" if held_by else title
    return f"{part.work_at(start)}, {title}" if part.works or part.of_several else title


def _tally(records: list[Record], plan: Aggregate, compared: set[str]) -> list[tuple[str, int]]:
    """(group, total weight, or the sections of kind `across` its records fall in), ordered as
    the operation ranks them (ties by name); the groups `compared` are there at 0 without
    records."""
    totals: Counter[str] = Counter(dict.fromkeys(compared, 0))
    for group, weight in _weighed(records, plan):
        if group is not None:
            totals[group] += weight
    sign = 1 if plan.operation == "least" else -1
    return sorted(totals.items(), key=lambda item: (sign * item[1], item[0]))


def _weighed(records: list[Record], plan: Aggregate) -> Iterator[tuple[str | None, int]]:
    """Each record's group and weight; for `across`, each section its group's records fall in,
    once; for speakers, each speaker heard in its group, once."""
    if plan.across is None and plan.unit != "speakers":
        yield from ((_group_of(r, plan), r.weight) for r in records)
        return
    seen = set()
    for record in records:
        group = _group_of(record, plan)
        if plan.unit == "speakers":
            key: tuple[str | None, str, object] = (group, record.label, None)
        else:
            section = record.part.within(plan.across or "", record.start)
            if section is None:
                continue
            key = (group, record.part.name, section)
        if key not in seen:
            seen.add(key)
            yield group, 1


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
        if len(tally) == 1:
            return f"{tally[0][0]}, the only one ({tally[0][1]:,} {noun})."
        return ", ".join(group for group, _ in tally) + f" ({len(tally)})."
    if plan.operation == "distinct":
        shown = ", ".join(group for group, _ in tally[:SHOWN])
        return f"{len(tally)}: {shown}" + (", …" if len(tally) > SHOWN else "") + "."
    if plan.operation == "count":  # a count per group: the first is one of several
        best, count = tally[0]
        return f"{sum(n for _, n in tally):,} {noun} in all; {best} has {count:,}."
    if plan.rank > len(tally):
        return f"None: only {len(tally)} ranked by {noun}."
    best, count = tally[plan.rank - 1]
    tied = [group for group, n in tally if n == count and group != best]
    if len(tied) > SHOWN:
        tied = [*tied[:SHOWN], f"{len(tied) - SHOWN} more"]
    which = {"most": "most", "least": "fewest"}[plan.operation]
    if plan.unit == "words":
        which = {"most": "longest", "least": "shortest"}[plan.operation]
    if plan.rank > 1:
        which = f"{ORDINALS[plan.rank - 1]} {which}"
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
    found = _noun(replace(plan, across=None))
    text = (
        f"Counted by code over {where}: {len(records):,} {_RECORDS.get(plan.unit, found)} "
        f"found, {len(kept):,} of them about what the question names"
        + (f", and the {plan.across}s they fall in." if plan.across else ".")
    )
    if tally:
        text += "\n" + "\n".join(f"- {group}: {n}" for group, n in tally[:SHOWN])
        if len(tally) > SHOWN:
            text += f"\n- … {len(tally) - SHOWN} more"
    return text
