"""Records a text's own structure gives, found by rules, for answers that count over a whole text:
the labelled units of a script (each speech, under its speaker's name on a line of its own, as
`**HAMLET**`, or `HAMLET.` opening a line) and the mentions of a word. Offsets are the text's."""

from __future__ import annotations

import re
from dataclasses import dataclass

_BOLD_LABEL = re.compile(r"^\*\*([^*\n]{1,60}?)\*\*[ \t]*$", re.MULTILINE)
_CAPS_LABEL = re.compile(r"^([A-Z][A-Z'’ -]{1,40}[A-Z])\.[ \t]", re.MULTILINE)
MIN_UNITS = 20  # fewer labelled lines than this are not a script's speeches
MIN_LABELS = 2


@dataclass(frozen=True)
class Unit:
    """One labelled unit: its label (a speaker) and its span, up to the next unit or a heading;
    `lines`: how many lines of text it holds."""

    label: str
    start: int
    end: int
    lines: int


def speeches(text: str, base: int = 0) -> list[Unit]:
    """The speeches of a script, in order, by the first label form that marks at least MIN_UNITS
    of them with MIN_LABELS labels or more; none for a text that is not a script. `base` is added
    to every offset."""
    for form in (_BOLD_LABEL, _CAPS_LABEL):
        marks = list(form.finditer(text))
        if len(marks) >= MIN_UNITS and len({m.group(1) for m in marks}) >= MIN_LABELS:
            return _units(text, marks, base)
    return []


def _units(text: str, marks: list[re.Match[str]], base: int) -> list[Unit]:
    units = []
    for at, mark in enumerate(marks):
        end = marks[at + 1].start() if at + 1 < len(marks) else len(text)
        heading = text.find("\n#", mark.end(), end)  # (a speech ends where a heading starts)
        end = heading + 1 if heading >= 0 else end
        body = text[mark.end() : end]
        lines = sum(1 for line in body.splitlines() if line.strip() and not stage_direction(line))
        units.append(Unit(_label(mark.group(1)), base + mark.start(), base + end, lines))
    return units


def _label(raw: str) -> str:
    return " ".join(raw.split()).strip(" .:")


def stage_direction(line: str) -> bool:
    """A stage direction (`_Exit_`), not a line spoken."""
    line = line.strip()
    return line.startswith("_") and line.endswith("_")


def mentions(text: str, term: str, base: int = 0) -> list[tuple[int, int]]:
    """(start, end) of each whole-word, case-insensitive occurrence of `term`."""
    if not term.split():
        return []
    return [(base + m.start(), base + m.end()) for m in phrase_pattern(term).finditer(text)]


def phrase_pattern(phrase: str, case: bool = False) -> re.Pattern[str]:
    """A phrase as whole words, any space between them, in any case (in its own, with `case`)."""
    words = r"\s+".join(map(re.escape, phrase.split()))
    return re.compile(rf"(?<!\w){words}(?!\w)", 0 if case else re.IGNORECASE)


_PARAGRAPH = re.compile(r"[^\n]*\S[^\n]*(?:\n[^\n]*\S[^\n]*)*")


def paragraphs(text: str) -> list[tuple[int, int, int]]:
    """(start, end, words) of each paragraph: a run of lines that are not blank."""
    return [(m.start(), m.end(), len(m.group().split())) for m in _PARAGRAPH.finditer(text)]
