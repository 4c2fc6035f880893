"""The lexical floor: the sentences of a text that share the most IDF-weighted words with a
question (each word weighs the log of how rare it is among the text's sentences, counted once
per sentence). What a plain scan finds; an answer a model gives must beat it on evidence.
Sentences run across hard-wrapped lines: a paragraph is cut at its sentence ends, so a manual's
`-t, --list` line and the description under it are one."""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from longread.text.rank import not_after_abbreviation, stem, terms

MAX_SENTENCE_CHARS = 400  # a longer run without a sentence end is cut at its line breaks
_PARAGRAPH = re.compile(r"\S(?:[^\n]|\n(?![ \t]*\n))*")  # lines up to a blank one
_END = re.compile(r"(?<=[.!?;:])" + not_after_abbreviation(r"\.") + r"\s+(?=\S)")
_LINE_BREAK = re.compile(r"\n\s*")
# A paragraph's first line of a few words and no sentence end, over a line indented no deeper
# that starts a sentence: a heading (`Staff`, above what it heads). A line over a deeper one is a
# term with its definition under it (a manual's `-t, --list`): one sentence with it.
_LABEL_LINE = re.compile(
    r"(?P<indent>[ \t]*)(?P<line>\S+(?:[ \t]+\S+){0,4}(?<![.!?;:,]))[ \t]*\n"
    r"(?=(?P=indent)[^\s\W\d_a-z])"
)


def sentence_spans(text: str, offset: int = 0) -> list[tuple[int, int]]:
    """[start, end) of each sentence of `text` (plus `offset`), in order."""
    spans = []
    for paragraph in _PARAGRAPH.finditer(text):
        start = paragraph.start()
        label = _LABEL_LINE.match(text, start, paragraph.end())
        if label:  # (a heading over its paragraph: a sentence of its own)
            spans.append((start, label.end("line")))
            start = label.end()
        for begin, end in _between(_END, text, start, paragraph.end()):
            spans += (
                [(begin, end)]
                if end - begin <= MAX_SENTENCE_CHARS
                else _grouped(_between(_LINE_BREAK, text, begin, end))
            )
    trimmed = [_trimmed(text, a, b) for a, b in spans]
    return [(a + offset, b + offset) for a, b in trimmed if b > a]


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    """The span without the blanks at its ends."""
    while end > start and text[end - 1].isspace():
        end -= 1
    while start < end and text[start].isspace():
        start += 1
    return start, end


def _grouped(lines: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A long sentence's lines joined into runs of at most MAX_SENTENCE_CHARS (a line alone when
    longer)."""
    runs: list[tuple[int, int]] = []
    for start, end in lines:
        if runs and end - runs[-1][0] <= MAX_SENTENCE_CHARS:
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((start, end))
    return runs


def _between(separator: re.Pattern[str], text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The stretches of text[start:end] between the matches of `separator`."""
    bounds = [start]
    for m in separator.finditer(text, start, end):
        bounds += [m.start(), m.end()]
    bounds.append(end)
    return [(bounds[i], bounds[i + 1]) for i in range(0, len(bounds), 2)]


@dataclass(frozen=True)
class Floor:
    """A question's words weighed over a text's sentences, and those sentences' spans."""

    spans: list[tuple[int, int]]
    held: list[frozenset[str]]  # the question's words each sentence holds
    weights: dict[str, float]  # each held word's IDF over the sentences

    def best(self, k: int) -> list[tuple[int, int]]:
        """The spans of the `k` sentences of most weight (none that holds no word), best first."""
        return [span for span, _ in self.ranked(k)]

    def ranked(self, k: int) -> list[tuple[tuple[int, int], float]]:
        """(span, weight) of the `k` sentences of most weight, best first (in text order on a
        tie)."""
        scored = [(self.weight(h), i) for i, h in enumerate(self.held) if h]
        scored.sort(key=lambda pair: (-pair[0], pair[1]))
        return [(self.spans[i], weight) for weight, i in scored[:k]]

    def weight(self, words: frozenset[str] | set[str]) -> float:
        return sum(self.weights.get(w, 0.0) for w in words)

    def score(self, text: str) -> float:
        """The weight of the question's words `text` holds (a finding's cited sentence)."""
        return self.weight(set(terms(text)))


def floor(question: str, pieces: Sequence[tuple[int, str]]) -> Floor:
    """The question weighed over the sentences of `pieces` ((offset, text) each): one pass of a
    pattern of the question's word stems over the text, no sentence tokenized whole. The pieces
    may come in any order (a search's); they must not overlap."""
    asked = set(terms(question))
    pieces = sorted(pieces, key=lambda piece: piece[0])  # (a word is placed by bisection)
    spans = [span for at, text in pieces for span in sentence_spans(text, at)]
    held: list[set[str]] = [set() for _ in spans]
    if asked:
        starts = [a for a, _ in spans]
        # (a stem ending in y, from `copies`, is looked for without it)
        pattern = re.compile(
            r"\b(?:" + "|".join(re.escape(w.removesuffix("y") or w) for w in asked) + r")\w*",
            re.IGNORECASE,
        )
        for at, text in pieces:
            for m in pattern.finditer(text):
                word = stem(m.group().lower())
                if word in asked:
                    i = bisect_right(starts, at + m.start()) - 1
                    if i >= 0 and at + m.start() < spans[i][1]:
                        held[i].add(word)
    df = Counter(w for h in held for w in h)
    weights = {w: math.log((len(spans) + 1) / n) for w, n in df.items()}
    return Floor(spans, [frozenset(h) for h in held], weights)
