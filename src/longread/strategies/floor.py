"""The lexical floor of the reading strategies: the sentences of the whole source that best match
the question (`text.lexical`) are always read and always among the findings, and the findings
are ranked by one score, so that a small model's reply never leads over a better-matching
sentence it did not beat on evidence.

The score of a finding is the weight of the question's words its cited sentence holds (each
word's IDF over the source's sentences). Findings a second hop made lead as they are; then the
rest by score; on a tie, a reader's grounded reply comes before the bare sentence. A reader's
citation is widened to the whole sentence it falls in (a manual's option line with the text
under it)."""

from __future__ import annotations

from bisect import bisect_right

from longread.strategies.reading import Chunk, Finding, Readable, cut_chunks
from longread.strategies.texts import TextDocs
from longread.text.lexical import Floor, floor
from longread.tools.single_doc import SingleDocTools

FLOOR_SENTENCES = 3  # of the whole source, always read and kept among the findings
FLOOR_SHARE = 0.5  # of the best sentence's weight another must have to be among the floor's
WHOLE_CHARS = 4_000_000  # a source this long is weighed whole; a longer one, by its candidates
SEARCHED_SECTIONS = 24  # a long document's best sections by full-text search, weighed instead
SEARCHED_MORE = 4  # times as many searched, for those repeating another's text to be passed over


def source_floor(question: str, source: Readable, candidates: list[Chunk]) -> Floor:
    """The question weighed over the whole source when it is short enough to scan (an indexed
    document or documents in memory), else over its best sections or the candidate passages."""
    if isinstance(source, SingleDocTools):
        total = source.index.total_chars
        if total <= WHOLE_CHARS:
            return floor(question, [(0, source.index.read_range(0, total))])
        return floor(question, _distinct_sections(question, source))
    if isinstance(source, TextDocs) and source.total_chars <= WHOLE_CHARS:
        return floor(question, [(0, source.text)])
    return floor(question, [(c.start, c.text) for c in candidates])


def _distinct_sections(question: str, source: SingleDocTools) -> list[tuple[int, str]]:
    """(offset, text) of the SEARCHED_SECTIONS sections that best match the question by full-text
    search, none whose text an earlier one has (a text repeated many times over would fill the
    list with copies of one section, and the one holding the answer would not be weighed)."""
    pieces: list[tuple[int, str]] = []
    seen: set[str] = set()
    for section_id, _ in source.search_ids(question, SEARCHED_SECTIONS * SEARCHED_MORE):
        start, end = source.own_span(source.section_name(section_id))
        text = source.index.read_range(start, end)
        if text not in seen:
            seen.add(text)
            pieces.append((start, text))
        if len(pieces) == SEARCHED_SECTIONS:
            break
    return pieces


def floor_sentences(weighed: Floor) -> list[tuple[int, int]]:
    """The best sentences, FLOOR_SENTENCES at most, none weighing under FLOOR_SHARE of the
    best one (a sentence holding one common word of the question is no floor)."""
    ranked = weighed.ranked(FLOOR_SENTENCES)
    return [span for span, weight in ranked if weight >= FLOOR_SHARE * ranked[0][1]]


def with_floor(
    chosen: list[Chunk],
    candidates: list[Chunk],
    weighed: Floor,
    source: Readable,
    chunk_chars: int,
    limit: int,
) -> list[Chunk]:
    """The chunks to read, `limit` in all, in text order: for each floor sentence the chosen
    chunk, else the candidate, else a new chunk around it that holds it; then the other chosen
    ones."""
    needed: list[Chunk] = []
    for n, (start, end) in enumerate(floor_sentences(weighed), 1):
        holding = next(
            (c for c in [*chosen, *candidates] if c.start <= start and end <= c.end), None
        )
        if holding is None:
            low = max(0, start - chunk_chars // 3)
            around = cut_chunks(source, [(low, low + max(chunk_chars, end - low))], chunk_chars)
            holding = next((c for c in around if c.start <= start < c.end), None)
            if holding is not None:
                holding.chunk_id = f"floor-chunk-{n}"
        if holding is not None and holding not in needed:
            needed.append(holding)
    rest = [c for c in chosen if c not in needed]
    picked = needed[:limit] + rest[: max(0, limit - len(needed))]
    return sorted(picked, key=lambda c: c.start)


class RankedByFloor:
    """What a chunk reader needs of the floor: widened citations, the floor's sentences as
    findings, and the order of the findings."""

    def __init__(self, weighed: Floor, source: Readable):
        self.weighed = weighed
        self.source = source
        self.starts = [a for a, _ in weighed.spans]

    def widened(self, start: int, end: int) -> tuple[int, int]:
        """The sentence a cited span lies in, if the floor knows it; else the span."""
        i = bisect_right(self.starts, start) - 1
        if i >= 0 and self.weighed.spans[i][0] <= start and end <= self.weighed.spans[i][1]:
            return self.weighed.spans[i]
        return start, end

    def findings(self, found: list[Finding]) -> list[Finding]:
        """`found` and, after them, each floor sentence none of them cites, as its own finding."""
        cited = {f.span for f in found}
        added = [
            sentence_finding(self.source, span, n)
            for n, span in enumerate(floor_sentences(self.weighed), 1)
            if not any(a <= span[0] < b or span[0] <= a < span[1] for a, b in cited)
        ]
        return found + added

    def scores(self, found: list[Finding]) -> list[float]:
        return [self.weighed.score(f.citation.text) for f in found]

    def order(self, found: list[Finding], leading: int) -> list[int]:
        """The `leading` findings as they are, then the rest by score, a reader's reply before a
        bare sentence of equal score."""
        scores = self.scores(found)
        rest = sorted(
            range(leading, len(found)),
            key=lambda i: (-scores[i], found[i].chunk.chunk_id.startswith("floor-"), i),
        )
        return list(range(leading)) + rest


def sentence_finding(source: Readable, span: tuple[int, int], n: int) -> Finding:
    """A sentence of the source as a finding of its own (the `n`th of the floor's)."""
    start, end = span
    text = " ".join(source.read_range(start, end).split())
    chunk = Chunk(f"floor-{n}", source.section_at(start), start, end, text)
    return Finding(chunk, text, source.citation(start, end), span)


def best_sentences(weighed: Floor, source: Readable, k: int) -> list[Finding]:
    """The `k` sentences of most weight as findings, best first."""
    return [sentence_finding(source, span, n) for n, span in enumerate(weighed.best(k), 1)]
