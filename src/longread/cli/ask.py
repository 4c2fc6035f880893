"""`longread ask FILE "question"`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from longread.cli.app import app
from longread.cli.corpus import ask_corpus
from longread.cli.display import ProgressLine, answer_and_show
from longread.strategies.catalog import modes_for


@app.command()
def ask(
    file: Path = typer.Argument(
        ..., help="A PDF, DOCX, HTML, markdown or text file, or a folder of them."
    ),
    question: str = typer.Argument(..., help="The question to answer."),
    mode: str = typer.Option(
        "auto",
        help=f"Strategy: {', '.join(modes_for('document'))}; for a folder "
        f"{', '.join(modes_for('corpus'))} (auto: base if the document fits the "
        "root model, rlm if it writes code, else map).",
    ),
    model: str | None = typer.Option(
        None, help="Root model spec (default: $LONGREAD_MODEL or local)."
    ),
    sub_model: str | None = typer.Option(None, help="Sub-model spec (default: the root model)."),
    base_url: str | None = typer.Option(None, help="Base URL of an OpenAI-compatible server."),
    api_key: str | None = typer.Option(
        None, help="API key (default: the provider's env variable)."
    ),
    max_iterations: int = typer.Option(12, min=1, help="Root turns of the rlm loop."),
    max_depth: int = typer.Option(
        1, min=1, help="RLM levels: 1 makes rlm_query a plain sub-call, 2 lets it start child RLMs."
    ),
    concurrency: int = typer.Option(8, min=1, help="Model calls at once (batches, child RLMs)."),
    cell_timeout: float = typer.Option(
        120.0, min=0.1, help="Seconds one code cell may run, its tool and model calls included."
    ),
    top_k: int = typer.Option(8, min=1, help="retrieval: passages the root model answers from."),
    max_subcalls: int | None = typer.Option(None, min=0, help="Budget: sub-model calls."),
    max_cost: float | None = typer.Option(None, min=0, help="Budget: USD."),
    max_tokens: int | None = typer.Option(None, min=1, help="Budget: input + output tokens."),
    max_seconds: float | None = typer.Option(None, min=1, help="Budget: wall-clock seconds."),
    focus: bool | None = typer.Option(
        None,
        "--focus/--no-focus",
        help="map/tree: show the sub-model only each passage's best-matching lines, a line back "
        "from each (default: on for local models and models that cannot write code; use --focus "
        "for a small model behind a server).",
    ),
    verify: bool = typer.Option(
        False,
        "--verify",
        help="The sub-model also judges each claim against the text it cites (one more call, "
        "inside the budget); without it claims are checked by their words and numbers.",
    ),
    dry_run: bool = typer.Option(
        False,
        "--dry-run",
        help="Make no model call: print each mode's expected calls, tokens, dollars and seconds "
        "(only --mode's when one is given).",
    ),
    trace: Path | None = typer.Option(None, help="Write a JSONL trace of the run here."),
    no_cache: bool = typer.Option(
        False, "--no-cache", help="Do not reuse or store model responses."
    ),
    json_out: bool = typer.Option(False, "--json", help="Print the answer as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress display."),
    executor: str | None = typer.Option(
        None,
        "--executor",
        help="ray: the sub-model's calls (map, llm_query_batched) and a folder's indexing run as "
        "Ray tasks (RAY_ADDRESS joins a cluster, else a local Ray starts). Default: local. Also "
        "LONGREAD_EXECUTOR.",
    ),
) -> None:
    """Answer QUESTION about FILE (or a folder of documents), citing the passages the answer rests
    on (indexed on first use; `longread index` adds section summaries or document metadata)."""
    from longread.api import Budget, RunOptions
    from longread.executor import make_executor
    from longread.llm.specs import ClientOptions

    progress = ProgressLine(enabled=not (quiet or json_out))
    settings: dict[str, Any] = dict(
        mode=mode,
        trace_path=str(trace) if trace else None,
        budget=Budget(max_subcalls, max_cost, max_tokens, max_seconds),
        options=RunOptions(
            max_iterations=max_iterations,
            max_depth=max_depth,
            concurrency=concurrency,
            cell_timeout=cell_timeout,
            focus=focus,
            top_k=top_k,
            verify=verify,
        ),
        cache=not no_cache,
        client_options=ClientOptions(base_url, api_key),
    )
    with make_executor(executor) as runner:
        answering = ask_corpus if file.is_dir() else ask_document
        answering(
            file,
            question,
            model,
            sub_model,
            progress,
            (dry_run, json_out),
            executor=runner,
            **settings,
        )


def ask_document(
    file: Path,
    question: str,
    model: str | None,
    sub_model: str | None,
    progress: ProgressLine,
    output: tuple[bool, bool],
    **settings: Any,
) -> None:
    """`longread ask FILE "question"`: index the document if needed, then answer with citations
    (`output`: dry run, JSON)."""
    from longread.api import SingleDocRLM

    rlm = SingleDocRLM(file, model, sub_model, on_event=progress, **settings)
    rlm.prepare_models()
    with progress:
        progress.update(f"indexing {file.name}…")
        progress.note(
            f"{file.name}: {rlm.index.doc_type}, {rlm.index.total_chars:,} characters, "
            f"{rlm.index.section_count:,} sections"
        )
        rlm.index.store.ensure_fts(
            rlm.index.store_id,
            lambda done, total: progress.update(
                f"building full-text search: {done:,} of {total:,} sections…"
            ),
        )
        answer_and_show(rlm, question, *output)
