"""The one place every model call goes through: usage accounting, cache, retries with backoff,
a concurrency limit, budgets and cancellation."""

from __future__ import annotations

import contextvars
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from functools import partial
from typing import Any, TypeVar

from longread import deadline
from longread.errors import BudgetExceededError, CancelledError, ModelError
from longread.events import Event, EventKind, EventSink, ignore
from longread.executor import Shared
from longread.llm.base import LM, TransientModelError
from longread.llm.limits import limited
from longread.llm.pricing import cost_usd
from longread.llm.types import Completion, Image, Message, Request
from longread.llm.usage import (
    ROOT_PURPOSES,
    Budget,
    Purpose,
    Usage,
    counts_as_subcall,
    current_depth,
)
from longread.store.cache import ResponseCache, request_key
from longread.text.cut import truncate_middle
from longread.text.loops import cut_loop

Prompt = str | Sequence[Message]
T = TypeVar("T")
R = TypeVar("R")
CANCEL_POLL_SECONDS = 0.05  # how often a thread waiting on a model call looks for a cancellation


def as_messages(prompt: Prompt, system: str | None = None) -> tuple[Message, ...]:
    messages = [{"role": "user", "content": prompt}] if isinstance(prompt, str) else list(prompt)
    if system:
        messages.insert(0, {"role": "system", "content": system})
    return tuple(messages)


def _in_context(work: Callable[[T], R]) -> Callable[[T], R]:
    """`work` to run on pool threads in a copy of the calling thread's context (its deadline)."""
    context = contextvars.copy_context()
    return lambda item: context.copy().run(work, item)


# Replies that are not an answer in words: the root's code, and sub-calls whose caller reads the
# reply itself (model code's `llm_query`, records listed line by line, which may repeat).
_NOT_PROSE = ROOT_PURPOSES | {Purpose.SUBCALL}


