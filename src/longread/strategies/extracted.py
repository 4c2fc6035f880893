"""The `aggregate` strategy, and its second way: an aggregate question with nothing code can
count by structure (`How many different ships are named?`, `List every treaty`): the sub-model
lists, chunk by chunk over the whole source, the records the question counts; each is kept only
where its chunk holds it word for word, and code counts them. The answer leads with the result,
says how every chunk was read, and cites the records counted."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from longread.answer import Answer, Citation
from longread.errors import InputError
from longread.events import EventKind
from longread.llm.usage import Purpose
from longread.strategies.aggregate import count_records
from longread.strategies.common import Run
from longread.strategies.figures import run_stated
from longread.strategies.source_parts import NothingToCount
from longread.strategies.texts import InMemory, TextDocs
from longread.text.questions import aggregate_question, counted_words, whole_text_operation
from longread.tools.bounds import fit_chars
from longread.tools.corpus import CorpusTools
from longread.tools.extract import (
    Extraction,
    asking,
    chunk_room,
    extract,
    instruction_for,
    least,
    tally_values,
)
from longread.tools.single_doc import SingleDocTools
from longread.tools.toolset import CHUNK_CHARS

SHOWN = 10  # values listed under the answer
CITED = 3  # records cited
PREFILTER_CHUNKS = 64  # a larger source's chunks without the question's words go unread


class NothingFound(InputError):
    """The sub-model found nothing the question counts in any chunk."""


@dataclass
class Flat:
    """A source as one text: its length, a reader of [start, end) and a citation of a span."""

    length: int
    read: Callable[[int, int], str]
    cite: Callable[[int, int], Citation]


def run_aggregate(question: str, source: object, run: Run, by_model: bool = True) -> Answer:
    """The `aggregate` strategy: the records the question counts, found by their structure, else
    figures or names stated across the text, found by rules (no model call either way), else
    (with `by_model`) listed by the sub-model from every chunk; counted by code. NothingToCount
    when none finds any."""
    try:
        return count_records(question, source, run)
    except NothingToCount as missing:
        try:
            return run_stated(question, source, run)
        except NothingToCount:
            pass
        if not by_model:
            raise
        plan = aggregate_question(question)
        operation = whole_text_operation(question) or (plan.operation if plan else "list")
        try:
            return run_extracted(question, source, run, operation)
        except NothingFound as nothing:
            raise NothingToCount(f"{missing}; {nothing}") from None


def run_extracted(question: str, source: object, run: Run, operation: str) -> Answer:
    """Answer `question` by the records the sub-model lists from every chunk of `source`,
    counted by code as `operation` (count, distinct, list, most, least) says. In a source of
    more than PREFILTER_CHUNKS chunks, those holding none of the question's words are passed
    over by code (and the answer says so)."""
    flat = _flat(source)
    instruction = instruction_for(question)
    size = chunk_room(fit_chars(run.sub), instruction, CHUNK_CHARS)
    words = counted_words(question) if flat.length > PREFILTER_CHUNKS * size else []

    def call(prompt: str) -> str:
        return run.gateway.complete(run.sub, prompt, purpose=Purpose.SUBCALL).text

    def progress(done: int, total: int) -> None:
        run.emit(EventKind.PROGRESS, task="reading every chunk", done=done, total=total)

    result = extract(
        flat.length,
        flat.read,
        instruction,
        asking(run.gateway.map, call),
        chunk_chars=size,
        must_contain=words,
        progress=progress,
    )
    run.emit(EventKind.PHASE, name="EXTRACT", summary=result.summary())
    if not result.found:
        raise NothingFound(f"nothing the question counts was found: {result.summary()}")
    ranked = tally_values([f.item for f in result.found])
    lead = f"{_lead(operation, result, ranked)}{_caveat(result, words)}."
    text = f"{lead}\n\n{_support(result, ranked)}"
    run.emit(EventKind.FINAL, answer=text)
    chosen = (least(ranked) if operation == "least" else ranked[0])[0].casefold()
    own = [f for f in result.found if f.key == chosen]
    cited = own if operation in ("most", "least") else result.found
    return Answer(
        text=text,
        mode="aggregate",
        citations=[flat.cite(f.start, f.end) for f in cited[:CITED]],
        computed=text,
        usage=run.gateway.usage.to_dict(),
        stats={
            "chunks": result.chunks,
            "asked": result.asked,
            "skipped": result.skipped,
            "records": len(result.found),
            "failed": result.failed,
            "unread": result.unread,
        },
        reason="the question counts over the whole text: the sub-model read every chunk, "
        "code counted",
    )


def _caveat(result: Extraction, words: list[str]) -> str:
    """What the lead rests on less than all of: chunks not read, or passed over by code."""
    if result.partial:
        return " (from the chunks read; some were not)"
    if result.skipped:
        return f" (chunks holding none of {', '.join(words)} were passed over)"
    return ""


def _flat(source: object) -> Flat:
    if isinstance(source, InMemory):
        source = source.as_texts(1_800)
    if isinstance(source, TextDocs):
        return Flat(source.total_chars, source.read_range, source.citation)
    if isinstance(source, SingleDocTools):
        return Flat(source.context_length(), source.read_context, source.citation)
    if isinstance(source, CorpusTools):
        return Flat(source.context_length(), source.read_context, source.flat_citation)
    raise InputError(f"cannot read {type(source).__name__} chunk by chunk")


def _lead(operation: str, result: Extraction, ranked: list[tuple[str, int]]) -> str:
    """The direct answer, without its full stop: the figure, the values or the one that ranks
    first (or last)."""
    more = ", …" if len(ranked) > SHOWN else ""
    values = ", ".join(value for value, _ in ranked[:SHOWN]) + more
    if operation == "count":
        return f"{len(result.found):,}"
    if operation == "distinct":
        return f"{len(ranked):,}: {values}"
    if operation == "list":
        return f"{values} ({len(ranked):,})"
    value, count = least(ranked) if operation == "least" else ranked[0]
    which = "the least often" if operation == "least" else "the most often"
    return f"{value}: {count:,} times, {which}"


def _support(result: Extraction, ranked: list[tuple[str, int]]) -> str:
    lines = [f"Read over the whole source, {result.summary()} Counted by code:"]
    lines += [f"- {value}: {count}" for value, count in ranked[:SHOWN]]
    if len(ranked) > SHOWN:
        lines.append(f"- … {len(ranked) - SHOWN} more")
    return "\n".join(lines)
