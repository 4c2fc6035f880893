"""Where independent jobs run: on this machine (worker processes, the default) or on a Ray
cluster (`--executor ray` or `LONGREAD_EXECUTOR=ray`; with `RAY_ADDRESS` it joins that cluster,
else it starts a local Ray with this machine's CPUs). Ray is imported only when chosen. When this
process starts or joins Ray, the API keys in its environment reach Ray's workers through theirs,
never as a job's arguments. Jobs that read files need them at the same path on every node."""

from __future__ import annotations

import functools
import os
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from multiprocessing import get_all_start_methods, get_context
from typing import Any, Generic, Protocol, TypeVar

from longread.errors import InputError
from longread.forking import fork_safe, settle_copy

T = TypeVar("T")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)
EXECUTORS = ("local", "ray")
INSTALL_RAY = "Ray is not installed: pip install 'longread[ray]'"
_KEY_PREFIXES = ("OPENAI_", "AZURE_OPENAI_", "ANTHROPIC_", "LONGREAD_")  # (passed to workers)


class Job(Protocol[R_co]):
    """A job submitted to an executor."""

    def result(self) -> R_co:
        """Its result, once done (its error raised, if it failed)."""
        ...

    def cancel(self) -> Any:
        """Drop it if it has not started."""
        ...


class Shared(Protocol):
    """An object jobs share: its methods are called one at a time, in the order they arrive."""

    def call(self, method: str, *args: Any) -> Any:
        """target.method(*args), on the one object."""
        ...


class Executor(ABC):
    """Runs `work(item)` for independent items: one at a time (`submit`, results taken in any
    order) or all of them (`each`, results as they are done). A job that raises is run again up
    to `retries` times, then its error is raised."""

    name: str

    @abstractmethod
    def submit(self, work: Callable[[T], R], item: T, retries: int = 0) -> Job[R]:
        """Start `work(item)`."""

    @abstractmethod
    def each(
        self, work: Callable[[T], R], items: Sequence[T], retries: int = 0
    ) -> Iterator[tuple[T, R]]:
        """(item, work(item)) as each finishes; after an error, jobs not yet started are
        cancelled."""

    @abstractmethod
    def shared(self, cls: type, *args: Any) -> Shared:
        """One object, `cls(*args)`, that every job can call wherever it runs (such as one rate
        limit and budget for all the workers' model calls)."""

    def close(self) -> None:
        """Let go of what the executor holds (workers, a connection to a cluster)."""
        return None

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _start_method() -> str:
    """fork, the fastest, where a forked child starts sound; else a clean forkserver (or spawn)."""
    if fork_safe():
        return "fork"
    return "forkserver" if "forkserver" in get_all_start_methods() else "spawn"


PARENT_POLL_SECONDS = 0.5


def _end_with_parent(parent: int) -> None:
    """In a pool worker: end when the process that started the pool is gone (a killed build's
    workers would otherwise wait on their call queue for good, its databases held open). A
    thread polls for it: the kernel's parent-death signal follows the thread that forked, and a
    pool forks from whichever thread submits. Its signals are its own (`settle_copy`)."""
    settle_copy()
    first = os.getppid()  # (the pool's process, or a fork server it started)

    def gone() -> bool:
        if os.getppid() != first:
            return True
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            return True
        except PermissionError:
            pass
        return False

    def watch() -> None:
        while not gone():
            time.sleep(PARENT_POLL_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="longread-parent-watch", daemon=True).start()


