"""The date a heading stands for: the first its title holds (`2.2.2 (2024-06-17)`), else the first
held by the line right under it (`Version 2.3.0` over `Released 2023-04-25`), as ISO text; a
changelog's releases, a diary's days, minutes' meetings are then counted by date."""

from __future__ import annotations

from longread.ingest.records.atoms import atoms
from longread.ingest.records.cells import date
from longread.ingest.records.list_items import opens_item

LINE_CHARS = 120  # a longer line under a heading is prose, not its date line
LINES_READ = 3  # lines after the heading's own, past blank lines and a setext underline


def heading_date(text: str, title: str, start: int) -> str | None:
    """The date of the heading whose line starts at `start` in `text`."""
    found = _first_date(title)
    if found is not None:
        return found
    at = text.find("\n", start)
    for _ in range(LINES_READ):
        if at < 0:
            return None
        end = text.find("\n", at + 1)
        line = text[at + 1 : end if end >= 0 else len(text)].strip()
        at = end
        if not line or not any(c.isalnum() for c in line):
            continue  # (a blank line, an underline)
        if opens_item(line):
            return None  # (a list's first item: its date is the item's)
        return _first_date(line) if len(line) <= LINE_CHARS else None
    return None


def _first_date(line: str) -> str | None:
    return next((d for a in atoms(line) if a.shape == "d" and (d := date(a.text))), None)
