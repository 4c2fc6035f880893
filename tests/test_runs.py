"""The run viewer's data: every analysis of the web server recorded as a timeline (sub-calls with
prompt, reply, seconds, tokens and cost), a trace file split into its questions' runs, and
`longread trace view FILE` serving them."""

from __future__ import annotations

import json
import subprocess
import time
import urllib.request

import pytest
from fastapi.testclient import TestClient

from cli import LONGREAD, free_port
from longread.api import SingleDocRLM
from longread.errors import InputError
from longread.events import Event, EventKind
from longread.llm.scripted import ScriptedLM
from longread.web import runs
from longread.web.runs import RunLog
from test_conversation import FIRST, FOLLOW_UP, reader, root_saying
from test_document_strategies import write_contract
from test_web_api import aggregator, body, upload_text
from test_web_api import reader as harbour_reader
from webserver import scripted_app


def test_each_analysis_of_the_server_is_a_run_with_its_timeline(tmp_path):
    client = TestClient(scripted_app(tmp_path, ScriptedLM(aggregator), ScriptedLM(harbour_reader)))
    doc_id = upload_text(client)
    result = client.post("/api/analyze", json=body(doc_id)).json()
    [run] = client.get("/api/runs").json()["runs"]
    assert run["question"] == body(doc_id)["question"] and run["mode"] == "map"
    assert run["calls"] == result["usage"]["calls"]
    assert run["answer"].startswith("The keeper is paid in herring and salt [1].")
    timeline = client.get(f"/api/runs/{run['id']}").json()["timeline"]
    kinds = [e["kind"] for e in timeline]
    assert kinds[0] == "run" and kinds[1] == "mode" and kinds[-1] == "final"
    ends = [e for e in timeline if e["kind"] == "llm_end"]
    starts = [e for e in timeline if e["kind"] == "llm_start"]
    assert len(ends) == len(starts) == result["usage"]["calls"]
    assert any("herring" in e["prompt"] for e in starts)
    assert all(
        {"reply", "seconds", "input_tokens", "output_tokens", "cost_usd"} <= set(e) for e in ends
    )
    client.post("/api/analyze", json=body(doc_id, question="Who files the minutes?"))
    newest, _ = client.get("/api/runs").json()["runs"]
    assert newest["question"] == "Who files the minutes?"
    missing = client.get("/api/runs/run-99")
    assert missing.status_code == 404


def test_a_trace_holds_each_question_of_a_session_as_its_own_run(tmp_path):
    contract = write_contract(tmp_path / "contract.md", fillers=40)
    trace = tmp_path / "chat.jsonl"
    root = ScriptedLM(root_saying("Yes, either party may end the agreement [1]."))
    with (
        SingleDocRLM(
            contract, root, ScriptedLM(reader), cache=False, mode="map", trace_path=str(trace)
        ) as rlm,
        rlm.session() as chat,
    ):
        chat.ask(FIRST)
        chat.ask(FOLLOW_UP)
    with trace.open("a", encoding="utf-8") as f:
        f.write("not json\n[1, 2]\n")
    first, second = RunLog.from_trace(trace).list()[::-1]
    assert (first["question"], second["question"]) == (FIRST, FOLLOW_UP)
    assert first["mode"] == "map" and first["calls"] >= 2
    assert second["calls"] == 1 and second["answer"].startswith("Yes, either party")
    assert second["mode"] == "recall"  # (a follow-up answered from the earlier passages)
    timeline = RunLog.from_trace(trace).get("run-2")["timeline"]
    assert timeline[-1] == {**timeline[-1], "kind": "notice", "text": "2 unreadable lines skipped"}


def test_a_file_that_is_not_a_trace_is_one_line_of_error(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_text("garbage\n", encoding="utf-8")
    with pytest.raises(InputError, match="holds no trace events"):
        RunLog.from_trace(empty)
    with pytest.raises(InputError, match="cannot read"):
        RunLog.from_trace(tmp_path / "missing.jsonl")


def test_trace_view_serves_the_runs_of_a_trace_file(tmp_path):
    trace = tmp_path / "run.jsonl"
    events = [
        {"t": 1.0, "kind": "run", "depth": 0, "question": "What is <b>bold</b>?"},
        {"t": 1.5, "kind": "code", "depth": 0, "turn": 1, "block": 1, "code": "print(1)"},
    ]
    trace.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    port = free_port()
    server = subprocess.Popen(
        [LONGREAD, "trace", "view", str(trace), "--port", str(port)],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert f"1 runs of run.jsonl on http://127.0.0.1:{port}/#runs" in server.stdout.readline()
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/runs", timeout=5) as r:
                    [run] = json.loads(r.read())["runs"]
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        assert run["question"] == "What is <b>bold</b>?" and run["events"] == 2
    finally:
        server.terminate()
        server.wait(10)
    missing = subprocess.run(
        [LONGREAD, "trace", "view", str(tmp_path / "none.jsonl")], capture_output=True, text=True
    )
    assert missing.returncode != 0 and "cannot read" in missing.stderr


def test_a_run_keeps_its_events_within_its_bounds():
    log = RunLog(limit=2)
    record = log.start("A long one?")
    huge = "x" * (runs.MAX_FIELD_CHARS * 5)
    for n in range(runs.MAX_RUN_CHARS // runs.MAX_FIELD_CHARS + 10):
        record(Event(EventKind.OUTPUT, {"output": huge, "block": n}))
    [summary] = log.list()
    timeline = log.get(summary["id"])["timeline"]
    assert all(len(e["output"]) <= runs.MAX_FIELD_CHARS + 100 for e in timeline)  # (+ a note)
    assert sum(len(json.dumps(e)) for e in timeline) <= runs.MAX_RUN_CHARS
    assert summary["events"] > len(timeline)  # the ones left out are counted
    log.start("second")
    log.start("third")
    assert [r["question"] for r in log.list()] == ["third", "second"]  # the oldest is dropped
