"""What every strategy is given: the models, the gateway they call through, options and an event
sink."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from longread.answer import Answer
from longread.config import default_answer_model, default_reader
from longread.errors import BudgetExceededError
from longread.events import Event, EventKind, EventSink, ignore
from longread.llm.base import LM
from longread.llm.gateway import Gateway

if TYPE_CHECKING:
    from longread.query.core.plan import Plan
    from longread.strategies.conversation import Conversation


@dataclass
class RunOptions:
    """Knobs shared by the strategies (each reads the ones it uses)."""

    max_iterations: int = 12
    max_depth: int = (
        1  # RLM levels: 1 = rlm_query is a plain sub-call, 2 = it starts a child RLM...
    )
    concurrency: int = (
        8  # model calls at once (batched sub-calls, children; a local model runs one)
    )
    cell_timeout: float = 120.0  # a cell's code and the tool calls it makes (model calls too)
    memory_mb: int = 1024
    slice_chars: int = 10_000
    refine_slice_chars: int | None = None  # None: 2,000 for a weak sub-model (which sees its top
    # lines only), 8,000 for a strong one
    focus: bool | None = None  # refine shows only each slice's best lines; None: for weak models
    max_slices: int | None = None  # None: 8 for a weak sub-model, 24 for a strong one
    enable_slicing: bool = True
    top_k: int = 8  # retrieval: passages given to the root model
    rewrite: bool = False  # map/tree: a last pass in which the root model restates the answer
    allow_code: bool = True  # may `auto` pick rlm (a server without OS isolation says no)
    verify: bool = False  # the sub-model judges each claim against the spans it cites
    reader: str = field(default_factory=default_reader)  # who reads a counting question into
    # a query: `rules`, a model spec, or `auto` (a hosted root model; beside a local one, the
    # local code model `query_writer` names); $LONGREAD_READER, else `auto`
    answer_model: str = field(default_factory=default_answer_model)  # who states a fact's
    # short answer from the passages found, where the root model cannot join them: `none`, a
    # model spec, or `auto` (the local code model); $LONGREAD_ANSWER_MODEL, else `auto`


@dataclass
class Run:
    """One question being answered: root and sub models sharing one gateway (so one budget)."""

    root: LM
    sub: LM
    gateway: Gateway
    options: RunOptions = field(default_factory=RunOptions)
    on_event: EventSink = ignore
    depth: int = 0
    conversation: Conversation | None = None  # the questions before this one, when in a session
    plan: Plan | None = None  # the question read into a plan (once, by `modes.answer`)

    def emit(self, kind: EventKind, **data: object) -> None:
        self.on_event(Event(kind, dict(data), depth=self.depth))


@contextmanager
def partial_on_budget(partial: Callable[[str], Answer]) -> Iterator[None]:
    """Within the block, a budget stop carries the answer reached so far: `partial(limit)`, the
    limit being the budget that ran out (it becomes the answer's `stopped_by`)."""
    try:
        yield
    except BudgetExceededError as error:
        error.partial = partial(error.limit)
        raise
