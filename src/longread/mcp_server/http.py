"""`longread mcp --http`: the MCP endpoint (`/mcp`) over streamable HTTP, behind the checks of
`longread serve`: a `Host` the server answers to, and a bearer token when one is set."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from mcp.server.mcpserver import MCPServer

from longread.web.hosts import HostCheck, Receive, Scope, Send, allowed_hosts, refuse


class BearerCheck:
    """ASGI middleware: 401 for an HTTP request without `Authorization: Bearer <token>`."""

    def __init__(self, app: Any, token: str):
        self.app = app
        self.token = token.encode()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v for k, v in scope["headers"]}
            scheme, _, given = headers.get("authorization", b"").partition(b" ")
            if scheme.lower() != b"bearer" or not secrets.compare_digest(given.strip(), self.token):
                return await refuse(send, 401, "missing or wrong bearer token")
        await self.app(scope, receive, send)


def http_app(server: MCPServer, host: str, token: str | None, extra_hosts: Iterable[str]) -> Any:
    """The server's streamable-HTTP app, guarded."""
    app: Any = server.streamable_http_app(host=host)
    if token:
        app = BearerCheck(app, token)
    hosts = allowed_hosts(host, extra_hosts)
    return app if hosts is None else HostCheck(app, hosts)
