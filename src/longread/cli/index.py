"""`longread index FILE` and `longread toc FILE`."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from longread.api import as_lm
from longread.cli import app
from longread.cli.display import console
from longread.config import default_model, default_sub_model, index_path
from longread.events import Event
from longread.index.single import SingleDocIndex
from longread.ingest.document import load_document
from longread.ingest.summarize import summarize_sections
from longread.llm.gateway import Gateway
from longread.store.docstore import DocStore, content_hash


def open_index(file: Path, rebuild: bool = False) -> SingleDocIndex:
    """The file's index (built on first use); `rebuild` drops the stored one first."""
    store = DocStore(index_path(file))
    if rebuild:
        existing = store.find(content_hash(load_document(file).text))
        if existing is not None:
            store.remove_document(existing)
    return SingleDocIndex.build(file, store)


@app.command()
def index(
    file: Path = typer.Argument(..., help="A PDF, DOCX, HTML, markdown or text file."),
    sub_model: Optional[str] = typer.Option(None, help="Model that writes the section summaries."),
    rebuild: bool = typer.Option(False, "--rebuild", help="Drop the stored index and build it again."),
    summaries: bool = typer.Option(True, "--summaries/--no-summaries", help="Summarize sections."),
) -> None:
    """Index FILE: structure, sections, full-text search and section summaries (resumable)."""
    built = open_index(file, rebuild)
    console.print(f"{file.name}: {built.doc_type}, {built.total_chars:,} characters, "
                  f"{len(built.rows)} sections → {built.store.path}", highlight=False)
    if summaries:
        sub = as_lm(sub_model, default_sub_model(default_model()))
        gateway = Gateway()
        with Progress(TextColumn("summaries"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                      console=console, transient=True) as bar:
            task = bar.add_task("summaries", total=len(built.store.unsummarized(built.doc_id)))

            def advance(event: Event) -> None:
                bar.update(task, completed=event.data["done"])

            made = summarize_sections(built, sub, gateway, on_event=advance)
        console.print(f"summaries: {made} new, {len(built.summaries)} of {len(built.rows)} sections "
                      f"· {gateway.usage.summary()}", highlight=False)


@app.command()
def toc(file: Path = typer.Argument(..., help="The document.")) -> None:
    """Print FILE's table of contents (building its index without summaries if needed)."""
    built = open_index(file)
    summaries = built.summaries
    for name, row in zip(built.names, built.rows, strict=True):
        line = f"{'  ' * (row.level - 1)}{name}  [dim][{row.start:,}:{row.end:,})[/]"
        console.print(line, highlight=False)
        if name in summaries:
            console.print(f"{'  ' * row.level}[dim]{summaries[name][:160]}[/]", highlight=False)
