"""A name as it is matched: any case, punctuation and spacing folded (`Tilda  Marsh.` is
`tilda marsh`)."""

from __future__ import annotations

KEPT = "&'’"  # marks a name keeps (`Q&A`, `O'Neil`)


def key(text: str) -> str:
    """A name as it is matched: lower case, punctuation and spacing folded."""
    folded = "".join(c if c.isalnum() or c in KEPT or c == "_" else " " for c in str(text).lower())
    return " ".join(folded.split())
