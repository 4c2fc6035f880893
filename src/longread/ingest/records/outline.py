"""Records written as an indented outline: each line's depth is its indentation (tabs, or spaces
in steps of one width), and a line under another belongs to it (a device under its vendor, a zone
under its country). A table per depth: each line's key (its first word, where the lines of that
depth part it from the rest by two spaces or a tab) and text, and, below the top, its parent's key
and text, and the top line's. The columns are named as the file's own comment lines lay the
outline out, where they do (`#\\tdevice  device_name`), else by depth. Comment lines are none."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from longread.ingest.records.kind import lines
from longread.ingest.records.table import Column, Table, build, identifier

name = "outline"
NOUNS = ("entry", "item", "line")
WHOLE: tuple[str, ...] = ()
SAMPLE_LINES = 3_000
SHARE = 0.8  # of the sample's lines (not blank, not comments) that must fit the outline
INDENTED = 0.3  # of them that must be indented
DEPTHS = 4  # depths read (deeper lines are text of their parent)
KEYED = 0.6  # of a depth's lines that must part a first word from the rest to have keys
ALIKE = 0.7  # of a depth's keys that must be of one shape (hex, number, word, code)
MAX_CHARS = 200  # a longer line is prose, not an outline's
_COMMENTS = ("#", ";", "%", "//")
_BULLETS = frozenset("-*+•")
_PARTED = re.compile(r"(\S+(?: \S+)*?)(?:\t+|  +)(\S.*)")  # (a key of words: `1043 0001`)
_SYNTAX = re.compile(r"(?:#|;|%|//)(\t*| *)(\w[\w \t]*)")  # (a comment of words: a layout, maybe)


def _depths(text: str, start: int = 0) -> Iterator[tuple[int, int, int, str]]:
    """(start, end, depth, content) of each line that is neither blank nor a comment: its depth
    counted in tabs, else in the text's step of spaces (-1 for an indentation of neither)."""
    step = 0
    read: list[tuple[int, int, str, str]] = []
    for s, e in lines(text, start):
        line = text[s:e]
        content = line.strip()
        if not content or content.startswith(_COMMENTS) or len(line) > MAX_CHARS:
            continue
        indent = line[: len(line) - len(line.lstrip(" \t"))]
        read.append((s, e, indent, content))
        if indent and set(indent) == {" "}:
            step = len(indent) if not step else min(step, len(indent))
    for s, e, indent, content in read:
        if not indent:
            yield s, e, 0, content
        elif set(indent) == {"\t"}:
            yield s, e, len(indent), content
        elif set(indent) == {" "} and step and len(indent) % step == 0:
            yield s, e, len(indent) // step, content
        else:
            yield s, e, -1, content


def _fits(read: list[tuple[int, int, int, str]]) -> bool:
    """Whether the lines are an outline: most at a depth, a fair share indented, none deeper
    than one below the line above it, and some depth's lines alike in how they open."""
    if len(read) < 10:
        return False
    placed = [r for r in read if r[2] >= 0]
    indented = [r for r in placed if r[2] > 0]
    if len(placed) < SHARE * len(read) or len(indented) < INDENTED * len(read):
        return False
    jumps = sum(1 for a, b in zip(placed, placed[1:], strict=False) if b[2] > a[2] + 1)
    if jumps > 0.02 * len(placed) or placed[0][2] != 0:
        return False
    by_depth: dict[int, list[str]] = {}
    for _, _, depth, content in indented:
        by_depth.setdefault(depth, []).append(content)
    return any(_keys(held) is not None and len(held) >= 5 for held in by_depth.values())


def _keys(contents: list[str]) -> list[str | None] | None:
    """Each line's key, where most of the depth's lines part one off alike; else None."""
    parted = [_PARTED.fullmatch(c) for c in contents]
    keyed = [p for p in parted if p is not None and p[1] not in _BULLETS]
    if not keyed or len(keyed) < KEYED * len(contents):
        return None
    shapes = Counter(_shape(p[1]) for p in keyed)
    if shapes.most_common(1)[0][1] < ALIKE * len(keyed):
        return None
    return [p[1] if p is not None else None for p in parted]


def _shape(word: str) -> str:
    if re.fullmatch(r"[0-9a-fA-F]{2,}", word) and any(c.isdigit() for c in word):
        return "hex"
    if word.isdigit():
        return "number"
    return "word" if word.isalpha() else "code"


