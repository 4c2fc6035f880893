"""Headings plain text marks by their shape alone, with no keyword or markup: a short line set
apart above a more indented body (a manual page's `NAME`, `   Pattern Syntax`), a short line
centred above a blank one (a licence's `Preamble`), and numbered clauses that are indented, end
with a full stop or run into their text (`  8. Termination.`, `2. Grant of Licence. Subject…`).
Each is found by one regular expression over line starts, then checked by a few rules."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

MAX_CHARS = 60  # a heading line's text, without its indentation
MAX_CLAUSE_WORDS = 8  # a numbered clause's title
CENTRED = 10  # a line indented this far, alone between blank lines, is centred

_TITLE = r"[A-Z][^\n]{0,59}+(?<![.,;:!?\"'”’=\-|\s])"  # the whole line, no punctuation at its end
# Each pattern starts at a line break (found fast), the line's own start one past it.
_OUTDENTED = re.compile(  # a body more indented than the line follows it (blank lines between)
    rf"\n(?P<indent>[ \t]*+)(?P<title>{_TITLE})(?=\n(?:[ \t]*\n)*(?P=indent)[ \t]+\S)"
)
_ALONE = re.compile(  # centred: a blank line, the end or another centred line after it
    rf"\n(?P<indent>[ \t]{{{CENTRED},}}+)(?P<title>{_TITLE})"
    rf"(?=\n(?:[ \t]*(?:\n|\Z)|[ \t]{{{CENTRED},}}\S))"
)
_CLAUSE = re.compile(
    r"\n(?P<indent>[ \t]{0,4}+)(?P<number>\d{1,3}(?:\.\d{1,3}){0,3})\.?[ \t]+"
    r"(?P<title>[A-Z][^\n.]{0,80}\.)(?P<rest>[^\n]*)(?=\n)"
)
_HEAD = 4096  # of the text, searched with a line break put before it for its first line
_BLANK = re.compile(r"[ \t]*\n")
_LETTER = re.compile(r"[^\W\d_]")


def _lines(pattern: re.Pattern[str], text: str) -> Iterator[tuple[int, re.Match[str]]]:
    """(shift, match) for each line `pattern` matches; a match's offsets plus `shift` are the
    text's (-1 for the first line, matched on a copy of the text's head behind a line break)."""
    first = pattern.match("\n" + text[:_HEAD])
    if first:
        yield -1, first
    for m in pattern.finditer(text):
        yield 0, m


@dataclass(frozen=True, slots=True)
class Shaped:
    """A heading found by its shape: where its line starts, where its title ends, its level
    (1 is the top) and its title."""

    start: int
    title_end: int
    level: int
    title: str


def shaped_headings(text: str) -> list[Shaped]:
    """The headings `text` marks by shape, in order, adjacent lines of one level joined into one
    title; none unless at least two are found (one short line is no structure)."""
    found: dict[int, tuple[int, int, str]] = {}  # start -> (title end, indent or -depth, title)
    for shift, m in _lines(_CLAUSE, text):
        clause = _clause(text, m, shift)
        if clause:
            found[m.start() + 1 + shift] = clause
    for pattern in (_OUTDENTED, _ALONE):
        for shift, m in _lines(pattern, text):
            start = m.start() + 1 + shift
            if start not in found and _set_apart(text, start, found):
                indent = len(m["indent"].expandtabs())
                found[start] = (m.end("title") + shift, indent, m["title"].strip())
    if len(found) < 2:
        return []
    return list(_joined(text, _levelled(found)))


def _clause(text: str, m: re.Match[str], shift: int) -> tuple[int, int, str] | None:
    """A numbered clause: set apart above, its title short and capitalized; a title that is the
    whole line needs a body below that is no further clause of a list."""
    title, rest = m["title"], m["rest"].strip()
    if len(title.split()) > MAX_CLAUSE_WORDS or not _blank_before(text, m.start() + 1 + shift):
        return None
    if rest and not rest[0].isupper():
        return None
    if not rest and not _body_follows(text, m.end() + 1 + shift):
        return None
    depth = m["number"].count(".") + 1
    return m.start("title") + shift + len(title), -depth, f"{m['number']}. {title.rstrip('.')}"


def _body_follows(text: str, at: int) -> bool:
    """Whether a blank line, then a line that starts no numbered item, follow `at`."""
    blank = _BLANK.match(text, at)
    if not blank:
        return False
    body = text[blank.end() : blank.end() + 12].lstrip()
    return bool(body) and not re.match(r"\(?\w{1,3}[.)]\s", body)


def _blank_before(text: str, start: int) -> bool:
    """True at the top of the text or after a blank line."""
    if start == 0:
        return True
    previous = text.rfind("\n", 0, start - 1)
    return not text[previous + 1 : start - 1].strip()


def _set_apart(text: str, start: int, found: dict[int, tuple[int, int, str]]) -> bool:
    """A blank line (or the top, or another heading) above the line, and letters enough."""
    line_end = text.find("\n", start)
    if len(_LETTER.findall(text, start, line_end)) < 3:
        return False
    if _blank_before(text, start):
        return True
    previous = text.rfind("\n", 0, start - 1)
    return previous + 1 in found


def _levelled(found: dict[int, tuple[int, int, str]]) -> list[Shaped]:
    """Levels by indentation: centred lines on top, then clauses' numbers by depth below the
    least indented lines, then deeper indentations."""
    indents = sorted({i for _, i, _ in found.values() if 0 <= i < CENTRED})
    top = 1 if any(i >= CENTRED for _, i, _ in found.values()) else 0
    headings = []
    for start in sorted(found):
        end, indent, title = found[start]
        if indent >= CENTRED:
            level = 1
        elif indent < 0:  # a clause: below the least indented lines, by its number's depth
            level = top + min(1, len(indents)) - indent
        else:
            level = top + indents.index(indent) + 1
        headings.append(Shaped(start, end, level, title))
    return headings


def _joined(text: str, headings: list[Shaped]) -> Iterator[Shaped]:
    """Adjacent lines of one level (nothing but a line break between) as one heading."""
    held: Shaped | None = None
    for h in headings:
        if (
            held
            and held.level == h.level
            and text.count("\n", held.title_end, h.start) == 1
            and not text[held.title_end : h.start].strip()
        ):
            held = Shaped(held.start, h.title_end, h.level, f"{held.title} {h.title}")
            continue
        if held:
            yield held
        held = h
    if held:
        yield held
