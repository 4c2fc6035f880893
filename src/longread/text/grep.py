"""Regex search streamed over a document's stored text blocks: a match may span two blocks, an
ASCII literal skips blocks that cannot hold it without running the regex, and the current
deadline is checked between blocks."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import accumulate, groupby
from operator import itemgetter

from longread import deadline
from longread.text.patterns import SearchPattern, compile_search

MAX_MATCH_CHARS = 2_000  # a match longer than this may be missed where two stored blocks meet
MAX_HITS = 1_000  # the most matches one search call returns (each is held on the host, then sent)


def hit_limit(asked: int) -> int:
    """How many hits a search asked for `asked` may return: 1 to MAX_HITS."""
    return max(1, min(int(asked), MAX_HITS))


_REGEX_SYNTAX = re.compile(r"[.^$*+?{}\[\]\\|()]")
_ANCHORS = re.compile(r"[$^]|\\[AZz]")


@dataclass
class Match:
    """A match at [start, end) of the document, on line `line` (counted from the search's start)."""

    text: str
    start: int
    end: int
    line: int


def grep_blocks(
    pattern: str | SearchPattern,
    blocks: Iterable[tuple[int, str]],
    start: int = 0,
    end: int | None = None,
    lines: bool = True,
) -> Iterator[Match]:
    """Case-insensitive matches of `pattern` (or one compiled already, for a search of many
    documents) within [start, end) of the (offset, text) blocks, which come in order. Without
    `lines`, newlines are not counted (a third of a scan's time) and every match says line 0."""
    regex = pattern if isinstance(pattern, SearchPattern) else compile_search(pattern)
    literal = _literal(regex)
    tail, tail_start, tail_line, reported = "", start, 1, -1
    for offset, body in blocks:
        deadline.check()
        lo, hi = max(start - offset, 0), len(body) if end is None else min(end - offset, len(body))
        window, window_start, line = tail + body[lo:hi], tail_start, tail_line
        tail = window[-MAX_MATCH_CHARS:]
        tail_start = window_start + len(window) - len(tail)
        tail_line = line + window.count("\n", 0, len(window) - len(tail)) if lines else 0
        if literal is not None and window.isascii() and literal not in window.lower():
            continue  # exact for ASCII text, and ~20x faster than a case-insensitive regex
        cursor = 0
        for m_start, m_end, text in regex.finditer(window):
            absolute = window_start + m_start
            if absolute > reported and m_end > m_start:
                reported = absolute
                line += window.count("\n", cursor, m_start) if lines else 0
                cursor = m_start
                yield Match(text, absolute, window_start + m_end, line)


WINDOW_CHARS = 8_000_000  # documents joined for one regex call when searching many of them


def candidate_documents(
    regex: SearchPattern, rows: Iterable[tuple[str, int, str]], window_chars: int = WINDOW_CHARS
) -> Iterator[str]:
    """The ids of the documents that may hold a match, in order: `rows` are (doc id, offset,
    block), ordered by document; documents are joined by newlines a large window at a time, for
    one regex call per window instead of one per document, and each document a match overlaps
    is a candidate (so is one too large to join). A match that crosses from one document into
    the next may hide another inside them, so both are candidates: searching each candidate
    alone then finds exactly what a search of each document would."""
    if _ANCHORS.search(regex.pattern):  # (they would mean the joined text's start or end)
        yield from (doc_id for doc_id, _ in groupby(rows, key=itemgetter(0)))
        return
    pending: list[tuple[str, list[str]]] = []
    size = 0
    for doc_id, group in groupby(rows, key=itemgetter(0)):
        blocks: list[str] = []
        doc_size = 0
        for _, _, body in group:
            doc_size += len(body)
            if doc_size > window_chars:
                break
            blocks.append(body)
        else:
            pending.append((doc_id, blocks))
            size += doc_size + 1
            if size >= window_chars:
                yield from _overlapped(regex, pending)
                pending, size = [], 0
            continue
        yield from _overlapped(regex, pending)  # (the documents before it come first)
        pending, size = [], 0
        yield doc_id
    yield from _overlapped(regex, pending)


def _overlapped(regex: SearchPattern, pending: list[tuple[str, list[str]]]) -> list[str]:
    """The ids of the documents that some match over their joined text overlaps."""
    if not pending:
        return []
    deadline.check()
    texts = ["".join(blocks) for _, blocks in pending]
    literal = _literal(regex)
    if literal is not None and "\n" not in literal:  # (then no match crosses two documents)
        return [
            doc_id
            for (doc_id, _), text in zip(pending, texts, strict=True)
            if (literal in text.lower() if text.isascii() else next(regex.finditer(text), None))
        ]
    starts = list(accumulate((len(text) + 1 for text in texts[:-1]), initial=0))
    hit: set[int] = set()
    for m_start, m_end, _ in regex.finditer("\n".join(texts)):
        first = bisect_right(starts, m_start) - 1
        hit.update(range(first, bisect_right(starts, max(m_start, m_end - 1))))
    return [pending[i][0] for i in sorted(hit)]


def _literal(regex: SearchPattern) -> str | None:
    """The pattern in lower case if it has no regex syntax: text without it (when ASCII, where
    case folding is plain) holds no match, and looking costs a twentieth of the regex."""
    return None if _REGEX_SYNTAX.search(regex.pattern) else regex.pattern.lower()
