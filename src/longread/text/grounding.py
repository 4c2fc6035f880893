"""Checks that an answer rests on a passage, and finds the sentence it rests on. They keep a weak
model honest: a finding whose words are not in the text it read is dropped."""

from __future__ import annotations

import itertools
import re

from longread.text.rank import terms

_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|\n|$)")
_NONE = re.compile(
    r"^\W*(none|no answer|not (?:found|mentioned|stated))\b|\bis not (?:provided|given)\b|"
    r"\b(?:does not|doesn't|do not|cannot|can't) (?:answer|say|mention|provide|contain|specify)|"
    r"\bno information\b",
    re.IGNORECASE,
)


_NEGATION = re.compile(r"\b(?:not|never|none|nobody|nothing)\b|n't\b", re.I)


def negates(text: str) -> bool:
    """Whether a text holds a negation (`not`, `never`, `didn't`, …)."""
    return bool(_NEGATION.search(text))


def says_nothing(reply: str) -> bool:
    """True for replies like `NONE` or `Not mentioned.`."""
    return not reply.strip() or bool(_NONE.search(reply))


_META = frozenset(terms("text passage snippet question answer document section mention state"))


def new_terms(answer: str, question: str) -> set[str]:
    """The answer's content words that the question does not already contain, leaving out words
    about the reading itself ("the text mentions…")."""
    return set(terms(answer)) - set(terms(question)) - _META


def is_grounded(answer: str, source: str, question: str, share: float = 0.6) -> bool:
    """Whether most of the answer's new words occur in `source` (and it has some)."""
    fresh = new_terms(answer, question)
    if not fresh:
        return False
    present = set(terms(source))
    return sum(t in present for t in fresh) / len(fresh) >= share


def grounded_span(
    answer: str, source: str, question: str, window: int = 200, share: float = 0.6
) -> tuple[int, int] | None:
    """The supporting sentence, if most of the answer's new words occur within `window` characters
    of it, and so does a word of the question: an answer assembled from words scattered over the
    text, or resting on a passage about something else, does not count."""
    span = supporting_span(answer, source, question)
    if span is None:
        return None
    nearby = source[max(0, span[0] - window) : span[1] + window]
    asked = set(terms(question))
    on_topic = not asked or bool(asked & set(terms(nearby)))
    return span if on_topic and is_grounded(answer, nearby, question, share) else None


def supporting_span(answer: str, source: str, question: str) -> tuple[int, int] | None:
    """The sentence of `source` sharing the most new words with the answer, as a [start, end)
    span."""
    fresh = new_terms(answer, question)
    best, best_score = None, 0
    for match in _SENTENCE.finditer(source):
        score = len(fresh & set(terms(match.group(0))))
        if score > best_score:
            best, best_score = match, score
    if best is None:
        return None
    text = best.group(0)
    start = best.start() + len(text) - len(text.lstrip())
    return start, best.start() + len(text.rstrip())


_PREAMBLE = re.compile(
    r"^(the answer (to (this|the) question )?is|answer|question)\s*[:\-]\s*", re.IGNORECASE
)


def clean_finding(reply: str) -> str:
    """The answer without a leading "The answer is:", cut before a later line that says nothing
    (small models often add "The answer is: NONE" after a real answer)."""
    lines = [_PREAMBLE.sub("", line.strip()) for line in reply.strip().splitlines() if line.strip()]
    return "\n".join(
        lines[:1] + list(itertools.takewhile(lambda line: not says_nothing(line), lines[1:]))
    )
