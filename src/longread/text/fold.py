"""Words as the full-text index spells them: lower case, diacritics dropped, split at every
character that is not a letter or a digit (SQLite's `unicode61` tokenizer with
`remove_diacritics 2`, for the text it meets)."""

from __future__ import annotations

import re
import unicodedata

_TOKEN = re.compile(r"[^\W_]+")


def fold(text: str) -> str:
    """Lower case without diacritics, as the full-text index compares words."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def tokens(text: str) -> list[str]:
    """The words of `text` as the full-text index sees them (folded, split at punctuation)."""
    return _TOKEN.findall(fold(text))
