"""Records stated across a text, read by rules: a question asking for the highest, the lowest, the
total or the mean of something (`Which town had the highest ferry toll?`), and the sentences
that state one such figure each (`At Carrick the ferry toll came to 12 pence.`), with the number
and the name each is about; or a question asking who or which (`Who joined the guild of
weavers?`), and the names its sentences give. No model reads them, so none can misread one."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from longread.text.rank import terms

_OPERATIONS = (
    ("max", r"highest|largest|greatest|biggest|maximum|most\s+expensive|dearest|heaviest|richest"),
    ("min", r"lowest|smallest|least|fewest|minimum|cheapest|lightest|poorest"),
    ("sum", r"add(?:s|ed)?\s+up|sum|total|altogether|combined|in\s+all"),
    ("mean", r"average|mean"),
)
_ASKING = frozenset(
    terms(
        "which what who where highest largest greatest biggest maximum most expensive dearest "
        "heaviest richest lowest smallest least fewest minimum cheapest lightest poorest add up "
        "sum total altogether combined average mean all number value figure amount"
    )
)
_NUMBER = re.compile(r"(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?(?!\w)")
_NAME = re.compile(r"[A-Z][\w'’-]*[a-z][\w'’-]*(?:\s+(?:of\s+)?[A-Z][\w'’-]*[a-z][\w'’-]*)*")
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n\s*\n")
MAX_SENTENCE = 400


_WHO = re.compile(r"^\s*(?:who|which\s+(?!of\b)\w+)\b", re.I)


@dataclass(frozen=True)
class Figure:
    """One sentence stating one record: [start, end) in its text, the number (None for a name
    alone), the name it is about ('' where it names none but the question's words)."""

    start: int
    end: int
    value: float | None
    name: str


def figure_operation(question: str) -> str | None:
    """max, min, sum or mean, for a question asking for one over figures; None otherwise."""
    for operation, words in _OPERATIONS:
        if re.search(rf"\b(?:{words})\b", question, re.I):
            return operation
    return None


def topic(question: str) -> list[str]:
    """The stems naming what the figures are of (`town`, `ferry`, `toll`), without the words that
    say what to do with them."""
    return list(dict.fromkeys(t for t in terms(question) if t not in _ASKING and not t.isdigit()))


def figures(text: str, words: list[str], question: str) -> list[Figure]:
    """The sentences of `text` holding a number and all of `words` but one (all of two or fewer),
    each with the number it states about them and the name it is about."""
    needed = len(words) - 1 if len(words) > 2 else len(words)
    asked = set(terms(question))
    found = []
    for start, end in _holding(text, words, lambda held: len(held) >= needed):
        figure = _figure(text[start:end], asked, words)
        if figure is not None:
            found.append(Figure(start, end, figure[0], figure[1]))
    return found


def stated_question(question: str) -> bool:
    """Whether a question asks for figures over the text, or who or which."""
    return figure_operation(question) is not None or asks_who(question)


def asks_who(question: str) -> bool:
    """Whether a question asks who or which (`Who joined…`, `Which towns…`), not for a figure."""
    return bool(_WHO.search(question)) and figure_operation(question) is None


def named(text: str, required: list[str], question: str) -> list[Figure]:
    """The sentences of `text` holding every one of `required`, each with the first name it gives
    that the question does not."""
    asked = set(terms(question))
    found = []
    for start, end in _holding(text, required, lambda held: len(held) == len(required)):
        names = _names(text[start:end], asked)
        if names:
            found.append(Figure(start, end, None, names[0]))
    return found


def _holding(
    text: str, words: list[str], enough: Callable[[set[str]], bool]
) -> Iterator[tuple[int, int]]:
    """The [start, end) of each sentence of `text` whose words held (of `words`) are `enough`."""
    if not words:
        return
    starts = re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")", re.I)
    seen = set()
    for match in starts.finditer(text):
        start, end = _sentence(text, match.start())
        if start not in seen:
            seen.add(start)
            if enough(set(terms(text[start:end])) & set(words)):
                yield start, end


def _sentence(text: str, at: int) -> tuple[int, int]:
    """The [start, end) of the sentence around `at` (MAX_SENTENCE characters each way at most)."""
    before = text[max(0, at - MAX_SENTENCE) : at]
    ends = list(_SENTENCE_END.finditer(before))
    start = at - len(before) + ends[-1].end() if ends else max(0, at - MAX_SENTENCE)
    after = _SENTENCE_END.search(text, at, min(len(text), at + MAX_SENTENCE))
    end = after.end() if after else min(len(text), at + MAX_SENTENCE)
    while start < end and text[start].isspace():
        start += 1
    return start, end


def _figure(sentence: str, asked: set[str], words: list[str]) -> tuple[float, str] | None:
    """The number a sentence states (the one the question does not, nearest after its words)
    and the name it is about; None for a sentence with no such number."""
    numbers = [m for m in _NUMBER.finditer(sentence) if m.group().replace(",", "") not in asked]
    if not numbers:
        return None
    held = [m.end() for m in re.finditer(r"\b(?:" + "|".join(words) + ")", sentence, re.I)]
    after = [m for m in numbers if held and m.start() > held[0]]
    number = (after or numbers)[0]
    found = _names(sentence, asked)
    return float(number.group().replace(",", "")), found[0] if found else ""


def _names(sentence: str, asked: set[str]) -> list[str]:
    """The names a sentence holds that the question does not, a name opening the sentence last
    (its first word may only be capitalized there: `At Carrick`, `Travellers`)."""
    inner: list[str] = []
    opening: list[str] = []
    for match in _NAME.finditer(sentence):
        name = match.group()
        if match.start() == 0:
            first, _, rest = name.partition(" ")
            if not terms(first):  # (a stop word: `At`, `The`)
                name = rest
            (inner if name != match.group() else opening).append(name)
        else:
            inner.append(name)
    return [n for n in inner + opening if n and not set(terms(n)) & asked]
