"""`longread index FILE` and `longread toc FILE`."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from longread.api import SingleDocRLM
from longread.cli import app
from longread.cli.corpus import LLM_META, update_corpus
from longread.cli.display import console, progress_bars
from longread.llm.gateway import Gateway


@app.command()
def index(
    file: Path = typer.Argument(..., help="A PDF, DOCX, HTML, markdown or text file, or a folder of them."),
    sub_model: Optional[str] = typer.Option(None, help="Model that writes the section summaries."),
    rebuild: bool = typer.Option(False, "--rebuild", help="Drop the stored index and build it again."),
    summaries: bool = typer.Option(True, "--summaries/--no-summaries", help="Summarize sections."),
    llm_meta: Optional[bool] = LLM_META,
) -> None:
    """Index FILE: structure, sections, full-text search and section summaries (resumable). Index
    a folder: every document's text, metadata, full-text search, inverted indexes and links."""
    if file.is_dir():
        return update_corpus(file, sub_model, llm_meta)
    rlm = SingleDocRLM(file, sub_model=sub_model)
    if rebuild:
        rlm.drop_index()
    gateway = Gateway(cache=rlm.cache)
    with progress_bars() as advance:
        built = rlm.build_index(summaries, on_event=advance, gateway=gateway)
    console.print(f"{file.name}: {built.doc_type}, {built.total_chars:,} characters, "
                  f"{len(built.rows):,} sections → {built.store.path}", highlight=False)
    if summaries:
        console.print(f"summaries: {len(built.summaries)} of {len(built.rows)} sections "
                      f"· {gateway.usage.summary()}", highlight=False)


@app.command()
def toc(file: Path = typer.Argument(..., help="The document.")) -> None:
    """Print FILE's table of contents (building its index without summaries if needed)."""
    built = SingleDocRLM(file).index  # models are resolved only when used: none is here
    summaries = built.summaries
    for name, row in zip(built.names, built.rows, strict=True):
        line = f"{'  ' * (row.level - 1)}{name}  [dim][{row.start:,}:{row.end:,})[/]"
        console.print(line, highlight=False)
        if name in summaries:
            console.print(f"{'  ' * row.level}[dim]{summaries[name][:160]}[/]", highlight=False)
