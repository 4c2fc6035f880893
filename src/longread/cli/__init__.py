"""The `longread` command."""

from __future__ import annotations

import sys

import typer
from rich.console import Console

from longread.errors import BudgetExceededError, LongreadError

app = typer.Typer(add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False,
                  help="Answer questions about documents far larger than a context window.")
err_console = Console(stderr=True)


@app.callback()
def _root() -> None:
    """longread: answer questions about documents far larger than a context window."""


def main() -> None:
    """Entry point: runs the app; errors a user can cause become one line and a non-zero exit."""
    from longread.cli import ask, corpus, index, repl, serve  # noqa: F401 - registers the commands

    try:
        app(standalone_mode=False)
    except BudgetExceededError as error:
        if error.partial is not None:
            from longread.cli.display import print_answer

            print_answer(error.partial, as_json="--json" in sys.argv)
        err_console.print(f"[red]error:[/] {error}", highlight=False, soft_wrap=True)
        sys.exit(error.exit_code)
    except LongreadError as error:
        err_console.print(f"[red]error:[/] {error}", highlight=False, soft_wrap=True)
        sys.exit(error.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        err_console.print("[red]interrupted[/]")
        sys.exit(130)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except Exception as error:  # click usage errors and the like
        import click

        if isinstance(error, click.ClickException):
            error.show()
            sys.exit(error.exit_code)
        raise
