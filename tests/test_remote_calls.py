"""Sub-calls on the cluster: with a Ray executor, a map over a corpus sends the sub-model's calls
from Ray workers (the scripted server on 127.0.0.1 sees which process sent each request) while
the run's gateway counts and budgets them; cancelling a run drops the calls still queued."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from fake_openai import fake_openai
from longread.api import MultiDocRLM
from longread.executor import LocalExecutor
from longread.llm.gateway import Gateway
from longread.llm.remote import RemoteLM
from longread.llm.specs import ClientOptions, resolve_model
from longread.llm.usage import Purpose

HARBOUR = Path(__file__).resolve().parents[1] / "examples" / "harbour"


def scripted(messages: list[dict]) -> str:
    """A capable model: JSON where JSON is asked for, relevant where the heron is named."""
    prompt = messages[-1]["content"]
    if "JSON" in prompt or "json" in prompt:
        found = "Silver Heron" in prompt
        return json.dumps(
            {
                "relevant": found,
                "summary": "The Silver Heron is named." if found else "",
                "quote": "Silver Heron" if found else "",
            }
        )
    return "The Silver Heron is named in the harbour records [1]."


@pytest.mark.ray
def test_a_map_over_a_corpus_sends_its_sub_calls_from_ray_workers(
    tmp_path, monkeypatch, shared_ray
):
    from longread.executor import RayExecutor

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with fake_openai([scripted] * 200) as server:
        server.callers = []
        with RayExecutor() as executor:
            rlm = MultiDocRLM(
                HARBOUR,
                "openai:scripted",
                store_path=tmp_path / "c.sqlite",
                mode="map",
                cache=False,
                client_options=ClientOptions(base_url=server.url),
                executor=executor,
            )
            answer = rlm.query("Which ship is named in the harbour records?")
    remote = [c for c in server.callers if c.startswith("ray::complete_remotely")]
    assert remote and len(remote) < len(server.callers)  # (sub-calls remote, the root's here)
    calls = answer.usage["calls"]
    assert calls == len(server.callers)  # (the run's gateway counted every call)
    assert "Silver Heron" in answer.text


def test_cancelling_a_run_drops_the_sub_calls_still_queued(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    started = threading.Event()

    def slow(messages: list[dict]) -> str:
        started.set()
        time.sleep(1.0)
        return "slow"

    with fake_openai([slow] * 50) as server, LocalExecutor(1) as executor:
        options = ClientOptions(base_url=server.url)
        remote = RemoteLM(resolve_model("openai:scripted", options), executor, options)
        gateway = Gateway(concurrency=8, max_retries=0)
        worker = threading.Thread(
            target=lambda: outcomes.extend(run_calls(gateway, remote)), daemon=True
        )
        outcomes: list[str] = []
        worker.start()
        assert started.wait(30)
        gateway.cancel()
        worker.join(30)
    assert not worker.is_alive()
    assert len(server.requests) <= 3  # (the one running, and those the pool had queued)
    assert outcomes == ["CancelledError"] * 8  # (and no call waited for its reply)


def run_calls(gateway: Gateway, remote: RemoteLM) -> list[str]:
    def one(n: int) -> str:
        try:
            return gateway.complete(remote, f"call {n}", purpose=Purpose.SUBCALL).text
        except BaseException as error:  # noqa: BLE001 - the outcome is what the test reads
            return type(error).__name__

    return gateway.map(one, list(range(8)))
