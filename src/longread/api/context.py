"""`RLM_REPL`: questions about a context held in memory (a str, dict or list), with the call shape
users of the RLM paper's code expect (`completion(context, query)`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from longread.answer import Answer
from longread.api.asker import Asker, asked
from longread.events import EventSink
from longread.llm.base import LM
from longread.llm.specs import ClientOptions
from longread.llm.usage import Budget
from longread.strategies.common import RunOptions
from longread.strategies.modes import answer
from longread.strategies.texts import InMemory


class RLM_REPL(Asker):  # noqa: N801 - the name users of RLM code expect
    """Answer questions about a `str`, `dict` or `list` context with a Recursive Language Model.

    >>> rlm = RLM_REPL(model="openai:gpt-4o", recursive_model="openai:gpt-4o-mini")
    >>> rlm.completion({"paper_1": "...", "paper_2": "..."}, "What themes do they share?")
    """

    def __init__(
        self,
        model: str | LM | None = None,
        recursive_model: str | LM | None = None,
        *,
        mode: str = "auto",
        enable_logging: bool = False,
        trace_path: str | None = None,
        budget: Budget = Budget(),
        options: RunOptions | None = None,
        cache: bool = True,
        on_event: EventSink | None = None,
        client_options: ClientOptions = ClientOptions(),
    ):
        super().__init__(
            model,
            recursive_model,
            mode=mode,
            enable_logging=enable_logging,
            trace_path=trace_path,
            budget=budget,
            options=options,
            cache=cache,
            on_event=on_event,
            client_options=client_options,
        )

    def answer(
        self, context: Any, query: str, *, enable_slicing: bool = True, doc_id: str = "context"
    ) -> Answer:
        """The full `Answer` (text, citations, usage, mode and why it was chosen)."""
        asked(query)
        with self._run(query, replace(self.options, enable_slicing=enable_slicing)) as run:
            self.last_answer = answer(query, InMemory(context, doc_id), run, self.mode)
        return self.last_answer

    def completion(self, context: Any, query: str, enable_slicing: bool = True) -> str:
        """The answer text (the call shape users of RLM code expect); the whole Answer is kept in
        `last_answer`."""
        return self.answer(context, query, enable_slicing=enable_slicing).text
