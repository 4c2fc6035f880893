"""End to end on the embedded local model, offline: in-process, and through a real
OpenAI-compatible server (llama_cpp.server serving the same GGUF on loopback)."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from cli import free_port
from longread.llm.local_models import bundled_smollm2_path
from test_cli import EXAMPLES, longread

pytestmark = pytest.mark.local_model

NEEDLE = "The secret password of the castle gate is heather-lantern."
QUESTION = "What is the secret password of the castle gate?"


@pytest.fixture(scope="module")
def needle_doc(tmp_path_factory) -> Path:
    """About 9,000 characters of Macbeth with one inserted fact in the middle."""
    play = (EXAMPLES / "macbeth.md").read_text(encoding="utf-8")[:9000]
    cut = play.index("\n\n", 4500)
    path = tmp_path_factory.mktemp("doc") / "macbeth-excerpt.md"
    path.write_text(play[:cut] + "\n\n" + NEEDLE + "\n" + play[cut:], encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def llama_server():
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            str(bundled_smollm2_path()),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "8192",
            "--model_alias",
            "smollm2",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                urllib.request.urlopen(f"{base_url}/models", timeout=2).read()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    pytest.fail("llama_cpp.server did not start")
                time.sleep(0.5)
        yield base_url
    finally:
        process.terminate()
        process.wait(timeout=30)


def check_answer(result: subprocess.CompletedProcess, doc: Path, model: str) -> dict:
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    text = doc.read_text(encoding="utf-8")
    assert answer["mode"] == "map"
    assert "heather-lantern" in answer["text"].lower()
    assert answer["citations"], "the answer must cite the passage it rests on"
    for citation in answer["citations"]:
        assert text[citation["start"] : citation["end"]] == citation["text"]
    assert any("heather-lantern" in c["text"] for c in answer["citations"])
    models = {row["model"] for row in answer["usage"]["by_model_purpose"]}
    assert models == {model} and answer["usage"]["calls"] >= 1
    return answer


def test_ask_on_the_embedded_local_model(needle_doc):
    result = longread("ask", str(needle_doc), QUESTION, "--json", "--no-cache", "--mode", "map")
    check_answer(result, needle_doc, "local:smollm2-135m")


def test_ask_through_an_openai_compatible_server(needle_doc, llama_server):
    result = longread(
        "ask",
        str(needle_doc),
        QUESTION,
        "--json",
        "--no-cache",
        "--mode",
        "map",
        "--model",
        "openai:smollm2",
        "--base-url",
        llama_server,
        "--focus",
    )
    check_answer(result, needle_doc, "openai:smollm2")


def test_human_output_shows_answer_citation_and_usage(needle_doc):
    result = longread("ask", str(needle_doc), QUESTION, "--quiet", "--mode", "map")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert "heather-lantern" in result.stdout.lower()
    assert any(line.startswith("[1] macbeth-excerpt.md [") for line in lines)
    assert lines[-1].startswith("map ·") and "calls" in lines[-1] and "tokens" in lines[-1]


def test_ask_answers_from_a_real_manual_with_a_citation_into_the_right_section(tmp_path):
    manual = EXAMPLES / "gnu-coding-standards.txt"
    result = longread(
        "ask",
        str(manual),
        "For maximum readability, source lines should be kept to what length or less?",
        "--json",
        env={"LONGREAD_CACHE_DIR": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["mode"] == "map" and "79 characters" in answer["text"]
    text = manual.read_text(encoding="utf-8")
    for citation in answer["citations"]:
        assert text[citation["start"] : citation["end"]] == citation["text"]
    assert any(
        "79 characters" in c["text"] and c["span_id"] == "5.1 Formatting Your Source Code"
        for c in answer["citations"]
    )


def test_the_tree_of_a_real_book_answers_about_a_late_chapter_with_a_citation_into_it(tmp_path):
    book = EXAMPLES / "esther-kjv.txt"  # no headings: the smart chunker makes its sections
    env = {"LONGREAD_CACHE_DIR": str(tmp_path)}
    built = longread("index", str(book), "--summaries", env=env, timeout=900)
    assert built.returncode == 0, built.stderr
    assert "smart chunks" in built.stdout and "3 levels" in built.stdout
    tree = longread("tree", str(book), env=env).stdout.splitlines()
    assert (
        tree[0].startswith("level 2 [0:31,486)")
        and sum(line.lstrip().startswith("level 0") for line in tree) >= 6
    )
    result = longread(
        "ask",
        str(book),
        "What did the Jews do on the fourteenth day of the month Adar?",
        "--mode",
        "tree",
        "--json",
        env=env,
    )
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    text = book.read_text(encoding="utf-8")
    chapter_9 = (text.index("Est9:1 "), text.index("Est10:1 "))
    assert answer["mode"] == "tree" and answer["stats"]["leaves_read"] >= 1
    assert any(w in answer["text"].lower() for w in ("gladness", "feasting"))
    for citation in answer["citations"]:
        assert text[citation["start"] : citation["end"]] == citation["text"]
    assert any(
        chapter_9[0] <= c["start"] < chapter_9[1] and "Adar" in c["text"]
        for c in answer["citations"]
    )


def test_a_prompt_cache_lets_a_conversation_resume_after_a_call_in_between():
    from llama_cpp import LlamaRAMCache

    from longread.llm.local import LocalLM
    from longread.llm.types import Request

    lm = LocalLM(
        bundled_smollm2_path(), name="local:cached", writes_code=False, prompt_cache_bytes=1 << 28
    )
    play = (EXAMPLES / "macbeth.md").read_text(encoding="utf-8")[:1200]
    root = [{"role": "user", "content": f"{play}\n\nWho speaks first?"}]
    first = lm.complete(Request(tuple(root), max_tokens=8))
    lm.complete(Request(({"role": "user", "content": "Say hi."},), max_tokens=4))  # (in between)
    assert isinstance(lm.llama.cache, LlamaRAMCache) and len(lm.llama.cache.cache_state) == 2
    again = lm.complete(Request(tuple(root), max_tokens=8))  # (resumed from the cache)
    assert again.text == first.text and lm.llama.cache.cache_size <= 1 << 28
    small = LocalLM(
        bundled_smollm2_path(), name="local:small", writes_code=False, prompt_cache_bytes=40 << 20
    )
    small.complete(Request(tuple(root), max_tokens=4))
    small.complete(Request(({"role": "user", "content": "Say hi."},), max_tokens=4))
    states = list(small.llama.cache.cache_state.values())  # (the long prompt's logits: ~60 MB)
    assert len(states) == 1 and small.llama.cache.cache_size <= 40 << 20
    assert states[0].llama_state_size < states[0].scores.nbytes  # (logits: most of a state)


def test_a_local_reply_stops_where_its_time_runs_out():
    from longread.llm.local import LocalLM
    from longread.llm.types import Request

    lm = LocalLM(bundled_smollm2_path(), name="local:timed", writes_code=False)
    story = ({"role": "user", "content": "Write a very long story about a harbour."},)
    full = lm.complete(Request(story, max_tokens=120))
    cut = lm.complete(Request(story, max_tokens=120, timeout=0.2))
    assert full.output_tokens > 60 and cut.output_tokens < full.output_tokens / 2


def test_calls_that_wait_for_the_local_model_are_timed_from_their_turn(tmp_path):
    """Calls made at once run one after another on the local model: each is kept in the model's
    history with its own time, not the time it waited (its speed, fitted on them, would be the
    batch's several times over)."""
    from longread.llm.gateway import Gateway
    from longread.llm.local import LocalLM
    from longread.store.cache import ResponseCache

    lm = LocalLM(bundled_smollm2_path(), name="local:timed", writes_code=False)
    cache = ResponseCache(tmp_path / "responses.sqlite")
    gateway = Gateway(cache=cache, concurrency=4)
    started = time.monotonic()
    gateway.map(
        lambda n: gateway.complete(lm, f"Count to {n}.", purpose="subcall", max_tokens=12),
        [3, 4, 5, 6],
    )
    batch = time.monotonic() - started
    timed = [s for (s,) in cache._db.execute("SELECT seconds FROM call_samples").fetchall()]
    assert len(timed) == 4 and sum(timed) <= batch * 1.05, (timed, batch)
    cache.close()


STRUCTURED_CUT = """
import json, sys, threading
from longread.errors import ModelError
from longread.llm.local import LocalLM
from longread.llm.local_models import bundled_smollm2_path
from longread.llm.types import Request

lm = LocalLM(bundled_smollm2_path(), name="local:cut", writes_code=False)
asked = ({"role": "user", "content": "Give the name and year of a harbour, as JSON."},)
schema = {"type": "object", "properties": {"name": {"type": "string"}, "year": {"type": "integer"}},
          "required": ["name", "year"]}
cancelled = threading.Event()
cancelled.set()
for cut in (dict(timeout=0.0), dict(cancelled=cancelled)):
    reply = lm.complete(Request(asked, max_tokens=60, json_schema=schema, **cut))
    json.loads(reply.text)  # (ended where its JSON could end, not cut in the middle)
    print(reply.output_tokens)
"""


def test_a_structured_local_reply_whose_time_runs_out_ends_where_its_grammar_can():
    """A reply under a JSON schema that must stop (its time out, its run cancelled) was made to
    choose the end token where the grammar forbids it: llama.cpp aborted the whole process."""
    done = subprocess.run(
        [sys.executable, "-c", STRUCTURED_CUT], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert all(0 < int(n) <= 60 for n in done.stdout.split()), done.stdout


class WatchedLock:
    """A lock that says when a caller waits for it."""

    def __init__(self) -> None:
        self.lock, self.waiting = threading.Lock(), threading.Event()

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if blocking:
            self.waiting.set()
        return self.lock.acquire(blocking, timeout)

    def release(self) -> None:
        self.lock.release()


def test_a_call_whose_time_ran_out_while_it_waited_for_the_local_model_reads_no_prompt():
    """Calls queued behind others on the one local model (a map's chunks) each read their whole
    prompt once their turn came, though their time was up: a run of 60 s took 300."""
    from longread.llm.base import TransientModelError
    from longread.llm.local import LocalLM, _call_locks
    from longread.llm.types import Request

    lm = LocalLM(bundled_smollm2_path(), name="local:queued", writes_code=False)
    asked = Request(({"role": "user", "content": "Name a harbour. " * 100},), max_tokens=4)
    lm.complete(asked)  # (loaded)
    read = lm.llama.n_tokens
    lock = _call_locks[id(lm.llama)] = WatchedLock()
    lock.acquire(blocking=False)  # (another call's turn)
    failed: list[BaseException] = []

    def queued() -> None:
        try:
            lm.complete(Request(({"role": "user", "content": "Say hi."},), timeout=0.0))
        except BaseException as error:  # noqa: BLE001 - what the test asserts
            failed.append(error)

    waiter = threading.Thread(target=queued)
    waiter.start()
    assert lock.waiting.wait(60)
    lock.release()
    waiter.join(60)
    assert isinstance(failed[0], TransientModelError) and "ran out" in str(failed[0])
    assert lm.llama.n_tokens == read  # (its prompt never read)
