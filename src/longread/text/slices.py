"""Context slices: named pieces of a large context that can be inspected and queried one by one.

`ContextSlicer.auto_slice_context` cuts a context into slices. Dicts give one slice per key,
lists one per item (or per chunk of items), markdown text one per header section, and any other
text chunks of roughly `chunk_chars` characters. Text slices are contiguous `[start, end)` ranges
of the original string, so joining their contents in order gives back the string exactly.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import chain, pairwise
from typing import Any

from longread.errors import UnknownSliceError

STRATEGIES = ("auto", "dict", "list", "markdown", "chars")

# A level 1-3 header line, or a ``` fence line (which toggles code-block state). Later lines are
# found by their leading newline: a literal first character lets `re` scan much faster than `^`.
_LINE = r"(?P<line>(?P<hashes>#{1,3}) (?P<title>[^\n]*)|[ ]{0,3}```[^\n]*)"
_FIRST_MARKDOWN_LINE = re.compile(_LINE)
_LATER_MARKDOWN_LINE = re.compile("\n" + _LINE)
_CLOSING_HASHES = re.compile(r"(?:^|[ \t])#+$")  # "## Title ##" is titled "Title"
_NON_ID_CHARS = re.compile(r"[^\w-]")
_WHITESPACE = re.compile(r"\s+")
_SENTENCE_ENDS = (". ", "! ", "? ")
_PREVIEW_CHARS = 120
_MAX_KNOWN_IN_ERROR = 10


@dataclass
class ContextSlice:
    """One named piece of context plus metadata about where it came from."""

    slice_id: str
    content: Any
    metadata: dict = field(default_factory=dict)

    def text(self) -> str:
        """The content as text: strings unchanged, anything else as indented JSON."""
        if isinstance(self.content, str):
            return self.content
        try:
            return json.dumps(self.content, ensure_ascii=False, indent=1, default=str)
        except (TypeError, ValueError):  # non-string keys JSON cannot hold, or a cycle
            return repr(self.content)

    @property
    def size(self) -> int:
        """Length of `text()` in characters."""
        return len(self.text())


class ContextSlicer:
    """An insertion-ordered collection of slices, addressable by id."""

    def __init__(self, slices: dict[str, ContextSlice] | None = None) -> None:
        self.slices: dict[str, ContextSlice] = dict(slices or {})

    @classmethod
    def from_context(cls, context: Any, strategy: str = "auto", **kw: Any) -> ContextSlicer:
        """A slicer holding the slices `auto_slice_context` makes from `context`."""
        return cls(cls.auto_slice_context(context, strategy, **kw))

    def add_slice(self, slice_id: str, content: Any, metadata: dict | None = None) -> ContextSlice:
        """Add a slice by hand, replacing any slice with the same id."""
        piece = ContextSlice(slice_id, content, dict(metadata or {}))
        self.slices[slice_id] = piece
        return piece

    def get_slice(self, slice_id: str) -> ContextSlice:
        """The slice named `slice_id`; raises `UnknownSliceError` if there is none."""
        try:
            return self.slices[slice_id]
        except KeyError:
            known = list(self.slices)
            shown = ", ".join(known[:_MAX_KNOWN_IN_ERROR]) or "(none)"
            more = "…" if len(known) > _MAX_KNOWN_IN_ERROR else ""
            raise UnknownSliceError(f"unknown slice {slice_id!r}; known: {shown}{more}") from None

    def list_slices(self) -> list[str]:
        """All slice ids, in order."""
        return list(self.slices)

    def get_slice_info(self) -> list[dict]:
        """A short description of every slice: id, content type, size, preview and metadata."""
        info = []
        for piece in self.slices.values():
            text = piece.text()
            head = _WHITESPACE.sub(" ", text[: _PREVIEW_CHARS * 8]).strip()
            info.append(
                {
                    "slice_id": piece.slice_id,
                    "type": type(piece.content).__name__,
                    "chars": len(text),
                    "preview": head[:_PREVIEW_CHARS],
                    "metadata": dict(piece.metadata),
                }
            )
        return info

    def __len__(self) -> int:
        return len(self.slices)

    def __contains__(self, slice_id: object) -> bool:
        return slice_id in self.slices

    def __iter__(self) -> Iterator[ContextSlice]:
        return iter(self.slices.values())

    @staticmethod
    def auto_slice_context(
        context: Any,
        strategy: str = "auto",
        chunk_chars: int = 10_000,
        list_chunk_size: int = 10,
        small_list_max: int = 10,
    ) -> dict[str, ContextSlice]:
        """Cut `context` into slices with `strategy` ("auto", "dict", "list", "markdown", "chars").

        "auto" picks by type: dict, list/tuple, markdown text (a level 1-3 header outside code
        fences), other text; any other value is chunked as the text `str(context)`.
        """
        if strategy not in STRATEGIES:
            raise ValueError(f"unknown slicing strategy {strategy!r}; use one of {STRATEGIES}")
        if chunk_chars < 1 or list_chunk_size < 1 or small_list_max < 0:
            raise ValueError("chunk_chars and list_chunk_size must be >= 1, small_list_max >= 0")
        if strategy == "auto":
            if isinstance(context, dict):
                strategy = "dict"
            elif isinstance(context, (list, tuple)):
                strategy = "list"
            elif isinstance(context, str) and _markdown_headers(context):
                strategy = "markdown"
            else:
                context, strategy = str(context), "chars"
        if strategy == "dict" and isinstance(context, dict):
            return _slice_dict(context)
        if strategy == "list" and isinstance(context, (list, tuple)):
            return _slice_list(context, list_chunk_size, small_list_max)
        if strategy == "markdown" and isinstance(context, str):
            return _slice_markdown(context, chunk_chars)
        if strategy == "chars" and isinstance(context, str):
            return _slice_chars(context, chunk_chars)
        raise ValueError(f"strategy {strategy!r} does not fit a {type(context).__name__} context")


class _UniqueIds:
    """Hands out ids: a base the first time, then `base_2`, `base_3`... skipping taken ones."""

    def __init__(self) -> None:
        self._taken: set[str] = set()
        self._next: dict[str, int] = {}

    def __call__(self, base: str) -> str:
        n = self._next.get(base, 1)
        candidate = base if n == 1 else f"{base}_{n}"
        while candidate in self._taken:
            n += 1
            candidate = f"{base}_{n}"
        self._next[base] = n + 1
        self._taken.add(candidate)
        return candidate


def _slice_dict(context: dict) -> dict[str, ContextSlice]:
    unique = _UniqueIds()
    out = {}
    for key, value in context.items():
        slice_id = unique(f"dict_{key}")
        out[slice_id] = ContextSlice(slice_id, value, {"key": key})
    return out


def _slice_list(context: list | tuple, chunk_size: int, small_max: int) -> dict[str, ContextSlice]:
    if len(context) <= small_max:
        return {
            f"item_{i}": ContextSlice(f"item_{i}", item, {"index": i})
            for i, item in enumerate(context)
        }
    out = {}
    for n, first in enumerate(range(0, len(context), chunk_size)):
        items = list(context[first : first + chunk_size])
        meta = {"first_index": first, "last_index": first + len(items) - 1}
        out[f"chunk_{n}"] = ContextSlice(f"chunk_{n}", items, meta)
    return out


def char_spans(text: str, start: int, end: int, chunk_chars: int) -> Iterator[tuple[int, int]]:
    """Contiguous `[s, e)` spans covering `text[start:end]`, each at most `chunk_chars` long.

    A span is cut at the last paragraph break in the second half of its window, else the last
    newline, else the last sentence end, else the last space, else exactly at `chunk_chars`.
    """
    s = start
    while s < end:
        hi = s + chunk_chars
        if hi >= end:
            yield s, end
            return
        lo = s + chunk_chars // 2
        cut = text.rfind("\n\n", lo, hi) + 2
        if cut < 2:
            cut = text.rfind("\n", lo, hi) + 1
        if cut < 1:
            cut = max(text.rfind(mark, lo, hi) for mark in _SENTENCE_ENDS) + 2
        if cut < 2:
            cut = text.rfind(" ", lo, hi) + 1
        if cut < 1:
            cut = hi
        yield s, cut
        s = cut


def _slice_chars(text: str, chunk_chars: int) -> dict[str, ContextSlice]:
    out = {}
    for n, (s, e) in enumerate(char_spans(text, 0, len(text), chunk_chars)):
        out[f"chunk_{n}"] = ContextSlice(f"chunk_{n}", text[s:e], {"start": s, "end": e})
    return out


def _markdown_headers(text: str) -> list[tuple[int, int, str]]:
    """`(offset, level, title)` of each level 1-3 header line outside ``` fences."""
    first = _FIRST_MARKDOWN_LINE.match(text)
    lines = chain([first] if first else [], _LATER_MARKDOWN_LINE.finditer(text))
    headers = []
    in_fence = False
    for m in lines:
        if m["hashes"] is None:
            in_fence = not in_fence
        elif not in_fence:
            title = _CLOSING_HASHES.sub("", m["title"].strip()).strip()
            headers.append((m.start("line"), len(m["hashes"]), title))
    return headers


def _section_id(title: str) -> str:
    slug = _NON_ID_CHARS.sub("", _WHITESPACE.sub("_", title.lower()))
    return f"section_{slug or 'untitled'}"


def _slice_markdown(text: str, chunk_chars: int) -> dict[str, ContextSlice]:
    """One slice per header section, long sections split into parts like the chars strategy.

    Text before the first header is the preamble (level 0); if it is only whitespace it joins
    the first section instead.
    """
    if not text:
        return {}
    headers = _markdown_headers(text)
    starts = [offset for offset, _, _ in headers]
    sections: list[tuple[str, int, int, int]] = []  # (title, level, start, end)
    if not headers or text[: starts[0]].strip():
        sections.append(("", 0, 0, starts[0] if headers else len(text)))
    else:  # a whitespace-only preamble joins the first section
        starts[0] = 0
    spans = pairwise([*starts, len(text)])
    sections += [(title, lvl, s, e) for (_, lvl, title), (s, e) in zip(headers, spans, strict=True)]

    unique = _UniqueIds()
    out = {}
    for title, level, start, end in sections:
        base = unique("section_preamble" if level == 0 else _section_id(title))
        meta = {"title": title, "level": level}
        if end - start <= chunk_chars:
            out[base] = ContextSlice(base, text[start:end], {**meta, "start": start, "end": end})
            continue
        for k, (s, e) in enumerate(char_spans(text, start, end, chunk_chars), 1):
            part = unique(f"{base}_part{k}")
            out[part] = ContextSlice(part, text[s:e], {**meta, "start": s, "end": e, "part": k})
    return out
