"""The `longread` command."""

from __future__ import annotations

import signal
import sys
from typing import Any, NoReturn, cast

import typer
from rich.markup import escape

from longread.cli.display import err_console
from longread.errors import BudgetExceededError, LongreadError


def main() -> None:
    """Entry point: runs the app; errors a user can cause become one line and a non-zero exit."""
    from longread.cli import ask, corpus, doctor, index, repl, serve  # noqa: F401 - registers the commands
    from longread.cli.app import app

    for stop in (
        signal.SIGTERM,
        signal.SIGHUP,
    ):  # end as an exception does: sandboxes close, folders go
        signal.signal(stop, _terminated)
    try:
        app(standalone_mode=False)
    except BudgetExceededError as error:
        if error.partial is not None:
            from longread.cli.display import print_answer

            print_answer(error.partial, as_json="--json" in sys.argv)
        _fail(str(error), error.exit_code)
    except LongreadError as error:
        _fail(str(error), error.exit_code)
    except (typer.Abort, KeyboardInterrupt):
        err_console.print("[red]interrupted[/]")
        sys.exit(130)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except Exception as error:
        if not isinstance(error, _usage_errors()):
            raise
        if (
            type(error).__name__ == "NoArgsIsHelpError"
        ):  # `longread` or `longread corpus` alone: typer
            sys.exit(0)  # has printed the help (through rich, as for --help), which is no error
        usage = cast(Any, error)  # click's (or typer's) ClickException
        _fail(usage.format_message(), usage.exit_code)  # a usage error: exit code 2


def _terminated(signum: int, frame: object) -> NoReturn:
    raise SystemExit(128 + signum)


def _usage_errors() -> tuple[type[Exception], ...]:
    """What a bad command line raises: typer's own exceptions (recent typer carries its own copy of
    click) or, with an older typer, click's."""
    import click

    return (click.ClickException, getattr(typer, "TyperException", click.ClickException))


def _fail(message: str, exit_code: int) -> NoReturn:
    """Print `error: message` as one line on stderr (as given: no markup, no wrapping) and exit."""
    err_console.print(
        f"[red]error:[/] {escape(' '.join(message.split()))}", highlight=False, soft_wrap=True
    )
    sys.exit(exit_code)
