"""Fixed strategies over an indexed document, for root models that cannot drive the code-writing
loop: `map` reads the passages full-text search ranks best; `walk_toc` lets the root model walk
the table of contents (titles and summaries) down to the sections worth reading (the `tree`
strategy, for a document without a summary tree). Both then read their passages with the
sub-model in parallel (see mapreduce)."""

from __future__ import annotations

import re

from longread.answer import Answer
from longread.ingest.structure import Section
from longread.strategies.common import Run
from longread.strategies.mapreduce import Chunk, best_chunks, cut_chunks, map_answer
from longread.tools.single_doc import SingleDocTools

ROUTE = """Question: {question}

Sections of the document:
{menu}

Which sections most likely contain the answer? Reply with up to {width} section numbers from the
list, best first, for example: 3, 1"""
MENU_SIZE = 40  # a longer list of sibling sections is cut to the ones search ranks best
_NUMBER = re.compile(r"\d+")


def chunk_plan(run: Run) -> tuple[int, int]:
    """(characters per chunk, chunks to read): few chunks for a weak sub-model."""
    weak = not run.sub.writes_code
    chunk_chars = run.options.refine_slice_chars or 1_800
    return chunk_chars, run.options.max_slices or (8 if weak else 24)


def search_chunks(
    question: str, tools: SingleDocTools, chunk_chars: int, sections: int
) -> list[Chunk]:
    """The passages of the `sections` sections whose own text matches the question best."""
    hits = tools.search_ids(question, sections)
    return cut_chunks(
        tools,
        [tools.own_span(tools.section_name(section_id)) for section_id, _ in hits],
        chunk_chars,
    )


def run_map(question: str, tools: SingleDocTools, run: Run) -> Answer:
    """Read the best passages of the sections whose text matches the question best."""
    chunk_chars, limit = chunk_plan(run)
    chunks = search_chunks(question, tools, chunk_chars, limit)
    chosen = best_chunks(question, chunks, limit)
    run.emit("phase", name="MAP", chunks=len(chosen))
    return map_answer(question, chosen, run, tools, "map", len(chunks))


def walk_toc(
    question: str, tools: SingleDocTools, run: Run, width: int = 2, max_sections: int = 6
) -> Answer:
    """Walk the TOC from the top: at each level the root model picks up to `width` sections from
    their titles and summaries (search's best pick is always added); their subsections form the
    next menu. The chosen sections' own text is then read like `map` reads."""
    chunk_chars, limit = chunk_plan(run)
    ranks = search_ranks(question, tools)
    chosen: list[Section] = []
    menu = tools.outline()
    while menu and len(chosen) < max_sections:
        picked = _pick(question, menu, tools, run, ranks, width)
        run.emit("route", picked=[s.title for s in picked])
        chosen += picked
        menu = [child for section in picked for child in section.children]
    chunks = cut_chunks(tools, [tools.own_span(s.title) for s in chosen], chunk_chars)
    return map_answer(
        question,
        best_chunks(question, chunks, limit),
        run,
        tools,
        "tree",
        len(chunks),
        {"sections_chosen": [s.title for s in chosen]},
    )


def search_ranks(question: str, tools: SingleDocTools) -> list[tuple[int, float]]:
    """(offset, score) of the sections full-text search ranks best for the question."""
    return [
        (tools.section_start(section_id), score)
        for section_id, score in tools.search_ids(question, 50)
    ]


def span_score(start: int, end: int, ranks: list[tuple[int, float]]) -> float:
    """How much of what search found for the question lies in [start, end)."""
    return sum(score for offset, score in ranks if start <= offset < end)


def _pick(
    question: str,
    menu: list[Section],
    tools: SingleDocTools,
    run: Run,
    ranks: list[tuple[int, float]],
    width: int,
) -> list[Section]:
    by_search = sorted(
        menu, key=lambda s: span_score(s.start_char, s.end_char, ranks), reverse=True
    )
    kept = {s.title for s in by_search[:MENU_SIZE]}
    shown = [s for s in menu if s.title in kept]
    summaries = tools.index.summaries
    lines = [
        f"{n}. {s.title}" + (f" — {summaries[s.title][:160]}" if s.title in summaries else "")
        for n, s in enumerate(shown, 1)
    ]
    reply = run.gateway.complete(
        run.root,
        ROUTE.format(question=question, menu="\n".join(lines), width=width),
        purpose="route",
        max_tokens=24,
    ).text
    picked = [shown[int(n) - 1] for n in _NUMBER.findall(reply) if 1 <= int(n) <= len(shown)]
    best = [s for s in by_search[:1] if span_score(s.start_char, s.end_char, ranks) > 0]
    return list({s.title: s for s in picked[:width] + best}.values())
