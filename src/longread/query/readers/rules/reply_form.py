"""What a question says about the form of its reply, not what it asks: instructions (`(Answer
with a number.)`, `Reply with the name only.`, `exactly as written`) and rounding (`to two
decimal places`)."""

from __future__ import annotations

import re

_FORMAT = re.compile(  # instructions on the reply's form, not part of the question
    r"\((?:[^()]*\b(?:answer|reply|respond|give|write|return|only|number|exactly|format|"
    r"digits?|as written|spelled|rounded|round)\b[^()]*)\)"
    r"|,?\s*\brounded(?:\s+(?:off|up|down))?(?:\s+to\s+[^.?!,()]*)?"
    r"|,?\s*\b(?:to|with|in)\s+(?:\d|one|two|three)\s+decimal(?:\s+places?)?"
    r"|(?:^|(?<=[.?!]))\s*(?:please\s+)?(?:answer|reply|respond|give|write|return|use|state)\b"
    r"[^.?!]*(?:[.!]|$)"
    r"|,?\s*(?:exactly\s+)?as\s+(?:it\s+is\s+)?(?:written|spelled|given)(?:\s+in\s+the\s+\w+)?",
    re.IGNORECASE,
)


def without_format(question: str) -> str:
    """The question without instructions on the form of its reply (`(Answer with a number.)`,
    `Reply with the name only.`, `exactly as written`)."""
    cut = _FORMAT.sub(" ", question)
    return " ".join(cut.split()) or question


_ROUNDED = re.compile(
    r"\bround(?:ed)?\b(?:[^.?!()]*?\b(?P<places>\d|one|two|three)\s+decimal)?"
    r"|\b(?:to|with|in)\s+(?P<to>\d|one|two|three)\s+decimal"
    r"|\bnearest\s+(?:whole\s+number|integer)\b",
    re.IGNORECASE,
)
_PLACES = {"one": 1, "two": 2, "three": 3}


def rounding(question: str) -> int | None:
    """The decimal places a question asks a figure rounded to (`rounded`: none; `to two decimal
    places`: 2); None when it asks for no rounding."""
    found = _ROUNDED.search(question)
    if found is None:
        return None
    places = found["places"] or found["to"]
    return 0 if places is None else int(_PLACES.get(places.lower(), places))
