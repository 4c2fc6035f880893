"""Regex search streamed over a document's stored text blocks: a match may span two blocks, an
ASCII literal skips blocks that cannot hold it without running the regex, and the current
deadline is checked between blocks."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from longread import deadline
from longread.text.patterns import compile_search

MAX_MATCH_CHARS = 2_000  # a match longer than this may be missed where two stored blocks meet
MAX_HITS = 1_000  # the most matches one search call returns (each is held on the host, then sent)


def hit_limit(asked: int) -> int:
    """How many hits a search asked for `asked` may return: 1 to MAX_HITS."""
    return max(1, min(int(asked), MAX_HITS))


_REGEX_SYNTAX = re.compile(r"[.^$*+?{}\[\]\\|()]")


@dataclass
class Match:
    """A match at [start, end) of the document, on line `line` (counted from the search's start)."""

    text: str
    start: int
    end: int
    line: int


def grep_blocks(
    pattern: str,
    blocks: Iterable[tuple[int, str]],
    start: int = 0,
    end: int | None = None,
    lines: bool = True,
) -> Iterator[Match]:
    """Case-insensitive matches of `pattern` within [start, end) of the (offset, text) blocks,
    which come in order. Without `lines`, newlines are not counted (a third of a scan's time)
    and every match says line 0."""
    regex = compile_search(pattern)
    literal = None if _REGEX_SYNTAX.search(pattern) else pattern.lower()
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
