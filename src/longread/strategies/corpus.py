"""Answering about a corpus: `rlm` for a root model that writes code (it explores with the corpus
tools), else `map` (seed 004's example flow as a fixed pipeline): full-text search ranks the
documents, their best passages are read by the sub-model in parallel, and the findings are joined
with citations into each document. `retrieval` answers from the best passages in one prompt."""

from __future__ import annotations

from longread.answer import Answer, Citation
from longread.errors import BudgetExceededError, InputError
from longread.ingest.metadata import rule_entities, tokens
from longread.strategies.common import Run
from longread.strategies.mapreduce import Chunk, ChunkReader, cut_chunks
from longread.strategies.retrieval import run_retrieval
from longread.strategies.rlm import RLMLoop
from longread.strategies.sections import chunk_plan
from longread.tools.corpus import CorpusTools
from longread.tools.offsets import JoinedOffsets
from longread.tools.rank import bm25_scores

CORPUS_MODES = ("auto", "retrieval", "map", "rlm")
PASSAGES_PER_DOC = 4  # chunks' worth of each ranked document considered for reading


class CorpusView:
    """Chosen documents laid end to end in one offset space (one character apart), so the chunk
    reader, which reads and cites one document, can read and cite passages of several."""

    def __init__(self, tools: CorpusTools, doc_ids: list[str]):
        self.tools = tools
        self.doc_ids = doc_ids
        self.offsets = JoinedOffsets([tools.index.doc(doc_id).chars for doc_id in doc_ids], 1)

    def locate(self, offset: int) -> tuple[str, int]:
        """(doc id, offset in that document) of a view offset."""
        at, local = self.offsets.locate(offset)
        return self.doc_ids[at], local

    def span(self, doc_id: str, start: int, end: int) -> tuple[int, int]:
        base = self.offsets.starts[self.doc_ids.index(doc_id)]
        return base + start, base + end

    def read_range(self, start: int, end: int) -> str:
        doc_id, local = self.locate(start)
        return self.tools.read_document_chunk(doc_id, local, local + end - start)

    def section_at(self, offset: int) -> str:
        return self.locate(offset)[0]

    def citation(self, start: int, end: int) -> Citation:
        doc_id, local = self.locate(start)
        return self.tools.citation(doc_id, local, local + end - start)


class CorpusReader(ChunkReader):
    """Reads chunks of several documents: a weak root is shown the best finding of every document
    (an answer may need two), then the others that match the question well."""

    def kept(self, order: list[int], scores: list[float]) -> list[int]:
        firsts: dict[str, int] = {}
        for i in order:
            firsts.setdefault(self.findings[i].chunk.section, i)
        best = set(firsts.values()) | set(super().kept(order, scores))
        return [i for i in order if i in best]


def spread_best(question: str, chunks: list[Chunk], limit: int) -> list[Chunk]:
    """The `limit` chunks to read: the best-matching chunk of every document that matches first,
    then the best of the rest (BM25 against the question); in view order."""
    scores = bm25_scores(question, [c.text for c in chunks])
    order = sorted(range(len(chunks)), key=lambda i: -scores[i])
    firsts: dict[str, int] = {}
    for i in order:
        if scores[i] > 0:
            firsts.setdefault(chunks[i].section, i)
    picked = list(firsts.values())[:limit]
    picked += [i for i in order if i not in picked and scores[i] > 0][: limit - len(picked)]
    return [chunks[i] for i in sorted(picked or order[:limit])]


