"""Dialogue: a script's speeches, a transcript's or minutes' turns. Each turn opens with its
speaker's label, in one of four forms: on a line of its own in bold (`**HAMLET**`), in capitals
with a full stop (`HAMLET. Words…`; a title before them, as a record of debates writes it, is
no part of the name: `Mr. SMITH. Words…`), in capitals on a line of its own over the words
(`HAMLET.` as Project Gutenberg prints plays, `HAMLET` indented as screenplays are, a note in
brackets after it, `(V.O.)`) or before a colon (`Alice: Words…`, `DR. SMITH: …`); it runs to the
next label or heading. A numbered heading's line opens no turn (`SCENE II. A room.`). Stage
directions (lines in underscores, `_Exit_`) are not spoken."""

from __future__ import annotations

import re
from collections import Counter

from longread.ingest.records.cells import ColumnType
from longread.ingest.records.kind import MIN_ROWS, LinePattern
from longread.ingest.records.table import Column, Role, Row, Table, build

name = "dialogue"
UNHEADED = True  # (a numbered heading's line opens no turn)
_FORMS = (
    LinePattern(r"\*\*([^*\n]{1,60}?)\*\*[ \t]*$", re.MULTILINE),
    LinePattern(r"[ \t]*(?:[A-Z][a-z]{1,3}\.[ \t]+)?([A-Z][A-Z'’& -]{1,40}[A-Z])\.[ \t]"),
    LinePattern(
        r"[ \t]*([A-Z][A-Z'’& -]{0,40}[A-Z])\.?(?:[ \t]*\([^()\n]{1,20}\))?[ \t]*\n(?=[ \t]*\S)"
    ),
    LinePattern(r"([A-Z][\w'’.-]*(?: [A-Z][\w'’.-]*){0,3}):[ \t]+(?=\S)"),
)
MIN_TURNS = max(MIN_ROWS, 20)
TURN_SHARE = 0.3  # of a text's lines that labels must open for fewer turns than MIN_TURNS
_COLUMNS = (
    Column(
        "speaker",
        role=Role.WHO,
        aliases=("character", "person", "people", "role", "speaker", "who"),
    ),
    Column("text", role=Role.BODY),
    Column("words", ColumnType.NUMBER, aliases=("words spoken",)),
    Column("lines", ColumnType.NUMBER, aliases=("lines spoken",)),
)
NOUNS = ("speech", "turn", "utterance", "dialogue", "speak", "spoke", "say", "said", "talk")
WHOLE = ("play", "script", "transcript", "screenplay", "minutes", "drama")  # what holds them


def detect(sample: str) -> bool:
    return _form(sample, 3) is not None


def records(text: str, file_name: str) -> list[Table]:
    form = _form(text, MIN_TURNS)
    if form is None:
        return []
    marks = list(form.finditer(text))
    cells = []
    for at, (start, mark) in enumerate(marks):
        end = marks[at + 1][0] if at + 1 < len(marks) else len(text)
        heading = text.find("\n#", mark.end(), end)  # (a turn ends where a heading starts)
        end = heading + 1 if heading >= 0 else end
        body = text[mark.end() : end]
        if "_" in body:
            body = _DIRECTION.sub("", body)
        said = " ".join(body.split())
        spoken = len(_SPOKEN_LINE.findall(body))
        speaker = " ".join(mark.group(1).split()).strip(" .:")
        words = said.count(" ") + 1 if said else 0
        cells.append((start, end, (speaker, said, str(words), str(spoken))))
    return [build(name, name, _COLUMNS, _without_roll_calls(cells), NOUNS)]


def _without_roll_calls(cells: list[Row]) -> list[Row]:
    """The turns, less a label used once whose text names two speakers or more (`Present: Ingrid
    Holm, Tomas Berg, …`: a list of who was there, not something said)."""
    used = Counter(speaker for _, _, (speaker, *_) in cells)
    return [
        cell
        for cell in cells
        if used[cell[2][0]] > 1
        or sum(1 for other in used if other != cell[2][0] and other in cell[2][1]) < 2
    ]


def _form(text: str, least: int) -> LinePattern | None:
    """The label form marking the most turns, of those marking at least `least` (or, in a short
    text such as a meeting's minutes, at least MIN_ROWS opening TURN_SHARE of its lines) by two
    speakers or more, each speaker's label used twice on average (labels repeat; headings and
    notes mostly do not, and do not open most lines)."""
    lines: int | None = None
    best: tuple[int, LinePattern] | None = None
    for form in _FORMS:
        labels = [m.group(1) for _, m in form.finditer(text)]
        distinct = len(set(labels))
        if distinct < 2 or distinct * 2 > len(labels) or best and best[0] >= len(labels):
            continue
        if len(labels) >= least:
            best = len(labels), form
        elif len(labels) >= MIN_ROWS:
            lines = len(_SPOKEN_LINE.findall(text)) if lines is None else lines
            if len(labels) >= TURN_SHARE * lines:
                best = len(labels), form
    return best[1] if best else None


_SPOKEN_LINE = re.compile(r"^[^\S\n]*+\S[^\n]*", re.MULTILINE)  # (a line holding words)
_DIRECTION = re.compile(r"^[ \t]*_[^_]*_[ \t]*$", re.MULTILINE)  # (`_Exit_`, over lines too)
