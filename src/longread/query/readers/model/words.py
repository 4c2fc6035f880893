"""The words of a question a statement does not use: none of its names, values or text holds
them. English words that name nothing a query could filter on are left out."""

from __future__ import annotations

import re

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")

FUNCTION_WORDS = frozenset(  # English words that name nothing a query could filter on
    """a about above after all also an and any are as at be been before below between both but by
    can could did do does each every for from had has have how i if in into is it its many me
    more most much my no not of on only or other our per please so some such than that the their
    them then there these they this those to under up very was we were what when where which
    while who whom whose why will with within without would you your""".split()
)


def unused_words(question: str, sql: str, skipped: frozenset[str]) -> list[str]:
    """The question's words the statement does not use: none of its names, values or text
    holds them (nor their first five letters, `uploads` for `upload`); `skipped` are words that
    carry no meaning of their own (`the`, `how`)."""
    written = sql.lower().replace("_", " ")
    unused = []
    for word in dict.fromkeys(_WORD.findall(question)):
        folded = word.lower()
        if folded in skipped or len(folded) < 3 or folded.isdigit() and folded in written:
            continue
        if folded in written or len(folded) > 5 and folded[:5] in written:
            continue
        unused.append(word)
    return unused
