"""The table of contents: a tree of titled sections covering a text exactly, from its headings
(found by rules, declared by the file, or both); a text without headings is cut into parts.
Offsets are character offsets into the text, half-open [start, end)."""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from longread.ingest.headings import detect_headings
from longread.ingest.loaded import Heading

_NONSPACE = re.compile(r"\S")


@dataclass
class Section:
    """A titled span [start_char, end_char) of the text; its children lie inside it."""

    title: str
    level: int
    start_char: int
    end_char: int
    children: list[Section] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: title, level, start_char, end_char and children."""
        return {
            "title": self.title,
            "level": self.level,
            "start_char": self.start_char,
            "end_char": self.end_char,
            "children": [c.to_dict() for c in self.children],
        }


def _cut_points(text: str, start: int, end: int, size: int) -> list[int]:
    """Boundaries start < … < end with gaps of at most `size`, cut after a blank line,
    else after a newline, else after a space, else anywhere."""
    bounds, pos = [start], start
    while end - pos > size:
        low, high = pos + max(1, size // 2), pos + size
        cut = high
        for sep in ("\n\n", "\n", " "):
            found = text.rfind(sep, low, high)
            if found >= 0:
                cut = found + len(sep)
                break
        bounds.append(cut)
        pos = cut
    bounds.append(end)
    return bounds


def _pieces(
    text: str, start: int, end: int, size: int, name: Callable[[int], str], level: int
) -> list[Section]:
    """Paragraph-bounded sections over [start, end), titled name(1), name(2) …"""
    bounds = _cut_points(text, start, end, size)
    return [Section(name(k), level, a, b) for k, (a, b) in enumerate(pairwise(bounds), 1)]


def _clean(headings: Iterable[Heading | tuple[int, int, str]], size: int) -> list[Heading]:
    """Headings inside the text, sorted by start; the first one wins where starts coincide."""
    ordered = sorted(
        (Heading(int(s), int(lv), str(t)) for s, lv, t in headings), key=lambda h: h.start
    )
    seen: set[int] = set()
    kept = []
    for start, level, title in ordered:
        if 0 <= start < size and start not in seen:
            seen.add(start)
            kept.append(Heading(start, level, " ".join(title.split()) or "Untitled"))
    return kept


def _title_key(title: str) -> str:
    """Case-folded words of a title, for spotting the same heading written twice."""
    return " ".join(re.findall(r"\w+", title.casefold()))


def _same_heading(text: str, a: Heading, b: Heading) -> bool:
    """True if two headings sit on the same line, or nearby with matching titles."""
    low, high = sorted((a[0], b[0]))
    if high - low > 2000:
        return False
    if "\n" not in text[low:high]:
        return True
    ka, kb = _title_key(a[2]), _title_key(b[2])
    return bool(ka and kb) and (ka == kb or ka.endswith(" " + kb) or kb.endswith(" " + ka))


def _merge(text: str, extra: list[Heading], found: list[Heading]) -> list[Heading]:
    """File-format headings first; detected ones that repeat them are dropped, the rest are
    nested below the deepest file-format level."""
    starts = [h[0] for h in extra]
    shift = max(h[1] for h in extra) + 1 - min((h[1] for h in found), default=1)
    kept = []
    for h in found:
        i = bisect_right(starts, h[0])
        near = [extra[j] for j in (i - 1, i) if 0 <= j < len(extra)]
        if not any(_same_heading(text, h, e) for e in near):
            kept.append(Heading(h.start, h.level + shift, h.title))
    return _clean(extra + kept, len(text))


def _tree(text: str, headings: list[Heading]) -> list[Section]:
    """Nest headings: each section runs to the next heading of the same or a higher level."""
    roots: list[Section] = []
    stack: list[tuple[int, Section]] = []
    for start, level, title in headings:
        while stack and stack[-1][0] >= level:
            stack.pop()[1].end_char = start
        section = Section(title, len(stack) + 1, start, len(text))
        (stack[-1][1].children if stack else roots).append(section)
        stack.append((level, section))
    first = roots[0].start_char
    if first > 0:
        if _NONSPACE.search(text, 0, first):
            roots.insert(0, Section("Preamble", 1, 0, first))
        else:
            roots[0].start_char = 0
    return roots


def _part_names(title: str) -> Callable[[int], str]:
    return lambda k: f"{title} (part {k})"


def _split_long_leaves(text: str, roots: list[Section], limit: int) -> None:
    """Give every leaf longer than `limit` paragraph-bounded children "<title> (part k)"."""
    for section in flatten(roots):
        length = section.end_char - section.start_char
        if section.children or length <= limit:
            continue
        size = math.ceil(length / math.ceil(length / limit))
        section.children = _pieces(
            text,
            section.start_char,
            section.end_char,
            size,
            _part_names(section.title),
            section.level + 1,
        )


def build_toc(
    text: str,
    headings: Iterable[Heading | tuple[int, int, str]] | None = None,
    *,
    max_section_chars: int = 50_000,
    chunk_chars: int = 8_000,
    extra_headings: Iterable[Heading | tuple[int, int, str]] | None = None,
) -> list[Section]:
    """Top-level sections (with children) covering [0, len(text)) exactly and contiguously.

    `headings` defaults to detect_headings(text); `extra_headings` (from the file format, e.g.
    a PDF outline) take precedence. Text before the first heading becomes "Preamble"; a text
    without headings becomes "Part 1", "Part 2" … of about `chunk_chars`; leaves longer than
    `max_section_chars` get "<title> (part k)" children. Levels equal depth in the tree.
    """
    if max_section_chars < 1 or chunk_chars < 1:
        raise ValueError("max_section_chars and chunk_chars must be positive")
    if not text:
        return []
    found = _clean(detect_headings(text) if headings is None else headings, len(text))
    extra = _clean(extra_headings or (), len(text))
    if extra:
        found = _merge(text, extra, found)
    if found:
        roots = _tree(text, found)
    else:
        roots = _pieces(text, 0, len(text), chunk_chars, lambda k: f"Part {k}", 1)
    _split_long_leaves(text, roots, max_section_chars)
    return roots


def _walk(sections: Sequence[Section]) -> Iterator[tuple[int, Section]]:
    """(depth, section) in document order, depth-first, without recursion."""
    stack = [(1, s) for s in reversed(sections)]
    while stack:
        depth, section = stack.pop()
        yield depth, section
        stack.extend((depth + 1, c) for c in reversed(section.children))


def flatten(sections: Sequence[Section]) -> list[Section]:
    """Every section in document order, parents before their children."""
    return [section for _, section in _walk(sections)]


def deepest_shown(per_depth: Mapping[int, int], max_lines: int = 60) -> int:
    """The deepest level an outline of `max_lines` lines shows whole (every level, when all the
    sections fit; at least the top one)."""
    if max_lines < 1:
        raise ValueError("max_lines must be positive")
    if sum(per_depth.values()) <= max_lines:
        return max(per_depth, default=1)
    deepest, used = 0, 0
    for depth in sorted(per_depth):
        if used + per_depth[depth] > max_lines - 1:
            break
        deepest, used = depth, used + per_depth[depth]
    return max(deepest, 1)


def outline_lines(shown: Sequence[tuple[int, str]], total: int) -> str:
    """The (depth, title) pairs shown, indented, and a "… N more sections" line for the rest."""
    lines = ["  " * (depth - 1) + title for depth, title in shown]
    if total > len(shown):
        lines.append(f"… {total - len(shown)} more sections")
    return "\n".join(lines)
