"""A cap on request bodies (uploads): a larger declared or streamed body gets 413."""

from __future__ import annotations

import json
from typing import Any

from fastapi import HTTPException

Scope = dict[str, Any]


class BodyLimit:
    """ASGI middleware: 413 for a body over `max_bytes`, whether its Content-Length says so up
    front or it turns out larger while streaming."""

    def __init__(self, app: Any, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if declared.isdigit() and int(declared) > self.max_bytes:
            await _too_large(send, self.max_bytes)
            return
        received = 0

        async def counted() -> dict[str, Any]:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > self.max_bytes:
                raise HTTPException(413, _message(self.max_bytes))
            return message

        await self.app(scope, counted, send)


def _message(max_bytes: int) -> str:
    return f"the upload is larger than the server's limit of {max_bytes / 1024 / 1024:g} MB"


async def _too_large(send: Any, max_bytes: int) -> None:
    body = json.dumps({"detail": _message(max_bytes)}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
