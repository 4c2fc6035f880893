"""The gateway: accounting, cache, retries (through the real OpenAI SDK), concurrency, budgets."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from longread.errors import BudgetExceededError, CancelledError, ModelError
from longread.llm.base import TransientModelError
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.llm.specs import ClientOptions, resolve_model
from longread.llm.usage import Budget
from longread.store.cache import ResponseCache
from longread.text.slices import ContextSlicer
from longread.tools.context_tools import ContextTools


def test_usage_is_counted_per_model_and_purpose():
    lm = ScriptedLM(["one", "two", "three"])
    gateway = Gateway()
    gateway.complete(lm, "a", purpose="root")
    gateway.complete(lm, "b", purpose="subcall")
    gateway.complete(lm, "c", purpose="subcall")
    usage = gateway.usage.to_dict()
    assert usage["calls"] == 3 and usage["subcalls"] == 2
    by = {(r["model"], r["purpose"]): r["calls"] for r in usage["by_model_purpose"]}
    assert by == {("scripted:test", "root"): 1, ("scripted:test", "subcall"): 2}
    assert usage["input_tokens"] > 0 and usage["cost_usd"] == 0.0


def test_cache_makes_a_repeated_call_free(tmp_path):
    lm = ScriptedLM(lambda request: "cached answer")
    cache = ResponseCache(tmp_path / "c.sqlite")
    first = Gateway(cache=cache).complete(lm, "same prompt", purpose="subcall")
    again = Gateway(cache=ResponseCache(tmp_path / "c.sqlite"))
    second = again.complete(lm, "same prompt", purpose="subcall")
    assert len(lm.requests) == 1
    assert second.text == first.text == "cached answer" and second.cached
    assert again.usage.to_dict()["cached_calls"] == 1 and again.usage.total("input_tokens") == 0
    Gateway(cache=cache).complete(lm, "same prompt", purpose="subcall", temperature=0.7)
    assert len(lm.requests) == 2, "different parameters are a different request"


def test_batched_queries_run_concurrently():
    sub = ScriptedLM(lambda request: "ok", latency=0.5)
    tools = ContextTools(ContextSlicer(), sub, Gateway(concurrency=8))
    started = time.monotonic()
    replies = tools.llm_query_batched([f"question {i}" for i in range(8)])
    elapsed = time.monotonic() - started
    assert replies == ["ok"] * 8
    assert elapsed < 1.5, f"8 calls of 0.5 s took {elapsed:.2f} s"


def test_transient_errors_are_retried_then_given_up():
    lm = ScriptedLM([TransientModelError("429"), TransientModelError("503"), "fine"])
    gateway = Gateway(backoff=0.001)
    assert gateway.complete(lm, "q", purpose="subcall").text == "fine"
    assert gateway.usage.total("retries") == 2
    failing = ScriptedLM([TransientModelError("503")] * 3)
    with pytest.raises(ModelError, match="gave up after 3 attempts"):
        Gateway(max_retries=2, backoff=0.001).complete(failing, "q", purpose="subcall")


@pytest.mark.parametrize(
    "budget, limit",
    [
        (Budget(max_subcalls=2), "max_subcalls"),
        (Budget(max_tokens=5), "max_tokens"),
        (Budget(max_seconds=0.2), "max_seconds"),
    ],
)
def test_budgets_stop_calls(budget, limit):
    lm = ScriptedLM(lambda request: "a reply with several tokens in it", latency=0.15)
    gateway = Gateway(budget=budget)
    with pytest.raises(BudgetExceededError) as caught:
        for _ in range(10):
            gateway.complete(lm, "question " * 10, purpose="subcall")
    assert caught.value.limit == limit and "budget exceeded" in str(caught.value)
    assert len(lm.requests) < 10


def test_cost_budget_uses_list_prices():
    lm = ScriptedLM(lambda request: "x" * 4000, name="openai:gpt-4o")
    gateway = Gateway(budget=Budget(max_cost_usd=0.01))
    with pytest.raises(BudgetExceededError, match="cost budget"):
        for _ in range(10):
            gateway.complete(lm, "q", purpose="subcall")
    assert 0 < gateway.usage.total("cost_usd") < 0.02


def test_root_calls_do_not_count_as_subcalls():
    lm = ScriptedLM(lambda request: "r")
    gateway = Gateway(budget=Budget(max_subcalls=1))
    for _ in range(3):
        gateway.complete(lm, "q", purpose="root")
    gateway.complete(lm, "q", purpose="subcall")
    with pytest.raises(BudgetExceededError):
        gateway.complete(lm, "q", purpose="subcall")


def test_cancel_stops_later_calls():
    gateway = Gateway()
    gateway.cancel()
    with pytest.raises(CancelledError):
        gateway.complete(ScriptedLM(["x"]), "q", purpose="subcall")


class _FlakyChatServer(BaseHTTPRequestHandler):
    """A minimal OpenAI-compatible endpoint: the first request gets 429, later ones succeed."""

    hits: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).hits.append(body)
        if len(type(self).hits) == 1:
            self._send(
                429, {"error": {"message": "slow down", "type": "rate_limit"}}, {"retry-after": "0"}
            )
            return
        self._send(
            200,
            {
                "id": "c1",
                "object": "chat.completion",
                "created": 0,
                "model": body["model"],
                "choices": [
                    {
                        "index": 0,
                        "finish_reason": "stop",
                        "message": {"role": "assistant", "content": "recovered"},
                    }
                ],
                "usage": {"prompt_tokens": 11, "completion_tokens": 2, "total_tokens": 13},
            },
        )

    def _send(self, status: int, payload: dict, headers: dict | None = None) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


def test_openai_client_retries_a_429_from_a_real_http_server(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FlakyChatServer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        lm = resolve_model(
            "openai:test-model", ClientOptions(base_url=f"http://127.0.0.1:{server.server_port}/v1")
        )
        gateway = Gateway(backoff=0.01)
        reply = gateway.complete(lm, "hello", purpose="root")
    finally:
        server.shutdown()
    assert reply.text == "recovered" and reply.input_tokens == 11
    assert len(_FlakyChatServer.hits) == 2 and gateway.usage.total("retries") == 1


def test_as_done_stops_paying_when_its_caller_stops():
    lm = ScriptedLM(lambda request: "ok", latency=0.02)
    gateway = Gateway(concurrency=2)
    work = [f"item {n}" for n in range(40)]
    with pytest.raises(RuntimeError):
        for _item, _reply in gateway.as_done(
            lambda prompt: gateway.complete(lm, prompt, purpose="t"), work
        ):
            raise RuntimeError("the store write failed")
    assert len(lm.requests) <= 4  # the calls already under way, not the 36 queued behind them


def test_as_done_yields_what_finished_then_raises_the_first_failure():
    def work(n: int) -> int:
        time.sleep(0.05)
        if n == 3:
            raise ValueError("item 3 failed")
        return n * 10

    seen = []
    with pytest.raises(ValueError, match="item 3"):
        for item, result in Gateway(concurrency=1).as_done(work, list(range(8))):
            seen.append((item, result))
    assert seen[:3] == [(0, 0), (1, 10), (2, 20)] and len(seen) <= 4  # the rest were cancelled


def test_a_call_is_given_the_time_the_run_has_left_and_no_retry_outlasts_it():
    lm = ScriptedLM(["one", "two"])
    Gateway().complete(lm, "q", purpose="root")
    assert lm.requests[0].timeout is None  # (no time budget, no cell)
    gateway = Gateway(budget=Budget(max_seconds=30))
    gateway.complete(lm, "q", purpose="root")
    assert 0 < lm.requests[1].timeout <= 30
    flaky = ScriptedLM([TransientModelError("503")] * 3, latency=0.3)
    tight = Gateway(budget=Budget(max_seconds=0.2), backoff=0.01)
    with pytest.raises(BudgetExceededError, match="time budget"):
        tight.complete(flaky, "q", purpose="root")
    assert len(flaky.requests) == 1  # (the retry would start past the budget)
