"""`base`: the start of the text in one prompt."""

from __future__ import annotations

from typing import TYPE_CHECKING

from longread.strategies.mode import Mode

if TYPE_CHECKING:
    from longread.answer import Answer
    from longread.strategies.common import Run
    from longread.strategies.texts import InMemory, TextDocs
    from longread.tools.single_doc import SingleDocTools

MODE = Mode(
    name="base",
    summary="the start of the text in one prompt",
    serves="a text that fits the root model's window (as much as fits is read, from the start)",
    runners={
        "context": f"{__name__}:context",
        "texts": f"{__name__}:texts",
        "document": f"{__name__}:document",
    },
    order=10,
    seconds=(300.0, 300.0),  # (default budget: on this CPU, hosted)
)


def context(question: str, source: InMemory, run: Run) -> Answer:
    from longread.strategies.base import run_base

    return run_base(question, source.value, run)


def texts(question: str, docs: TextDocs, run: Run) -> Answer:
    from longread.strategies.base import base_chars, run_base

    answer = run_base(question, docs.text[: base_chars(run)], run, total_chars=docs.total_chars)
    answer.citations = docs.cite(answer.text, question)
    return answer


def document(question: str, tools: SingleDocTools, run: Run) -> Answer:
    from longread.strategies.base import base_chars, run_base

    total = tools.index.total_chars
    answer = run_base(
        question, tools.read_range(0, min(total, base_chars(run))), run, total_chars=total
    )
    answer.citations = tools.cite(answer.text, question)
    return answer
