"""The server killed mid-analysis, for bench/faults.py: `longread serve` (a subprocess in a session
of its own, its TMPDIR a folder of the trial's own, its root model the tests' scripted
OpenAI-compatible server) asked for an rlm analysis of an indexed folder, whose code opens every
document's sections (built into the index the first time) and ranks the documents; killed with
SIGKILL at a random moment of a clean analysis's wall time, then started again on the same
files."""

from __future__ import annotations

import http.client
import json
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from fault_checks import LONGREAD, Trials, environment, leftovers, outlived, reset, sound

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from fake_openai import fake_openai  # noqa: E402 - (the tests folder is on the path)

CODE = """```repl
found = []
for doc_id in doc_ids:
    names = get_doc_sections(doc_id)
    last = len(read_doc_section(doc_id, names[-1])) if names else 0
    found.append(f"{doc_id}: {len(names)} sections ({sum(map(len, names))} characters of names)"
                 f", the last of {last} characters")
found.append(f"ranked: {[d for d, _, _ in rank_documents('harbour master ship', 3)]}")
FINAL("; ".join(found))
```"""
RUN_FOLDER = "longread-repl-{pid}-"  # (a REPL's run folder, named after the server that made it)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start(cache: Path, tmp: Path, model_url: str) -> tuple[subprocess.Popen, int]:
    """`longread serve` on the cache, once it answers: (its process, its port)."""
    port = free_port()
    env = environment(
        cache,
        TMPDIR=str(tmp),
        LONGREAD_DATA_DIR=str(cache.parent / f"{cache.name}-data"),
        OPENAI_BASE_URL=model_url,
        OPENAI_API_KEY="sk-test",
    )
    log = cache.parent / f"{cache.name}.log"  # (a file: a pipe would wait on what outlives it)
    with log.open("wb") as written:
        server = subprocess.Popen(
            [LONGREAD, "serve", "--port", str(port), "--model", "openai:scripted"],
            env=env,
            stdout=written,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # (its group: what it started, counted if it outlives it)
        )
    deadline = time.monotonic() + 60
    while True:
        try:
            status, _ = call(port, "GET", "/api/config", timeout=5)
            if status == 200:
                return server, port
        except OSError:
            pass
        if time.monotonic() > deadline or server.poll() is not None:
            server.kill()
            server.wait()
            raise RuntimeError("the server did not start: " + log.read_text(errors="replace"))
        time.sleep(0.1)


def stop(server: subprocess.Popen) -> None:
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def send(port: int, method: str, route: str, body: dict | None, timeout: float):
    """The request sent (its answer not read yet): the connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    payload = json.dumps(body) if body is not None else None
    connection.request(method, route, payload, {"Content-Type": "application/json"})
    return connection


def call(port: int, method: str, route: str, body: dict | None = None, timeout: float = 120):
    """(status, the JSON answer) of a request."""
    connection = send(port, method, route, body, timeout)
    try:
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"null")
    finally:
        connection.close()


def analysis(doc_id: str) -> dict:
    return {"question": "Where is the harbour master?", "mode": "rlm", "document_ids": [doc_id]}


def answer(port: int, doc_id: str) -> str | None:
    """The analysis's answer, or None if it was not a 200 with one."""
    status, body = call(port, "POST", "/api/analyze", analysis(doc_id))
    if status != 200 or not isinstance(body, dict):
        return None
    return body.get("answer") or None


def reference(indexed: Path, scratch: Path, model_url: str) -> tuple[str, str, float]:
    """(the folder's id on the server, a fresh server's answer, seconds its analysis took)."""
    cache = reset(scratch / "served", indexed)
    server, port = start(cache, reset(scratch / "served-tmp"), model_url)
    try:
        _, listed = call(port, "GET", "/api/documents")
        [doc_id] = [d["id"] for d in listed["documents"] if d["kind"] == "corpus"]
        started = time.monotonic()
        expected = answer(port, doc_id)
        seconds = time.monotonic() - started
    finally:
        stop(server)
    assert expected, "a fresh server gave no answer"
    return doc_id, expected, seconds


def kills(indexed: Path, scratch: Path, times: int, chance: random.Random) -> Trials:
    """SIGKILL the server mid-analysis, from the index in `indexed` (copied) each time."""
    with fake_openai() as model:
        model.last = CODE
        doc_id, expected, seconds = reference(indexed, scratch, model.url)
        trials, busy = Trials(""), 0
        for _ in range(times):
            outcome, working = trial(
                indexed, scratch, model.url, (doc_id, expected, seconds), chance
            )
            trials.outcomes[outcome] += 1
            busy += working
    trials.name = (
        f"SIGKILL of `longread serve` during an rlm analysis of an indexed folder ({seconds:.1f} s "
        f"clean; a REPL worker was running at {busy} of the kills)"
    )
    return trials


def trial(
    indexed: Path, scratch: Path, url: str, clean: tuple[str, str, float], chance: random.Random
) -> tuple[str, bool]:
    """One server killed mid-analysis and started again: what it left, how the next answered;
    and whether a REPL worker (a process working in its TMPDIR) was running when it was killed."""
    doc_id, expected, seconds = clean
    cache, tmp = reset(scratch / "served", indexed), reset(scratch / "served-tmp")
    killed, port = start(cache, tmp, url)
    pending = send(port, "POST", "/api/analyze", analysis(doc_id), 120)
    time.sleep(chance.uniform(0.05, seconds))
    working = bool(leftovers(-1, tmp))  # (no group is -1: those working in its TMPDIR)
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    pending.close()
    left = outlived(killed.pid, tmp)
    outcome = checked(killed.pid, cache, tmp, url, clean)
    return (f"a process of it lived on (then: {outcome})" if left else outcome), working


def checked(pid: int, cache: Path, tmp: Path, url: str, clean: tuple[str, str, float]) -> str:
    """What the server killed (`pid`) left, and how a server started again on its files does."""
    doc_id, expected, _ = clean
    if not sound(cache):
        return "left a file failing the integrity check"
    again, port = start(cache, tmp, url)
    try:
        answered = answer(port, doc_id)
        kept = [p.name for p in tmp.glob(RUN_FOLDER.format(pid=pid) + "*")]
    finally:
        stop(again)
    if answered is None:
        return "the server started again gave no answer"
    if answered != expected:
        return "the server started again answered otherwise than a fresh one"
    if kept:
        return "left the killed server's run folders"
    if outlived(again.pid, tmp) or any(tmp.iterdir()):
        return "the server started again, stopped, left a process or file"
    return "answered as fresh, nothing left"
