"""The short version of bench/load.py: `longread serve` under clients from many addresses at
once answers every request (503 with Retry-After past its cap, never another 5xx) and keeps
its memory."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import load  # noqa: E402 - (the bench's run, short)


def test_the_server_holds_a_short_load(tmp_path):
    result = load.run(clients=10, seconds=6, folder=tmp_path, think=0)  # (a tight loop)
    assert result.server_errors() == 0 and result.busy_without_retry_after == 0
    assert not result.errors, result.errors
    answered = sum(sum(c.values()) for c in result.statuses.values())
    assert answered >= 50 and set(result.latencies) >= {"POST /api/parse", "GET /api/runs"}
    quick = [r for r in result.latencies if r not in load.MODEL_ROUTES]
    assert max(result.p99(r) for r in quick) <= 2.0  # (a loose bound: a test machine is shared)
    assert max(result.rss_mb) - result.rss_mb[0] <= 150
