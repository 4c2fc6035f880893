"""The decision gate and the mode registry: which strategy answers, and why."""

from __future__ import annotations

import pytest

from conftest import make_run
from longread.errors import InputError
from longread.llm.local_models import LOCAL_MODELS
from longread.llm.scripted import ScriptedLM
from longread.query.core.plan import Plan
from longread.query.readers.rules.rules import fact_plan
from longread.strategies import competence
from longread.strategies.catalog import modes_for
from longread.strategies.competence import Measured
from longread.strategies.declared import declared
from longread.strategies.modes import answer, choose_mode
from longread.strategies.texts import InMemory


def shaped(question: str) -> Plan:
    """A fact's or a chain's plan (read without a source)."""
    plan = fact_plan(question)
    assert plan is not None
    return plan


def test_gate_by_size_and_ability_to_write_code():
    coder = ScriptedLM([], writes_code=True, context_window=8192)
    weak = ScriptedLM([], writes_code=False, context_window=8192)
    assert choose_mode(6_000, coder)[0] == "base"
    mode, reason = choose_mode(200_000, coder)
    assert mode == "rlm" and "writes code" in reason
    mode, reason = choose_mode(200_000, weak)
    assert mode == "refine" and "cannot drive" in reason


def test_a_measured_model_gets_the_mode_measured_best_for_the_kind_of_question(monkeypatch):
    table = {
        "local:measured": Measured(
            {"fact": "map", "chain": "rlm", "aggregate": "map"}, "map 5/6, rlm 1/6 on facts"
        )
    }
    monkeypatch.setattr(competence, "MEASURED", table)
    coder = ScriptedLM([], writes_code=True, context_window=8192, name="local:measured")
    mode, reason = choose_mode(200_000, coder, "map", plan=shaped("Who hid the brass key?"))
    assert mode == "map" and "fact questions best in map (map 5/6" in reason
    chain = "Who captained the ship that carried the silk?"
    assert choose_mode(200_000, coder, "map", plan=shaped(chain))[0] == "rlm"
    assert choose_mode(200_000, coder, "map", allow_code=False, plan=shaped(chain))[0] == "map"
    assert choose_mode(6_000, coder, plan=shaped("Who hid the key?"))[0] == "base"  # (it fits)


def test_every_local_model_has_a_measured_mode_for_every_kind_of_question():
    for key in LOCAL_MODELS:
        measured = competence.MEASURED[f"local:{key}"]
        assert set(measured.best) == {"fact", "chain", "aggregate"}
        assert set(measured.best.values()) <= set(declared()) and measured.evidence
    small = ScriptedLM([], writes_code=True, context_window=8192, name="local:qwen2.5-coder-0.5b")
    mode, reason = choose_mode(400_000, small, "map", plan=shaped("Who hid the brass key?"))
    assert mode == "rlm" and "answers fact questions best in rlm (measured:" in reason
    chain = "Who captained the ship that carried the silk?"
    assert choose_mode(400_000, small, "map", plan=shaped(chain))[0] == "map"  # (not "writes code")


def test_answer_records_the_mode_and_reason():
    events: list = []
    root = ScriptedLM(["It says hello."], writes_code=False)
    result = answer("What does it say?", InMemory("hello world"), make_run(root, events=events))
    assert result.mode == "base" and "fits" in result.reason and result.text == "It says hello."
    chosen = next(e for e in events if e.kind == "mode")  # (after its records, looked up first)
    assert chosen.data["mode"] == "base"
    assert "hello world" in root.requests[0].messages[-1]["content"]


def test_unknown_mode():
    with pytest.raises(InputError, match="unknown mode"):
        answer("q", InMemory("text"), make_run(ScriptedLM([])), mode="magic")


def test_one_registry_names_the_modes_of_every_source():
    assert modes_for("context") == ("auto", "base", "retrieval", "refine", "rlm", "aggregate")
    assert modes_for("texts") == ("auto", "base", "retrieval", "map", "rlm", "aggregate")
    assert modes_for("document") == ("auto", "base", "retrieval", "map", "tree", "rlm", "aggregate")
    assert modes_for("corpus") == ("auto", "retrieval", "map", "rlm", "aggregate")
    assert all(mode.summary and mode.serves and mode.runners for mode in declared().values())
    assert all(callable(mode.runner(kind)) for mode in declared().values() for kind in mode.runners)


def test_a_budget_stop_keeps_the_mode_and_its_reason():
    from longread.errors import BudgetExceededError
    from longread.llm.usage import Budget

    sub = ScriptedLM(lambda request: "a finding", writes_code=False)
    root = ScriptedLM([], writes_code=False, context_window=2_000)
    run = make_run(root, sub, budget=Budget(max_subcalls=1))
    with pytest.raises(BudgetExceededError) as stopped:
        answer("q", InMemory("word " * 50_000), run)
    assert stopped.value.partial.mode == "refine" and "cannot drive" in stopped.value.partial.reason
