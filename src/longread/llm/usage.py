"""Budgets and the usage ledger: calls, tokens and cost per model and per purpose."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict, dataclass, field
from typing import Any

ROOT_PURPOSES = frozenset({"root", "root_final"})


@dataclass(frozen=True)
class Budget:
    """Limits for one run; None means unlimited. `max_subcalls` counts calls other than the root's."""

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
    """Totals and a breakdown by (model, purpose)."""

    lines: dict[tuple[str, str], UsageLine] = field(default_factory=lambda: defaultdict(UsageLine))
    seconds: float = 0.0

    def line(self, model: str, purpose: str) -> UsageLine:
        return self.lines[(model, purpose)]

    def total(self, attr: str) -> Any:
        return sum(getattr(line, attr) for line in self.lines.values())

    @property
    def calls(self) -> int:
        return self.total("calls")

    @property
    def subcalls(self) -> int:
        return sum(line.calls for (_, p), line in self.lines.items() if p not in ROOT_PURPOSES)

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
                {"model": m, "purpose": p, **asdict(line)}
                for (m, p), line in sorted(self.lines.items())
            ],
        }

    def summary(self) -> str:
        """One line for people: calls, tokens, cost, seconds."""
        return usage_line(self.to_dict())


def usage_line(usage: dict[str, Any]) -> str:
    """`N calls (S sub, C cached) · I in / O out tokens · $cost · T s` from a usage dict."""
    cost = f"${usage['cost_usd']:.4f}" if usage.get("cost_usd") is not None else "cost unknown"
    return (
        f"{usage.get('calls', 0)} calls ({usage.get('subcalls', 0)} sub, "
        f"{usage.get('cached_calls', 0)} cached) · {usage.get('input_tokens', 0):,} in / "
        f"{usage.get('output_tokens', 0):,} out tokens · {cost} · {usage.get('seconds', 0):.1f} s"
    )
