"""Tables in a PDF, found by pdfplumber on the pages whose text looks tabular (lines of short
cells with numbers in them), written back into the page's text as a pipe table (`| a | b |`, a
rule under the header) in place of the lines pypdf gave them, so the table kind reads them with
their columns. Only a bounded number of pages is looked at: a table is worth finding, a long
book's every page is not worth parsing twice."""

from __future__ import annotations

import logging
import re
from pathlib import Path

MAX_PAGES = 100  # pages of one document looked at for tables
_NUMBERISH = re.compile(r"^[-+−(]?[$€£¥]?\d[\d,.]*%?\)?$")


def with_tables(path: Path, pages: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """The pages' texts with the tables pdfplumber finds on them written as pipe tables (the
    texts unchanged where pdfplumber is not installed or cannot read the file)."""
    candidates = [at for at, (_, text) in enumerate(pages) if _tabular(text)][:MAX_PAGES]
    if not candidates:
        return pages
    try:
        import pdfplumber  # (a large library, needed only for a PDF that may hold tables)
    except ImportError:
        return pages
    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    found = list(pages)
    try:
        with pdfplumber.open(path) as pdf:
            for at in candidates:
                number, text = found[at]
                for rows in pdf.pages[number - 1].extract_tables():
                    text = _written(text, rows)
                found[at] = (number, text)
    except Exception:  # noqa: BLE001 - pdfminer raises many kinds on a damaged file: no tables
        return pages
    return found


def _tabular(text: str) -> bool:
    """Whether three lines in a row are short runs of cells with a number among them."""
    run = 0
    for line in text.splitlines():
        tokens = line.split()
        if 2 <= len(tokens) <= 20 and any(_NUMBERISH.match(t) for t in tokens):
            run += 1
            if run >= 3:
                return True
        elif line.strip():
            run = 0
    return False


def _written(text: str, rows: list[list[str | None]]) -> str:
    """The page's text with the lines holding the table's rows (in order, one line each)
    replaced by the table as pipe lines; unchanged if they are not found so."""
    wanted = [" ".join(" ".join(c.split()) for c in row if c) for row in rows if any(row)]
    if len(wanted) < 2:
        return text
    lines = text.split("\n")
    keys = [" ".join(line.split()) for line in lines]
    for first in range(len(lines)):
        if keys[first] != wanted[0]:
            continue
        at, held = first, []
        for row in wanted:
            while at < len(lines) and not keys[at]:
                at += 1
            if at == len(lines) or keys[at] != row:
                break
            held.append(at)
            at += 1
        if len(held) == len(wanted):
            cells = [
                [" ".join((c or "").split()).replace("|", "/") for c in r] for r in rows if any(r)
            ]
            piped = [f"| {' | '.join(r)} |" for r in cells]
            piped.insert(1, "|" + "---|" * len(cells[0]))
            return "\n".join([*lines[:first], *piped, *lines[held[-1] + 1 :]])
    return text
