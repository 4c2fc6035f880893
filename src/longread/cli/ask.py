"""`longread ask FILE "question"`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from longread.cli import run_options as o
from longread.cli.app import app
from longread.cli.corpus import open_corpus_to_ask
from longread.cli.display import ProgressLine, answer_and_show
from longread.text.terminal import escaped_name

if TYPE_CHECKING:  # (the library loads when a command runs, not for --help)
    from longread.api.asker import SourceAsker
    from longread.api.document import SingleDocRLM

SOURCE = typer.Argument(..., help="A PDF, DOCX, HTML, markdown or text file, or a folder of them.")


@app.command()
def ask(
    file: Path = SOURCE,
    question: str = typer.Argument(..., help="The question to answer."),
    mode: str = o.MODE,
    model: str | None = o.MODEL,
    sub_model: str | None = o.SUB_MODEL,
    base_url: str | None = o.BASE_URL,
    api_key: str | None = o.API_KEY,
    max_iterations: int = o.MAX_ITERATIONS,
    max_depth: int = o.MAX_DEPTH,
    concurrency: int = o.CONCURRENCY,
    cell_timeout: float = o.CELL_TIMEOUT,
    top_k: int = o.TOP_K,
    max_subcalls: int | None = o.MAX_SUBCALLS,
    max_cost: float | None = o.MAX_COST,
    max_tokens: int | None = o.MAX_TOKENS,
    max_seconds: float | None = o.MAX_SECONDS,
    focus: bool | None = o.FOCUS,
    verify: bool = o.VERIFY,
    dry_run: bool = typer.Option(
        False,
        "--dry-run",
        help="Make no model call: print each mode's expected calls, tokens, dollars and seconds "
        "(only --mode's when one is given).",
    ),
    trace: Path | None = o.TRACE,
    no_cache: bool = o.NO_CACHE,
    json_out: bool = o.JSON_OUT,
    quiet: bool = o.QUIET,
    executor: str | None = o.EXECUTOR,
) -> None:
    """Answer QUESTION about FILE (or a folder of documents), citing the passages the answer rests
    on (indexed on first use; `longread index` adds section summaries or document metadata)."""
    from longread.api.asker import asked
    from longread.executor import make_executor

    asked(question)  # (before any indexing)
    progress = ProgressLine(enabled=not (quiet or json_out))
    settings = o.run_settings(locals())
    with make_executor(executor) as runner, progress:
        asker = open_to_ask(file, model, sub_model, progress, executor=runner, **settings)
        answer_and_show(asker, question, dry_run, json_out)


def open_to_ask(
    path: Path, model: str | None, sub_model: str | None, progress: ProgressLine, **settings: Any
) -> SourceAsker:
    """The document or folder at `path`, indexed (what changed since its last index), with
    progress shown, ready for questions."""
    opener = open_corpus_to_ask if path.is_dir() else open_document_to_ask
    return opener(path, model, sub_model, progress, **settings)


def open_document_to_ask(
    file: Path, model: str | None, sub_model: str | None, progress: ProgressLine, **settings: Any
) -> SingleDocRLM:
    """The document, indexed if needed (structure and full-text search)."""
    from longread.api import SingleDocRLM

    rlm = SingleDocRLM(file, model, sub_model, on_event=progress, **settings)
    rlm.prepare_models()
    progress.update(f"indexing {escaped_name(file.name)}…")
    progress.note(
        f"{escaped_name(file.name)}: {rlm.index.doc_type}, {rlm.index.total_chars:,} characters, "
        f"{rlm.index.section_count:,} sections"
    )
    rlm.index.store.ensure_fts(
        rlm.index.store_id,
        lambda done, total: progress.update(
            f"building full-text search: {done:,} of {total:,} sections…"
        ),
    )
    return rlm
