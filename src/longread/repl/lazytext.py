"""The REPL's `context` for a source held by the host (an indexed document, a corpus): a
read-only text view that reads what is asked for, so code written for an in-memory `context`
(`len(context)`, `context[a:b]`, `str(context)` of a small one) runs on an indexed document."""

from __future__ import annotations

from collections.abc import Callable, Iterator

READ_LIMIT = 1_000_000  # characters one read (or str(context)) may return


class LazyText:
    """`length` characters that `read(start, end)` serves, a part at a time."""

    def __init__(self, length: int, read: Callable[[int, int], str]):
        self._length = length
        self._read = read

    def __len__(self) -> int:
        return self._length

    def __getitem__(self, key: int | slice) -> str:
        if isinstance(key, int):
            index = key + self._length if key < 0 else key
            if not 0 <= index < self._length:
                raise IndexError("context index out of range")
            return self._read(index, index + 1)
        if not isinstance(key, slice):
            raise TypeError(f"context indices must be integers or slices, not {type(key).__name__}")
        wanted = range(*key.indices(self._length))
        if not wanted:
            return ""
        low, high = min(wanted[0], wanted[-1]), max(wanted[0], wanted[-1]) + 1
        if high - low > READ_LIMIT:
            raise ValueError(
                f"context[{key.start}:{key.stop}] spans {high - low:,} characters; read at "
                f"most {READ_LIMIT:,} at a time"
            )
        text = self._read(low, high)
        return text if wanted.step == 1 else "".join(text[i - low] for i in wanted)

    def __str__(self) -> str:
        if self._length > READ_LIMIT:
            raise ValueError(
                f"context has {self._length:,} characters: too many to make into one string here. "
                "Read a part with context[a:b] or read_range(a, b); "
                "find things with grep_all or search"
            )
        return self._read(0, self._length)

    def __contains__(self, text: object) -> bool:
        return isinstance(text, str) and text in str(self)

    def __iter__(self) -> Iterator[str]:
        raise TypeError("context is read through the host: iterate over a part, context[a:b]")

    def __repr__(self) -> str:
        return (
            f"<context: {self._length:,} characters, read-only: context[a:b] reads a part; "
            "grep_all and search find things>"
        )
