"""`AskSettings`: how questions are answered (models, mode, budget, options, cache, trace, events,
client options, executor), one object every entry point takes: `SingleDocRLM`, `MultiDocRLM`,
`RLM_REPL`, `longread.open` and the command line."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any

from longread.events import EventSink
from longread.executor import Executor
from longread.llm.base import LM
from longread.llm.specs import ClientOptions
from longread.llm.usage import Budget
from longread.strategies.common import RunOptions


@dataclass(frozen=True)
class AskSettings:
    """How questions are answered.

    `root_model` writes the code or the answer and `sub_model` reads passages for it (a spec such
    as `openai:gpt-4o-mini`, `local`, or a model object; by default $LONGREAD_MODEL or the local
    model, and the sub-model is the root's); `mode` is a strategy (`auto` picks one per question);
    `budget` bounds each question; `options` are the strategies' knobs; `cache` reuses model
    responses; `trace_path` writes a JSONL trace; `on_event` receives each run's events and
    `enable_logging` prints them; `client_options` override what the provider SDKs read from the
    environment; `executor` runs sub-calls and indexing elsewhere (Ray); `vision_model` (a model
    that reads images: $LONGREAD_VISION_MODEL by default, else none) describes a document's
    figures as it is indexed."""

    root_model: str | LM | None = None
    sub_model: str | LM | None = None
    vision_model: str | LM | None = None  # describes figures as a document is indexed
    mode: str = "auto"
    budget: Budget = Budget()
    options: RunOptions = field(default_factory=RunOptions)
    cache: bool = True
    trace_path: str | None = None
    on_event: EventSink | None = None
    enable_logging: bool = False
    client_options: ClientOptions = ClientOptions()
    executor: Executor | None = None

    def changed(self, **changes: Any) -> AskSettings:
        """These settings with some changed (a None model keeps the one set); a TypeError names a
        setting that does not exist."""
        unknown = sorted(set(changes) - {f.name for f in fields(self)})
        if unknown:
            known = ", ".join(f.name for f in fields(self))
            raise TypeError(f"unknown setting {', '.join(unknown)} (AskSettings has: {known})")
        for model in ("root_model", "sub_model", "vision_model"):
            if changes.get(model, True) is None:
                del changes[model]
        if changes.get("options", True) is None:
            del changes["options"]
        return replace(self, **changes)
