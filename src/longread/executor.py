"""Where independent jobs run: on this machine (worker processes, the default) or on a Ray
cluster (`--executor ray` or `LONGREAD_EXECUTOR=ray`; with `RAY_ADDRESS` it joins that cluster,
else it starts a local Ray with this machine's CPUs). Ray is imported only when chosen. API keys
reach Ray's workers through their environment, never as a job's arguments."""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_all_start_methods, get_context
from typing import Any, TypeVar

from longread.errors import InputError

T = TypeVar("T")
R = TypeVar("R")
EXECUTORS = ("local", "ray")
INSTALL_RAY = "Ray is not installed: pip install 'longread[ray]'"
_KEY_PREFIXES = ("OPENAI_", "AZURE_OPENAI_", "ANTHROPIC_", "LONGREAD_")  # (passed to workers)


class Executor(ABC):
    """Runs `work(item)` for independent items, each result given back as it is done."""

    name: str

    @abstractmethod
    def each(
        self, work: Callable[[T], R], items: Sequence[T], retries: int = 0
    ) -> Iterator[tuple[T, R]]:
        """(item, work(item)) as each finishes; a job that raises is run again up to `retries`
        times, then its error is raised (jobs not yet started are cancelled)."""

    def close(self) -> None:
        """Let go of what the executor holds (workers, a connection to a cluster)."""
        return None


class LocalExecutor(Executor):
    """Worker processes on this machine, one per CPU at most."""

    name = "local"

    def __init__(self, workers: int | None = None):
        self.workers = workers or os.cpu_count() or 2

    def each(
        self, work: Callable[[T], R], items: Sequence[T], retries: int = 0
    ) -> Iterator[tuple[T, R]]:
        method = "fork" if "fork" in get_all_start_methods() else "spawn"
        workers = max(1, min(self.workers, len(items)))
        with ProcessPoolExecutor(workers, mp_context=get_context(method)) as pool:
            running: dict[Future[R], tuple[T, int]] = {
                pool.submit(work, item): (item, 0) for item in items
            }
            try:
                while running:
                    done, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in done:
                        item, tries = running.pop(future)
                        if future.exception() is not None and tries < retries:
                            running[pool.submit(work, item)] = (item, tries + 1)
                            continue
                        yield item, future.result()
            finally:
                for future in running:
                    future.cancel()


class RayExecutor(Executor):
    """Ray tasks, on the cluster at `address` (`auto`, `ray://head:10001`) or on a local Ray
    started with this machine's CPUs."""

    name = "ray"

    def __init__(self, address: str | None = None):
        self.ray = import_ray()
        self._started = False
        if not self.ray.is_initialized():
            address = address or os.environ.get("RAY_ADDRESS") or None
            keys = {k: v for k, v in os.environ.items() if k.startswith(_KEY_PREFIXES)}
            self.ray.init(
                address=address,
                num_cpus=None if address else os.cpu_count(),
                runtime_env={"env_vars": keys} if keys else None,
                include_dashboard=False,
                log_to_driver=False,
                logging_level="ERROR",
            )
            self._started = True

    def each(
        self, work: Callable[[T], R], items: Sequence[T], retries: int = 0
    ) -> Iterator[tuple[T, R]]:
        task: Any = self.ray.remote(max_retries=retries, retry_exceptions=True)(work)
        running = {task.remote(item): item for item in items}
        try:
            while running:
                done, _ = self.ray.wait(list(running), num_returns=1)
                item = running.pop(done[0])
                yield item, self.ray.get(done[0])
        finally:
            for ref in running:
                self.ray.cancel(ref)

    def close(self) -> None:
        if self._started:
            self.ray.shutdown()
            self._started = False


def import_ray() -> Any:
    """The `ray` module, or one line saying how to install it."""
    try:
        import ray
    except ImportError:
        raise InputError(INSTALL_RAY) from None
    return ray


def make_executor(name: str | None = None) -> Executor:
    """The executor `name` (else `LONGREAD_EXECUTOR`, else `local`) names."""
    chosen = (name or os.environ.get("LONGREAD_EXECUTOR") or "local").strip().lower()
    if chosen == "local":
        return LocalExecutor()
    if chosen == "ray":
        return RayExecutor()
    raise InputError(f"unknown executor {chosen!r}; choose one of: {', '.join(EXECUTORS)}")
