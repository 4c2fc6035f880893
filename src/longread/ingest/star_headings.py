"""Headings of a text that declares itself an Emacs outline or Org file (its first line says
`-*- outline -*-` or `-*- org -*-`, as GNU NEWS files do): a line of stars and a title, its level
the number of stars (`* Noteworthy changes in release 3.8`, `** Bug fixes`)."""

from __future__ import annotations

import re

from longread.ingest.loaded import Heading

_DECLARED = re.compile(r"-\*-.*\b(?:mode:\s*)?(?:outline|org)\b.*-\*-", re.IGNORECASE)
_STARRED = re.compile(r"^(\*{1,8})[ \t]+(\S[^\n]*)$", re.MULTILINE)
MAX_TITLE_CHARS = 200


def star_headings(text: str) -> list[Heading] | None:
    """The text's starred headings, where its first line declares it an outline; else None."""
    first = text[: text.find("\n") if "\n" in text else len(text)]
    if not _DECLARED.search(first[:300]):
        return None
    return [
        Heading(m.start(), len(m[1]), m[2].strip()[:MAX_TITLE_CHARS])
        for m in _STARRED.finditer(text)
    ]
