"""`longread repl FILE|DIR`: a Python prompt with the document's (or corpus') functions, for
exploring by hand."""

from __future__ import annotations

from pathlib import Path

import typer

from longread.cli.app import app


@app.command()
def repl(
    file: Path = typer.Argument(..., help="The document, or a folder of documents."),
    sub_model: str | None = typer.Option(
        None, help="Model behind llm_query and ask_about_section."
    ),
) -> None:
    """Explore FILE in Python: get_toc(), search(...), read_section(...), grep_all(...) and the rest
    (for a folder: rank_documents(...), search_by_keyword(...), read_document(...) and the rest)."""
    from longread.api import MultiDocRLM, SingleDocRLM

    if file.is_dir():
        corpus = MultiDocRLM(file, sub_model=sub_model)
        corpus.build_index(llm_meta=False)
        return corpus.repl()
    SingleDocRLM(file, sub_model=sub_model).repl()
