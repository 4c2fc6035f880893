"""What the public entry points share: the models (resolved on first use), budget, options, the
response cache and the event sinks, and one question's run."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import Any, Self

from longread import deadline
from longread.answer import Answer
from longread.api.session import Session
from longread.api.settings import AskSettings
from longread.config import cache_dir, default_model, default_sub_model, default_vision_model
from longread.errors import InputError
from longread.events import EventKind, JsonlTrace, fan_out
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.remote import RemoteLM
from longread.llm.specs import ClientOptions, check_spec, preload, resolve_model
from longread.llm.usage import Budget
from longread.query.core.plan import Plan
from longread.repl.workers import prespawn
from longread.store.cache import ResponseCache
from longread.strategies.catalog import mode_named, modes_for
from longread.strategies.common import Run, RunOptions
from longread.strategies.conversation import Conversation, converse
from longread.strategies.declared import declared
from longread.strategies.estimate import Estimate, SourceMaker, estimate
from longread.strategies.modes import Source, answer
from longread.strategies.query_writer import writer_spec


def as_lm(model: str | LM | None, fallback: str, options: ClientOptions = ClientOptions()) -> LM:
    if isinstance(model, LM):
        return model
    return resolve_model(model or fallback, options)


class Asker:
    """What every entry point shares: its `AskSettings` (the models resolved on first use), the
    response cache and one question's run."""

    def __init__(self, settings: AskSettings):
        self.settings = settings
        self.executor = settings.executor  # on Ray: where sub-calls (and metadata reads) run
        self.mode = settings.mode
        self.budget = settings.budget
        self.options = settings.options
        self.cache = ResponseCache(cache_dir() / "responses.sqlite") if settings.cache else None
        self.last_answer: Answer | None = None
        self._planned: Plan | None = None  # the plan an estimate just read, for the answer
        self._cancelled = threading.Event()
        self._gateway: Gateway | None = None  # the running question's
        self._asked_at: float | None = None  # when the question being answered was asked

    @cached_property
    def root(self) -> LM:
        """The root model (resolved on first use, so indexing alone needs no model or key)."""
        return as_lm(self.settings.root_model, default_model(), self.settings.client_options)

    @cached_property
    def vision(self) -> LM | None:
        """The model that describes figures (None: they keep their captions alone)."""
        given = self.settings.vision_model or default_vision_model()
        if given is None:
            return None
        vision = as_lm(given, "", self.settings.client_options)
        if not vision.reads_images:
            raise InputError(f"{vision.name} reads no images: give a vision model")
        return vision

    @cached_property
    def sub(self) -> LM:
        given = self.settings.sub_model
        spec = given if given is not None else default_sub_model(self.root.name)
        return (
            self.root if spec == self.root.name else as_lm(spec, "", self.settings.client_options)
        )

    def sub_spec(self) -> str | None:
        """The sub-model's spec, for workers to make it from; None if it was given as an object."""
        model, sub_model = self.settings.root_model, self.settings.sub_model
        given = sub_model if sub_model is not None else model
        return None if isinstance(given, LM) else self.sub.name

    def prepare_models(self) -> None:
        """Check both model specs now (an unknown spec or a missing key fails before any indexing)
        and start loading their SDKs in the background, while the index opens; likewise a REPL
        worker, when the run is to write code (`rlm` asked for)."""
        if self.mode == "rlm":
            prespawn()
        model, sub_model = self.settings.root_model, self.settings.sub_model
        client_options = self.settings.client_options
        root = model.name if isinstance(model, LM) else model or default_model()
        sub = sub_model.name if isinstance(sub_model, LM) else sub_model or default_sub_model(root)
        for spec, given in ((root, model), (sub, sub_model if sub != root else model)):
            if not isinstance(given, LM):  # (a model object given is ready)
                check_spec(spec, client_options)
                preload(spec)

    def close(self) -> None:
        """Close the response cache, the trace and any index store (the object is done with
        after this)."""
        if self.cache is not None:
            self.cache.close()
        trace = self.__dict__.get("_trace")  # (opened only if a question was asked)
        if trace is not None:
            trace.close()

    def cancel(self) -> None:
        """Stop the question being answered, from another thread: no model call is made after
        this and a running code cell's worker is killed (the question raises CancelledError);
        a question asked after it is cancelled at once too."""
        self._cancelled.set()
        if self._gateway is not None:
            self._gateway.cancel()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _estimates(
        self, question: str, kind: str, make_source: SourceMaker, modes: Sequence[str] | None
    ) -> list[Estimate]:
        """What answering would cost with each of `modes` (default: `auto`, then every mode for
        this `kind` of source), without a model call, a trace or an event."""
        asked(question)
        run = Run(self.root, self.sub, Gateway(budget=self.budget), self.options)
        estimates = [
            estimate(question, make_source, run, mode, self.cache)
            for mode in modes or modes_for(kind)
        ]
        if writer_spec(run) is None:  # (the rules read it as the answer's run would; a model
            # writing its query is not called for an estimate)
            self._planned = run.plan
        return estimates

    @cached_property
    def _trace(self) -> JsonlTrace | None:
        """The trace file, opened (emptied) at the first question and kept for the next ones."""
        path = self.settings.trace_path
        return JsonlTrace(path) if path else None

    @contextmanager
    def timed(self, mode: str) -> Iterator[None]:
        """One question's clock (the outermost, where they nest): its time budget counts from
        here, its estimate included, and work the host does for it (records found on first need)
        ends when that budget does."""
        if self._asked_at is not None:
            yield
            return
        self._asked_at = time.monotonic()
        seconds = bounded(self.budget, self.root, mode).max_seconds
        try:
            with deadline.answering(None if seconds is None else self._asked_at + seconds):
                yield
        finally:
            self._asked_at = None

    @contextmanager
    def _run(
        self, question: str, options: RunOptions | None = None, mode: str = "auto"
    ) -> Iterator[Run]:
        """One question's run: a fresh gateway (so a fresh budget, the mode's by default), its
        events to the trace."""
        logged = print_event if self.settings.enable_logging else None
        sink = fan_out(self.settings.on_event, self._trace, logged)
        options = options or self.options
        gateway = Gateway(
            budget=bounded(self.budget, self.root, mode),
            cache=self.cache,
            on_event=sink,
            concurrency=options.concurrency,
            started=self._asked_at,
        )
        self._gateway = gateway
        if self._cancelled.is_set():
            gateway.cancel()
        sub = self.sub
        if self.executor is not None and self.executor.name == "ray" and self.sub_spec():
            sub = RemoteLM(self.sub, self.executor, self.settings.client_options)
        run = Run(self.root, sub, gateway, options, sink)
        planned, self._planned = self._planned, None
        if planned is not None and planned.question == question:
            run.plan = planned  # (read for the estimate just before)
        run.emit(EventKind.RUN, question=question)
        yield run


