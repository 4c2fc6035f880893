"""`longread ask FILE "question"`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from longread.cli import run_options as o
from longread.cli.app import app
from longread.cli.corpus import open_corpus_to_ask
from longread.cli.display import ProgressLine, answer_and_show
from longread.text.terminal import escaped_name

if TYPE_CHECKING:  # (the library loads when a command runs, not for --help)
    from longread.api import AskSettings
    from longread.api.asker import SourceAsker
    from longread.api.document import SingleDocRLM

SOURCE = typer.Argument(..., help="A PDF, DOCX, HTML, markdown or text file, or a folder of them.")


@app.command()
@o.asking
def ask(
    file: Path = SOURCE,
    question: str = typer.Argument(..., help="The question to answer."),
    *,
    settings: AskSettings,
    dry_run: bool = typer.Option(
        False,
        "--dry-run",
        help="Make no model call: print each mode's expected calls, tokens, dollars and seconds "
        "(only --mode's when one is given).",
    ),
    json_out: bool = o.JSON_OUT,
    quiet: bool = o.QUIET,
    executor: str | None = o.EXECUTOR,
    export: Path | None = typer.Option(
        None,
        "--export",
        help="Also write the answer to keep: report.md or report.html (the question, the answer, "
        "each claim and whether it holds, each citation with its text, the usage line).",
    ),
) -> None:
    """Answer QUESTION about FILE (or a folder of documents), citing the passages the answer rests
    on (indexed on first use; `longread index` adds section summaries or document metadata)."""
    from longread.api.asker import asked
    from longread.executor import make_executor

    asked(question)  # (before any indexing)
    if export is not None:
        from longread.report import check_report_path

        check_report_path(export)
    progress = ProgressLine(enabled=not (quiet or json_out))
    with make_executor(executor) as runner, progress:
        asker = open_to_ask(file, settings.changed(executor=runner), progress)
        answer_and_show(asker, question, dry_run, json_out, export)


def open_to_ask(path: Path, settings: AskSettings, progress: ProgressLine) -> SourceAsker:
    """The document or folder at `path`, indexed (what changed since its last index), with
    progress shown, ready for questions."""
    opener = open_corpus_to_ask if path.is_dir() else open_document_to_ask
    return opener(path, settings.changed(on_event=progress), progress)


def open_document_to_ask(file: Path, settings: AskSettings, progress: ProgressLine) -> SingleDocRLM:
    """The document, indexed if needed (structure and full-text search)."""
    from longread.api import SingleDocRLM

    rlm = SingleDocRLM(file, settings=settings)
    rlm.prepare_models()
    progress.update(f"indexing {escaped_name(file.name)}…")
    progress.note(
        f"{escaped_name(file.name)}: {rlm.index.doc_type}, {rlm.index.total_chars:,} characters, "
        f"{rlm.index.section_count:,} sections"
    )
    rlm.index.store.search.build(
        rlm.index.store_id,
        lambda done, total: progress.update(
            f"building full-text search: {done:,} of {total:,} sections…"
        ),
    )
    return rlm
