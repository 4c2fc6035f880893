"""`refine`: a running hypothesis revised slice by slice (a context in memory)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from longread.strategies.mode import Mode

if TYPE_CHECKING:
    from longread.answer import Answer
    from longread.strategies.common import Run
    from longread.strategies.texts import InMemory

MODE = Mode(
    name="refine",
    summary="slice-by-slice hypothesis refinement",
    serves="a context in memory too large for the window, with a root model that cannot write code",
    runners={"context": f"{__name__}:context"},
    order=50,
    seconds=(900.0, 900.0),  # (default budget: on this CPU, hosted)
)


def context(question: str, source: InMemory, run: Run) -> Answer:
    from longread.strategies.refine import run_refine

    return run_refine(question, source.value, run, doc_id=source.doc_id)
