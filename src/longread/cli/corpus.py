"""`longread corpus ls|add|rm|update DIR`, the folder form of `longread index DIR`, and opening
a folder for `longread ask DIR "question"` and `longread chat DIR`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.markup import escape

from longread.cli.app import app
from longread.cli.display import ProgressLine, console, progress_bars
from longread.errors import InputError
from longread.text.terminal import escaped_name, json_for_terminal

if TYPE_CHECKING:  # (the library loads when a command runs, not for --help)
    from longread.api import AskSettings, MultiDocRLM
    from longread.index.corpus_files import UpdateReport

corpus_app = typer.Typer(
    no_args_is_help=True, help="Inspect and update the index of a folder of documents."
)
app.add_typer(corpus_app, name="corpus")
FOLDER = typer.Argument(..., help="The corpus folder.")
SUB_MODEL = typer.Option(
    None, help="Model that reads each new document's metadata (default: the root model)."
)
LLM_META = typer.Option(
    None,
    "--llm-meta/--no-llm-meta",
    help="Have the sub-model read each new document's opening for its metadata "
    "(else rules alone: fast, no model call). Default: if the sub-model writes code.",
)

EXECUTOR = typer.Option(
    None,
    "--executor",
    help="Who reads a folder's files: local (this machine's processes, the default) or ray "
    "(a Ray cluster: RAY_ADDRESS joins one, else a local Ray starts). Also LONGREAD_EXECUTOR.",
)
RATE = typer.Option(
    None,
    "--rate",
    min=0.01,
    help="Model requests per second at most, all workers together (for metadata on a cluster).",
)
SHARDS = typer.Option(
    None,
    "--shards",
    min=1,
    help="Split the folder's index into N databases (built as N streams of jobs; on a cluster "
    "the index folder must be on storage every node can reach). An index in one database is "
    "split without reading its files again. Default: as the index is (one for a new one).",
)


def open_corpus(folder: Path, *args: Any, **settings: Any) -> MultiDocRLM:
    """The folder's corpus, its index and models as the command line gives them."""
    from longread.api import MultiDocRLM

    return MultiDocRLM(folder, *args, **settings)


def print_report(rlm: MultiDocRLM, report: UpdateReport, usage: str | None = None) -> None:
    """What an update did, the corpus totals, and each file skipped with its reason."""
    total_docs, total_chars = rlm.index.totals()
    console.print(
        f"{escaped_name(rlm.corpus_path.name)}: {total_docs:,} documents, "
        f"{total_chars:,} characters ({report.summary()}) → {rlm.index.store.path}",
        highlight=False,
    )
    for skipped in report.skipped:
        console.print(
            f"[yellow]skipped[/] {escape(skipped.doc_id)}: {escape(skipped.reason)}",
            highlight=False,
        )
    for doc_id, reason in report.unread.items():
        console.print(
            f"[yellow]metadata not read[/] {escape(doc_id)}: {escape(reason)} "
            "(read again on the next update)",
            highlight=False,
        )
    if usage:
        console.print(f"metadata: {usage}", highlight=False)


def update_corpus(
    folder: Path,
    sub_model: str | None,
    llm_meta: bool | None,
    executor: str | None = None,
    shards: int | None = None,
    rate: float | None = None,
    rebuild: bool = False,
) -> None:
    """Build or update the folder's index (in `shards` databases, if given) with a progress bar,
    its files read by `executor`'s workers (local or ray; the sub-model's calls at most `rate`
    a second), then report. `rebuild`: delete the index first (its shard count is kept)."""
    from longread.config import index_path
    from longread.executor import make_executor
    from longread.llm.gateway import Gateway
    from longread.llm.limits import Limits
    from longread.store.open_corpus import remove_index

    if rebuild:
        had = remove_index(index_path(folder))
        shards = shards if shards is not None else had
    rlm = open_corpus(folder, sub_model=sub_model, shards=shards)
    gateway = Gateway(cache=rlm.cache)
    limits = Limits(per_second=rate) if rate else None
    with make_executor(executor) as runner, progress_bars() as advance:
        report = rlm.build_index(
            llm_meta=llm_meta, on_event=advance, gateway=gateway, executor=runner, limits=limits
        )
    print_report(rlm, report, gateway.usage.summary() if gateway.usage.calls else None)


