"""The Typer application the commands register on (each command is a module of this package)."""

from __future__ import annotations

import typer

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # plain help: rendering it through rich took a quarter of a second
    help="Answer questions about documents far larger than a context window.",
)


@app.callback()
def _root() -> None:
    """longread: answer questions about documents far larger than a context window."""
