"""The web API given hostile or mistaken input: errors name the client's file, never a server path;
a 422 echoes only a short prefix of what was sent; and a bounded number of analyses run at once,
the others waiting in line and then told to come back (503 with Retry-After)."""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from longread.errors import ModelError
from longread.llm.scripted import ScriptedLM
from longread.web.analysis import Analysis
from test_ingest_documents import write_docx, write_pdf
from test_web_api import aggregator, body, reader, upload_text
from webserver import scripted_app

# --- upload errors name the client's file --------------------------------------------------------


def _half(data: bytes) -> bytes:
    return data[: len(data) // 2]


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("report.pdf", lambda tmp: _half(write_pdf(tmp / "a.pdf").read_bytes())),
        ("report.pdf", lambda tmp: b"%PDF-1.4 broken"),
        ("notes.txt", lambda tmp: b""),
        ("notes.txt", lambda tmp: b"  \n "),
        ("minutes.docx", lambda tmp: _half(write_docx(tmp / "a.docx").read_bytes())),
        ("page.html", lambda tmp: b"<html><body></body></html>"),
    ],
)
def test_an_upload_error_names_the_clients_file_not_a_server_path(tmp_path, name, make):
    client = TestClient(scripted_app(tmp_path, ScriptedLM([])))
    response = client.post(
        "/api/parse", files={"files": (name, make(tmp_path), "application/octet-stream")}
    )
    detail = response.json()["detail"]
    assert response.status_code == 422 and detail.startswith(name), detail
    for server_side in ("/tmp", tempfile.gettempdir(), "longread-upload-", "upload."):
        assert server_side not in detail


# --- a 422 echoes a short prefix at most ---------------------------------------------------------


def test_a_huge_question_is_not_echoed_back(tmp_path):
    client = TestClient(scripted_app(tmp_path, ScriptedLM([])))
    response = client.post(
        "/api/analyze", json={"question": "x" * 1_000_000, "document_ids": ["doc-1"]}
    )
    assert response.status_code == 422 and len(response.content) < 5_000
    [error] = response.json()["detail"]
    assert error["loc"] == ["body", "question"] and error["type"] == "string_too_long"
    assert error["input"] == "x" * 200 + "…"


def test_a_huge_list_is_not_echoed_back(tmp_path):
    client = TestClient(scripted_app(tmp_path, ScriptedLM([])))
    response = client.post(
        "/api/analyze", json={"question": "q", "document_ids": ["doc-1"] * 100_000}
    )
    assert response.status_code == 422 and len(response.content) < 5_000
    [error] = response.json()["detail"]
    assert error["loc"] == ["body", "document_ids"] and len(error["input"]) == 201


@pytest.mark.parametrize("field", ["mode", "model", "subModel", "document_ids"])
def test_a_huge_name_is_refused_before_any_message_echoes_it(tmp_path, field):
    """Names that error messages quote (an unknown mode, model or document) are short or refused."""
    client = TestClient(scripted_app(tmp_path, ScriptedLM([])))
    huge = "m" * 100_000
    body = {
        "question": "q",
        "document_ids": ["doc-1"],
        field: [huge] if field == "document_ids" else huge,
    }
    response = client.post("/api/analyze", json=body)
    assert response.status_code == 422 and len(response.content) < 5_000


# --- a bounded number of analyses at once --------------------------------------------------------


class Gate:
    """Holds every Analysis.run at its start until opened; `started` is set once one is waiting."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.started, self.opened = threading.Event(), threading.Event()
        run = Analysis.run

        def held_run(analysis: Analysis, *args, **kwargs):
            self.started.set()
            assert self.opened.wait(30), "the gate was never opened"
            return run(analysis, *args, **kwargs)

        monkeypatch.setattr(Analysis, "run", held_run)


@pytest.fixture
def busy_client(tmp_path) -> Iterator[TestClient]:
    """One analysis slot, a queue of 0.3 s; one event loop for every request (as under uvicorn)."""
    app = scripted_app(
        tmp_path, ScriptedLM(aggregator), ScriptedLM(reader), max_concurrent=1, queue_timeout=0.3
    )
    with TestClient(app) as client:
        yield client


def _in_background(work) -> tuple[threading.Thread, list]:
    outcome: list = []
    thread = threading.Thread(target=lambda: outcome.append(work()), daemon=True)
    thread.start()
    return thread, outcome


def assert_busy(response) -> None:
    assert response.status_code == 503, response.text
    assert int(response.headers["Retry-After"]) >= 1
    assert "busy" in response.json()["detail"]


@pytest.mark.parametrize("url", ["/api/analyze", "/api/analyze-stream"])
def test_a_request_beyond_the_slots_waits_then_gets_503(busy_client, monkeypatch, url):
    doc_id = upload_text(busy_client)
    gate = Gate(monkeypatch)
    first, outcome = _in_background(lambda: busy_client.post(url, json=body(doc_id)))
    assert gate.started.wait(10)
    for other in ("/api/analyze", "/api/analyze-stream"):
        assert_busy(busy_client.post(other, json=body(doc_id)))
    gate.opened.set()
    first.join(30)
    assert outcome[0].status_code == 200 and "herring" in outcome[0].text
    third = busy_client.post(url, json=body(doc_id))
    assert third.status_code == 200 and "herring" in third.text


def test_a_queued_request_runs_when_a_slot_frees_in_time(tmp_path, monkeypatch):
    app = scripted_app(
        tmp_path, ScriptedLM(aggregator), ScriptedLM(reader), max_concurrent=1, queue_timeout=20
    )
    with TestClient(app) as client:
        doc_id = upload_text(client)
        gate = Gate(monkeypatch)
        first, _ = _in_background(lambda: client.post("/api/analyze", json=body(doc_id)))
        assert gate.started.wait(10)
        second, outcome = _in_background(lambda: client.post("/api/analyze", json=body(doc_id)))
        second.join(0.5)
        assert second.is_alive()  # waiting in line
        gate.opened.set()
        second.join(30)
        assert outcome[0].status_code == 200 and "herring" in outcome[0].text


@pytest.mark.parametrize("url", ["/api/analyze", "/api/analyze-stream"])
def test_a_failed_analysis_frees_its_slot(busy_client, monkeypatch, url):
    doc_id = upload_text(busy_client)

    def failing_run(analysis: Analysis, *args, **kwargs):
        raise ModelError("the model server is down")

    monkeypatch.setattr(Analysis, "run", failing_run)
    for _ in range(2):  # the second would wait for the first's slot, and get 503, if it were kept
        response = busy_client.post(url, json=body(doc_id))
        assert response.status_code in (200, 502) and "the model server is down" in response.text
    monkeypatch.undo()
    assert busy_client.post(url, json=body(doc_id)).status_code == 200


def test_a_request_that_fails_before_running_frees_its_slot(busy_client):
    for _ in range(2):
        assert busy_client.post("/api/analyze", json=body("doc-99")).status_code == 404
    doc_id = upload_text(busy_client)
    assert busy_client.post("/api/analyze", json=body(doc_id)).status_code == 200
