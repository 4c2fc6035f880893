"""Cost before spending: `--dry-run` makes no request (counted on the scripted server) for any
mode, a file's index or a folder; its calls are exact for base, retrieval and map and its input
tokens the model's own count; rlm is a range up to its caps; a real run shows its estimate."""

from __future__ import annotations

import json

import pytest

from cli import longread
from fake_openai import fake_openai
from longread.api import Budget, RunOptions, SingleDocRLM
from longread.llm.scripted import ScriptedLM
from longread.llm.types import Completion, Request
from test_document_strategies import FILLER, SECTIONS, write_contract

QUESTION = "How long is the cure period after notice, and where are the records filed?"


class Counting(ScriptedLM):
    """A scripted model reporting the tokens of its prompt as `count_prompt` counts them (as a
    provider reports its own)."""

    def complete(self, request: Request) -> Completion:
        reply = super().complete(request)
        return Completion(reply.text, self.count_prompt(request.messages), 20, self.name)


def reader(request: Request) -> str:
    prompt = request.messages[-1]["content"]
    if "cure period" not in prompt:
        return json.dumps({"relevant": False, "summary": ""})
    fact = SECTIONS["3 Termination"]
    return json.dumps({"relevant": True, "summary": fact, "quote": fact})


@pytest.fixture
def contract(tmp_path):
    return write_contract(tmp_path / "contract.md", fillers=40)


@pytest.mark.parametrize("mode", ["base", "retrieval", "map"])
def test_the_estimate_is_exact_in_calls_and_input_tokens(contract, tmp_path, mode):
    root = Counting(lambda r: "The cure period is thirty days after notice [1].")
    sub = Counting(reader)
    rlm = SingleDocRLM(
        contract,
        root,
        sub,
        cache=False,
        store_path=tmp_path / "i.sqlite",
        options=RunOptions(max_slices=6),
    )
    [expected] = rlm.estimate(QUESTION, [mode])
    assert root.requests == [] and sub.requests == []  # no call was made
    usage = rlm.query(QUESTION, mode).usage
    assert expected.calls[0] == usage["calls"] >= 1  # (exact, but for JSON asked again)
    assert expected.calls[1] is not None and expected.calls[1] >= usage["calls"]
    assert expected.subcalls[0] == usage["subcalls"]
    if mode == "map":  # six passages read, the findings (guessed here) joined by the root model
        assert usage["calls"] == 7
        assert abs(expected.input_tokens[0] - usage["input_tokens"]) <= 0.15 * usage["input_tokens"]
    else:  # one prompt, counted as the model counts it
        assert expected.input_tokens[0] == usage["input_tokens"]


def test_rlm_is_a_range_up_to_the_turn_and_subcall_caps(contract, tmp_path):
    root = Counting(["```repl\nFINAL('x')\n```"])
    rlm = SingleDocRLM(
        contract,
        root,
        cache=False,
        store_path=tmp_path / "i.sqlite",
        budget=Budget(max_subcalls=10),
        options=RunOptions(max_iterations=4),
    )
    [capped] = rlm.estimate(QUESTION, ["rlm"])
    assert capped.calls == (2, 5 + 10) and capped.subcalls == (0, 10)
    assert 0 < capped.input_tokens[0] < capped.input_tokens[1]
    rlm.budget = Budget()
    [open_ended] = rlm.estimate(QUESTION, ["rlm"])
    assert open_ended.calls[1] is None and "--max-subcalls" in open_ended.note
    assert root.requests == []


def test_a_run_already_cached_is_estimated_as_cached(contract, tmp_path, monkeypatch):
    monkeypatch.setenv("LONGREAD_CACHE_DIR", str(tmp_path / "cache"))
    root = Counting(lambda r: "Thirty days.")
    rlm = SingleDocRLM(contract, root, store_path=tmp_path / "i.sqlite")
    rlm.query(QUESTION, "retrieval")
    [again] = rlm.estimate(QUESTION, ["retrieval"])
    assert again.calls == (1, 1) and again.cached_calls == 1 and again.input_tokens == (0, 0)
    assert again.seconds is not None  # the model's speed is known from the first run


def test_dry_run_makes_no_request_for_any_mode_a_file_index_or_a_folder(contract, tmp_path):
    folder = tmp_path / "folder"
    folder.mkdir()
    for n, fact in enumerate(SECTIONS.values()):
        (folder / f"note{n}.md").write_text(f"# Note {n}\n\n{FILLER * 5}{fact}\n")
    with fake_openai() as server:
        model = ["--model", "openai:gpt-4o-mini", "--base-url", server.url]
        shown = longread(
            "ask", str(contract), QUESTION, "--dry-run", *model, cache=tmp_path / "cache"
        )
        as_json = longread(
            "ask", str(folder), QUESTION, "--dry-run", "--json", *model, cache=tmp_path / "cache"
        )
        index = longread(
            "index",
            str(contract),
            "--dry-run",
            "--sub-model",
            "openai:gpt-4o-mini",
            cache=tmp_path / "cache",
            OPENAI_BASE_URL=server.url,
        )
    assert server.requests == []
    assert shown.returncode == 0, shown.stderr
    for row in ("auto → ", "base", "retrieval", "map", "tree", "rlm", "aggregate"):
        assert row in shown.stdout
    assert "$0." in shown.stdout  # gpt-4o-mini has a price
    estimates = json.loads(as_json.stdout)
    assert [e["mode"] for e in estimates][1:] == ["retrieval", "map", "rlm", "aggregate"]
    assert estimates[2]["calls"][0] >= 1 and estimates[2]["cost_usd"] is not None
    assert index.returncode == 0, index.stderr
    assert "index" in index.stdout and "summaries" in index.stdout


