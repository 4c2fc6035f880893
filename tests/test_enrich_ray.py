"""Document metadata read by Ray tasks from a scripted OpenAI-compatible server on 127.0.0.1 that
answers some requests 429 and 503 first: a worker killed while its call is held loses no saved
result, and no call whose reply came back is paid twice (the server counts replies per
document); every document ends with the model's metadata. Without Ray, a document whose calls
keep failing is reported and read on the next build."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from fake_openai import Refusal, fake_openai
from longread.api import MultiDocRLM
from longread.llm.limits import Limits
from longread.llm.specs import ClientOptions

DOCS = 12
HELD = "n05.txt"  # the request held while its worker is killed


def notes(root: Path) -> Path:
    root.mkdir()
    for n in range(DOCS):
        (root / f"n{n:02d}.txt").write_text(
            f"Harbour note {n}\n\nThe crane on pier {n} lifted timber and salt for the keeper.\n",
            encoding="utf-8",
        )
    return root


def metadata(name: str) -> str:
    return json.dumps(
        {
            "title": f"Harbour note {name}",
            "summary": "The crane on the pier lifted timber and salt for the keeper.",
            "keywords": ["crane", "timber"],
            "entities": [],
            "doc_type": "note",
        }
    )


def asked_about(messages: list[dict]) -> str:
    return re.search(r"^File: (\S+)", messages[-1]["content"], re.M).group(1)


def ray_workers(task: str) -> list[int]:
    """Pids of the processes running the Ray task `task` (Ray titles them `ray::task`)."""
    pids = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "cmdline").read_bytes().startswith(
                f"ray::{task}".encode()
            ):
                pids.append(int(entry.name))
        except OSError:
            continue
    return pids


def cached_replies(cache: Path) -> int:
    try:
        with sqlite3.connect(f"file:{cache}?mode=ro", uri=True) as db:
            return db.execute("SELECT count(*) FROM responses").fetchone()[0]
    except sqlite3.OperationalError:
        return 0


@pytest.mark.ray
def test_a_killed_worker_loses_no_saved_metadata_and_pays_no_call_twice(tmp_path, monkeypatch):
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'longread[ray]')")
    from longread.executor import RayExecutor

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("LONGREAD_CACHE_DIR", str(tmp_path / "cache"))
    cache = tmp_path / "cache" / "responses.sqlite"
    paid: Counter[str] = Counter()
    asked: Counter[str] = Counter()
    killed, held = threading.Event(), threading.Event()
    lock = threading.Lock()

    def reply(messages: list[dict]) -> str:
        name = asked_about(messages)
        with lock:
            asked[name] += 1
            attempt = asked[name]
        if name == "n01.txt" and attempt == 1:
            raise Refusal(429)
        if name == "n02.txt" and attempt <= 2:
            raise Refusal(503)
        if name == HELD and attempt == 1:
            held.set()
            killed.wait(60)  # (its worker is killed meanwhile: this reply reaches no one)
            raise Refusal(503)
        with lock:
            paid[name] += 1
        return metadata(name)

    with fake_openai([reply] * 100) as server:
        folder = notes(tmp_path / "notes")
        rlm = MultiDocRLM(
            folder,
            "openai:scripted",
            store_path=tmp_path / "c.sqlite",
            shards=2,
            client_options=ClientOptions(base_url=server.url),
        )
        rlm.build_index(llm_meta=False)
        victims: list[int] = []
        killer = threading.Thread(
            target=kill_when_held, args=(held, killed, cache, paid, lock, victims)
        )
        killer.start()
        with RayExecutor() as executor:
            report = rlm.build_index(
                llm_meta=True, executor=executor, limits=Limits(in_flight=1, lease_seconds=5)
            )
        killer.join()
    # (the worker holding the call was killed; on a loaded machine the other shard's worker,
    # waiting for its lease, may be running read_meta too and is killed with it)
    assert 1 <= len(victims) <= 2 and report.unread == {}
    assert sorted(paid) == [f"n{n:02d}.txt" for n in range(DOCS)]
    assert set(paid.values()) == {1}  # (no reply paid for twice)
    assert asked[HELD] == 2 and asked["n01.txt"] == 2 and asked["n02.txt"] == 3
    metas = [rlm.index.meta(f"n{n:02d}.txt") for n in range(DOCS)]
    assert {m.meta_source for m in metas} == {"openai:scripted"}
    assert all(m.doc_type == "note" for m in metas)


def kill_when_held(
    held: threading.Event,
    killed: threading.Event,
    cache: Path,
    paid: Counter,
    lock: threading.Lock,
    victims: list[int],
) -> None:
    """Once the held request arrives and every reply before it is in the response cache, kill
    the worker that sent it."""
    if not held.wait(120):
        killed.set()
        return
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        with lock:
            delivered = sum(paid.values())
        if cached_replies(cache) >= delivered:
            break
        time.sleep(0.05)
    for pid in ray_workers("read_meta"):
        os.kill(pid, signal.SIGKILL)
        victims.append(pid)
    killed.set()


def test_a_document_the_model_cannot_read_is_reported_and_read_next_time(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    monkeypatch.setenv("LONGREAD_CACHE_DIR", str(tmp_path / "cache"))
    broken = {"n03.txt"}

    def reply(messages: list[dict]) -> str:
        name = asked_about(messages)
        if name in broken:
            raise Refusal(503, retry_after=0.05)  # (every retry refused: no need to back off long)
        return metadata(name)

    with fake_openai([reply] * 200) as server:
        rlm = MultiDocRLM(
            notes(tmp_path / "notes"),
            "openai:scripted",
            store_path=tmp_path / "c.sqlite",
            client_options=ClientOptions(base_url=server.url),
        )
        first = rlm.build_index(llm_meta=True)
        assert list(first.unread) == ["n03.txt"] and "503" in first.unread["n03.txt"]
        assert rlm.index.meta("n03.txt").meta_source == "rules"
        assert rlm.index.meta("n04.txt").meta_source == "openai:scripted"
        broken.clear()
        before = len(server.requests)
        again = rlm.build_index(llm_meta=True)
        assert again.unread == {} and len(server.requests) == before + 1  # (that one alone)
        assert rlm.index.meta("n03.txt").meta_source == "openai:scripted"
