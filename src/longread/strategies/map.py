"""The `map` strategy: full-text search (or BM25, for documents in memory) picks the passages; the
sub-model reads them in parallel; the root model joins the findings into one cited answer. Over a
corpus it ranks the documents first, and when a finding names something the question does not
(the ship the letters went on), a second round reads the documents that name it: a question whose
answer needs two documents is answered in two hops."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from longread.answer import Answer
from longread.events import EventKind
from longread.ingest.metadata import rule_entities
from longread.query.core.plan import Shape
from longread.store.full_text import spelled
from longread.strategies.common import Run, partial_on_budget
from longread.strategies.corpus_view import CorpusView, candidates
from longread.strategies.floor import RankedByFloor, best_sentences, source_floor, with_floor
from longread.strategies.following import FollowingReader
from longread.strategies.planning import plan_for
from longread.strategies.reading import (
    SENTENCE,
    Chunk,
    ChunkReader,
    Finding,
    Readable,
    best_chunks,
    chunk_plan,
    cut_chunks,
    map_answer,
    search_chunks,
)
from longread.strategies.shaped import SENTENCES, stepped_answer
from longread.strategies.texts import TextDocs
from longread.text.fold import tokens
from longread.text.rank import bm25_scores, keywords, stem
from longread.tools.corpus import CorpusTools
from longread.tools.single_doc import SingleDocTools

NAMED_PASSAGES = 2  # places read in each document that names what the first round found


def run_map(question: str, tools: SingleDocTools, run: Run) -> Answer:
    """Read the best passages of the sections whose text matches the question best, and those
    holding the sentences of the whole document that match it best (the lexical floor)."""
    chunk_chars, limit = chunk_plan(run)

    def search(query: str) -> tuple[Readable, list[Finding]]:
        return _best(query, tools, [])  # (a document is weighed whole, or by its own search)

    stepped = stepped_answer(question, run, search)
    if stepped is not None:
        return stepped
    chunks = search_chunks(question, tools, chunk_chars, limit)
    chosen = best_chunks(question, chunks, limit)
    return _floored(question, chunks, chosen, tools, run, FollowingReader)


def map_texts(question: str, docs: TextDocs, run: Run) -> Answer:
    """Read up to `max_slices` of the documents' chunks (chosen by BM25 when there are more, the
    lexical floor's among them)."""
    _, limit = chunk_plan(run)

    def search(query: str) -> tuple[Readable, list[Finding]]:
        return _best(query, docs, docs.chunks)

    stepped = stepped_answer(question, run, search)
    if stepped is not None:
        return stepped
    return _floored(question, docs.chunks, best_chunks(question, docs.chunks, limit), docs, run)


def _best(query: str, source: Readable, chunks: list[Chunk]) -> tuple[Readable, list[Finding]]:
    """The source and its best sentences for `query` (weighed as the lexical floor weighs them,
    over the source or its candidate `chunks`): what a step of a bridge or a comparison reads."""
    return source, best_sentences(source_floor(query, source, chunks), source, SENTENCES)


def _floored(
    question: str,
    candidates: list[Chunk],
    chosen: list[Chunk],
    source: Readable,
    run: Run,
    reading: Callable[[str, Run, Any], ChunkReader] = ChunkReader,
) -> Answer:
    """Read the `chosen` candidates and the chunks holding the floor's sentences, `max_slices`
    in all (with a reader `reading` makes), and answer with the findings ranked by the floor."""
    chunk_chars, limit = chunk_plan(run)
    weighed = source_floor(question, source, candidates)
    read = with_floor(chosen, candidates, weighed, source, chunk_chars, limit)
    total = len({c.start for c in candidates} | {c.start for c in read})
    run.emit(EventKind.PHASE, name="MAP", chunks=len(read))
    ranking = RankedByFloor(weighed, source)
    return map_answer(question, read, run, source, "map", total, ranking=ranking, reading=reading)


class CorpusReader(ChunkReader):
    """Reads chunks of several documents, a round at a time (each round over its own view of the
    documents it ranked): a weak root is shown the best finding of every document (an answer may
    need two), then the others that match the question well."""

    candidates = 0  # passages the rounds chose from

    def kept(self, found: list[Finding], order: list[int], scores: list[float]) -> list[int]:
        firsts: dict[str, int] = {}
        for i in order:
            firsts.setdefault(found[i].chunk.section, i)
        best = set(firsts.values()) | set(super().kept(found, order, scores))
        return [i for i in order if i in best]