class LocalExecutor(Executor):
    """Worker processes on this machine, one per CPU at most, started on first use."""

    name = "local"

    def __init__(self, workers: int | None = None):
        self.workers = workers or os.cpu_count() or 2
        self._pool: ProcessPoolExecutor | None = None
        self._starting = threading.Lock()

    @property
    def pool(self) -> ProcessPoolExecutor:
        with self._starting:  # (threads submitting at once start one pool)
            if self._pool is None:
                context = get_context(_start_method())
                self._pool = ProcessPoolExecutor(
                    self.workers,
                    mp_context=context,
                    initializer=_end_with_parent,
                    initargs=(os.getpid(),),
                )
            return self._pool

    def submit(self, work: Callable[[T], R], item: T, retries: int = 0) -> Future[R]:
        return self.pool.submit(functools.partial(_retrying, work, retries), item)

    def each(
        self, work: Callable[[T], R], items: Sequence[T], retries: int = 0
    ) -> Iterator[tuple[T, R]]:
        running = {self.submit(work, item, retries): item for item in items}
        try:
            while running:
                done, _ = wait(running, return_when=FIRST_COMPLETED)
                for future in done:
                    yield running.pop(future), future.result()
        finally:
            for future in running:
                future.cancel()

    def shared(self, cls: type, *args: Any) -> LocalShared:
        """The object, behind a lock: shared by this process's threads (a job in a worker process
        calls a copy of it)."""
        return LocalShared(cls(*args))

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


def _retrying(work: Callable[[T], R], retries: int, item: T) -> R:
    """`work(item)`, run again (in the same worker) up to `retries` times while it raises."""
    for _ in range(retries):
        try:
            return work(item)
        except Exception:  # (the last try, below, raises it)
            continue
    return work(item)


class LocalShared:
    """An object of this process, its methods called under a lock."""

    def __init__(self, target: Any):
        self.target = target
        self._lock = threading.Lock()

    def call(self, method: str, *args: Any) -> Any:
        with self._lock:
            return getattr(self.target, method)(*args)


class RayShared:
    """A Ray actor: its methods run one at a time, in the actor's process, wherever it lives."""

    def __init__(self, actor: Any):
        self.actor = actor

    def call(self, method: str, *args: Any) -> Any:
        return ray_result(import_ray(), getattr(self.actor, method).remote(*args))


class RayJob(Generic[R]):
    """A Ray task, as a Job."""

    def __init__(self, ray: Any, ref: Any):
        self.ray, self.ref = ray, ref

    def result(self) -> R:
        return ray_result(self.ray, self.ref)

    def cancel(self) -> None:
        self.ray.cancel(self.ref)


class RayExecutor(Executor):
    """Ray tasks, on the cluster at `address` (`auto`, `ray://head:10001`) or on a local Ray
    started with this machine's CPUs."""

    name = "ray"

    def __init__(self, address: str | None = None):
        self.ray = import_ray()
        self._started = False
        self._tasks: dict[tuple[Callable[..., Any], int], Any] = {}
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

    def _task(self, work: Callable[..., Any], retries: int) -> Any:
        """`work` as a Ray remote function (made once, so it is shipped to the cluster once), its
        tasks spread over the cluster's nodes (each reads and writes files: one node should not
        take them all while others wait)."""
        key = (work, retries)
        if key not in self._tasks:
            self._tasks[key] = self.ray.remote(
                max_retries=retries, retry_exceptions=True, scheduling_strategy="SPREAD"
            )(work)
        return self._tasks[key]

    def submit(self, work: Callable[[T], R], item: T, retries: int = 0) -> RayJob[R]:
        return RayJob(self.ray, self._task(work, retries).remote(item))

    def each(
        self, work: Callable[[T], R], items: Sequence[T], retries: int = 0
    ) -> Iterator[tuple[T, R]]:
        task = self._task(work, retries)
        running = {task.remote(item): item for item in items}
        try:
            while running:
                done, _ = self.ray.wait(list(running), num_returns=1)
                item = running.pop(done[0])
                yield item, ray_result(self.ray, done[0])
        finally:
            for ref in running:
                self.ray.cancel(ref)

    def shared(self, cls: type, *args: Any) -> RayShared:
        """The object as a Ray actor (one CPU-less process on the cluster)."""
        return RayShared(self.ray.remote(num_cpus=0)(cls).remote(*args))

    def close(self) -> None:
        if self._started:
            self.ray.shutdown()
            self._started = False


def ray_result(ray: Any, ref: Any) -> Any:
    """The task's result; if it raised, its own error (not Ray's wrapper, whose message carries
    the remote traceback), so a one-line error stays one line."""
    try:
        return ray.get(ref)
    except ray.exceptions.RayTaskError as error:
        cause = error.cause
        if isinstance(cause, BaseException):
            raise cause from None
        raise


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
