"""Records stated across a text, read by rules: the sentences that state one figure each of what a
question asks the highest, lowest, total or mean of (`At Carrick the ferry toll came to 12
pence.`), with the number and the name each is about; or the names the sentences holding a
question's words give (`Who joined the guild of weavers?`). No model reads them, so none can
misread one."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar, cast

from longread.text.grounding import negates
from longread.text.rank import not_after_abbreviation, terms

_ASKING = frozenset(
    terms(
        "which what who where highest largest greatest biggest maximum most expensive dearest "
        "heaviest richest lowest smallest least fewest minimum cheapest lightest poorest add up "
        "sum total altogether combined average mean all number value figure amount"
    )
)
_NUMBER = re.compile(r"(?<![\w.])[-−]?\d{1,15}(?:,\d{3}){0,4}(?:\.\d{1,6})?(?!\w)")
_UNIT = re.compile(r"\s*([a-z]+)")  # (the word right after a number: `12 pence`)
SCALES = {"thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_SCALE = re.compile(rf"\s*({'|'.join(SCALES)})\b", re.I)  # (`4.5 billion dollars`)
_NAME = re.compile(
    r"(?:(?:St|Mt|Ft|Dr|Mr|Mrs|Ms)\.\s+)?"  # (`St. Ives`)
    r"[A-Z][\w'’-]*[a-z][\w'’-]*(?:\s+(?:of\s+|&\s+)?[A-Z][\w'’-]*[a-z][\w'’-]*)*"  # (`Brent & Co`)
)
_NOT_NAMES = re.compile(
    r"(?:jan|febr)uary|march|april|may|june|july|august|(?:septem|octo|novem|decem)ber"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day"
)
_SENTENCE_END = re.compile(rf"{not_after_abbreviation()}[.!?](?=\s)|\n\s*\n")
MAX_SENTENCE = 400
T = TypeVar("T", bound=tuple[Any, ...])


@dataclass(frozen=True)
class Figure:
    """One sentence stating one record: [start, end) in its text, the number (None for a name
    alone), the name it is about ('' where it names none but the question's words)."""

    start: int
    end: int
    value: float | None
    name: str
    unit: str = ""  # the word after the number (`pence`)
    options: tuple[tuple[float, str, str], ...] = ()  # every (number, word after it, scale)
    scale: str = ""  # the number's scale word (`billion`: the value is in units, not billions)


def topic(words: Sequence[str]) -> list[str]:
    """Of a question's stems, those naming what the figures are of (`town`, `ferry`, `toll`),
    without the words that say what to do with them."""
    return list(dict.fromkeys(t for t in words if t not in _ASKING and not t.isdigit()))


def figures(text: str, words: list[str], question: str) -> list[Figure]:
    """The sentences of `text` holding a number followed by a word and all of `words` but one
    (all of two or fewer), each with the number it states about them, that word and the name it
    is about."""
    needed = len(words) - 1 if len(words) > 2 else len(words)
    asked = set(terms(question))
    found = []
    for start, end in _holding(text, words, lambda held: len(held) >= needed):
        sentence = text[start:end]
        options = _options(sentence, asked, words)
        if options:
            names = _names(sentence, asked)
            value, unit, scale = options[0]
            name = names[0] if names else ""
            found.append(Figure(start, end, value, name, unit, tuple(options), scale))
    return found


def in_one_unit(found: list[T]) -> list[T]:
    """Of (figure, …) pairs, those stating a number in the unit most of them share (if two
    share it), each with its first number in that unit: a verse's number, a line's or a
    section's is not a figure of what was asked (`12 pence`, `9 pence`), and `where 3 ferries
    ran` is passed over for the `12 pence` of the same sentence. A sentence's first number
    weighs twice its others in choosing the unit."""
    votes: Counter[str] = Counter()
    for pair in found:
        units = [unit for _, unit, _ in pair[0].options]
        votes.update({unit: 2 if unit == units[0] else 1 for unit in dict.fromkeys(units)})
    if not votes:
        return []
    chosen = votes.most_common(1)[0][0]
    kept = []
    for pair in found:
        stated = next(((v, s) for v, unit, s in pair[0].options if unit == chosen), None)
        if stated is not None:
            figure = replace(pair[0], value=stated[0], unit=chosen, scale=stated[1])
            kept.append(cast(T, (figure, *pair[1:])))
    return kept if len(kept) >= 2 else []


def named(text: str, required: list[str], question: str) -> list[Figure]:
    """The sentences of `text` holding every one of `required` and no negation, each with the
    first name of two words or more it gives that the question does not (`Alda Brook`)."""
    asked = set(terms(question))
    found = []
    for start, end in _holding(text, required, lambda held: len(held) == len(required)):
        sentence = text[start:end]
        names = [n for n in _names(sentence, asked) if " " in n]
        if names and not negates(sentence):
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


def _options(sentence: str, asked: set[str], words: list[str]) -> list[tuple[float, str, str]]:
    """Every number the sentence states that the question does not and that a word follows, with
    that word and its scale word (`4.5 billion dollars`: 4.5e9, dollars, billion): those after
    the first of the question's words first, in order."""
    numbers = [m for m in _NUMBER.finditer(sentence) if _value(m.group()) not in asked]
    held = [m.end() for m in re.finditer(r"\b(?:" + "|".join(words) + ")", sentence, re.I)]
    after = [m for m in numbers if held and m.start() > held[0]]
    options = []
    for number in after + [m for m in numbers if m not in after]:
        scale = _SCALE.match(sentence, number.end())
        unit = _UNIT.match(sentence, scale.end() if scale else number.end())
        if unit is not None:
            word = scale.group(1).lower() if scale else ""
            value = float(_value(number.group())) * SCALES.get(word, 1)
            options.append((value, unit.group(1), word))
    return options


def _value(number: str) -> str:
    return number.replace(",", "").replace("−", "-")


def _names(sentence: str, asked: set[str]) -> list[str]:
    """The names a sentence holds that the question does not, without the stop words a name's
    run may start with (`At Carrick`, `And Harbonah`), months and days; a name opening the
    sentence last (its word may only be capitalized there: `Travellers`)."""
    inner: list[str] = []
    opening: list[str] = []
    for match in _NAME.finditer(sentence):
        words = match.group().split()
        while words and (not terms(words[0]) or _NOT_NAMES.fullmatch(words[0].lower())):
            words.pop(0)
        name = " ".join(words)
        if name and not set(terms(name)) & asked:
            (
                opening
                if match.start() == 0 and len(words) == len(match.group().split())
                else inner
            ).append(name)
    return inner + opening
