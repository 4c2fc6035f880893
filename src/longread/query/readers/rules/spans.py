"""The words of a question and the runs of them that may name something."""

from __future__ import annotations

import re
from collections.abc import Iterator

MAX_NGRAM = 6
_WORD = re.compile(r"[^\W_][\w'’.&-]*[\w]|[^\W_]")


def words(question: str) -> list[tuple[str, int, int]]:
    """The question's words, with where each starts and ends."""
    return [(m.group(), m.start(), m.end()) for m in _WORD.finditer(question)]


def ngrams(question: str) -> Iterator[tuple[str, int, int]]:
    """Runs of one to MAX_NGRAM words, longest first."""
    found = words(question)
    for size in range(MAX_NGRAM, 0, -1):
        for at in range(len(found) - size + 1):
            run = found[at : at + size]
            yield question[run[0][1] : run[-1][2]], run[0][1], run[-1][2]
