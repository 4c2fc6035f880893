"""Every command's `--help`, as the command-line reference (docs/cli.md) shows it: written there
by cog (`cog -r docs/cli.md`) and checked against the code by `make lint` (`cog --check`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import typer.main

WIDTH = 100  # (the help is wrapped to this, whatever the terminal)


def _commands(command: Any, context: Any) -> Iterator[tuple[Any, Any]]:
    """(its context, the command) of every command below `command` (typer's click commands), in
    the order `--help` lists them, a group before its commands."""
    for name in command.list_commands(context) if _is_group(command) else ():
        sub = command.get_command(context, name)
        if sub is None or sub.hidden:
            continue
        inner = sub.context_class(sub, info_name=name, parent=context, terminal_width=WIDTH)
        yield inner, sub
        yield from _commands(sub, inner)


def _is_group(command: Any) -> bool:
    return hasattr(command, "list_commands")


def reference() -> str:
    """Markdown: a heading and a `--help` block for each command."""
    from longread.cli import load_commands
    from longread.cli.app import app

    load_commands()
    root = typer.main.get_command(app)
    top = root.context_class(root, info_name="longread", terminal_width=WIDTH)
    parts = []
    for context, command in _commands(root, top):
        if _is_group(command):
            continue
        parts.append(
            f"### `{context.command_path}`\n\n```text\n{command.get_help(context).rstrip()}\n```\n"
        )
    return "\n".join(parts)