def run_corpus_map(question: str, tools: CorpusTools, run: Run) -> Answer:
    """Rank the documents by full-text search and read the best passages of the best ones. When
    what was found names something the question does not (the ship the letters went on), a second
    round looks for that name, with the first finding as context: a question whose answer needs
    two documents is read in two hops."""
    chunk_chars, limit = chunk_plan(run)
    reader = CorpusReader(question, run, None)  # type: ignore[arg-type]  # each round reads its own view
    ranked: list[str] = []
    stats: dict[str, object] = {"documents_ranked": ranked}
    total = 0
    try:
        total += _read_round(reader, question, tools, limit, chunk_chars, set(), ranked)
        names, known = bridge(question, [(f.chunk.section, f.text) for f in reader.findings], tools)
        if names:  # passages read again with the names in view, except those they came from
            seen = {
                (f.chunk.section, f.chunk.text)
                for f in reader.findings
                if any(n in f.text for n in names)
            }
            hop = CorpusReader(f"{question} (Known: {known})", run, None)  # type: ignore[arg-type]
            total += _read_round(
                hop,
                f"{question} {' '.join(names)}",
                tools,
                max(2, limit // 2),
                chunk_chars,
                seen,
                ranked,
            )
            reread = {
                (f.chunk.section, f.chunk.text) for f in hop.findings
            }  # the second reading wins
            reader.findings = [
                f for f in reader.findings if (f.chunk.section, f.chunk.text) not in reread
            ]
            reader.findings += hop.findings
            reader.stats = {k: v + hop.stats[k] for k, v in reader.stats.items()}
            stats["second_hop"] = names
    except BudgetExceededError as error:
        error.partial = reader.answer("map", total, stats, stopped_by=error.limit)
        raise
    return reader.answer("map", total, stats)


def candidates(
    tools: CorpusTools, query: str, documents: int, chunk_chars: int
) -> tuple[list[str], CorpusView, list[Chunk]]:
    """The `documents` that best match `query` (by full-text search), a view of them, and their
    best passages cut into chunks of about `chunk_chars`."""
    ranked = [doc_id for doc_id, _ in tools.ranked(query, documents)]
    view = CorpusView(tools, ranked)
    spans = [
        view.span(doc_id, s, e)
        for doc_id in ranked
        for s, e in tools.passages(doc_id, query, chunk_chars * PASSAGES_PER_DOC)
    ]
    return ranked, view, cut_chunks(view, spans, chunk_chars)  # type: ignore[arg-type]  # reads like a document


def run_corpus_retrieval(question: str, tools: CorpusTools, run: Run) -> Answer:
    """Classic retrieval over a corpus: the best passages of the best-matching documents, the
    `top_k` best of them answered from in one prompt."""
    chunk_chars, _ = chunk_plan(run)
    _, view, chunks = candidates(tools, question, run.options.top_k, chunk_chars)
    return run_retrieval(question, chunks, run, view)


def _read_round(
    reader: CorpusReader,
    query: str,
    tools: CorpusTools,
    limit: int,
    chunk_chars: int,
    seen: set[tuple[str, str]],
    ranked_so_far: list[str],
) -> int:
    """Read the best passages of the documents that best match `query`, leaving out those `seen`
    (doc id, text); returns how many candidate passages there were."""
    ranked, view, found = candidates(tools, query, limit, chunk_chars)
    ranked_so_far += [d for d in ranked if d not in ranked_so_far]
    chunks = [c for c in found if (c.section, c.text) not in seen]
    chosen = spread_best(query, chunks, limit)
    reader.run.emit("phase", name="MAP", documents=len(ranked), chunks=len(chosen))
    reader.tools = view  # type: ignore[assignment]
    reader.read_all(chosen)
    return len(chunks)


def bridge(
    question: str, findings: list[tuple[str, str]], tools: CorpusTools
) -> tuple[list[str], str]:
    """Names (two or more capitalized words) that findings state, the question does not, and
    other documents than the finding's own hold; with the findings that state them: what a
    second hop should look for."""
    asked = set(tokens(question))
    names: dict[str, str] = {}
    for doc_id, finding in findings:
        own = tools.index.doc(doc_id).row
        for name in rule_entities(finding):
            words = tokens(name)
            if not set(words) <= asked and set(tools.store.phrase_rows(" ".join(words))) - {own}:
                names.setdefault(name, finding)
    chosen = list(names)[:3]
    return chosen, " ".join(dict.fromkeys(names[n] for n in chosen))


def corpus_mode(mode: str, run: Run) -> tuple[str, str]:
    """The mode to answer with, and why."""
    if mode not in CORPUS_MODES:
        raise InputError(
            f"unknown mode '{mode}' for a corpus; choose one of {', '.join(CORPUS_MODES)}"
        )
    if mode != "auto":
        return mode, f"{mode} was asked for"
    if run.root.writes_code and run.options.allow_code:
        return (
            "rlm",
            f"{run.root.name} writes code: it explores the corpus with the corpus functions",
        )
    if run.root.writes_code:
        return "map", (
            "model-written code is not run here without operating-system isolation: "
            "search picks the documents to read"
        )
    return (
        "map",
        f"{run.root.name} cannot drive the code-writing loop: search picks the documents to read",
    )


def answer_corpus(question: str, tools: CorpusTools, run: Run, mode: str = "auto") -> Answer:
    mode, reason = corpus_mode(mode, run)
    if tools.index.totals()[0] == 0:
        raise InputError(f"{tools.index.root} has no readable documents")
    run.emit("mode", mode=mode, reason=reason)
    if mode == "retrieval":
        answer = run_corpus_retrieval(question, tools, run)
    elif mode == "map":
        answer = run_corpus_map(question, tools, run)
    else:
        answer = RLMLoop(run, tools=tools).answer(question)
    answer.reason = reason
    return answer
