"""The words of a question and the runs of them that may name something, a name as it is matched
(lower case, punctuation and spacing folded), and how a word is written (after a mark, `.py`; as
a verb made of a noun, `documented`)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from longread.query.core.keys import key  # noqa: F401  (the readers' name for it)

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


def written_mark(question: str, start: int) -> str:
    """The mark a word at `start` is written after, standing alone before it (the `.` of `.py`,
    the `#` of `#ops`: a value holds the word with it); none if it has none."""
    if start and question[start - 1] in ".#@$" and (start < 2 or question[start - 2].isspace()):
        return question[start - 1]
    return ""


def verb_form(word: str, noun: str) -> bool:
    """Whether a word is a verb made of the noun (`documented`, `logging`), not the noun."""
    return word.endswith(("ed", "ing")) and not noun.endswith(("ed", "ing"))
