"""A fact's short answer stated by a stronger model from the passages found, kept only where code
finds the sentence it rests on in the passage it names; else the best finding leads as before."""

from __future__ import annotations

import json

import pytest

from longread.api import RunOptions, SingleDocRLM
from longread.errors import ModelError
from longread.llm.scripted import ScriptedLM
from longread.llm.usage import Budget
from longread.strategies import modes
from longread.strategies.fact_shape import SHAPE_SCHEMA
from longread.strategies.joining import NOT_STATED
from longread.strategies.stated import STATE_SCHEMA, resting
from test_document_strategies import FACT, reads_the_fact, run_with, tools_for, write_contract

QUESTION = "How long is the cure period after notice?"


@pytest.fixture
def contract(tmp_path):
    return write_contract(tmp_path / "contract.md")


def stating(reply):
    """A root model that cannot join findings but states answers: `reply` to the stating
    prompt (a string, or an exception to raise)."""

    def respond(request) -> str:
        if request.json_schema == SHAPE_SCHEMA:
            return '{"shape": "single"}'
        if request.json_schema != STATE_SCHEMA:
            return reads_the_fact(request)
        if isinstance(reply, Exception):
            raise reply
        return reply

    return ScriptedLM(respond, writes_code=False, writes_queries=True, context_window=2048)


def ask(root, contract, tmp_path, question=QUESTION, **options):
    options.setdefault("answer_model", "auto")  # (the tests' default is none)
    tools = tools_for(contract, tmp_path, root)
    return modes.answer(question, tools, run_with(root, root, **options), mode="map")


def stated_calls(root) -> list:
    return [r for r in root.requests if r.json_schema == STATE_SCHEMA]


def test_the_stated_answer_leads_then_the_sentence_it_rests_on(contract, tmp_path):
    root = stating(json.dumps({"passage": 1, "answer": "thirty days"}))
    answer = ask(root, contract, tmp_path)
    first, quote = answer.text.split("\n\n")[0].splitlines()
    assert first == "thirty days [1]"
    assert quote == f"“{FACT}” (3 Termination)"
    cited = answer.citations[0]
    assert contract.read_text(encoding="utf-8")[cited.start : cited.end] == cited.text == FACT
    assert len(stated_calls(root)) == 1
    assert answer.citations == [cited]  # (the finding resting on the same sentence: said once)
    assert "Findings" not in answer.text
    shown = stated_calls(root)[0].messages[-1]["content"]
    assert "[1] (3 Termination)" in shown and FACT in shown and QUESTION in shown


def test_yes_or_no_is_stated_as_such_on_the_sentence_sharing_most_with_the_question(
    contract, tmp_path
):
    root = stating(json.dumps({"passage": 1, "answer": "Yes, either party may."}))
    answer = ask(
        root, contract, tmp_path, "Can either party end the agreement after a cure period?"
    )
    assert answer.text.startswith("Yes [1]\n“Either party may end the agreement")


@pytest.mark.parametrize(
    "reply",
    [
        json.dumps({"passage": 1, "answer": "ninety weeks"}),  # words no sentence holds
        json.dumps({"passage": 7, "answer": "thirty days"}),  # a passage never shown
        json.dumps({"passage": 1, "answer": ""}),  # none answers
        "the cure period is thirty days",  # not JSON, twice
        ModelError("the model server went away"),
    ],
)
def test_an_answer_code_cannot_rest_on_a_sentence_falls_back_to_the_best_finding(
    contract, tmp_path, reply
):
    root = stating(reply)
    answer = ask(root, contract, tmp_path)
    assert answer.text.startswith("The cure period is thirty days after notice. [1]")
    assert NOT_STATED in answer.text and stated_calls(root)
    assert answer.citations[0].text == FACT


def test_nobody_states_an_answer_when_none_is_named(contract, tmp_path):
    root = stating(json.dumps({"passage": 1, "answer": "thirty days"}))
    answer = ask(root, contract, tmp_path, answer_model="none")
    assert answer.text.startswith("The cure period is thirty days after notice. [1]")
    assert NOT_STATED not in answer.text and not stated_calls(root)


def test_a_budget_spent_by_the_reading_leaves_the_best_finding_leading(contract, tmp_path):
    root = stating(json.dumps({"passage": 1, "answer": "thirty days"}))
    answer = ask(root, contract, tmp_path, budget=Budget(max_subcalls=2))  # (its shape, a chunk)
    assert answer.stats["chunks_read"] == 1 and not stated_calls(root)  # (refused by the budget)
    assert answer.text.startswith("The cure period is thirty days after notice. [1]")
    unbounded = stating(json.dumps({"passage": 1, "answer": "thirty days"}))
    assert ask(unbounded, contract, tmp_path).text.startswith("thirty days [1]")


def test_the_sentence_an_answer_rests_on():
    text = "Tar was written in 1979. GNU tar came later, in 1986. It reads tapes."
    asked = "When did GNU tar appear?"
    assert text[slice(*resting("1986", text, asked))] == "GNU tar came later, in 1986."
    assert resting("1990", text, asked) is None  # (no sentence holds it)
    assert resting("GNU", text, "Which came first, GNU tar or star?") is not None
    assert resting("star", text, "Which came first, GNU tar or star?") is None  # (never named)
    assert text[slice(*resting("no", text, "Does it read tapes?"))] == "It reads tapes."


def test_the_dry_run_counts_the_stating_call(contract, tmp_path):
    root = stating(json.dumps({"passage": 1, "answer": "thirty days"}))
    options = RunOptions(max_slices=4, answer_model="auto")
    with SingleDocRLM(
        contract, root, root, cache=False, store_path=tmp_path / "s.sqlite", options=options
    ) as doc:
        [expected] = doc.estimate(QUESTION, ["map"])
        assert root.requests == []
        answer = doc.query(QUESTION, "map")
    assert answer.text.startswith("thirty days [1]")
    assert expected.calls[0] == answer.usage["calls"] == len(root.requests)
    assert len(stated_calls(root)) == 1


def test_the_other_findings_follow_the_stated_answer_numbered_as_their_citations(
    contract, tmp_path
):
    invoices = "Invoices are payable within 45 days of receipt."

    def respond(request) -> str:
        if request.json_schema == STATE_SCHEMA:
            return json.dumps({"passage": 1, "answer": "thirty days"})
        shown = request.messages[-1]["content"]
        if "cure period" in shown:
            return "The cure period is thirty days after notice."
        return invoices if "Invoices" in shown else "NONE"

    root = ScriptedLM(respond, writes_code=False, writes_queries=True, context_window=2048)
    question = "How long is the cure period after notice, and when are invoices payable?"
    answer = ask(root, contract, tmp_path, question)
    lead, rest = answer.text.split("\n\n", 1)
    assert lead.startswith("thirty days [1]\n“Either party may end")
    assert rest.startswith(f"Findings:\n[2] (2 Payment) {invoices}")
    assert [c.text for c in answer.citations] == [FACT, invoices]
