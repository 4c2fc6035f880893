"""`longread mcp [PATH...]`: longread's verbs as an MCP server, for agents and editors."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.markup import escape

from longread.cli import run_options as o
from longread.cli.app import app
from longread.cli.display import err_console
from longread.cli.serve import ALLOW_HOST, HOST, TOKEN, warn_if_open

if TYPE_CHECKING:  # (the library loads when a command runs, not for --help)
    from longread.api import AskSettings


@app.command()
@o.asking
def mcp(
    paths: list[Path] = typer.Argument(
        None,
        metavar="PATH",
        help="The files and folders the server reads (default: the current folder); a tool's "
        "relative path is taken from the first.",
    ),
    *,
    settings: AskSettings,
    http: bool = typer.Option(
        False, "--http", help="Serve streamable HTTP at /mcp instead of standard input/output."
    ),
    host: str = HOST,
    port: int = typer.Option(8765, min=0, max=65535, help="Port to listen on (--http)."),
    token: str | None = TOKEN,
    allow_host: list[str] = ALLOW_HOST,
) -> None:
    """Serve longread over the Model Context Protocol: tools ask, estimate, search, read, outline
    and records on PATHs, each indexed on first use; PATHs as resources. Standard input/output by
    default (what Claude Desktop, Claude Code, Cursor and Codex start); --http for a server."""
    from longread.mcp_server.server import make_server
    from longread.mcp_server.verbs import Roots

    server = make_server(Roots.of(paths or []), settings)
    if not http:
        server.run("stdio")
        return
    from longread.mcp_server.http import http_app
    from longread.web.serving import serve_app

    warn_if_open(host, token)
    err_console.print(f"longread: MCP on http://{escape(host)}:{port}/mcp", highlight=False)
    serve_app(http_app(server, host, token, allow_host), host, port)
