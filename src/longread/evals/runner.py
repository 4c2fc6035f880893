"""Running tasks through modes and models, as `longread ask` would answer them, and the table of
what each did per family: lead and anywhere accuracy, citations holding the gold, calls, tokens,
dollars and seconds per question."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from longread.answer import Answer
from longread.api import MultiDocRLM, RunOptions, SingleDocRLM
from longread.errors import LongreadError
from longread.evals.baseline import MODE as BASELINE_MODE
from longread.evals.baseline import MODEL as BASELINE_MODEL
from longread.evals.baseline import best_sentence, source_sentences
from longread.evals.scoring import cited, lead, score
from longread.evals.tasks import Task
from longread.events import Event, EventKind
from longread.llm.base import LM
from longread.llm.usage import Budget


@dataclass
class Result:
    family: str
    mode: str
    model: str
    question: str
    lead: float
    anywhere: float
    cited: bool
    calls: int
    tokens: int
    dollars: float | None
    seconds: float
    answered_by: str = ""
    error: str = ""
    lost: str = ""  # where the gold was lost (`explain`): retrieval, reader, ranking or answer


def run_tasks(
    tasks: Iterable[Task],
    modes: list[str],
    models: Sequence[str | LM],
    sub_model: str | LM | None = None,
    on_result: Callable[[Result], None] = lambda result: None,
    max_seconds: float | None = None,
    readers: Sequence[str] = ("auto",),
) -> list[Result]:
    """Every task answered by the no-model baseline, then with every model, reader of counting
    questions and mode (each question stopped after `max_seconds`, if given); a task that fails
    scores 0 and says why."""
    tasks = list(tasks)
    results = []
    read: dict[str, list[str]] = {}  # a source's sentences, read once for all its tasks
    for task in tasks:
        result = baseline_result(task, read)
        on_result(result)
        results.append(result)
    for model, reader, mode in itertools.product(models, readers, modes):
        for task in tasks:
            budget = Budget(max_seconds=max_seconds)
            result = run_task(task, mode, model, sub_model, budget, reader)
            on_result(result)
            results.append(result)
    return results


def run_task(
    task: Task,
    mode: str,
    model: str | LM,
    sub_model: str | LM | None,
    budget: Budget = Budget(),
    reader: str = "auto",
) -> Result:
    name = model if isinstance(model, str) else model.name
    name += "" if reader == "auto" else f", reader {reader}"  # (`auto`: the default's)
    started = time.perf_counter()
    source = Path(task.path)
    opened = MultiDocRLM if source.is_dir() else SingleDocRLM
    shown: list[str] = []  # what the models were shown, for `lost`

    def seen(event: Event) -> None:
        if event.kind is EventKind.LLM_START:
            shown.append(str(event.data.get("prompt", "")))

    try:
        with opened(
            source,
            model,
            sub_model,
            mode=mode,
            cache=False,
            budget=budget,
            on_event=seen,
            options=RunOptions(reader=reader),
        ) as rlm:
            if isinstance(rlm, MultiDocRLM):
                rlm.build_index(llm_meta=False)
            answer = rlm.query(task.question)
    except (LongreadError, OSError) as error:
        return Result(
            task.family,
            mode,
            name,
            task.question,
            0.0,
            0.0,
            False,
            0,
            0,
            None,
            time.perf_counter() - started,
            error=str(error)[:300],
        )
    usage = answer.usage
    return Result(
        task.family,
        mode,
        name,
        task.question,
        score(task.scorer, task.answer, lead(answer.text)),
        score(task.scorer, task.answer, answer.text),
        cited(answer, task.answer),
        int(usage.get("calls", 0)),
        int(usage.get("input_tokens", 0)) + int(usage.get("output_tokens", 0)),
        usage.get("cost_usd"),
        time.perf_counter() - started,
        answered_by=answer.mode,
        lost=lost(task, answer, shown),
    )


def lost(task: Task, answer: Answer, shown: list[str]) -> str:
    """Where the gold was lost: never shown to a model (`retrieval`; a run by code alone shows
    nothing, and is judged by its answer), shown but in no finding or citation (`reader`), found
    but not in the first one (`ranking`), in the first citation but not in the lead (`answer`);
    "" when the lead holds it."""
    if score(task.scorer, task.answer, lead(answer.text)) >= 1:
        return ""
    first = answer.citations[0].text if answer.citations else ""
    if score(task.scorer, task.answer, first) >= 1:
        return "answer"
    held = [answer.text, *(c.text for c in answer.citations)]
    if any(score(task.scorer, task.answer, text) >= 1 for text in held):
        return "ranking"
    if any(score(task.scorer, task.answer, prompt) >= 1 for prompt in shown):
        return "reader"
    return "retrieval"


STAGES = ("retrieval", "reader", "ranking", "answer")


def explained(results: list[Result]) -> str:
    """Per family, mode and model: how many tasks kept the gold past each stage, and where the
    others lost it."""
    rows = [
        "| family | mode | model | tasks | past retrieval | past reader | past ranking | led |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for key in sorted({(r.family, r.mode, r.model) for r in results if r.mode != BASELINE_MODE}):
        group = [r for r in results if (r.family, r.mode, r.model) == key]
        n = len(group)
        lost_at = [r.lost for r in group]
        past = [sum(at not in STAGES[: k + 1] for at in lost_at) for k in range(len(STAGES))]
        rows.append(f"| {' | '.join(key)} | {n} | " + " | ".join(f"{p}/{n}" for p in past) + " |")
    return "\n".join(rows)


def baseline_result(task: Task, read: dict[str, list[str]]) -> Result:
    """What the no-model baseline's one sentence scores (it is its own citation)."""
    started = time.perf_counter()
    if task.path not in read:
        read[task.path] = source_sentences(Path(task.path))
    said = best_sentence(task.question, read[task.path])
    right = score(task.scorer, task.answer, lead(said))
    return Result(
        task.family,
        BASELINE_MODE,
        BASELINE_MODEL,
        task.question,
        right,
        score(task.scorer, task.answer, said),
        right > 0,
        0,
        0,
        0.0,
        time.perf_counter() - started,
        answered_by=BASELINE_MODE,
    )