def open_corpus_to_ask(folder: Path, settings: AskSettings, progress: ProgressLine) -> MultiDocRLM:
    """The folder's corpus, its index brought up to date (rules metadata for new files)."""
    rlm = open_corpus(folder, settings=settings)
    rlm.index.prescan()
    rlm.prepare_models()
    progress.update(f"indexing {escaped_name(folder.name)}…")
    report = rlm.build_index(
        llm_meta=False,
        on_event=lambda e: progress.update(
            f"indexing {escaped_name(folder.name)}: {e.data['task']} "
            f"{e.data['done']:,} of {e.data['total']:,}…"
        ),
    )
    total_docs, total_chars = rlm.index.totals()
    if not total_docs:
        raise InputError(
            f"{folder} has no readable documents ({len(report.skipped)} files skipped)"
        )
    progress.note(
        f"{escaped_name(folder.name)}: {total_docs:,} documents, {total_chars:,} characters"
        + (f" ({len(report.skipped)} files skipped)" if report.skipped else "")
    )
    return rlm


@corpus_app.command("ls")
def ls(
    folder: Path = FOLDER, json_out: bool = typer.Option(False, "--json", help="Print JSON.")
) -> None:
    """List the indexed documents: id, type, date, size and title."""
    rlm = open_corpus(folder)
    docs = rlm.index.store.catalog.docs()
    if json_out:
        sys.stdout.write(
            json_for_terminal(
                json.dumps({d.doc_id: d.meta for d in docs}, ensure_ascii=False, indent=2)
            )
            + "\n"
        )
        return
    from longread.store.sharded_store import ShardedCorpusStore

    store = rlm.index.store
    for shard in store.manifest.shards if isinstance(store, ShardedCorpusStore) else []:
        console.print(
            f"[dim]{escape(shard.file)}  {shard.state}  {shard.docs:,} documents  "
            f"digest {shard.digest or '-'}[/]",
            highlight=False,
        )
    for d in docs:
        first_date = d.meta["dates"][0] if d.meta["dates"] else "-"
        console.print(
            f"{escape(d.doc_id)}  [dim]{d.meta['doc_type']} {first_date} "
            f"{d.chars:,} chars[/]  {escape(d.meta['title'])}",
            highlight=False,
        )
    total_docs, total_chars = rlm.index.totals()
    console.print(f"[dim]{total_docs:,} documents, {total_chars:,} characters[/]", highlight=False)


@corpus_app.command("add")
def add(
    folder: Path = FOLDER,
    files: list[Path] = typer.Argument(..., help="Files inside the folder."),
    sub_model: str | None = SUB_MODEL,
    llm_meta: bool | None = LLM_META,
) -> None:
    """Index files of the folder (again, if they changed)."""
    rlm = open_corpus(folder, sub_model=sub_model)
    for file in files:
        console.print(f"added {escape(rlm.add_document(file, llm_meta=llm_meta))}", highlight=False)


@corpus_app.command("rm")
def rm(
    folder: Path = FOLDER,
    doc_ids: list[str] = typer.Argument(..., help="Document ids (paths in the folder)."),
) -> None:
    """Forget documents (their files are left alone)."""
    rlm = open_corpus(folder)
    for doc_id in doc_ids:
        console.print(
            f"{'removed' if rlm.remove_document(doc_id) else 'not indexed'} {escape(doc_id)}",
            highlight=False,
        )


@corpus_app.command("update")
def update(
    folder: Path = FOLDER,
    sub_model: str | None = SUB_MODEL,
    llm_meta: bool | None = LLM_META,
    executor: str | None = EXECUTOR,
    shards: int | None = SHARDS,
    rate: float | None = RATE,
) -> None:
    """Re-scan the folder: add new files, re-index changed ones, drop deleted ones."""
    update_corpus(folder, sub_model, llm_meta, executor, shards, rate)
