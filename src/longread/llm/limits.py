"""One rate limit and one budget for model calls made by many workers at once: CallLimits is the
shared state (requests started per second, calls in flight, calls and dollars spent), kept in one
place (an executor's shared object: a Ray actor on a cluster, an object behind a lock here);
`limited` is how a worker's call takes its turn."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from longread.errors import BudgetExceededError
from longread.executor import Shared

SPENT = -1.0  # what `ticket` answers once the budget is spent
_BUSY_WAIT = 0.05  # seconds to wait for a call in flight to end


@dataclass(frozen=True)
class Limits:
    """For all workers together: requests started per second, calls in flight, and the budget
    (calls, dollars where the price is known); None: no limit."""

    per_second: float | None = None
    in_flight: int = 8
    max_calls: int | None = None
    max_cost_usd: float | None = None
    lease_seconds: float = 300.0  # a call not done by then (its worker died) frees its place


class CallLimits:
    """The shared state behind `Limits` (its methods are called one at a time)."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.flying: dict[int, float] = {}  # ticket -> when its lease ends
        self.calls = 0
        self.cost = 0.0
        self._next_start = 0.0

    def ticket(self) -> tuple[float, int]:
        """(0, a ticket): a call may start now (it is counted); (SPENT, 0): the budget is spent;
        else (seconds to wait before asking again, 0)."""
        limits, now = self.limits, time.monotonic()
        if (limits.max_calls is not None and self.calls >= limits.max_calls) or (
            limits.max_cost_usd is not None and self.cost >= limits.max_cost_usd
        ):
            return SPENT, 0
        self.flying = {t: end for t, end in self.flying.items() if end > now}
        if len(self.flying) >= limits.in_flight:
            return _BUSY_WAIT, 0
        if limits.per_second and self._next_start > now:
            return self._next_start - now, 0
        if limits.per_second:
            self._next_start = max(self._next_start, now) + 1 / limits.per_second
        self.calls += 1
        self.flying[self.calls] = now + limits.lease_seconds
        return 0.0, self.calls

    def done(self, ticket: int, cost_usd: float) -> None:
        """The call of `ticket` ended (its cost, 0 if unknown or failed)."""
        self.flying.pop(ticket, None)
        self.cost += cost_usd

    def spent(self) -> tuple[int, float]:
        """(calls started, dollars spent) so far."""
        return self.calls, self.cost


@contextmanager
def limited(
    shared: Shared, sleep: Callable[[float], None] = time.sleep
) -> Iterator[Callable[[float], None]]:
    """Wait for the shared limits to let a call start; the block calls the function it is given
    with the call's cost (else the call is counted as costing nothing)."""
    while (turn := shared.call("ticket"))[0] != 0.0:
        if turn[0] == SPENT:
            raise BudgetExceededError(
                "the shared budget of the workers' model calls is spent", "shared"
            )
        sleep(turn[0])
    cost = [0.0]
    try:
        yield lambda usd: cost.__setitem__(0, usd)
    finally:
        shared.call("done", turn[1], cost[0])
