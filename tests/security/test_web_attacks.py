"""Attacks through the real `longread serve`: model code after the server's --token and API key,
and a client that leaves while a cell runs. The server is a subprocess on 127.0.0.1; its root
model is the scripted OpenAI-compatible server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cli import LONGREAD
from fake_openai import fake_openai
from longread.llm.scripted import ScriptedLM
from longread.web.hosts import allowed_hosts
from security.harness import GUARD_OFF, attempt
from security.test_cli_attacks import worker_pids
from webserver import scripted_app

TOKEN = "web-token-93b1f0e2"
API_KEY = "sk-web-secret-5c8a21"
TEXT = "The harbour master keeps the tide tables. " * 3000  # too long for `base`


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def served(tmp_path: Path, model_url: str) -> Iterator[str]:
    """`longread serve --token TOKEN` with the scripted root model; yields its base URL."""
    port = _free_port()
    env = {
        **os.environ,
        "OPENAI_API_KEY": API_KEY,
        "OPENAI_BASE_URL": model_url,
        "LONGREAD_CACHE_DIR": str(tmp_path / "cache"),
        "TMPDIR": str(tmp_path),  # (its REPLs' folders: the test's own)
    }
    server = subprocess.Popen(
        [LONGREAD, "serve", "--port", str(port), "--token", TOKEN, "--model", "openai:scripted"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                call(base, "GET", "/api/config")
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(
                        "the server did not start: " + server.stderr.read().decode()
                    ) from None
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(10)


def call(base: str, method: str, route: str, payload: dict | None = None, timeout: float = 60):
    request = urllib.request.Request(
        base + route,
        method=method,
        data=json.dumps(payload).encode() if payload else None,
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
    )
    return urllib.request.urlopen(request, timeout=timeout)


def upload(base: str) -> str:
    boundary = "longreadboundary"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="text"\r\n\r\n{TEXT}\r\n'
        f"--{boundary}--\r\n"
    ).encode()
    request = urllib.request.Request(
        base + "/api/parse",
        data=body,
        method="POST",
        headers={
            "Authorization": f"Bearer {TOKEN}",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
        },
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)["documents"][0]["id"]


STEAL = (
    GUARD_OFF
    + "found = []\nprint(len(context))\n"
    + "".join(
        attempt(action, report="found.append")
        for action in (
            "found.append(open(f'/proc/{os.getppid()}/cmdline', 'rb').read())",
            (
                "fd = os.open('/proc', os.O_PATH)\n"
                "found.append(os.read(os.open(f'{os.getppid()}/cmdline', 0, dir_fd=fd), 9999))"
            ),
            (
                "import glob\nread = [open(p, 'rb').read() for p in glob.glob('/proc/*/cmdline')]\n"
                "assert read\nfound += read"
            ),
            "found.append(open(f'/proc/{os.getppid()}/environ', 'rb').read())",
            "found.append(subprocess.run(['ps', 'aux'], capture_output=True).stdout)",
        )
    )
    + "FINAL(' | '.join(str(f)[:2000] for f in found))"
)


def test_model_code_cannot_read_the_servers_token_or_key(mode, tmp_path):
    with fake_openai([f"```repl\n{STEAL}\n```"]) as model, served(tmp_path, model.url) as base:
        doc = upload(base)
        with call(
            base, "POST", "/api/analyze", {"question": "q", "mode": "rlm", "document_ids": [doc]}
        ) as r:
            body = r.read().decode()
    answer = json.loads(body)["answer"]
    assert answer.count("BLOCKED") == 5 and "ESCAPED" not in answer, answer
    assert TOKEN not in body and API_KEY not in body


def test_a_client_that_leaves_stops_its_cell_at_once(mode, tmp_path):
    spin = "```repl\nprint(len(context))\nwhile True:\n    pass\n```"
    with fake_openai([spin]) as model, served(tmp_path, model.url) as base:
        stream = _analysis_stream(base)
        _wait_for(lambda: bool(worker_pids(tmp_path) and model.requests))
        time.sleep(0.5)  # the cell is spinning
        assert worker_pids(tmp_path)
        assert _seconds_to_stop(stream, tmp_path) < 3


def _analysis_stream(base: str):
    """An rlm analysis of a fresh upload, over the event stream (left open)."""
    doc = upload(base)
    return call(
        base, "POST", "/api/analyze-stream", {"question": "q", "mode": "rlm", "document_ids": [doc]}
    )


def _wait_for(condition, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.1)


def _seconds_to_stop(stream, own: Path) -> float:
    """Close the stream (the client leaves); the seconds until no REPL worker of the test's is
    left (asserted to be none within 10 s)."""
    stream.close()
    left = time.monotonic()
    while worker_pids(own) and time.monotonic() - left < 10:
        time.sleep(0.05)
    assert not worker_pids(own)
    return time.monotonic() - left


def test_a_client_that_leaves_mid_tool_call_stops_the_call_and_its_worker_within_a_second(
    tmp_path,
):
    """The cell waits in a sub-model call that would take a minute: the client leaving ends the
    host's wait for it and the worker at once (the reply, if it ever comes, is dropped). (The
    host's doing, whatever confines the worker: one isolation set-up is enough.)"""
    asked = "```repl\nprint(len(context))\nanswer = llm_query('Who keeps the light?')\n```"

    released = threading.Event()

    def slow(messages: list) -> str:
        released.wait(60)  # (the host should stop waiting long before)
        return "the keeper"

    with fake_openai([asked, slow]) as model, served(tmp_path, model.url) as base:
        try:
            stream = _analysis_stream(base)
            _wait_for(lambda: len(model.requests) >= 2)
            time.sleep(0.5)  # (the sub-call is waiting)
            assert worker_pids(tmp_path) and len(model.requests) == 2
            assert _seconds_to_stop(stream, tmp_path) < 1
        finally:
            released.set()  # (the model server, closing, waits for its reply)


@pytest.mark.parametrize(
    ("origin", "status"),
    [
        ("http://127.0.0.1:9999", 403),  # (another program's page on this machine)
        ("http://localhost:8001", 403),
        ("http://127.0.0.1", 403),  # (port 80)
        ("https://127.0.0.1:8000", 403),  # (another scheme: another origin)
        ("http://127.0.0.1:8000", 200),  # (the server's own page)
        ("http://localhost:8000", 200),
    ],
)
def test_a_page_on_another_local_port_cannot_change_anything(tmp_path, origin, status):
    """An Origin is the server's own only with its host name and its port: a page served by
    another local program (a dev server on :9999) is another site."""
    app = scripted_app(tmp_path, ScriptedLM(["x"]), hosts=allowed_hosts("127.0.0.1"))
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    upload = {"files": ("n.txt", b"The harbour opens at dawn.", "text/plain")}
    sent = client.post("/api/parse", files=upload, headers={"origin": origin})
    assert sent.status_code == status, sent.text
