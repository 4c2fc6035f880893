"""What `longread eval` measured each local model doing well: for each kind of question (one
fact, a count over the whole text, a chain of facts), the mode that answered it best, and the
scores that say so. The `auto` gate follows this table for a model it lists, and says why."""

from __future__ import annotations

from dataclasses import dataclass

from longread.text.questions import question_kind


@dataclass(frozen=True)
class Measured:
    """The best mode per kind of question for one model, and what it rests on (the harness's
    lead scores per mode, on the generated tasks)."""

    best: dict[str, str]
    evidence: str


MEASURED: dict[str, Measured] = {}


def measured_mode(question: str, model: str) -> tuple[str, str] | None:
    """(mode, reason) for a model the table lists, else None."""
    measured = MEASURED.get(model)
    if measured is None:
        return None
    kind = question_kind(question)
    mode = measured.best.get(kind)
    if mode is None:
        return None
    return mode, f"{model} answers {kind} questions best in {mode} ({measured.evidence})"
