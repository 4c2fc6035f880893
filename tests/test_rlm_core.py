"""The RLM core in every REPL, through the real `longread ask` on a file and on a folder: batched
sub-calls run at once and come back in order, rlm_query starts a child RLM (counted in the
parent's usage, per depth), and `context` reads an indexed source lazily."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from cli import longread, scripted_rlm
from fake_openai import Refusal, fake_openai

DOCUMENT = (
    "# Harbour notes\n\nThe harbour master keeps the tide tables.\n\n"
    "# Ships\n\nThe Silver Heron sails at dawn.\n"
)
ROOT_CODE = """```repl
import json
answers = llm_query_batched([f"Q{i}" for i in range(8)])
child = rlm_query("What does this text say first?", context[0:200])
FINAL(json.dumps({"answers": answers, "length": len(context), "head": context[0:9], \
"child": child}))
```"""
CHILD_CODE = "```repl\nFINAL('child saw ' + context[:12])\n```"


class Responder:
    """The scripted model: root turns (they carry the REPL's system prompt) from a script; every
    other request is a sub-call that takes 0.5 s and whose arrival time is recorded."""

    def __init__(self, root_replies: list[str]):
        self.root_replies = root_replies
        self.arrivals: list[float] = []
        self.in_flight = self.most_in_flight = 0
        self.lock = threading.Lock()

    def __call__(self, messages: list[dict]) -> str:
        if messages[0]["role"] == "system" and "The RLM core" in messages[0]["content"]:
            return self.root_replies.pop(0)
        with self.lock:
            self.arrivals.append(time.monotonic())
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
        time.sleep(0.5)
        with self.lock:
            self.in_flight -= 1
        return f"answer: {messages[-1]['content'][:40]}"


def ask(tmp_path: Path, target: Path, url: str, *extra: str) -> dict:
    done = longread(
        "ask",
        str(target),
        "q",
        *scripted_rlm(url),
        "--no-cache",
        "--json",
        *extra,
        cache=tmp_path / "cache",
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture(params=["file", "folder"])
def source(request, tmp_path) -> tuple[Path, str]:
    """(what to ask about, the text its `context` holds)."""
    if request.param == "file":
        path = tmp_path / "notes.md"
        path.write_text(DOCUMENT, encoding="utf-8")
        return path, DOCUMENT
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text(DOCUMENT, encoding="utf-8")
    (folder / "b.txt").write_text("Second document.\n", encoding="utf-8")
    return folder, DOCUMENT + "\n" + "Second document.\n"


def test_the_core_in_a_file_and_a_folder_repl(tmp_path, source):
    target, text = source
    responder = Responder([ROOT_CODE, CHILD_CODE])
    with fake_openai([]) as server:
        server.last = responder
        answer = ask(tmp_path, target, server.url, "--max-depth", "2")
    result = json.loads(answer["text"])
    assert result["answers"] == [f"answer: Q{i}" for i in range(8)]  # in order
    sub_arrivals = responder.arrivals[:8]
    assert max(sub_arrivals) - min(sub_arrivals) < 1.0 and responder.most_in_flight == 8
    assert result["length"] == len(text) and result["head"] == text[:9]
    assert result["child"] == "child saw " + text[:12]
    by_depth = {row["depth"]: row["calls"] for row in answer["usage"]["by_depth"]}
    assert (
        by_depth[1] == 1 and by_depth[0] == 1 + 8
    )  # the child's turn; the root's turn and sub-calls
    assert answer["usage"]["subcalls"] == 9


def test_a_failed_item_gives_its_error_in_its_place(tmp_path, source):
    target, _ = source
    code = (
        "```repl\nimport json\n"
        "FINAL(json.dumps(llm_query_batched(['fine', 'x' * 10, 'fine again'])))\n```"
    )

    def respond(messages: list[dict]) -> str:
        if messages[0]["role"] == "system" and "The RLM core" in messages[0]["content"]:
            return code
        if messages[-1]["content"].startswith("x"):
            raise Refusal(400)
        return "ok: " + messages[-1]["content"]

    with fake_openai([]) as server:
        server.last = respond
        answer = ask(tmp_path, target, server.url, "--max-depth", "1")
    first, failed, last = json.loads(answer["text"])
    assert (first, last) == ("ok: fine", "ok: fine again") and failed.startswith(
        "error: ModelError"
    )


def test_max_depth_one_makes_rlm_query_a_plain_sub_call(tmp_path, source):
    target, _ = source
    code = "```repl\nFINAL(rlm_query('Summarize', 'The Silver Heron sails at dawn.'))\n```"
    with fake_openai([code]) as server:
        server.last = lambda messages: "plain: " + messages[-1]["content"][:9]
        answer = ask(tmp_path, target, server.url)
    assert answer["text"] == "plain: Summarize"
    assert [row["depth"] for row in answer["usage"]["by_depth"]] == [0]