class Gateway:
    """Counts calls, tokens and cost per model and purpose; serves repeated requests from the cache;
    retries 429/5xx/timeouts; runs at most `concurrency` calls at once; enforces the budget."""

    def __init__(
        self,
        *,
        budget: Budget = Budget(),
        cache: ResponseCache | None = None,
        concurrency: int = 4,
        max_retries: int = 4,
        backoff: float = 0.5,
        on_event: EventSink = ignore,
        sleep: Callable[[float], None] = time.sleep,
        limits: Shared | None = None,
        started: float | None = None,
    ):
        """`started`: when its time budget began (a `time.monotonic()` value; default now)."""
        self.budget = budget
        self.cache = cache
        self.concurrency = concurrency
        self.max_retries = max_retries
        self.backoff = backoff
        self.on_event = on_event
        self.usage = Usage()
        self._sleep = sleep
        self.limits = limits  # shared with other workers: one rate limit and budget for all
        self._started = time.monotonic() if started is None else started
        self._lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(concurrency)
        self._cancelled = threading.Event()
        self._subcalls_in_flight = 0
        self._models: set[LM] = set()  # the models called (to cancel what they queued)

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self._started

    @property
    def deadline(self) -> float | None:
        """When the time budget runs out, as a `time.monotonic()` value (None: no time budget)."""
        return None if self.budget.max_seconds is None else self._started + self.budget.max_seconds

    @property
    def cancelled(self) -> threading.Event:
        """Set once the run is cancelled (the REPL watches it to stop a running cell at once)."""
        return self._cancelled

    def cancel(self) -> None:
        """Make every later call (and retry wait) raise CancelledError; drop the calls the models
        have queued elsewhere."""
        self._cancelled.set()
        for lm in list(self._models):
            lm.cancel_pending()

    def complete(
        self,
        lm: LM,
        prompt: Prompt,
        *,
        purpose: Purpose,
        system: str | None = None,
        max_tokens: int = 1024,
        temperature: float = 0.0,
        json_schema: dict[str, Any] | None = None,
        stop: Sequence[str] = (),
        label: str | None = None,
        images: Sequence[Image] = (),
        keep_prefix: bool = False,
        grammar: str | None = None,
    ) -> Completion:
        """One model call, accounted under `purpose` (e.g. `root`, `subcall`,
        `summarize_section`), with `images` shown to a model that reads them; `keep_prefix`: the
        first message starts later calls' prompts too (a local model keeps its evaluation)."""
        prose = json_schema is None and grammar is None and purpose not in _NOT_PROSE
        request = Request(
            as_messages(prompt, system),
            max_tokens,
            temperature,
            json_schema,
            tuple(stop),
            prose=prose,
            images=tuple(images),
            keep_prefix=keep_prefix,
            grammar=grammar,
        )
        key = request_key(lm.name, request.cache_fields()) if self.cache else ""
        self._check_cancelled()
        deadline.check()  # a call made for a REPL cell must not start after the cell's time is up
        if self.cache and (hit := self.cache.get(key)) is not None:
            return self._record(
                lm, purpose, label, _cleared(Completion(**hit, cached=True), prose), 0.0
            )
        self._check_budget(purpose)
        self._models.add(lm)
        try:
            self._emit(
                EventKind.LLM_START,
                {
                    "purpose": purpose,
                    "model": lm.name,
                    "label": label,
                    "prompt": truncate_middle(request.messages[-1]["content"], 4000),
                },
            )
            with self._slots:
                started = time.monotonic()  # (the wait for a slot is not the model's time)
                completion = self._call_with_retries(lm, request, purpose)
                seconds = time.monotonic() - started
            if self.cache:
                self.cache.put(
                    key,
                    lm.name,
                    {
                        "text": completion.text,
                        "model": completion.model,
                        "input_tokens": completion.input_tokens,
                        "output_tokens": completion.output_tokens,
                    },
                )
                counted = (  # (a local model's count is its own: exact, and not paid twice)
                    completion.input_tokens if lm.on_cpu else lm.count_prompt(request.messages)
                )
                self.cache.record_call(
                    lm.name,
                    "text" if json_schema is None else "json",
                    (completion.input_tokens, counted, completion.output_tokens),
                    seconds if completion.seconds is None else completion.seconds,
                    purpose,
                )
            return self._record(lm, purpose, label, _cleared(completion, prose), seconds)
        finally:
            if counts_as_subcall(purpose, current_depth()):
                with self._lock:
                    self._subcalls_in_flight -= 1

    def complete_many(
        self,
        lm: LM,
        prompts: Sequence[Prompt],
        *,
        purpose: Purpose,
        labels: Sequence[str | None] | None = None,
        **kwargs: Any,
    ) -> list[Completion]:
        """Several calls at once (bounded by `concurrency`), results in the prompts' order."""
        labels = labels or [None] * len(prompts)
        return self.map(
            lambda job: self.complete(lm, job[0], purpose=purpose, label=job[1], **kwargs),
            list(zip(prompts, labels, strict=True)),
        )

    def map(self, work: Callable[[T], R], items: Sequence[T]) -> list[R]:
        """`work(item)` for every item, at most `concurrency` at once; results in order. Each runs
        in the caller's context (so under the caller's deadline)."""
        if len(items) <= 1:
            return [work(item) for item in items]
        in_context = _in_context(work)
        with ThreadPoolExecutor(max_workers=min(self.concurrency, len(items))) as pool:
            futures = [pool.submit(in_context, item) for item in items]
            try:
                return [future.result() for future in futures]
            except BaseException:
                for future in futures:  # the first failure ends the batch: none of the rest starts
                    future.cancel()
                raise

    def as_done(self, work: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[T, R]]:
        """(item, work(item)) as each finishes, at most `concurrency` at once, for callers that save
        each result at once. The first failure, of the work or of the caller (the generator closed
        or an exception thrown into it), cancels the work not yet started; work that finished
        before a failure of the work is still yielded, then the failure is raised."""
        pool = ThreadPoolExecutor(max_workers=max(1, min(self.concurrency, len(items))))
        in_context = _in_context(work)
        futures = {pool.submit(in_context, item): item for item in items}
        failure: BaseException | None = None
        try:
            for future in as_completed(futures):
                if future.cancelled():
                    continue
                if (error := future.exception()) is not None:
                    failure = failure or error
                    for pending in futures:
                        pending.cancel()
                    continue
                yield futures[future], future.result()
        finally:
            pool.shutdown(wait=True, cancel_futures=True)
        if failure is not None:
            raise failure

    def _time_left(self) -> float | None:
        """Seconds a call may take: to the REPL cell's deadline or the run's, the sooner."""
        run = None if self.deadline is None else max(0.0, self.deadline - time.monotonic())
        left = [t for t in (deadline.remaining(), run) if t is not None]
        return min(left) if left else None

    def _call_with_retries(self, lm: LM, request: Request, purpose: Purpose) -> Completion:
        for attempt in range(self.max_retries + 1):
            if attempt:
                self._check_budget(purpose, count_call=False)  # (no retry past the time budget)
            try:
                with self._turn() as charge:
                    asked = replace(request, timeout=self._time_left(), cancelled=self._cancelled)
                    completion = self._waited(partial(lm.complete, asked))
                    tokens = completion.input_tokens, completion.output_tokens
                    charge(cost_usd(lm.name, *tokens) or 0.0)
                return completion
            except TransientModelError as error:
                if attempt == self.max_retries:
                    raise ModelError(f"{error} (gave up after {attempt + 1} attempts)") from error
                with self._lock:
                    self.usage.line(lm.name, purpose, current_depth()).retries += 1
                delay = error.retry_after or self.backoff * 2**attempt * (1 + random.random() / 4)
                self._emit(
                    EventKind.LLM_RETRY,
                    {
                        "model": lm.name,
                        "purpose": purpose,
                        "attempt": attempt + 1,
                        "delay": round(delay, 2),
                        "error": str(error),
                    },
                )
                left = deadline.remaining()
                self._sleep(min(delay, 30.0, 30.0 if left is None else left))
                self._check_cancelled()
                deadline.check()
                self._check_budget(purpose, count_call=False)
        raise AssertionError("unreachable")

    def _waited(self, call: Callable[[], Completion]) -> Completion:
        """`call()` on a thread of its own, waited for in short slices: a cancelled run (or a
        stop signal) leaves the wait at once; the reply, if it comes later, is dropped (a local
        model's reply ends at its next token)."""
        done: Future[Completion] = Future()
        context = contextvars.copy_context()

        def run() -> None:
            try:
                done.set_result(context.run(call))
            except BaseException as error:  # noqa: BLE001 - handed to the waiting thread
                done.set_exception(error)

        threading.Thread(target=run, name="longread-model-call", daemon=True).start()
        while True:
            try:
                return done.result(timeout=CANCEL_POLL_SECONDS)
            except FutureTimeout:
                self._check_cancelled()

    def _turn(self) -> AbstractContextManager[Callable[[float], None]]:
        """The call's turn under the shared limits (at once, without them)."""
        return limited(self.limits, self._sleep) if self.limits else nullcontext(lambda usd: None)

    def _record(
        self, lm: LM, purpose: Purpose, label: str | None, completion: Completion, seconds: float
    ) -> Completion:
        cost = (
            0.0
            if completion.cached
            else cost_usd(lm.name, completion.input_tokens, completion.output_tokens)
        )
        with self._lock:
            line = self.usage.line(lm.name, purpose, current_depth())
            line.calls += 1
            if completion.cached:
                line.cached += 1
            else:
                line.input_tokens += completion.input_tokens
                line.output_tokens += completion.output_tokens
            line.cost_usd += cost or 0.0
            line.cost_known = line.cost_known and cost is not None
            self.usage.seconds = self.elapsed
        self._emit(
            EventKind.LLM_END,
            {
                "purpose": purpose,
                "model": lm.name,
                "label": label,
                "cached": completion.cached,
                "input_tokens": completion.input_tokens,
                "output_tokens": completion.output_tokens,
                "seconds": round(seconds, 3),
                "cost_usd": cost,
                "reply": truncate_middle(completion.text, 4000),
            },
        )
        return completion

    def _emit(self, kind: EventKind, data: dict[str, Any]) -> None:
        self.on_event(Event(kind, data, depth=current_depth()))

    def _check_cancelled(self) -> None:
        if self._cancelled.is_set():
            raise CancelledError("the run was cancelled")
        stopped = deadline.stop_requested()
        if stopped is not None:
            self._exceeded("signal", f"the run was stopped ({stopped[0]})")

    def _check_budget(self, purpose: Purpose, count_call: bool = True) -> None:
        b, u = self.budget, self.usage
        with self._lock:
            if b.max_seconds is not None and self.elapsed >= b.max_seconds:
                self._exceeded("max_seconds", f"time budget of {b.max_seconds:g} s is used up")
            if b.max_tokens is not None and u.tokens >= b.max_tokens:
                self._exceeded(
                    "max_tokens", f"token budget of {b.max_tokens:,} is used up ({u.tokens:,})"
                )
            if b.max_cost_usd is not None and u.total("cost_usd") >= b.max_cost_usd:
                self._exceeded("max_cost_usd", f"cost budget of ${b.max_cost_usd:g} is used up")
            if not count_call or not counts_as_subcall(purpose, current_depth()):
                return
            if (
                b.max_subcalls is not None
                and u.subcalls + self._subcalls_in_flight >= b.max_subcalls
            ):
                self._exceeded("max_subcalls", f"sub-call budget of {b.max_subcalls} is used up")
            self._subcalls_in_flight += 1  # so that concurrent calls cannot all pass the check

    def _exceeded(self, limit: str, message: str) -> None:
        self.usage.seconds = self.elapsed
        raise BudgetExceededError(f"budget exceeded: {message}", limit)


def _cleared(completion: Completion, prose: bool) -> Completion:
    """A prose reply with a loop cut after its first copy (code and JSON are left as they are)."""
    text = cut_loop(completion.text) if prose else completion.text
    return completion if text == completion.text else replace(completion, text=text)
