"""One rate limit and budget for many workers' model calls: calls in flight are capped, starts are
spaced by the rate, a place held by a worker that died comes back when its lease ends, and a
spent budget refuses the next call with a budget error."""

from __future__ import annotations

import pytest

from longread.errors import BudgetExceededError
from longread.executor import LocalShared
from longread.llm import limits as limits_module
from longread.llm.limits import SPENT, CallLimits, Limits, limited


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(limits_module.time, "monotonic", clock)
    return clock


def test_calls_in_flight_are_capped_and_a_dead_workers_place_comes_back(clock):
    shared = CallLimits(Limits(in_flight=2, lease_seconds=30))
    first, second = shared.ticket(), shared.ticket()
    assert first[0] == second[0] == 0.0 and first[1] != second[1]
    assert shared.ticket()[0] > 0  # (two in flight: wait)
    shared.done(first[1], 0.01)
    assert shared.ticket()[0] == 0.0
    assert shared.ticket()[0] > 0
    clock.now += 31  # (the holders never said they were done: their leases end)
    assert shared.ticket()[0] == 0.0 and shared.spent() == (4, 0.01)


def test_starts_are_spaced_by_the_rate(clock):
    shared = CallLimits(Limits(per_second=4, in_flight=100))
    assert shared.ticket()[0] == 0.0
    wait, _ = shared.ticket()
    assert wait == pytest.approx(0.25)
    clock.now += 0.25
    assert shared.ticket()[0] == 0.0


def test_a_spent_budget_refuses_the_next_call(clock):
    shared = CallLimits(Limits(max_calls=3, max_cost_usd=0.05))
    for _ in range(2):
        shared.done(shared.ticket()[1], 0.03)
    assert shared.ticket() == (SPENT, 0)  # (dollars spent before calls)
    waits: list[float] = []
    counted = LocalShared(CallLimits(Limits(max_calls=1, in_flight=1, lease_seconds=1)))
    with limited(counted, waits.append) as charge:
        charge(0.5)
    assert counted.target.spent() == (1, 0.5)
    with pytest.raises(BudgetExceededError, match="shared budget"), limited(counted, waits.append):
        pass