def detect(sample: str) -> bool:
    head = "\n".join(sample.splitlines()[:SAMPLE_LINES])
    return ("\t" in head or "\n  " in head) and _fits(list(_depths(head)))


def records(text: str, file_name: str) -> list[Table]:
    read = list(_depths(text))
    if not _fits(read[:SAMPLE_LINES]):
        return []
    named = _syntax(text)
    cells: dict[int, list[tuple[int, int, list[str | None]]]] = {}
    path: list[tuple[str | None, str]] = []  # (key, text) of the line above at each depth
    keys = {d: _keys([c for _, _, depth, c in read if depth == d]) for d in range(DEPTHS)}
    seen: Counter[int] = Counter()
    for s, e, depth, content in read:
        if depth < 0 or depth >= DEPTHS:
            continue
        key_list = keys.get(depth)
        key = key_list[seen[depth]] if key_list is not None else None
        seen[depth] += 1
        rest = content[len(key) :].strip() if key is not None else content
        path = [*path[:depth], (key, rest)]
        if depth > len(path) - 1:
            continue
        above = path[depth - 1] if depth else None
        top = path[0] if depth > 1 else None
        row: list[str | None] = [key, rest]
        row += [*above] if above is not None else []
        row += [*top] if top is not None else []  # (key, text, its parent's, the top line's)
        cells.setdefault(depth, []).append((s, e, row))
    keyed = {d: k is not None for d, k in keys.items()}
    return [_table(depth, held, named, keyed) for depth, held in sorted(cells.items())]


def _table(
    depth: int,
    cells: list[tuple[int, int, list[str | None]]],
    named: dict[int, tuple[str, str]],
    keyed: dict[int, bool],
) -> Table:
    """The lines of one depth, named as the file lays them out (else `level_N`): their key and
    text, their parent's, the top line's (a key only for a depth whose lines have keys)."""
    levels = [(depth, "")]
    levels += [(depth - 1, "parent_")] if depth else []
    levels += [(0, "top_")] if depth > 1 else []
    headers: list[Column] = []
    kept: list[int] = []
    for at, (level, prefix) in enumerate(levels):
        key, text = named.get(level, (f"level_{level}", f"level_{level}_text"))
        taken = [h.name for h in headers]
        if keyed.get(level, False):
            headers.append(Column(identifier(prefix + key, taken)))
            kept.append(2 * at)
        headers.append(Column(identifier(prefix + text, [h.name for h in headers])))
        kept.append(2 * at + 1)
    rows = [(s, e, [row[i] for i in kept]) for s, e, row in cells]
    table_name = identifier(named[depth][0] if depth in named else f"outline_{depth}")
    return build(table_name, name, headers, rows, NOUNS, marked=True)


def _syntax(text: str) -> dict[int, tuple[str, str]]:
    """The names the file's comment lines give each depth's key and text, where a run of comment
    lines lays the outline out, one more indent a line (`# vendor  vendor_name`, `#\tdevice
    device_name`): {depth: (key, text)}, counted from the run's first line."""
    run: list[tuple[int, str, str]] = []
    for s, e in lines(text, 0, min(len(text), 20_000)):
        match = _SYNTAX.fullmatch(text[s:e].split("<--")[0].rstrip())
        indent = match[1] if match else ""
        depth = indent.count("\t") if "\t" in indent else 0 if len(indent) <= 1 else -1
        if match is None or depth < 0 or run and depth != run[-1][0] + 1:
            if len(run) >= 2:
                break
            run = []
        if match is not None and depth >= 0:
            run.append((depth, *_key_and_text(match[2].rstrip())))
    if len(run) < 2:
        return {}
    first = run[0][0]
    return {d - first: (key, rest or f"{key}_name") for d, key, rest in run[:DEPTHS]}


def _key_and_text(layout: str) -> tuple[str, str]:
    """The names a comment gives a depth's key and text: the words before its first wide gap and
    those after it (`subvendor subdevice  subsystem_name`), else its first word and the rest."""
    parts = re.split(r"\t+|  +", layout, maxsplit=1)
    if len(parts) == 2:
        key, rest = parts
    else:
        key, _, rest = layout.partition(" ")
    return "_".join(key.split()), "_".join(rest.split())
