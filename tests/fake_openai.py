"""A scripted OpenAI-compatible chat server on 127.0.0.1, for tests that drive the real CLI or web
app through the real OpenAI client: each chat completion is answered with the next scripted reply
(or a function of the request's messages), and every request is recorded."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

Reply = str | Callable[[list[dict[str, Any]]], str]
_PIECE = re.compile(r"\w+|[^\w\s]")  # a word or a punctuation mark: a test server's "token"


class Refusal(Exception):
    """Raised by a reply function: the server answers with this HTTP status instead (and a
    Retry-After of so many seconds, if given)."""

    def __init__(self, status: int = 400, retry_after: float | None = None):
        super().__init__(f"refused with {status}")
        self.status = status
        self.retry_after = retry_after


@dataclass
class FakeOpenAI:
    url: str
    replies: list[Reply]
    last: str = "```repl\nFINAL('out of script')\n```"
    requests: list[dict[str, Any]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    callers: list[str] | None = None  # the title of each request's sending process, if kept
    count: Callable[[str], int] = lambda text: len(_PIECE.findall(text))  # the server's tokens

    def answer(self, body: dict[str, Any]) -> str:
        reply = self.replies.pop(0) if self.replies else self.last
        return reply(body["messages"]) if callable(reply) else reply


def _handler(server: FakeOpenAI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # (connections kept alive, as a real server keeps them)

        def log_message(self, *args: object) -> None:
            pass

        def _send(
            self, status: int, payload: dict[str, Any], retry_after: float | None = None
        ) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            if retry_after is not None:
                self.send_header("Retry-After", str(retry_after))
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 - the stdlib's name
            self._send(200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]})

        def do_POST(self) -> None:  # noqa: N802
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            server.requests.append(body)
            if server.callers is not None:
                server.callers.append(process_on_port(self.client_address[1]))
            server.headers.append({k.lower(): v for k, v in self.headers.items()})
            try:
                text = server.answer(body)
            except Refusal as refusal:
                self._send(
                    refusal.status,
                    {"error": {"message": str(refusal), "type": "invalid_request_error"}},
                    refusal.retry_after,
                )
                return
            self._send(
                200,
                {
                    "id": "x",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body.get("model"),
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "message": {"role": "assistant", "content": text},
                        }
                    ],
                    "usage": usage(body["messages"], text, server.count),
                },
            )

    return Handler


def usage(
    messages: list[dict[str, Any]], reply: str, count: Callable[[str], int]
) -> dict[str, int]:
    """Token counts as a provider reports them, by the server's own count (not the client's)."""
    prompt = sum(count(str(m.get("content", ""))) + 3 for m in messages)
    completion = count(reply)
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def process_on_port(port: int) -> str:
    """The command line (title) of the process holding this machine's TCP socket on `port`, from
    /proc ("" if it cannot be found)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table, encoding="ascii") as rows:
            for row in list(rows)[1:]:
                fields = row.split()
                if int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(f"socket:[{fields[9]}]")
    for process in Path("/proc").iterdir():
        if not process.name.isdigit():
            continue
        try:
            if any(os.readlink(fd) in inodes for fd in (process / "fd").iterdir()):
                return (process / "cmdline").read_bytes().split(b"\0")[0].decode()
        except OSError:
            continue
    return ""


class _Server(ThreadingHTTPServer):
    """Serves each connection on a thread; closing it ends every kept-alive connection and waits
    for their threads (a thread left waiting on a client's idle connection would outlive its
    test)."""

    daemon_threads = False
    block_on_close = True

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self._connections: set[socket.socket] = set()

    def process_request(self, request: Any, client_address: Any) -> None:
        self._connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        self._connections.discard(request)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):  # (a client killed mid-request)
            super().handle_error(request, client_address)

    def server_close(self) -> None:
        for connection in list(self._connections):
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)
        super().server_close()


@contextmanager
def fake_openai(replies: Sequence[Reply] = ()) -> Iterator[FakeOpenAI]:
    """Serve the scripted replies on a free port of 127.0.0.1 until the block ends."""
    state = FakeOpenAI(url="", replies=list(replies))
    httpd = _Server(("127.0.0.1", 0), _handler(state))
    state.url = f"http://127.0.0.1:{httpd.server_address[1]}/v1"
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield state
    finally:
        httpd.shutdown()
        httpd.server_close()
