"""The `map` strategy: full-text search (or BM25, for documents in memory) picks the passages; the
sub-model reads them in parallel; the root model joins the findings into one cited answer. Over a
corpus it ranks the documents first, and when a finding names something the question does not
(the ship the letters went on), a second round reads the documents that name it: a question whose
answer needs two documents is answered in two hops."""

from __future__ import annotations

from longread.answer import Answer
from longread.events import EventKind
from longread.ingest.metadata import rule_entities, tokens
from longread.strategies.common import Run, partial_on_budget
from longread.strategies.corpus_view import candidates
from longread.strategies.reading import (
    Chunk,
    ChunkReader,
    best_chunks,
    chunk_plan,
    map_answer,
    search_chunks,
)
from longread.strategies.texts import TextDocs
from longread.text.rank import bm25_scores
from longread.tools.corpus import CorpusTools
from longread.tools.single_doc import SingleDocTools


def run_map(question: str, tools: SingleDocTools, run: Run) -> Answer:
    """Read the best passages of the sections whose text matches the question best."""
    chunk_chars, limit = chunk_plan(run)
    chunks = search_chunks(question, tools, chunk_chars, limit)
    chosen = best_chunks(question, chunks, limit)
    run.emit(EventKind.PHASE, name="MAP", chunks=len(chosen))
    return map_answer(question, chosen, run, tools, "map", len(chunks))


def map_texts(question: str, docs: TextDocs, run: Run) -> Answer:
    """Read up to `max_slices` of the documents' chunks (chosen by BM25 when there are more)."""
    _, limit = chunk_plan(run)
    chosen = best_chunks(question, docs.chunks, limit)
    run.emit(EventKind.PHASE, name="MAP", chunks=len(chosen))
    return map_answer(question, chosen, run, docs, "map", len(docs.chunks))


class CorpusReader(ChunkReader):
    """Reads chunks of several documents, a round at a time (each round over its own view of the
    documents it ranked): a weak root is shown the best finding of every document (an answer may
    need two), then the others that match the question well."""

    candidates = 0  # passages the rounds chose from

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
    reader = CorpusReader(question, run, None)  # each round reads its own view
    ranked: list[str] = []
    stats: dict[str, object] = {"documents_ranked": ranked}
    with partial_on_budget(
        lambda limit: reader.answer("map", reader.candidates, stats, stopped_by=limit)
    ):
        _read_round(reader, question, tools, limit, chunk_chars, set(), ranked)
        names, known = bridge(question, [(f.chunk.section, f.text) for f in reader.findings], tools)
        if names:  # passages read again with the names in view, except those they came from
            seen = {
                (f.chunk.section, f.chunk.text)
                for f in reader.findings
                if any(n in f.text for n in names)
            }
            hop = CorpusReader(f"{question} (Known: {known})", run, None)
            _read_round(
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
            reader.candidates += hop.candidates
            stats["second_hop"] = names
    return reader.answer("map", reader.candidates, stats)


def _read_round(
    reader: CorpusReader,
    query: str,
    tools: CorpusTools,
    limit: int,
    chunk_chars: int,
    seen: set[tuple[str, str]],
    ranked_so_far: list[str],
) -> None:
    """Read the best passages of the documents that best match `query`, leaving out those `seen`
    (doc id, text); the reader counts the candidate passages."""
    ranked, view, found = candidates(tools, query, limit, chunk_chars)
    ranked_so_far += [d for d in ranked if d not in ranked_so_far]
    chunks = [c for c in found if (c.section, c.text) not in seen]
    chosen = spread_best(query, chunks, limit)
    reader.run.emit(EventKind.PHASE, name="MAP", documents=len(ranked), chunks=len(chosen))
    reader.source = view
    reader.candidates += len(chunks)
    reader.read_all(chosen)


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
