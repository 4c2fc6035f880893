"""Shared fixtures: a cache folder per test and helpers to build runs around a ScriptedLM."""

from __future__ import annotations

import pytest

from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.llm.usage import Budget
from longread.strategies.common import Run, RunOptions


def pytest_collection_modifyitems(items):
    """Tests on a real Ray run last: once loaded, Ray's native core stays in the process, and no
    later test could fork (see longread.forking.fork_safe)."""
    items.sort(key=lambda item: item.get_closest_marker("ray") is not None)


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LONGREAD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("LONGREAD_DATA_DIR", str(tmp_path / "data"))


def make_run(
    root: ScriptedLM,
    sub: ScriptedLM | None = None,
    budget: Budget = Budget(),
    events: list | None = None,
    sink=None,
    **options,
) -> Run:
    sink = sink or (events.append if events is not None else (lambda e: None))
    gateway = Gateway(budget=budget, on_event=sink, backoff=0.01)
    return Run(root, sub or root, gateway, RunOptions(**options), sink)