def test_a_model_without_a_price_is_unknown_never_a_guess(contract, tmp_path):
    with fake_openai() as server:
        shown = longread(
            "ask",
            str(contract),
            QUESTION,
            "--dry-run",
            "--mode",
            "map",
            "--json",
            "--model",
            "openai:scripted",
            "--base-url",
            server.url,
            cache=tmp_path / "cache",
        )
    [estimate] = json.loads(shown.stdout)
    assert estimate["cost_usd"] is None and server.requests == []


def test_the_index_estimate_matches_the_build(contract, tmp_path):
    sub = Counting(lambda r: "A summary of the section.")
    rlm = SingleDocRLM(contract, sub_model=sub, cache=False, store_path=tmp_path / "i.sqlite")
    expected = rlm.estimate_index()
    assert sub.requests == [] and rlm.index.summaries == {}  # nothing written either
    built = rlm.build_index()
    assert len(sub.requests) == expected.calls[0] >= len(built.rows)


@pytest.mark.parametrize("mode", ["base", "retrieval", "map", "tree"])
@pytest.mark.parametrize("finding", ["everywhere", "nowhere", "once"])
def test_a_real_run_s_calls_fall_inside_the_estimate_whatever_the_sub_model_finds(
    contract, tmp_path, mode, finding
):
    def sub_reply(request: Request) -> str:
        prompt = request.messages[-1]["content"]
        found = {"everywhere": True, "nowhere": False, "once": "cure period" in prompt}[finding]
        if request.json_schema is not None:
            fact = SECTIONS["3 Termination"] if found else ""
            return json.dumps({"relevant": found, "summary": fact, "quote": fact})
        return SECTIONS["3 Termination"] if found else "NONE"

    root = Counting(lambda r: "The cure period is thirty days after notice [1].")
    rlm = SingleDocRLM(
        contract,
        root,
        Counting(sub_reply),
        cache=False,
        store_path=tmp_path / "i.sqlite",
        options=RunOptions(max_slices=6),
    )
    [expected] = rlm.estimate(QUESTION, [mode])
    calls = rlm.query(QUESTION, mode).usage["calls"]
    low, high = expected.calls
    assert low <= calls and (high is None or calls <= high), (expected.calls, calls)


def test_a_sub_model_that_botches_its_json_is_asked_again_inside_the_estimate(contract, tmp_path):
    late = {"asked": 0}

    def botched_first(request: Request) -> str:  # every passage's first reply is not JSON
        late["asked"] += 1
        if late["asked"] % 2:
            return "Sure! Here is the JSON you asked for"
        return json.dumps({"relevant": False, "summary": ""})

    rlm = SingleDocRLM(
        contract,
        Counting(lambda r: "Joined [1]."),
        Counting(botched_first),
        cache=False,
        store_path=tmp_path / "i.sqlite",
        options=RunOptions(max_slices=4, concurrency=1),
    )
    [expected] = rlm.estimate(QUESTION, ["map"])
    usage = rlm.query(QUESTION, "map").usage
    assert usage["subcalls"] >= 8  # four passages, each asked twice
    low, high = expected.calls
    assert low < usage["calls"] <= high and expected.subcalls[1] >= usage["subcalls"]


def test_a_run_predicted_past_its_mode_s_default_budget_asks_for_max_seconds_first(
    contract, tmp_path
):
    from longread.store.cache import ResponseCache

    history = ResponseCache(tmp_path / "cache" / "responses.sqlite")
    for n in range(8):  # (this machine's past calls of the model: 400 s each, whatever the size)
        history.record_call("openai:gpt-4o-mini", "json", (500 + 90 * n, 500 + 90 * n, 40), 400.0)
    history.close()
    with fake_openai([reader_reply] * 50) as server:
        model = ["--model", "openai:gpt-4o-mini", "--base-url", server.url, "--mode", "map"]
        refused = longread("ask", str(contract), QUESTION, *model, cache=tmp_path / "cache")
        assert server.requests == []  # (nothing spent)
        allowed = longread(
            "ask",
            str(contract),
            QUESTION,
            *model,
            "--max-seconds",
            "5000",
            cache=tmp_path / "cache",
        )
    assert refused.returncode == 2 and refused.stdout == ""
    said = refused.stderr.strip().splitlines()[-1]
    assert "predicted to take" in said and "default budget of 900 s" in said
    assert "--max-seconds" in said and "Traceback" not in refused.stderr
    assert allowed.returncode == 0, allowed.stderr
    assert server.requests


def reader_reply(messages: list[dict]) -> str:
    """The scripted server's reply: JSON for the passage readers, else an answer."""
    if "Reply with JSON only" in messages[-1]["content"]:
        return json.dumps({"relevant": False, "summary": ""})
    return "The passages do not say."


def test_each_mode_s_default_budget_depends_on_where_its_root_model_runs():
    from longread.api.asker import bounded, default_seconds

    local, hosted = ScriptedLM(["x"]), ScriptedLM(["x"])
    local.on_cpu = True
    assert default_seconds("base", local) < default_seconds("map", local)
    assert default_seconds("map", local) < default_seconds("map", hosted)
    assert default_seconds("auto", local) == max(default_seconds(m, local) for m in MODES)
    assert bounded(Budget(), hosted, "rlm").max_seconds == default_seconds("rlm", hosted)
    assert bounded(Budget(max_seconds=7), local, "rlm").max_seconds == 7


MODES = ("base", "retrieval", "map", "tree", "refine", "rlm", "aggregate")
