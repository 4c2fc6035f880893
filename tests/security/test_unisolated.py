"""Where the platform cannot isolate model code (no Landlock, no seccomp: macOS, Windows, old or
locked-down kernels): rlm still runs from the CLI with one warning line per run, and the web app
refuses rlm (and `auto` does not pick it) unless started with --allow-unisolated-code."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from conftest import make_run
from longread.cli.display import ProgressLine
from longread.events import Event
from longread.llm.scripted import ScriptedLM
from longread.repl import isolation
from longread.repl.sandbox import Sandbox
from longread.strategies.rlm import RLMLoop
from webserver import scripted_app

UNISOLATED = {
    "rlimits": {"active": True, "detail": "memory 1024 MB"},
    "landlock": {"active": False, "detail": "unavailable: not Linux"},
    "seccomp": {"active": False, "detail": "unavailable: No module named 'pyseccomp'"},
    "namespaces": {"active": False, "detail": "not used: no working bwrap"},
}
LONG_TEXT = "The harbour master keeps the tide tables. " * 2_000


def test_the_layers_decide_what_counts_as_isolated():
    assert not isolation.is_isolated(UNISOLATED)
    on = {"active": True, "detail": "on"}
    assert isolation.is_isolated({**UNISOLATED, "seccomp": on, "landlock": on})
    assert isolation.is_isolated({**UNISOLATED, "seccomp": on, "namespaces": on})
    assert not isolation.is_isolated(
        {**UNISOLATED, "landlock": on, "namespaces": on}
    )  # no syscall filter
    line = isolation.warning(UNISOLATED)
    assert (
        "landlock unavailable: not Linux" in line
        and "seccomp unavailable" in line
        and "\n" not in line
    )


def test_an_unisolated_run_warns_once(monkeypatch):
    monkeypatch.setattr(Sandbox, "isolated", property(lambda self: False))
    events = []
    root = ScriptedLM(["```repl\nprint(len(context))\n```", "```repl\nFINAL('done')\n```"])
    answer = RLMLoop(make_run(root, events=events), LONG_TEXT).answer("q")
    warnings = [e for e in events if e.kind == "warning"]
    assert answer.text == "done" and len(warnings) == 1
    assert "without operating-system isolation" in warnings[0].data["text"]


def test_the_warning_is_printed_even_when_quiet(capsys):
    ProgressLine(enabled=False)(
        Event("warning", {"text": "model-written code runs without \x1b[31misolation"})
    )
    err = capsys.readouterr().err
    assert err.startswith("warning: ") and "isolation" in err and "\x1b" not in err


@pytest.fixture
def unisolated_server(monkeypatch):
    monkeypatch.setattr("longread.web.analysis.probe", lambda: UNISOLATED)


def _analyze(tmp_path, mode: str, **settings):
    root = ScriptedLM(
        ["```repl\nprint(len(context))\nFINAL('ran code')\n```"] * 3, context_window=4_000
    )
    reader = ScriptedLM(lambda request: '{"relevant": false, "summary": ""}')
    client = TestClient(scripted_app(tmp_path, root, reader, **settings))
    doc = client.post(
        "/api/parse", files={"files": ("h.txt", LONG_TEXT.encode(), "text/plain")}
    ).json()
    return client.post(
        "/api/analyze",
        json={
            "question": "Who keeps the tables?",
            "mode": mode,
            "document_ids": [doc["documents"][0]["id"]],
        },
    )


def test_the_server_refuses_rlm_without_isolation(unisolated_server, tmp_path):
    response = _analyze(tmp_path, "rlm")
    assert response.status_code == 422 and "--allow-unisolated-code" in response.json()["detail"]


def test_auto_does_not_pick_rlm_without_isolation(unisolated_server, tmp_path):
    response = _analyze(tmp_path, "auto")
    assert response.status_code == 200 and response.json()["mode"] == "map"
    assert "isolation" in response.json()["reason"]


def test_allow_unisolated_code_offers_rlm_anyway(unisolated_server, tmp_path):
    response = _analyze(tmp_path, "rlm", allow_unisolated_code=True)
    assert response.status_code == 200 and response.json()["answer"] == "ran code"
