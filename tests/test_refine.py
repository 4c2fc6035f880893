"""The fixed refine strategy: grounded findings, refinement, citations, honesty when not found."""

from __future__ import annotations

import pytest

from conftest import make_run
from longread.errors import BudgetExceededError
from longread.llm.scripted import ScriptedLM
from longread.llm.usage import Budget
from longread.strategies.refine import clean_finding, run_refine

DOC = (
    "Chapter one tells of the harbour town and its fishermen. " * 30
    + "\n\n"
    + "In the spring of 1607 the new bridge over the river Tay was finally opened to carts. "
    + "\n\n"
    + "Chapter two is about the winter markets. " * 60
    + "\n\n"
    + "The bridge toll was set at two pennies per cart by the town council. "
    + "\n\n"
    + "Chapter three describes the old mill. " * 60
)


def reader(request) -> str:
    prompt = request.messages[-1]["content"]
    if prompt.startswith("Question:"):  # the merge prompt
        return "The bridge opened in 1607 and the toll was two pennies per cart."
    text = prompt.split('"""')[1]
    if "1607" in text:
        return "The answer is: The bridge opened in the spring of 1607."
    if "toll" in text:
        return "The toll was two pennies per cart."
    return "NONE"


def test_grounded_findings_refine_the_hypothesis_and_cite_exact_spans():
    events: list = []
    run = make_run(ScriptedLM(reader), events=events, refine_slice_chars=1500, max_slices=20)
    answer = run_refine(
        "When did the bridge open, and what was the toll?", DOC, run, doc_id="town.txt"
    )
    assert answer.text == "The bridge opened in 1607 and the toll was two pennies per cart."
    assert answer.stats["hypothesis_history"] == ["The bridge opened in the spring of 1607."]
    assert [c.doc_id for c in answer.citations] == ["town.txt", "town.txt"]
    for citation in answer.citations:
        assert DOC[citation.start : citation.end] == citation.text
    assert "1607" in answer.citations[0].text and "two pennies" in answer.citations[1].text
    assert [e.data["index"] for e in events if e.kind == "slice"][:2] == [1, 2]


def test_invented_answers_are_dropped():
    liar = ScriptedLM(lambda request: "The bridge was built by Napoleon Bonaparte in 1850.")
    answer = run_refine("Who built the bridge?", DOC, make_run(liar, refine_slice_chars=1500))
    assert answer.text.startswith("Not found") and answer.citations == []
    assert answer.stats["ungrounded"] == answer.stats["slices_read"] > 0


def test_only_the_most_relevant_slices_are_read_and_the_rest_is_reported():
    run = make_run(ScriptedLM(reader), refine_slice_chars=500, max_slices=3)
    answer = run_refine("When did the bridge over the river Tay open?", DOC, run)
    assert answer.stats["slices_read"] == 3 and answer.stats["slices_total"] > 3
    assert (
        "1607" in answer.text and f"{answer.stats['slices_total'] - 3} were not read" in answer.text
    )


def test_budget_stop_carries_the_partial_answer():
    run = make_run(
        ScriptedLM(reader), budget=Budget(max_subcalls=2), refine_slice_chars=1500, max_slices=20
    )
    with pytest.raises(BudgetExceededError) as caught:
        run_refine("When did the bridge open?", DOC, run)
    assert "1607" in caught.value.partial.text and caught.value.partial.stopped_by == "max_subcalls"


def test_dict_contexts_cite_within_their_slice():
    context = {
        "minutes": "The council met on Monday. The toll was set at two pennies per cart.",
        "weather": "It rained all week.",
    }
    answer = run_refine("What was the toll?", context, make_run(ScriptedLM(reader)), doc_id="notes")
    assert answer.citations[0].doc_id == "notes/dict_minutes"
    assert "two pennies" in answer.citations[0].text


def test_a_weak_sub_model_is_shown_only_the_most_relevant_lines():
    weak = ScriptedLM(reader, writes_code=False)
    lines = "\n".join(f"Line {i} talks about the weather and the harvest." for i in range(40))
    doc = lines + "\nIn the spring of 1607 the new bridge over the river Tay was opened.\n" + lines
    answer = run_refine("When did the bridge over the Tay open?", doc, make_run(weak))
    shown = [r.messages[-1]["content"].split('"""')[1].strip() for r in weak.requests]
    assert all(text.count("\n") < 3 for text in shown), "at most three lines per slice"
    assert any("bridge over the river Tay" in text for text in shown)
    assert (
        "1607" in answer.text
        and doc[answer.citations[0].start : answer.citations[0].end] == answer.citations[0].text
    )


def test_focus_can_be_forced_for_a_small_model_behind_a_server():
    served = ScriptedLM(
        reader, writes_code=True
    )  # e.g. a 135M model behind an OpenAI-compatible API
    doc = "\n".join(
        ["Filler about the harvest."] * 30
        + ["In the spring of 1607 the new bridge over the river Tay was opened."]
    )
    answer = run_refine("When did the bridge open?", doc, make_run(served, focus=True))
    assert all(
        r.messages[-1]["content"].split('"""')[1].strip().count("\n") < 3 for r in served.requests
    )
    assert "1607" in answer.text
    unfocused = ScriptedLM(reader, writes_code=True)
    run_refine("When did the bridge open?", doc, make_run(unfocused))
    assert "Filler about the harvest." in unfocused.requests[0].messages[-1]["content"]


def test_clean_finding_drops_a_trailing_line_that_says_nothing():
    assert (
        clean_finding("The answer is: Est9:19 a day of feasting.\n\nThe answer is: NONE\nmore")
        == "Est9:19 a day of feasting."
    )
    assert clean_finding("Answer: 42") == "42" and clean_finding("NONE") == "NONE"
