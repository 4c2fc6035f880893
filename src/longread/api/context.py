"""`RLM_REPL`: questions about a context held in memory (a str, dict or list), with the call shape
users of the RLM paper's code expect (`completion(context, query)`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from longread.answer import Answer
from longread.api.asker import Asker, asked
from longread.api.settings import AskSettings
from longread.llm.base import LM
from longread.strategies.modes import answer
from longread.strategies.texts import InMemory


class RLM_REPL(Asker):  # noqa: N801 - the name users of RLM code expect
    """Answer questions about a `str`, `dict` or `list` context with a Recursive Language Model.

    >>> rlm = RLM_REPL("openai:gpt-4o", "openai:gpt-4o-mini")
    >>> rlm.ask({"paper_1": "...", "paper_2": "..."}, "What themes do they share?").text
    """

    def __init__(
        self,
        root_model: str | LM | None = None,
        sub_model: str | LM | None = None,
        *,
        settings: AskSettings | None = None,
        model: str | LM | None = None,
        recursive_model: str | LM | None = None,
        **changes: Any,
    ):
        """`changes`: any `AskSettings` field, over `settings`; `model` and `recursive_model` are
        `root_model` and `sub_model` by the names of the RLM paper's code."""
        super().__init__(
            (settings or AskSettings()).changed(
                root_model=root_model or model, sub_model=sub_model or recursive_model, **changes
            )
        )

    def ask(
        self, context: Any, question: str, *, enable_slicing: bool = True, doc_id: str = "context"
    ) -> Answer:
        """The full `Answer` (text, citations, usage, mode and why it was chosen)."""
        asked(question)
        options = replace(self.options, enable_slicing=enable_slicing)
        with self.timed(self.mode), self._run(question, options, self.mode) as run:
            self.last_answer = answer(question, InMemory(context, doc_id), run, self.mode)
        return self.last_answer

    def answer(
        self, context: Any, query: str, *, enable_slicing: bool = True, doc_id: str = "context"
    ) -> Answer:
        """`ask`, by its earlier name."""
        return self.ask(context, query, enable_slicing=enable_slicing, doc_id=doc_id)

    def completion(self, context: Any, query: str, enable_slicing: bool = True) -> str:
        """`ask`'s answer text alone (the call shape users of RLM code expect); the whole Answer
        is kept in `last_answer`."""
        return self.ask(context, query, enable_slicing=enable_slicing).text