def table(results: list[Result]) -> str:
    """One Markdown row per family, mode and model, then one per mode and model for all families."""
    rows = [
        "| family | mode | model | tasks | lead | anywhere | cited | calls | tokens | $ "
        "| s/question |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    keys = sorted({(r.family, r.mode, r.model) for r in results})
    keys += sorted({("all", r.mode, r.model) for r in results})
    for family, mode, model in keys:
        group = [
            r for r in results if family in ("all", r.family) and (r.mode, r.model) == (mode, model)
        ]
        n = len(group)
        priced = [r.dollars for r in group if r.dollars is not None]
        dollars = f"{sum(priced):.4f}" if priced else "unknown"
        rows.append(
            f"| {family} | {mode} | {model} | {n} | {sum(r.lead for r in group):.1f}/{n} | "
            f"{sum(r.anywhere for r in group):.1f}/{n} | {sum(r.cited for r in group)}/{n} | "
            f"{sum(r.calls for r in group) / n:.1f} | {sum(r.tokens for r in group) / n:,.0f} | "
            f"{dollars} | {sum(r.seconds for r in group) / n:.1f} |"
        )
    return "\n".join(rows)


def save(results: list[Result], path: str | Path) -> None:
    Path(path).write_text(json.dumps([asdict(r) for r in results], indent=1), encoding="utf-8")


def compare(results: list[Result], earlier: str | Path) -> str:
    """Lead accuracy now against an earlier `--json` run, per family, mode and model."""
    before = [Result(**r) for r in json.loads(Path(earlier).read_text(encoding="utf-8"))]
    lines = ["| family | mode | model | lead before | lead now |", "|---|---|---|---|---|"]
    for key in sorted({(r.family, r.mode, r.model) for r in results}):
        now = [r.lead for r in results if (r.family, r.mode, r.model) == key]
        then = [r.lead for r in before if (r.family, r.mode, r.model) == key]
        shown = f"{sum(then):.1f}/{len(then)}" if then else "—"
        lines.append(f"| {' | '.join(key)} | {shown} | {sum(now):.1f}/{len(now)} |")
    return "\n".join(lines)