class NameReader(CorpusReader):
    """A second hop's reader: passages around a name the first round found, read knowing the
    sentence that named it. A small model's reply that its passage does not support, or that
    rests on a sentence not naming it, gives way to the passage's own sentence naming it that
    shares most with the question."""

    def __init__(self, question: str, run: Run, name: str, known: str):
        super().__init__(f"{question} (Known: {known})", run, None)
        self.asked, self.name, self.known = question, name, _spaced(known)

    def on_point(self, cited: str) -> bool:
        return self.name in cited

    def stated(self, chunk: Chunk) -> tuple[int, int] | None:
        if not self.focus:
            return None
        naming = [
            m.span()
            for m in SENTENCE.finditer(chunk.text)
            if self.name in m.group(0) and " ".join(m.group(0).split()) != self.known
        ]
        if not naming:
            return None
        scores = bm25_scores(self.asked, [chunk.text[a:b] for a, b in naming])
        return naming[max(range(len(naming)), key=lambda i: scores[i])]


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
    shape = plan_for(question, tools, run).shape
    if shape is not Shape.AGGREGATE:

        def search(query: str) -> tuple[Readable, list[Finding]]:
            _, view, chunks = candidates(tools, query, limit, chunk_chars)
            return _best(query, view, chunks)

        stepped = stepped_answer(question, run, search)
        if stepped is not None:
            return stepped
    chain = shape is Shape.CHAIN  # (`the ship that carried…`)
    reader = CorpusReader(question, run, None, restates=True, steps=chain)  # (a view a round)
    ranked: list[str] = []
    stats: dict[str, object] = {"documents_ranked": ranked}
    with partial_on_budget(
        lambda limit: reader.answer("map", reader.candidates, stats, stopped_by=limit)
    ):
        _read_round(reader, question, tools, limit, chunk_chars, ranked)
        # the names the sentences best matching the question state come first
        scores = rarity_scores(question, [f.citation.text for f in reader.findings], tools)
        by_match = [
            reader.findings[i] for i in sorted(range(len(scores)), key=lambda i: -scores[i])
        ]
        named = bridge(question, [(f.chunk.section, f.citation.text) for f in by_match], tools)
        if named:  # where other documents name them, read knowing the sentence that named each
            seen = {
                (f.chunk.section, f.chunk.text)
                for f in reader.findings
                if any(n in f.citation.text for n in named)
            }
            hops = []
            for name, known in named.items():
                hop = NameReader(question, run, name, known)
                _read_names(hop, name, tools, max(1, limit // 4), chunk_chars, seen, ranked)
                hops.append(hop)
            found = chained(question, reader.findings, hops, tools)
            reread = {(f.chunk.section, f.chunk.text) for f in found}  # the second reading wins
            reader.findings = found + [
                f for f in reader.findings if (f.chunk.section, f.chunk.text) not in reread
            ]
            reader.leading = len(found)
            for hop in hops:
                reader.stats = {k: v + hop.stats[k] for k, v in reader.stats.items()}
                reader.candidates += hop.candidates
            stats["second_hop"] = list(named)
    return reader.answer("map", reader.candidates, stats)


def chained(
    question: str, first: list[Finding], hops: list[NameReader], tools: CorpusTools
) -> list[Finding]:
    """The findings of the second hops, the chain that holds most of the question first: each
    name's findings (what its hop read, then what the first round read naming it, none that only
    says again what named it), led by the side of the chain that answers. Of the sentence that
    named the name and the best one found about it, the one holding less of the question is the
    answer (`The captain of the Red Kestrel was Mara Quell.`, not `The Red Kestrel carried the
    salt to Tarrow.`, for `the captain of the ship that carried the salt to Tarrow`)."""
    chains: list[tuple[float, list[Finding]]] = []
    taken: list[Finding] = []
    for hop in hops:
        own = [
            f
            for f in hop.findings + first
            if (f in hop.findings or hop.name in f.citation.text)
            and _spaced(f.citation.text) != hop.known
            and f not in taken
        ]
        taken += own
        if not own:
            continue
        naming = next((f for f in first if _spaced(f.citation.text) == hop.known), None)
        known, best, both = rarity_scores(
            question,
            [hop.known, own[0].citation.text, f"{hop.known} {own[0].citation.text}"],
            tools,
        )
        if naming is not None and naming not in taken and best > known:
            own.insert(0, naming)
            taken.append(naming)
        chains.append((both, own))
    chains.sort(key=lambda chain: -chain[0])
    return [f for _, own in chains for f in own]


def _spaced(text: str) -> str:
    return " ".join(text.split())


def rarity_scores(question: str, texts: list[str], tools: CorpusTools) -> list[float]:
    """Each text's match to `question`: the corpus-wide IDF of each of its words the text holds.
    A word few documents hold weighs most, however many of these texts hold it (ranked among
    themselves, the findings would make the words they share, the question's own, weigh least)."""
    words = list(dict.fromkeys(spelled(keywords(question))))
    stats = tools.store.search.rank_stats(words)
    held = [{stem(w) for w in spelled(text)} for text in texts]  # (spelled as the index does)
    return [sum(stats.idf(w) for w in words if stem(w) in own) for own in held]


def _read_round(
    reader: CorpusReader,
    query: str,
    tools: CorpusTools,
    limit: int,
    chunk_chars: int,
    ranked_so_far: list[str],
) -> None:
    """Read the best passages of the documents that best match `query`, those holding the
    sentences that match it best among them (the lexical floor, which then ranks the findings)."""
    ranked, view, chunks = candidates(tools, query, limit, chunk_chars)
    weighed = source_floor(query, view, chunks)
    chosen = with_floor(
        spread_best(query, chunks, limit), chunks, weighed, view, chunk_chars, limit
    )
    reader.ranking = RankedByFloor(weighed, view)
    _read_view(reader, view, ranked, chunks, chosen, ranked_so_far)


def _read_names(
    reader: CorpusReader,
    name: str,
    tools: CorpusTools,
    limit: int,
    chunk_chars: int,
    seen: set[tuple[str, str]],
    ranked_so_far: list[str],
) -> None:
    """Read the passages around the places where documents name what the first round found,
    leaving out those `seen` (doc id, text)."""
    docs = tools.store.catalog.doc_ids_of(tools.store.search.phrase_rows(name))
    view = CorpusView(tools, docs)
    spans = [
        view.span(doc_id, max(0, hit["start"] - chunk_chars // 2), hit["start"] + chunk_chars // 2)
        for doc_id in docs
        for hit in tools.grep_document(doc_id, re.escape(name))[:NAMED_PASSAGES]
    ]
    chunks = [c for c in cut_chunks(view, spans, chunk_chars) if (c.section, c.text) not in seen]
    chosen = [c for c in chunks if name in c.text][:limit] or chunks[:limit]
    _read_view(reader, view, docs, chunks, chosen, ranked_so_far)


def _read_view(
    reader: CorpusReader,
    view: CorpusView,
    docs: list[str],
    chunks: list[Chunk],
    chosen: list[Chunk],
    ranked_so_far: list[str],
) -> None:
    """Read the `chosen` of a view's candidate `chunks`; the reader counts the candidates."""
    ranked_so_far += [d for d in docs if d not in ranked_so_far]
    reader.run.emit(EventKind.PHASE, name="MAP", documents=len(docs), chunks=len(chosen))
    reader.source = view
    reader.candidates += len(chunks)
    reader.read_all(chosen)


def bridge(question: str, findings: list[tuple[str, str]], tools: CorpusTools) -> dict[str, str]:
    """Names (two or more capitalized words) that findings state, the question does not, and
    other documents than the finding's own hold, each with the finding that states it (three at
    most, in the findings' order): what a second hop should look for."""
    asked = set(tokens(question))
    names: dict[str, str] = {}
    for doc_id, finding in findings:
        own = tools.index.doc(doc_id).row
        for name in rule_entities(finding):
            words = tokens(name)
            if not set(words) <= asked and set(tools.store.search.phrase_rows(" ".join(words))) - {
                own
            }:
                names.setdefault(name, finding)
    return dict(list(names.items())[:3])
