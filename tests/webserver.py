"""Test helpers for the web app: an app around scripted models, a real uvicorn server on
127.0.0.1 (started and stopped by the test), and a Server-Sent Events reader."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import uvicorn

from longread.llm.scripted import ScriptedLM
from longread.web import create_app
from longread.web.settings import Settings


def scripted_app(tmp_path, root: ScriptedLM, sub: ScriptedLM | None = None, **settings):
    """The app with `root` (and `sub`) as its only models, no response cache, its own index
    folder."""
    models = {"scripted:root": root, "scripted:sub": sub or root}
    config = Settings(
        model="scripted:root",
        sub_model="scripted:sub",
        resolve=models.__getitem__,
        cache=False,
        index_dir=tmp_path / "indexes",
        token=None,
        **settings,
    )
    return create_app(config, model_choices=[])


@contextmanager
def serving(app, **config: Any) -> Iterator[str]:
    """Run `app` under uvicorn (with `config` too) on a free port of 127.0.0.1; yields its base
    URL."""
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", **config)
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def sse_events(lines: Iterator[str]) -> Iterator[tuple[str, dict]]:
    """(event, data) pairs from the lines of a text/event-stream response."""
    kind, data = "message", []
    for line in lines:
        line = line.rstrip("\r")
        if not line:
            if data:
                yield kind, json.loads("\n".join(data))
            kind, data = "message", []
        elif line.startswith("event:"):
            kind = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())


def post(url: str, payload: dict[str, Any]) -> Any:
    """POST JSON to a live server; the response, open (use as a context manager)."""
    request = urllib.request.Request(
        url, data=json.dumps(payload).encode(), headers={"Content-Type": "application/json"}
    )
    return urllib.request.urlopen(request, timeout=30)


def response_lines(response: Any) -> Iterator[str]:
    for raw in response:
        yield raw.decode("utf-8").rstrip("\n")
