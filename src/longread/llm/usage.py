"""Budgets and the usage ledger: calls, tokens and cost per model, purpose and RLM depth."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from longread.answer import usage_line


class Purpose(StrEnum):
    """Why a model call was made: the usage ledger and the trace count calls by it."""

    ROOT = "root"  # a turn of the rlm loop's root model
    ROOT_FINAL = "root_final"  # its last word, after its turns ran out
    SUBCALL = "subcall"  # llm_query and its batches
    BASE = "base"
    RETRIEVAL = "retrieval"
    MAP_CHUNK = "map_chunk"  # the sub-model reading one passage
    JOIN = "join"  # the root model joining the findings
    STATE = "state"  # a stronger model stating a short answer from the findings' passages
    REWRITE = "rewrite"
    ROUTE = "route"  # choosing a branch of the tree or the table of contents
    REFINE_SLICE = "refine_slice"
    REFINE_MERGE = "refine_merge"
    ASK_ABOUT_SECTION = "ask_about_section"
    ASK_ABOUT_DOCUMENT = "ask_about_document"
    SUMMARIZE_SECTION = "summarize_section"
    SUMMARIZE_TREE = "summarize_tree"
    SMART_CHUNK = "smart_chunk"
    DOC_TYPE = "doc_type"
    DOCUMENT_META = "document_meta"
    VERIFY = "verify"  # the sub-model judging whether cited spans entail an answer's claims
    RECALL = "recall"  # a follow-up answered from the passages earlier answers cited
    PLAN = "plan"  # the root model reading a question into a plan under its schema
    DESCRIBE_FIGURE = "describe_figure"  # a vision model describing a figure of a document


ROOT_PURPOSES = frozenset({Purpose.ROOT, Purpose.ROOT_FINAL})
_depth: ContextVar[int] = ContextVar("longread_rlm_depth", default=0)


@contextmanager
def at_depth(depth: int) -> Iterator[None]:
    """Within the block, model calls are counted at RLM depth `depth` (0: the root RLM)."""
    token = _depth.set(depth)
    try:
        yield
    finally:
        _depth.reset(token)


def current_depth() -> int:
    return _depth.get()


def counts_as_subcall(purpose: str, depth: int) -> bool:
    """A call other than the root RLM's own turns (a child RLM's turns are its parent's
    sub-calls)."""
    return purpose not in ROOT_PURPOSES or depth > 0


@dataclass(frozen=True)
class Budget:
    """Limits for one run; None means unlimited. `max_subcalls` counts calls other than the
    root's."""

    max_subcalls: int | None = None
    max_cost_usd: float | None = None
    max_tokens: int | None = None
    max_seconds: float | None = None


@dataclass
class UsageLine:
    calls: int = 0
    cached: int = 0
    retries: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True


@dataclass
class Usage:
    """Totals and a breakdown by (model, purpose, RLM depth)."""

    lines: dict[tuple[str, str, int], UsageLine] = field(
        default_factory=lambda: defaultdict(UsageLine)
    )
    seconds: float = 0.0

    def line(self, model: str, purpose: str, depth: int = 0) -> UsageLine:
        return self.lines[(model, purpose, depth)]

    def total(self, attr: str) -> Any:
        return sum(getattr(line, attr) for line in self.lines.values())

    @property
    def calls(self) -> int:
        return self.total("calls")

    @property
    def subcalls(self) -> int:
        return sum(line.calls for (_, p, d), line in self.lines.items() if counts_as_subcall(p, d))

    @property
    def tokens(self) -> int:
        return self.total("input_tokens") + self.total("output_tokens")

    @property
    def cost_known(self) -> bool:
        return all(line.cost_known for line in self.lines.values())

    def to_dict(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "subcalls": self.subcalls,
            "cached_calls": self.total("cached"),
            "retries": self.total("retries"),
            "input_tokens": self.total("input_tokens"),
            "output_tokens": self.total("output_tokens"),
            "cost_usd": round(self.total("cost_usd"), 6) if self.cost_known else None,
            "seconds": round(self.seconds, 2),
            "by_model_purpose": [
                {"model": m, "purpose": p, "depth": d, **asdict(line)}
                for (m, p, d), line in sorted(self.lines.items())
            ],
            "by_depth": self._by_depth(),
        }

    def _by_depth(self) -> list[dict[str, int]]:
        """Calls and tokens at each RLM depth (0: the root RLM, 1: its children, ...)."""
        depths: dict[int, dict[str, int]] = {}
        for (_, _, depth), line in self.lines.items():
            row = depths.setdefault(
                depth, {"depth": depth, "calls": 0, "input_tokens": 0, "output_tokens": 0}
            )
            row["calls"] += line.calls
            row["input_tokens"] += line.input_tokens
            row["output_tokens"] += line.output_tokens
        return [depths[d] for d in sorted(depths)]

    def summary(self) -> str:
        """One line for people: calls, tokens, cost, seconds."""
        return usage_line(self.to_dict())
