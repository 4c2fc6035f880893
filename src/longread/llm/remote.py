"""A model whose calls run as executor jobs (Ray tasks on a cluster's nodes), so the many
sub-calls of a map phase or of llm_query_batched share the cluster: each worker process makes the
model from its spec once (keys from its own environment) and keeps it, so a local model loads once
a worker. The run's gateway still counts, caches, retries and budgets every call here, and
cancelling the run cancels the calls not yet done."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace

from longread.errors import CancelledError
from longread.executor import Executor, Job
from longread.llm.base import LM
from longread.llm.specs import ClientOptions, resolve_model
from longread.llm.types import Completion, Message, Request

_MADE: dict[tuple[str, ClientOptions], LM] = {}  # the models this worker process has made


def complete_remotely(call: tuple[str, ClientOptions, Request]) -> Completion:
    """One call, in a worker: the model its spec names (made once per process) answers it."""
    spec, options, request = call
    if (spec, options) not in _MADE:
        _MADE[spec, options] = resolve_model(spec, options)
    return _MADE[spec, options].complete(request)


class RemoteLM(LM):
    """`model`'s calls, run by `executor`'s workers (which make it from its spec)."""

    def __init__(self, model: LM, executor: Executor, options: ClientOptions = ClientOptions()):
        self.model, self.executor = model, executor
        self.options = replace(options, api_key=None)  # (a worker reads its own environment's)
        self.name, self.context_window = model.name, model.context_window
        self.writes_code, self.on_cpu = model.writes_code, model.on_cpu
        self._running: set[Job[Completion]] = set()
        self._lock = threading.Lock()
        self._dropped = threading.Event()  # set once its run was cancelled

    def complete(self, request: Request) -> Completion:
        sent = replace(request, cancelled=None)  # (this side watches for a cancellation)
        job = self.executor.submit(complete_remotely, (self.name, self.options, sent))
        with self._lock:
            self._running.add(job)
        try:
            return job.result()
        except Exception as error:
            if self._dropped.is_set():  # (as the executor reports a job it cancelled)
                raise CancelledError("the run was cancelled") from error
            raise
        finally:
            with self._lock:
                self._running.discard(job)

    def cancel_pending(self) -> None:
        self._dropped.set()
        with self._lock:
            running = list(self._running)
        for job in running:
            job.cancel()

    def count_tokens(self, text: str) -> int:
        return self.model.count_tokens(text)

    def count_prompt(self, messages: Sequence[Message]) -> int:
        return self.model.count_prompt(messages)
