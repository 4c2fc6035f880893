"""The decision gate: which strategy answers, and why."""

from __future__ import annotations

import pytest

from conftest import make_run
from longread.errors import InputError
from longread.llm.scripted import ScriptedLM
from longread.strategies.select import answer_question, choose_mode


def test_gate_by_size_and_ability_to_write_code():
    coder = ScriptedLM([], writes_code=True, context_window=8192)
    weak = ScriptedLM([], writes_code=False, context_window=8192)
    assert choose_mode(6_000, coder)[0] == "base"
    mode, reason = choose_mode(200_000, coder)
    assert mode == "rlm" and "writes code" in reason
    mode, reason = choose_mode(200_000, weak)
    assert mode == "refine" and "cannot drive" in reason


def test_answer_records_the_mode_and_reason():
    events: list = []
    root = ScriptedLM(["It says hello."], writes_code=False)
    answer = answer_question("What does it say?", "hello world", make_run(root, events=events))
    assert answer.mode == "base" and "fits" in answer.reason and answer.text == "It says hello."
    assert events[0].kind == "mode" and events[0].data["mode"] == "base"
    assert "hello world" in root.requests[0].messages[-1]["content"]


def test_unknown_mode():
    with pytest.raises(InputError, match="unknown mode"):
        answer_question("q", "text", make_run(ScriptedLM([])), mode="magic")
