"""`longread chat PATH`: question after question about one document or folder, and
`longread sessions ls|rm` for the conversations saved with `--session NAME`."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from longread.cli import run_options as o
from longread.cli.app import app
from longread.cli.ask import SOURCE, open_to_ask
from longread.cli.display import ProgressLine, console, err_console, print_answer
from longread.errors import BudgetExceededError, LongreadError
from longread.text.terminal import for_terminal, json_for_terminal

if TYPE_CHECKING:
    from longread.api import AskSettings
    from longread.api.session import Session

ENDS = {"exit", "quit", ":q"}
sessions_app = typer.Typer(no_args_is_help=True, help="List or remove saved conversations.")
app.add_typer(sessions_app, name="sessions")


@app.command()
@o.asking
def chat(
    path: Path = SOURCE,
    *,
    session: str | None = typer.Option(
        None,
        "--session",
        help="Save the conversation under this name as it goes; if one by that name exists "
        "(about the same file or folder), resume it.",
    ),
    settings: AskSettings,
    json_out: bool = o.JSON_OUT,
    quiet: bool = o.QUIET,
    executor: str | None = o.EXECUTOR,
) -> None:
    """Answer question after question about PATH (a file or a folder of documents), one per
    line of input, until an empty input, `exit` or end of input. A follow-up that earlier
    answers' passages hold is answered from them; the rlm loop keeps its REPL and variables."""
    from longread.executor import make_executor

    progress = ProgressLine(enabled=not (quiet or json_out))
    with make_executor(executor) as runner:
        with progress:
            asker = open_to_ask(path, settings.changed(executor=runner), progress)
        with asker, asker.session(session) as talk:
            if talk.turns and not json_out:
                console.print(
                    f"[dim]resumed {escape(session or '')}: {len(talk.turns)} earlier "
                    f"questions, the last: {escape(for_terminal(talk.turns[-1].question))}[/]",
                    highlight=False,
                )
            for question in questions():
                answer_one(talk, question, progress, json_out)


def questions() -> Iterator[str]:
    """Lines of input (prompted at a terminal) until an empty one, `exit` or the end."""
    prompt = "? " if sys.stdin.isatty() else ""
    while True:
        try:
            line = input(prompt).strip()
        except EOFError:
            return
        if not line or line.lower() in ENDS:
            return
        yield line


def answer_one(talk: Session, question: str, progress: ProgressLine, json_out: bool) -> None:
    """Answer one question of the conversation; an error ends the question, not the chat."""
    try:
        with progress:
            answer = talk.ask(question)
    except BudgetExceededError as error:
        if error.partial is not None:
            print_answer(error.partial, json_out)
        err_console.print(f"[red]error:[/] {escape(str(error))}", highlight=False)
        return
    except LongreadError as error:
        err_console.print(f"[red]error:[/] {escape(str(error))}", highlight=False)
        return
    print_answer(answer, json_out)


@sessions_app.command("ls")
def sessions_ls(json_out: bool = typer.Option(False, "--json", help="Print JSON.")) -> None:
    """List the saved conversations, newest first: name, questions, what they are about."""
    from longread.store.sessions import SessionStore

    store = SessionStore()
    saved = [s for s in (store.load(name) for name in store.names()) if s is not None]
    if json_out:
        rows = [
            {k: v for k, v in s.to_dict().items() if k != "turns"} | {"questions": len(s.turns)}
            for s in saved
        ]
        sys.stdout.write(json_for_terminal(json.dumps(rows, ensure_ascii=False, indent=2)) + "\n")
        return
    if not saved:
        console.print(f"no saved sessions (in {escape(str(store.folder))})", highlight=False)
    for s in saved:
        last = s.turns[-1][0] if s.turns else ""
        console.print(
            f"{escape(s.name)}  {len(s.turns)} questions · {s.kind} {escape(s.source)} · "
            f"{s.updated}" + (f"\n    last: {escape(for_terminal(last))}" if last else ""),
            highlight=False,
        )


@sessions_app.command("rm")
def sessions_rm(names: list[str] = typer.Argument(..., help="The sessions to remove.")) -> None:
    """Remove saved conversations."""
    from longread.errors import InputError
    from longread.store.sessions import SessionStore

    store = SessionStore()
    missing = [name for name in names if not store.remove(name)]
    if missing:
        raise InputError(f"no saved session named {', '.join(missing)}")
