"""A server no web page and no idle client can hold hostage: requests for another host name are
refused (DNS rebinding), so are state-changing requests from another site; connections that never
finish their headers are closed; one client holds a bounded number of connections; the log is
rate-limited and carries no traceback for a client's fault."""

from __future__ import annotations

import logging
import socket
import time

import pytest
from fastapi.testclient import TestClient

from longread.llm.scripted import ScriptedLM
from longread.web import serving as bounds
from longread.web.hosts import allowed_hosts, host_of
from webserver import scripted_app, serving


def test_the_names_a_server_answers_to():
    assert allowed_hosts("127.0.0.1") == {"127.0.0.1", "localhost", "::1"}
    assert allowed_hosts("192.168.1.5", ["notes.lan"]) == {"192.168.1.5", "notes.lan"}
    assert allowed_hosts("0.0.0.0") is None and allowed_hosts("0.0.0.0", ["a.lan"]) == {"a.lan"}
    assert host_of("127.0.0.1:8000") == "127.0.0.1" and host_of("[::1]:80") == "::1"
    assert host_of("http://Evil.Example:8000") == "evil.example"


def test_a_rebound_name_and_another_site_s_form_are_refused(tmp_path):
    app = scripted_app(tmp_path, ScriptedLM(["x"]), hosts=allowed_hosts("127.0.0.1"))
    client = TestClient(app, base_url="http://127.0.0.1:8000")
    assert client.get("/api/config").status_code == 200
    assert client.get("/api/config", headers={"host": "localhost:8000"}).status_code == 200
    rebound = client.get("/api/documents", headers={"host": "attacker.example:8000"})
    assert rebound.status_code == 421 and "host name" in rebound.json()["detail"]
    upload = {"files": ("n.txt", b"The harbour opens at dawn.", "text/plain")}
    foreign = client.post("/api/parse", files=upload, headers={"origin": "http://attacker.example"})
    assert foreign.status_code == 403
    own = client.post("/api/parse", files=upload, headers={"origin": "http://127.0.0.1:8000"})
    assert own.status_code == 200, own.text
    assert client.post("/api/parse", files=upload).status_code == 200  # (no Origin: a script)


def _connect(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    return socket.create_connection((host, int(port)), timeout=10)


def _closed(sock: socket.socket, within: float) -> bool:
    """Whether the server closes the connection within `within` seconds."""
    sock.settimeout(within)
    try:
        return sock.recv(1024) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


def _response(sock: socket.socket) -> bytes:
    """One whole response of `_app` (chunked: it ends with the empty chunk)."""
    got = b""
    while not got.endswith(b"0\r\n\r\n"):
        more = sock.recv(1024)
        if not more:
            break
        got += more
    return got


async def _app(scope, receive, send):  # a trivial ASGI app
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"ok"})


def test_headers_that_never_end_and_a_client_s_many_connections_are_cut(monkeypatch):
    monkeypatch.setattr(bounds, "HEADER_SECONDS", 1.0)
    monkeypatch.setattr(bounds, "PER_CLIENT", 4)
    with serving(_app, http=bounds.BoundedH11) as base:
        slow = _connect(base)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        started = time.monotonic()
        assert _closed(slow, 5) and time.monotonic() - started < 3
        held = [_connect(base) for _ in range(4)]
        extra = _connect(base)
        assert _closed(extra, 2)  # the fifth from one address is closed at once
        for sock in held:
            sock.close()
        time.sleep(0.3)
        fine = _connect(base)
        fine.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        assert fine.recv(1024).startswith(b"HTTP/1.1 200")


def test_a_kept_alive_client_is_timed_from_its_last_response_only(monkeypatch):
    """Each response starts the wait for the next request's headers afresh: a client that pauses
    less than KEEP_ALIVE_SECONDS between requests keeps its connection (an older wait, started by
    an earlier response, must not close it mid-conversation)."""
    monkeypatch.setattr(bounds, "KEEP_ALIVE_SECONDS", 1.0)
    with serving(_app, http=bounds.BoundedH11) as base:
        sock = _connect(base)
        for _ in range(5):  # (0.6 s apart: the first response's wait ends inside the third pause)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            assert _response(sock).startswith(b"HTTP/1.1 200")
            time.sleep(0.6)
        assert _closed(sock, 3)  # (and an idle one is still closed)


def test_the_log_is_rate_limited_and_a_client_s_fault_has_no_traceback():
    limit = bounds.RateLimited()
    try:
        raise ValueError("bad request line")
    except ValueError:
        import sys

        failure = sys.exc_info()
    records = [
        logging.LogRecord("uvicorn.error", logging.WARNING, "", 0, "invalid", (), failure)
        for _ in range(500)
    ]
    passed = [r for r in records if limit.filter(r)]
    assert len(passed) == bounds.LOG_BURST and all(r.exc_info is None for r in passed)
    serious = logging.LogRecord("other", logging.ERROR, "", 0, "crash", (), failure)
    assert limit.filter(serious) and serious.exc_info is not None


@pytest.mark.parametrize("path", ["/api/documents", "/"])
def test_without_a_host_list_any_name_is_answered(tmp_path, path):
    client = TestClient(scripted_app(tmp_path, ScriptedLM(["x"])))
    assert client.get(path, headers={"host": "anything.example"}).status_code == 200


def test_every_response_forbids_sniffing_and_the_page_runs_only_its_own_code(tmp_path):
    client = TestClient(scripted_app(tmp_path, ScriptedLM(["x"])))
    page, api, missing = client.get("/"), client.get("/api/config"), client.get("/api/nothing")
    assert all(r.headers["x-content-type-options"] == "nosniff" for r in (page, api, missing))
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "content-security-policy" not in api.headers
    assert page.headers.get_list("x-content-type-options") == ["nosniff"]  # (once, not twice)
