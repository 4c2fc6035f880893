"""Text too long for where it is going, cut in the middle: its head and tail kept, with a note of
how much was left out (a model sees both ends of a long output, and knows something is missing)."""

from __future__ import annotations


def cut_note(cut: int) -> str:
    return f"\n[... {cut:,} characters cut from the middle of this output ...]\n"


def truncate_middle(text: str, limit: int) -> str:
    """`text` if it fits in `limit` characters, else its head and tail with a note of what was
    cut."""
    if len(text) <= limit:
        return text
    head = limit // 2
    tail = limit - head
    return text[:head] + cut_note(len(text) - head - tail) + text[-tail:]
