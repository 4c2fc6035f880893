"""What `longread eval` measured each local model doing well: for each shape of question (one
fact, a count over the whole text, a chain of facts), the mode that answered it best, and the
scores that say so. The `auto` gate follows this table for a model it lists, and says why."""

from __future__ import annotations

from dataclasses import dataclass

from longread.query.core.plan import Plan


@dataclass(frozen=True)
class Measured:
    """The best mode per kind of question for one model, and what it rests on (the harness's
    lead scores per mode, on the generated tasks)."""

    best: dict[str, str]
    evidence: str


MAPPED = {"fact": "map", "chain": "map", "aggregate": "map"}
MEASURED: dict[str, Measured] = {  # `longread eval` on the generated tasks, this 2-core machine
    "local:smollm2-135m": Measured(
        MAPPED, "measured: map 2/2 facts and 2/2 chains at 0.3-9 s; rlm 0/3 at 71-403 s"
    ),
    "local:qwen2.5-coder-0.5b": Measured(
        {"fact": "rlm", "chain": "map", "aggregate": "map"},
        "measured: facts rlm 2/2 at 86-129 s, map 1/2 at 3-37 s; chains 0/2 in both, map "
        "at 11-22 s; counts 0/2 in both",
    ),
    "local:qwen2.5-coder-1.5b": Measured(
        MAPPED,
        "measured: map 1/1 facts, 1/1 counts, 0/1 chains at 11-23 s; rlm 0/3 at 134-895 s",
    ),
    "local:gemma3-270m": Measured(
        MAPPED, "measured in map only: 1/3 at 12-57 s (a base model: it continues the prompt)"
    ),
}


def measured_mode(plan: Plan, model: str) -> tuple[str, str] | None:
    """(mode, reason) for a model the table lists, else None."""
    measured = MEASURED.get(model)
    if measured is None:
        return None
    kind = plan.shape.value
    mode = measured.best.get(kind)
    if mode is None:
        return None
    return mode, f"{model} answers {kind} questions best in {mode} ({measured.evidence})"
