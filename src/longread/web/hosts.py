"""Requests only for the names the server answers to: a `Host` header naming another is refused
(a web page whose name was rebound to 127.0.0.1 cannot drive the server), and so is a
state-changing request whose `Origin` is not the server's own: another site, or another port of
this machine (a cross-site form, another local program's page, cannot upload)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

LOOPBACK = ("127.0.0.1", "localhost", "::1")
WILDCARD = ("0.0.0.0", "::", "")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
DEFAULT_PORTS = {"http": 80, "https": 443}

Scope = dict[str, Any]
Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def allowed_hosts(bound: str, extra: Iterable[str] = ()) -> frozenset[str] | None:
    """The names a server bound to `bound` answers to: the loopback names for a loopback
    address, else the address itself, and `extra` (`--allow-host`); None (any) for a server
    bound to every address with no name given."""
    extra = {name.lower().strip("[]") for name in extra}
    if bound in WILDCARD:
        return frozenset(extra) or None
    own = set(LOOPBACK) if bound in LOOPBACK else {bound.lower().strip("[]")}
    return frozenset(own | extra)


def host_of(value: str) -> str | None:
    """The host name of a `Host` header or an `Origin` (without port, brackets or case)."""
    try:
        return urlsplit(value if "//" in value else f"//{value}").hostname
    except ValueError:
        return None


def same_origin(origin: str, host: str, scheme: str, hosts: frozenset[str]) -> bool:
    """Whether a page of `origin` is the server's own: a name it answers to, and the scheme and
    port the request came in by (its `Host`)."""
    try:
        page, own = urlsplit(origin), urlsplit(f"//{host}")
        ports = (page.port or DEFAULT_PORTS.get(page.scheme), own.port or DEFAULT_PORTS[scheme])
    except (ValueError, KeyError):
        return False
    return page.scheme == scheme and page.hostname in hosts and ports[0] == ports[1]


class HostCheck:
    """ASGI middleware: 421 for a `Host` the server does not answer to; 403 for a request that
    changes state sent from a page of another origin (another host name, scheme or port)."""

    def __init__(self, app: Any, hosts: frozenset[str]):
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
            if host_of(headers.get("host", "")) not in self.hosts:
                return await refuse(send, 421, "this server does not answer to that host name")
            origin = headers.get("origin")
            changes = scope.get("method", "GET") not in SAFE_METHODS
            own = origin is None or same_origin(
                origin, headers.get("host", ""), scope.get("scheme", "http"), self.hosts
            )
            if changes and not own:
                return await refuse(send, 403, "a request from another site is refused")
        await self.app(scope, receive, send)


async def refuse(send: Send, status: int, reason: str) -> None:
    body = f'{{"detail": "{reason}"}}'.encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", b"%d" % len(body)),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
