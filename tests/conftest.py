"""Shared fixtures: a cache folder per test and helpers to build runs around a ScriptedLM."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.llm.usage import Budget
from longread.strategies.common import Run, RunOptions


def pytest_collection_modifyitems(items):
    """Tests on a real Ray run last: once loaded, Ray's native core stays in the process, and no
    later test could fork (see longread.forking.fork_safe). Those that share one Ray (`shared_ray`)
    run after those that start and stop their own, which need none running."""
    items.sort(
        key=lambda item: (
            item.get_closest_marker("ray") is not None,
            "shared_ray" in getattr(item, "fixturenames", ()),
        )
    )


@pytest.fixture(scope="session")
def shared_ray(tmp_path_factory):
    """One local Ray, started once, for the tests that only run jobs on it (a RayExecutor made
    while it runs uses it and leaves it running; starting and stopping a local Ray take seconds).
    Its workers import this folder's modules and hold a test API key and cache folders of their
    own."""
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'longread[ray]')")
    from longread.executor import RayExecutor

    folder = tmp_path_factory.mktemp("shared-ray")
    with pytest.MonkeyPatch.context() as patch:  # (the environment Ray's workers start with)
        patch.delenv("RAY_ADDRESS", raising=False)
        here = str(Path(__file__).parent)
        patch.setenv("PYTHONPATH", os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]))
        patch.setenv("OPENAI_API_KEY", "sk-test")
        patch.setenv("LONGREAD_CACHE_DIR", str(folder / "cache"))
        patch.setenv("LONGREAD_DATA_DIR", str(folder / "data"))
        executor = RayExecutor()
    yield
    executor.close()


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LONGREAD_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("LONGREAD_DATA_DIR", str(tmp_path / "data"))
    # the rules read counting questions unless a test names a model that writes queries (a
    # scripted one, or the local code model in the tests that fetch it)
    monkeypatch.setenv("LONGREAD_READER", "rules")
    # and the findings lead a fact's answer unless a test names a model that states it
    monkeypatch.setenv("LONGREAD_ANSWER_MODEL", "none")


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