class SourceAsker(Asker):
    """What `SingleDocRLM` and `MultiDocRLM` share: a file or folder on disk, asked about one
    question at a time or in a session."""

    def source(self) -> tuple[Path, str]:
        """The file or folder asked about, and its kind (`document` or `corpus`)."""
        raise NotImplementedError

    def tools(self, run: Run) -> Source:
        """The source's functions, bound to one run's models and gateway."""
        raise NotImplementedError

    def estimate(self, question: str, modes: Sequence[str] | None = None) -> list[Estimate]:
        """What answering would cost with each of `modes`, without a model call."""
        raise NotImplementedError

    def ready(self) -> None:
        """Make the source answerable (a folder never indexed is indexed first)."""

    def ask(self, question: str, mode: str | None = None) -> Answer:
        """The answer with its citations (each with its span, and its document, section and page
        where known), usage, mode and why the mode was chosen (`mode`: this question's, else the
        settings')."""
        return self.ask_in(None, question, mode)

    def query(self, question: str, mode: str | None = None) -> Answer:
        """`ask` by the name the RLM sketches use."""
        return self.ask(question, mode)

    def ask_in(self, conversation: Conversation | None, question: str, mode: str | None) -> Answer:
        """The answer to `question`, alone or as the next question of `conversation`."""
        asked(question)
        self.ready()
        mode = mode or self.mode
        with self.timed(mode), self._run(question, mode=mode) as run:
            tools = self.tools(run)
            self.last_answer = (
                answer(question, tools, run, mode)
                if conversation is None
                else converse(question, tools, run, conversation, mode)
            )
        return self.last_answer

    @contextmanager
    def reading(self) -> Iterator[Source]:
        """The source's functions (search, read, outline…) for a caller that reads it without
        asking a question (a model is called only by the functions that ask one)."""
        self.ready()
        with self._run("(reading the source)") as run:
            yield self.tools(run)

    def session(self, name: str | None = None) -> Session:
        """A conversation about the source (see `Session`); with `name`, saved as it goes, and
        resumed when a session by that name exists."""
        return Session(self, name)


def answered(source: SourceAsker, question: str) -> Answer:
    """The answer to `question`, refused before any call when its mode is predicted to run past
    its default time budget; its usage keeps the estimate made before it (`estimate`)."""
    with source.timed(source.mode):
        [expected] = source.estimate(asked(question), [source.mode])
        check_predicted(expected, source.budget, source.root)
        answer = source.ask(question)
    answer.usage["estimate"] = expected.to_dict()
    return answer


def default_seconds(mode: str, root: LM) -> float:
    """The wall-clock budget of a run given none: the mode's (`auto`: the most any mode has), for
    a root model on this CPU or a hosted one (a local model driving `rlm` on a man page had run
    for twenty minutes; a run stopped so prints its answer so far, as every budget stop does)."""
    budgets = (
        [m.seconds for m in declared().values()] if mode == "auto" else [mode_named(mode).seconds]
    )
    return max(local if root.on_cpu else hosted for local, hosted in budgets)


def check_predicted(expected: Estimate, budget: Budget, root: LM) -> None:
    """Raise InputError, before anything is spent, when a run given no time budget is predicted
    (from this machine's timed calls of the model) to take longer than its mode's default."""
    if budget.max_seconds is not None or expected.seconds is None:
        return
    least, most = expected.seconds
    limit = default_seconds(expected.mode, root)
    if least <= limit:
        return
    span = f"{least:,.0f}" if most in (None, least) else f"{least:,.0f}–{most:,.0f}"
    lighter = [m for m in ("retrieval", "base") if default_seconds(m, root) < least]
    raise InputError(
        f"`{expected.mode}` is predicted to take {span} s with {root.name} on this machine, over "
        f"its default budget of {limit:,.0f} s: to run it anyway, give --max-seconds "
        f"{math.ceil(most or least):.0f} (its answer so far is printed if that runs out)"
        + (f", or ask in a lighter mode (--mode {lighter[0]})" if lighter else "")
    )


def bounded(budget: Budget, root: LM, mode: str) -> Budget:
    """The run's budget, its wall-clock seconds the mode's default when none was given."""
    if budget.max_seconds is None:
        return replace(budget, max_seconds=default_seconds(mode, root))
    return budget


def asked(question: str) -> str:
    """The question, if it asks something; an InputError if it is empty or only blanks."""
    if not question.strip():
        raise InputError("the question is empty: ask something about the document")
    return question


def print_event(event: Any) -> None:
    print(f"[{event.kind}] " + ", ".join(f"{k}={str(v)[:120]!r}" for k, v in event.data.items()))
