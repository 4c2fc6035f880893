"""The `retrieval` strategy (classic RAG): paragraph-bounded chunks ranked by BM25, the best
`top_k` given to the root model in one prompt, numbered so that its answer can cite them. The
chunks come from full-text search for an indexed document, from the best-ranked documents for a
corpus, and from every chunk for documents in memory."""

from __future__ import annotations

import re

from longread.answer import Answer, Citation
from longread.events import EventKind
from longread.llm.usage import Purpose
from longread.strategies.common import Run
from longread.strategies.corpus_view import candidates
from longread.strategies.reading import Chunk, Readable, best_chunks, chunk_plan, search_chunks
from longread.strategies.texts import InMemory, TextDocs
from longread.text.grounding import grounded_span
from longread.text.loops import cut_echo
from longread.tools.bounds import fit_chars
from longread.tools.corpus import CorpusTools
from longread.tools.single_doc import SingleDocTools

SYSTEM = (
    "Answer the question using only the passages given. "
    "If they do not say, answer that they do not."
)
PROMPT = """Passages, each with its number:
{passages}

Question: {question}
Answer using only these passages. Put the passage number, e.g. [2], after each claim it supports."""
_MARKER = re.compile(r"(\s*)\[(\d+)\]")


def run_retrieval(
    question: str, chunks: list[Chunk], run: Run, tools: Readable, total_chunks: int | None = None
) -> Answer:
    """Answer from the `run.options.top_k` chunks that match the question best (as many as fit
    the root model's window). A capable root model's `[n]` marks are renumbered in order of use,
    so that `[n]` cites `citations[n-1]`; an answer without marks (or from a model that cannot
    write code, whose marks are dropped) cites the sentences it rests on, if any."""
    chosen = _fitting(best_chunks(question, chunks, run.options.top_k), fit_chars(run.root, 700))
    total = total_chunks if total_chunks is not None else len(chunks)
    run.emit(EventKind.PHASE, name="RETRIEVE", chunks=[c.chunk_id for c in chosen], total=total)
    passages = "\n\n".join(
        f"[{n}] ({c.section})\n{c.text.strip()}" for n, c in enumerate(chosen, 1)
    )
    run.emit(EventKind.PHASE, name="RESPOND")
    reply = run.gateway.complete(
        run.root,
        PROMPT.format(passages=passages, question=question),
        system=SYSTEM,
        purpose=Purpose.RETRIEVAL,
        max_tokens=512,
    ).text
    reply = cut_echo(reply, PROMPT).strip()
    if run.root.writes_code:
        text, cited = renumber(reply, len(chosen))
    else:  # a small model's marks are noise: only the sentences its words stand in are cited
        text, cited = _MARKER.sub("", reply).strip(), []
    claim = _MARKER.sub("", text)  # the marks' numbers are not words of the answer
    citations = [_cite(claim, chosen[n - 1], question, tools) for n in cited]
    if not cited:
        citations = [
            c for c in (_grounded(claim, chunk, question, tools) for chunk in chosen) if c
        ][:3]
    if len(chosen) < total:
        text += f"\n\n(Answered from {len(chosen)} of {total} passages, chosen by relevance.)"
    run.emit(EventKind.FINAL, answer=text)
    return Answer(
        text=text,
        mode="retrieval",
        citations=citations,
        usage=run.gateway.usage.to_dict(),
        stats={"chunks_total": total, "chunks_read": len(chosen)},
    )


def _fitting(chunks: list[Chunk], budget_chars: int) -> list[Chunk]:
    """The leading chunks whose text fits in `budget_chars` (at least one)."""
    kept: list[Chunk] = []
    used = 0
    for chunk in chunks:
        used += len(chunk.text)
        if kept and used > budget_chars:
            break
        kept.append(chunk)
    return kept


def renumber(reply: str, count: int) -> tuple[str, list[int]]:
    """The reply with its valid `[n]` marks renumbered 1, 2… in order of first use, and the
    passage numbers they stood for (marks naming no passage are dropped)."""
    order: list[int] = []

    def swap(match: re.Match[str]) -> str:
        n = int(match.group(2))
        if not 1 <= n <= count:
            return ""
        if n not in order:
            order.append(n)
        return f"{match.group(1)}[{order.index(n) + 1}]"

    return _MARKER.sub(swap, reply).strip(), order


def _grounded(answer: str, chunk: Chunk, question: str, tools: Readable) -> Citation | None:
    span = grounded_span(answer, chunk.text, question)
    return None if span is None else tools.citation(chunk.start + span[0], chunk.start + span[1])


def _cite(answer: str, chunk: Chunk, question: str, tools: Readable) -> Citation:
    """The sentence of a cited chunk the answer rests on, else the whole chunk."""
    return _grounded(answer, chunk, question, tools) or tools.citation(chunk.start, chunk.end)


def retrieve_document(question: str, tools: SingleDocTools, run: Run) -> Answer:
    """From the passages of the sections full-text search ranks best."""
    chunk_chars, _ = chunk_plan(run)
    return run_retrieval(
        question, search_chunks(question, tools, chunk_chars, run.options.top_k), run, tools
    )


def retrieve_corpus(question: str, tools: CorpusTools, run: Run) -> Answer:
    """From the best passages of the documents full-text search ranks best."""
    chunk_chars, _ = chunk_plan(run)
    _, view, chunks = candidates(tools, question, run.options.top_k, chunk_chars)
    return run_retrieval(question, chunks, run, view)


def retrieve_texts(question: str, docs: TextDocs, run: Run) -> Answer:
    """From every chunk of the documents held in memory."""
    return run_retrieval(question, docs.chunks, run, docs)


def retrieve_context(question: str, context: InMemory, run: Run) -> Answer:
    """From the chunks of an in-memory context."""
    return retrieve_texts(question, context.as_texts(chunk_plan(run)[0]), run)
