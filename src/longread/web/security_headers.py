"""The headers every response carries: no content sniffing, and on the page itself (and its
static files) a policy that lets it run only its own script and style."""

from __future__ import annotations

from typing import Any

# The page runs only its own script and style: no inline code, nothing from elsewhere.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)


class SecurityHeaders:
    """ASGI middleware adding the headers as each response starts (a plain ASGI wrapper: no task
    or buffered response per request, so it costs next to nothing under load)."""

    def __init__(self, app: Any):
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        added = [(b"x-content-type-options", b"nosniff")]
        if path == "/" or path.startswith("/static/"):  # (not /docs: Swagger UI loads scripts)
            added.append((b"content-security-policy", CSP.encode()))

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", ()), *added]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
