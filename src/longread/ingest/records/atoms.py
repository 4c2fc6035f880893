"""A line read as atoms, for the general finder: each a date, a run of capitalized words (a
name), an e-mail address, a number, a word, a code (a version, an address) or punctuation."""

from __future__ import annotations

import re
from dataclasses import dataclass

_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"
_ORDINAL = r"(?:st|nd|rd|th)?"  # (`June 17th`, `21st February`)
_DATE = (
    r"\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)?"
    rf"|(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?[ \t]+)?\d{{1,2}}{_ORDINAL}[ \t]+{_MONTH},?"
    r"[ \t]+\d{4}"
    r"(?:[ \t]+\d\d:\d\d(?::\d\d)?(?:[ \t]+(?:[+-]\d{4}|[A-Z]{2,4}))?)?"
    rf"|\d\d/{_MONTH}/\d{{4}}:\d\d:\d\d:\d\d(?:[ \t]+[+-]\d{{4}})?"
    rf"|(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,?[ \t]+)?{_MONTH}[ \t]+\d{{1,2}}{_ORDINAL}"
    r"(?:,?[ \t]+\d{4}|[ \t]+\d\d:\d\d:\d\d(?:[ \t]+\d{4})?)"
    r"|\d{1,2}/\d{1,2}/\d{2,4}|\d{4}/\d\d/\d\d|\d{1,2}:\d\d(?::\d\d)?(?:[.,]\d+)?(?:[ \t]?[AP]M)?"
)
_ATOM = re.compile(
    rf"(?P<d>(?:{_DATE}))(?![\w:])"
    r"|(?P<n>[A-Z][a-z](?:[\w'’-]*\w)?(?:[ \t][A-Z]\.)?(?:[ \t][A-Z][a-z](?:[\w'’-]*\w)?){1,3})"
    r"(?![\w-]|['’]\w)"  # (a name's last letter: `'Eve Smith'` quoted, `O'Brien` whole)
    r"|(?P<w>\w+(?:[-.:/+~@']\w+)*)"
    r"|(?P<p>[^\s\w]+)"
)
_CAPITALS = r"[^\W\d_a-zß-ÿ]"  # (a letter not in small letters)
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_RUNS = re.compile(r"[^\W\d_]+|\d+(?:\.\d+)?|[^\w\s]+|_+")
_HYPHENED = re.compile(r"[^\W\d_]+(?:[-'’][^\W\d_]+)+")
_NUMBERED = re.compile(r"[^\W\d_]{2,}\d{1,3}")  # (a name ending in a number: `pop3`, `web37`)
_DOTTED = re.compile(r"(?<!\d)\d++(?:\.\d++){2,}")  # (a version or an address, not two numbers)
_ID = re.compile(r"(?=[^\W_]*\d)(?=[^\W_]*[^\W\d_])[^\W_]{6,}")  # (`0020dd017`: an id, a hash)
_HEX = re.compile(r"(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{4,}")  # (`1F600`, `c52b`)
_VERSION = re.compile(r"\d+\.\d+(?:[-+~]\w+)+")  # (`9.1-1`, `2.40-2`: one code, as `4.5.2-1` is)
_SPLIT_RUNS = 4  # a word of at most this many letter, digit or sign runs is split (`Gen1:1`)
PATTERNS = {  # a regular expression for each atom shape
    "d": rf"(?:{_DATE})",
    "n": r"[A-Z](?:[\w'’-]*\w)?(?:[ \t][A-Z]\.)?(?:[ \t][A-Z](?:[\w'’-]*\w)?){0,3}",
    "@": _EMAIL.pattern,
    "9": r"[-+]?\d+(?:\.\d+)?",
    "a": r"[^\W\d_]+(?:[-'’][^\W\d_]+)*(?:(?<=[^\W\d_]{2})\d{1,3}(?!\w))?",
    "A": rf"{_CAPITALS}{{2,}}(?:[-'’ \t]{_CAPITALS}+)*(?![^\W\d_])",  # (`HABEAS CORPUS`)
    "m": r"\w+(?:[-.:/+~@']\w+)*",
}
MAX_ATOMS = 16  # of a line, read (the rest of a line is its text)


@dataclass(frozen=True)
class Atom:
    shape: str  # d, n, @, 9, a, m, or the punctuation itself
    text: str
    start: int
    end: int
    spaced: bool  # white space before it


def atoms(line: str) -> list[Atom]:
    """The line's first MAX_ATOMS atoms or so, in order (a short mixed word split into its runs:
    `Gen1:1`)."""
    found: list[Atom] = []
    last = 0
    for match in _ATOM.finditer(line):
        if len(found) >= MAX_ATOMS:
            break
        spaced = match.start() > last
        last = match.end()
        kind = match.lastgroup or "p"
        text = match.group()
        if kind == "w":
            found += _word(text, match.start(), spaced)
        else:
            shape = text if kind == "p" else kind
            found.append(Atom(shape, text, match.start(), match.end(), spaced))
    return found


def _word(text: str, start: int, spaced: bool) -> list[Atom]:
    if _NUMBER.fullmatch(text):
        return [Atom("9", text, start, start + len(text), spaced)]
    if _EMAIL.fullmatch(text):
        return [Atom("@", text, start, start + len(text), spaced)]
    if _HYPHENED.fullmatch(text) or _NUMBERED.fullmatch(text):  # (`ftp-data`, `jinja2`: a word)
        return [Atom("a", text, start, start + len(text), spaced)]
    runs = list(_RUNS.finditer(text))
    if (
        len(runs) > _SPLIT_RUNS
        or _DOTTED.search(text)
        or _VERSION.fullmatch(text)
        or _ID.fullmatch(text)
        or _HEX.fullmatch(text)
    ):
        return [Atom("m", text, start, start + len(text), spaced)]
    return [
        Atom(
            _shape(run.group()),
            run.group(),
            start + run.start(),
            start + run.end(),
            spaced and i == 0,
        )
        for i, run in enumerate(runs)
    ]


def _shape(run: str) -> str:
    if _NUMBER.fullmatch(run):
        return "9"
    if run.isalpha():
        return "a"
    return run
