"""What model code may pass to a tool and get back, whatever the tool's arguments say: every tool
runs on the host, so each bounds its own work with these."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from longread.llm.base import LM
from longread.text.cut import truncate_middle

NAME_CHARS = 300  # a section name, document id, keyword, entity or date
QUERY_CHARS = 2_000  # a search query
QUESTION_CHARS = 4_000  # a question or prompt put before a passage
READ_LIMIT = 1_000_000  # characters one read returns
CACHED_READ_CHARS = 100_000  # longer reads are not kept in a read cache
MAX_BATCH = 256  # prompts or documents in one batched call


def short_name(value: Any) -> str:
    """A name from model code, as text of bounded length (longer names match nothing anyway)."""
    return str(value)[:NAME_CHARS]


def short_text(value: Any, limit: int = QUESTION_CHARS) -> str:
    """A question or query from model code, its middle cut past `limit` characters."""
    return truncate_middle(str(value), limit)


def bounded_batch(items: Any, what: str) -> list:
    """A list from model code of at most MAX_BATCH items."""
    items = list(items)
    if len(items) > MAX_BATCH:
        raise ValueError(f"{len(items):,} {what} in one call; at most {MAX_BATCH} at a time")
    return items


def cached_reads(read: Callable[..., str], cache_size: int) -> Callable[..., str]:
    """`read(*key, start, end)` at most READ_LIMIT characters long, through a cache that keeps only
    short reads (so it holds at most ~cache_size × CACHED_READ_CHARS characters)."""
    cached = functools.lru_cache(maxsize=cache_size)(read)

    def bounded(*args: Any) -> str:
        *key, start, end = args
        start, end = int(start), int(end)
        end = min(end, start + READ_LIMIT)
        return (read if end - start > CACHED_READ_CHARS else cached)(*key, start, end)

    return bounded


def fit_chars(lm: LM, reserve_tokens: int = 1024) -> int:
    """About how many characters of text fit in `lm`'s window, leaving room for prompt and reply."""
    return max(2_000, (lm.context_window - reserve_tokens) * 3)
