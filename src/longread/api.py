"""Public Python API. `RLM_REPL` keeps the name and call shape of seed 002."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from longread.answer import Answer
from longread.config import cache_dir, default_model, default_sub_model
from longread.events import EventSink, JsonlTrace, fan_out
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.specs import ClientOptions, resolve_model
from longread.llm.usage import Budget
from longread.store.cache import ResponseCache
from longread.strategies.common import Run, RunOptions
from longread.strategies.select import answer_question


def as_lm(model: str | LM | None, fallback: str, options: ClientOptions = ClientOptions()) -> LM:
    if isinstance(model, LM):
        return model
    return resolve_model(model or fallback, options)


class RLM_REPL:  # noqa: N801 - the seed's name, which users expect
    """Answer questions about a `str`, `dict` or `list` context with a Recursive Language Model.

    >>> rlm = RLM_REPL(model="openai:gpt-4o", recursive_model="openai:gpt-4o-mini")
    >>> rlm.completion({"paper_1": "...", "paper_2": "..."}, "What themes do they share?")
    """

    def __init__(self, model: str | LM | None = None, recursive_model: str | LM | None = None, *,
                 mode: str = "auto", enable_logging: bool = False, trace_path: str | None = None,
                 budget: Budget = Budget(), options: RunOptions | None = None,
                 cache: bool = True, on_event: EventSink | None = None,
                 client_options: ClientOptions = ClientOptions()):
        self.root = as_lm(model, default_model(), client_options)
        sub_spec = recursive_model if recursive_model is not None else default_sub_model(self.root.name)
        self.sub = self.root if sub_spec == self.root.name else as_lm(sub_spec, "", client_options)
        self.mode = mode
        self.enable_logging = enable_logging
        self.trace_path = trace_path
        self.budget = budget
        self.options = options or RunOptions()
        self.cache = ResponseCache(cache_dir() / "responses.sqlite") if cache else None
        self.on_event = on_event
        self.last_answer: Answer | None = None

    def answer(self, context: Any, query: str, *, enable_slicing: bool = True,
               doc_id: str = "context") -> Answer:
        """The full `Answer` (text, citations, usage, mode and why it was chosen)."""
        options = replace(self.options, enable_slicing=enable_slicing)
        trace = JsonlTrace(self.trace_path) if self.trace_path else None
        logger = _print_event if self.enable_logging else None
        sink = fan_out(self.on_event, trace, logger)
        gateway = Gateway(budget=self.budget, cache=self.cache, on_event=sink)
        run = Run(self.root, self.sub, gateway, options, sink)
        try:
            self.last_answer = answer_question(query, context, run, self.mode, doc_id=doc_id)
        finally:
            if trace:
                trace.close()
        return self.last_answer

    def completion(self, context: Any, query: str, enable_slicing: bool = True) -> str:
        """The answer text (seed 002's call shape); the whole Answer is kept in `last_answer`."""
        return self.answer(context, query, enable_slicing=enable_slicing).text


def _print_event(event: Any) -> None:
    print(f"[{event.kind}] " + ", ".join(f"{k}={str(v)[:120]!r}" for k, v in event.data.items()))
