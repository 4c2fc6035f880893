"""What the rlm loop needs from a set of REPL tools, whatever they explore (one in-memory context or
an indexed document): the functions, how to introduce them to the root model, and how to cite."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from longread.answer import Citation
from longread.repl.capture import truncate_middle
from longread.tools.hypothesis import HypothesisTracker

# What model code may pass and get back, whatever a tool's arguments say: every tool runs on the
# host, so each bounds its own work.
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


@dataclass
class Brief:
    """How a toolset presents itself: the system prompt's opening (what is being explored) and
    closing (how to go about it), the first step (code searching for the question's key words,
    run before the first turn), and variables preset in the REPL."""

    intro: str
    guide: str
    first_step: str
    context: Any = None  # loaded into the REPL variable `context`
    variables: dict[str, Any] = field(default_factory=dict)


class Toolset:
    """Base of the REPL toolsets: the shared hypothesis (seed 002), a flag telling whether any
    tool has served the document's text, and notices for the root model."""

    TOOL_NAMES: tuple[str, ...] = ()
    LOOKING: frozenset[str] = frozenset()  # tools whose every call serves the document's content
    HYPOTHESIS_NAMES = ("update_hypothesis", "get_hypothesis", "get_hypothesis_history")

    def __init__(self, hypothesis: HypothesisTracker | None = None):
        self.hypothesis = hypothesis or HypothesisTracker()
        self.notices: list[
            str
        ] = []  # advice for the root model, shown after the cell that caused it
        self.touched = False  # has any tool served text or structure of the document?

    def take_notices(self) -> list[str]:
        notices, self.notices = list(dict.fromkeys(self.notices)), []
        return notices

    def functions(self) -> dict[str, Callable[..., Any]]:
        """The tools by name, as the REPL sees them."""
        return {
            name: self._looking(getattr(self, name))
            if name in self.LOOKING
            else getattr(self, name)
            for name in self.TOOL_NAMES + self.HYPOTHESIS_NAMES
        }

    def _looking(self, tool: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(tool)
        def call(*args: Any, **kwargs: Any) -> Any:
            self.touched = True
            return tool(*args, **kwargs)

        return call

    def brief(self, question: str) -> Brief:
        """How to present the tools to a root model about to answer `question`."""
        raise NotImplementedError

    def cite(self, answer: str, question: str, limit: int = 3) -> list[Citation]:
        """Spans of the document the answer rests on (none for an answer it does not support)."""
        raise NotImplementedError

    def update_hypothesis(self, new_hypothesis: str) -> str:
        """Replace the current hypothesis (the old one goes to the history)."""
        return self.hypothesis.update(new_hypothesis)

    def get_hypothesis(self) -> str:
        """The current hypothesis ('' before the first update)."""
        return self.hypothesis.current

    def get_hypothesis_history(self) -> list[str]:
        """Every earlier hypothesis, oldest first."""
        return list(self.hypothesis.history)
