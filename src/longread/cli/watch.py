"""`longread watch DIR`: a folder's index kept fresh as its files change, till Ctrl-C."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from longread.cli.app import app
from longread.cli.corpus import SHARDS, open_corpus
from longread.cli.display import console, err_console
from longread.text.terminal import escaped_name

if TYPE_CHECKING:
    from longread.index.watching import WatchUpdate


class _StopAsked:
    """Set once the command is asked to stop (Ctrl-C, SIGTERM, SIGHUP)."""

    def is_set(self) -> bool:
        from longread import deadline

        return deadline.stop_requested() is not None


@app.command()
def watch(
    folder: Path = typer.Argument(..., help="The folder to keep indexed."),
    shards: int | None = SHARDS,
) -> None:
    """Keep FOLDER's index fresh as files are created, changed, moved and deleted, till Ctrl-C:
    the folder is brought in line once, then each change is indexed as it happens (metadata by
    rules, no model call), without listing the folder again. A question asked meanwhile, from any
    process, reads the index as it stands."""
    from longread.index.watching import watch_corpus

    rlm = open_corpus(folder, shards=shards)
    name = escaped_name(rlm.corpus_path.name)

    def updated(update: WatchUpdate) -> None:
        documents, chars = rlm.index.totals()
        if update.events is None:
            console.print(
                f"watching {name}: {documents:,} documents, {chars:,} characters "
                f"({update.report.summary()}) → {rlm.index.store.path}; Ctrl-C stops",
                highlight=False,
            )
        else:
            console.print(
                f"{time.strftime('%H:%M:%S')} {update.report.summary()} "
                f"({update.events:,} file events, {update.seconds:.2f} s; {documents:,} documents)",
                highlight=False,
            )
        for skipped in update.report.skipped:
            console.print(
                f"[yellow]skipped[/] {escape(skipped.doc_id)}: {escape(skipped.reason)}",
                highlight=False,
            )

    def failed(error: Exception) -> None:
        err_console.print(
            f"[yellow]update failed[/] ({escape(str(error))}): the folder is listed again",
            highlight=False,
        )

    watch_corpus(rlm.index, _StopAsked(), updated, failed)
