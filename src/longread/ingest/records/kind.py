"""What a record kind is: a `detect` test cheap enough to run on a sample of any text, and a
`records` reader that gives the kind's tables, each row with its span in the text."""

from __future__ import annotations

import bisect
import heapq
import itertools
import re
from collections.abc import Iterable, Iterator
from functools import cached_property
from typing import Protocol

from longread.ingest.records.table import Table

MIN_ROWS = 5  # fewer records than this are not a table


class Kind(Protocol):
    """A kind of record (one file each under `ingest/records/`)."""

    @property
    def name(self) -> str: ...

    @property
    def NOUNS(self) -> tuple[str, ...]:  # noqa: N802 - a module's constant
        """What one record is called (`message`, `email`)."""
        ...

    @property
    def WHOLE(self) -> tuple[str, ...]:  # noqa: N802
        """What a document of such records is called (`mailbox`, `play`)."""
        ...

    def detect(self, sample: str) -> bool:
        """Whether the text (a sample of it: its start and pieces spread over it) may hold this
        kind's records."""
        ...

    def records(self, text: str, name: str) -> list[Table]:
        """This kind's tables in the text (`name`: the document's file name)."""
        ...


_LINE = re.compile(r"[^\n]*")


def lines(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
    """The [start, end) of each line of text[start:end], without its line break."""
    end = len(text) if end is None else end
    at = start
    while at < end:
        stop = text.find("\n", at, end)
        stop = end if stop < 0 else stop
        yield at, stop
        at = stop + 1


class LinePattern:
    """A pattern that matches only where a line starts (written without `^`), found fast: the
    regex engine scans for a line break far faster than it tests `^` at every character.
    Compiled on first use (a question over stored records finds none)."""

    def __init__(self, pattern: str, flags: int = 0):
        self.pattern, self.flags = pattern, flags

    @cached_property
    def first(self) -> re.Pattern[str]:
        return re.compile(self.pattern, self.flags)

    @cached_property
    def rest(self) -> re.Pattern[str]:
        return re.compile(f"\n(?:{self.pattern})", self.flags)

    def finditer(
        self, text: str, start: int = 0, end: int | None = None
    ) -> Iterator[tuple[int, re.Match[str]]]:
        """(where its line starts, the match) of each match in text[start:end], in order (a
        match of the pattern after the first line holds the line break before it)."""
        end = len(text) if end is None else end
        at = start
        if start == 0 or text[start - 1] == "\n":
            match = self.first.match(text, start, end)
            if match:
                yield start, match
                at = match.end()
        if at > start and text[at - 1] == "\n":
            at -= 1  # (the match took its line break: the next line starts at `at`)
        while True:
            for match in self.rest.finditer(text, at, end):
                yield match.start() + 1, match
                if match.end() > match.start() + 1 and text[match.end() - 1] == "\n":
                    at = match.end() - 1  # (as above)
                    break
            else:
                return

    def count(self, text: str, start: int = 0, end: int | None = None) -> int:
        return sum(1 for _ in self.finditer(text, start, end))

    def search(self, text: str, start: int = 0, end: int | None = None) -> int | None:
        """Where the first match's line starts, if any."""
        return next((at for at, _ in self.finditer(text, start, end)), None)


class Taken:
    """Spans of the text already read as some kind's records, to keep later kinds off them."""

    def __init__(self) -> None:
        self.spans: list[tuple[int, int]] = []

    def extend(self, spans: Iterable[tuple[int, int]]) -> None:
        """Take these spans too (spans a line break apart, or overlapping, become one)."""
        ordered = sorted(spans)
        merged: list[tuple[int, int]] = []
        for start, end in heapq.merge(self.spans, ordered) if self.spans else ordered:
            if merged and start <= merged[-1][1] + 1:
                if end > merged[-1][1]:
                    merged[-1] = (merged[-1][0], end)
            else:
                merged.append((start, end))
        self.spans = merged

    def gaps(self, end: int, start: int = 0) -> Iterator[tuple[int, int]]:
        """The [start, end) of each stretch of text[start:end] that no span took."""
        at = start
        first = max(0, bisect.bisect_right(self.spans, (start, start)) - 1)
        for taken_start, taken_end in itertools.islice(self.spans, first, None):
            if taken_start >= end:
                break
            if taken_start > at:
                yield at, taken_start
            at = max(at, taken_end)
        if at < end:
            yield at, end

    def overlaps(self, start: int, end: int) -> bool:
        at = bisect.bisect_right(self.spans, (start, end))
        before = self.spans[at - 1] if at else None
        after = self.spans[at] if at < len(self.spans) else None
        return bool(
            (before is not None and before[1] > start) or (after is not None and after[0] < end)
        )
