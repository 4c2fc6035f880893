"""`longread repl FILE`: a Python prompt with the document's functions, for exploring by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from longread.api import SingleDocRLM
from longread.cli import app


@app.command()
def repl(
    file: Path = typer.Argument(..., help="The document."),
    sub_model: Optional[str] = typer.Option(None, help="Model behind llm_query and ask_about_section."),
) -> None:
    """Explore FILE in Python: get_toc(), search(...), read_section(...), grep_all(...) and the rest."""
    SingleDocRLM(file, sub_model=sub_model).repl()
