"""The code-writing root loop, driven by a scripted root model."""

from __future__ import annotations

import json

import pytest

from conftest import make_run
from longread.answer import usage_line
from longread.api import SingleDocRLM
from longread.errors import BudgetExceededError
from longread.events import JsonlTrace, fan_out
from longread.llm.scripted import ScriptedLM
from longread.llm.usage import Budget
from longread.strategies.rlm import NO_CODE, RLMLoop, _fit_history, code_blocks
from test_document_strategies import write_contract

CONTEXT = (
    "Intro.\n\n"
    + "Filler paragraph about nothing in particular.\n\n" * 400
    + "The secret launch code is 7-4-1-9.\n\n"
    + "More filler text.\n\n" * 300
)


def repl(code: str) -> str:
    return f"Let me look.\n```repl\n{code}\n```"


def test_code_block_parsing():
    assert code_blocks("```repl\na = 1\n```\ntext\n```python\nb = 2\n```") == ["a = 1\n", "b = 2\n"]
    assert code_blocks("```\nprint(1)\n```") == ["print(1)\n"]
    assert code_blocks('```json\n{"a": 1}\n```') == []
    assert code_blocks('FINAL("42")') == ['FINAL("42")']
    assert code_blocks("The answer is 42.") == []
    assert code_blocks("```repl\nx = 1\n") == ["x = 1\n"], "an unclosed last block still counts"


def test_final_from_code_after_exploring():
    root = ScriptedLM(
        [
            repl("hits = grep('launch code')\nprint(hits[0]['snippet'])"),
            repl(
                "import re\ncode = re.search(r'code is ([0-9-]+)', context).group(1)\nFINAL(code)"
            ),
        ]
    )
    answer = RLMLoop(make_run(root), CONTEXT).answer("What is the launch code?")
    assert answer.text == "7-4-1-9" and answer.mode == "rlm" and answer.stats["turns"] == 2
    assert "7-4-1-9" in root.requests[1].messages[-1]["content"], (
        "the grep output went back to the model"
    )


def test_final_var():
    root = ScriptedLM([repl("n = context.count('Filler')\nFINAL_VAR('n')")])
    assert RLMLoop(make_run(root), CONTEXT).answer("How many filler paragraphs?").text == "400"


def test_reply_without_code_is_told_so():
    root = ScriptedLM(
        [
            "I think it is 7.",
            repl("print(len(context))"),
            "I think the answer is 7.",
            repl("FINAL('7-4-1-9' if context else '')"),
        ]
    )
    answer = RLMLoop(make_run(root), CONTEXT).answer("What is the launch code?")
    assert answer.text == "7-4-1-9"
    before_looking = root.requests[1].messages[-1]["content"]
    assert "nothing has looked" in before_looking and "search('launch code', k=3)" in before_looking
    told = root.requests[3].messages[-1]["content"]
    assert told == NO_CODE.format(answer="I think the answer is 7.")
    assert "FINAL('I think the answer is 7.')" in told


def test_out_of_turns_returns_the_last_word_not_a_code_fence():
    root = ScriptedLM([repl(f"x = {n}") for n in range(3)] + ["My best answer: 7-4-1-9"])
    answer = RLMLoop(make_run(root, max_iterations=3), CONTEXT).answer("q")
    assert answer.text == "My best answer: 7-4-1-9" and answer.stopped_by == "max_iterations"
    assert "used all your turns" in root.requests[-1].messages[-1]["content"]
    fenced = ScriptedLM([repl("x = 1"), "```python\nprint('no final here')\n```"])
    text = RLMLoop(make_run(fenced, max_iterations=1), CONTEXT).answer("q").text
    assert "```" not in text


def test_infinite_loop_is_killed_and_the_run_continues():
    root = ScriptedLM(
        [repl("while True:\n    pass"), repl("FINAL('recovered' if context else '')")]
    )
    answer = RLMLoop(make_run(root, cell_timeout=1.0), CONTEXT).answer("q")
    assert answer.text == "recovered" and answer.stats["restarts"] == 1
    feedback = root.requests[1].messages[-1]["content"]
    assert "longer than 1 s" in feedback and "variable you defined is gone" in feedback


def test_llm_query_with_a_slice_and_hypothesis_tools():
    sub = ScriptedLM(
        lambda request: (
            "sub saw: " + ("7-4-1-9" if "7-4-1-9" in request.messages[-1]["content"] else "nothing")
        )
    )
    root = ScriptedLM(
        [
            repl(
                "sid = grep('launch')[0]['slice_id']\n"
                "update_hypothesis('unknown')\n"
                "update_hypothesis(llm_query('What is the code?', slice_id=sid))\n"
                "FINAL(get_hypothesis() + ' | ' + str(get_hypothesis_history()) + ' | ' "
                "+ str(len(list_slices())))"
            )
        ]
    )
    answer = RLMLoop(make_run(root, sub), CONTEXT).answer("q")
    text, history, slices = answer.text.split(" | ")
    assert text == "sub saw: 7-4-1-9" and history == "['unknown']" and int(slices) > 1
    assert sub.requests[0].messages[-1]["content"].startswith("Context (chunk_")


def test_recursion_starts_a_child_one_level_deeper_and_traces_it(tmp_path):
    root = ScriptedLM(
        [
            repl("FINAL(rlm_query('Find the code', context[-20000:]))"),  # depth 0
            repl("import re\nFINAL('child found ' + re.search(r'is ([0-9-]+)', context).group(1))"),
        ]
    )  # depth 1
    events: list = []
    trace_path = tmp_path / "trace.jsonl"
    with JsonlTrace(trace_path) as trace:
        run = make_run(root, sink=fan_out(events.append, trace), max_depth=2)
        answer = RLMLoop(run, CONTEXT).answer("q")
    assert answer.text == "child found 7-4-1-9"
    assert [(row["depth"], row["calls"]) for row in answer.usage["by_depth"]] == [(0, 1), (1, 1)]
    assert answer.usage["subcalls"] == 1  # the child's turn is its parent's sub-call
    assert "depth 0: 1 calls, 1: 1 calls" in usage_line(answer.usage)
    lines = [json.loads(line) for line in trace_path.read_text().splitlines()]
    kinds = [(e["kind"], e["depth"]) for e in lines]
    assert ("root_turn", 0) in kinds and ("root_turn", 1) in kinds and ("final", 1) in kinds
    assert kinds.index(("root_turn", 1)) < kinds.index(("final", 1)) < kinds.index(("final", 0))
    assert any(e["kind"] == "llm_end" and "child found" in e["reply"] for e in lines)


def test_depth_limit_turns_rlm_query_into_a_plain_sub_call():
    sub = ScriptedLM(lambda request: "plain sub answer")
    root = ScriptedLM([repl("FINAL(rlm_query('Find it'))")])
    answer = RLMLoop(make_run(root, sub), CONTEXT).answer("q")  # max_depth 1: one RLM level
    assert answer.text == "plain sub answer"


def test_budget_stops_the_run_with_the_partial_answer():
    sub = ScriptedLM(lambda request: "partial finding")
    root = ScriptedLM(
        [
            repl(
                "for s in list_slices():\n    update_hypothesis(llm_query('q', slice_id=s))\n"
                "FINAL('never')"
            )
        ]
    )
    with pytest.raises(BudgetExceededError) as caught:
        RLMLoop(make_run(root, sub, budget=Budget(max_subcalls=2)), CONTEXT).answer("q")
    assert caught.value.limit == "max_subcalls"
    assert (
        caught.value.partial.text == "partial finding"
        and caught.value.partial.stopped_by == "max_subcalls"
    )
    assert len(sub.requests) == 2


def test_history_is_trimmed_to_fit_the_window():
    messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "question"}]
    for i in range(20):
        messages += [
            {"role": "assistant", "content": f"code {i} " * 50},
            {"role": "user", "content": f"output {i} " * 50},
        ]
    fitted = _fit_history(messages, 700, lambda text: len(text) // 4)
    assert fitted[0]["content"] == "s" and "earlier messages were dropped" in fitted[1]["content"]
    assert fitted[2]["role"] == "assistant" and fitted[-1]["content"].startswith("output 19")
    assert sum(len(m["content"]) // 4 for m in fitted) <= 700 + 50


def test_a_sub_call_without_context_is_flagged_to_the_model():
    root = ScriptedLM([repl("x = llm_query('What is the launch code?')"), repl("FINAL('done')")])
    RLMLoop(make_run(root, ScriptedLM(lambda request: "a guess")), CONTEXT).answer("q")
    assert "does not see the context" in root.requests[1].messages[-1]["content"]


def test_final_before_looking_at_the_context_is_refused_once():
    root = ScriptedLM([repl("FINAL('a guess')"), repl("FINAL('a guess again')")])
    answer = RLMLoop(make_run(root), CONTEXT).answer("q")
    assert answer.text == "a guess again" and answer.stats["turns"] == 2
    assert "FINAL was refused" in root.requests[1].messages[-1]["content"]


def test_search_ranks_passages_by_relevance():
    root = ScriptedLM(
        [
            repl(
                "hits = search('secret launch code', k=2)\n"
                "FINAL(hits[0]['slice_id'] + '|' + hits[0]['text'])"
            )
        ]
    )
    slice_id, text = RLMLoop(make_run(root), CONTEXT).answer("q").text.split("|", 1)
    assert "The secret launch code is 7-4-1-9." in text and slice_id.startswith("chunk_")


def test_repeating_the_same_code_gets_a_nudge_instead_of_a_rerun():
    events: list = []
    root = ScriptedLM(
        [repl("print(len(context))"), repl("print(len(context))"), repl("FINAL(str(len(context)))")]
    )
    answer = RLMLoop(make_run(root, events=events), CONTEXT).answer("q")
    assert answer.text == str(len(CONTEXT))
    nudge = root.requests[2].messages[-1]["content"]
    assert "already ran exactly this code" in nudge and f"FINAL('{len(CONTEXT)}')" in nudge
    assert (
        sum(e.kind == "code" and e.data["turn"] > 0 for e in events) == 2
    )  # turn 0: the first search


def test_rlm_answers_cite_the_passages_they_rest_on():
    root = ScriptedLM([repl("FINAL('The secret launch code is 7-4-1-9.' if context else '')")])
    answer = RLMLoop(make_run(root), CONTEXT, doc_id="ops.txt").answer(
        "What is the secret launch code?"
    )
    assert [c.doc_id for c in answer.citations] == ["ops.txt"]
    citation = answer.citations[0]
    assert CONTEXT[citation.start : citation.end] == citation.text and "7-4-1-9" in citation.text
    invented = ScriptedLM([repl("FINAL('It is 0000.' if context else '')")])
    assert (
        RLMLoop(make_run(invented), CONTEXT).answer("What is the secret launch code?").citations
        == []
    )


def test_a_root_that_only_repeats_itself_is_asked_for_its_last_word_early():
    root = ScriptedLM([repl("print(len(context))")] * 3 + ["It is 7-4-1-9."] + [repl("x = 2")] * 5)
    answer = RLMLoop(make_run(root, max_iterations=8), CONTEXT).answer("q")
    assert answer.text == "It is 7-4-1-9." and answer.stopped_by == "repeated_code"
    assert answer.stats["turns"] == 3 and len(root.requests) == 4


def test_a_root_that_copies_its_instructions_is_asked_for_its_last_word_not_answered_by_them():
    said = "The harbour master keeps the ledger."

    def lost(request) -> str:  # (a small model, lost: it copies the start of its instructions)
        if "You have used all your turns" in request.messages[-1]["content"]:
            return said
        return request.messages[0]["content"][:300]

    root = ScriptedLM(lost)
    answer = RLMLoop(make_run(root), CONTEXT).answer("Who keeps the ledger?")
    assert answer.text == said and answer.stopped_by == "repeated_code"
    assert len(root.requests) == 3  # (twice lost, then its last word: not every turn)


def test_a_root_lost_to_its_last_word_is_answered_with_the_best_the_loop_has():
    root = ScriptedLM(lambda request: request.messages[0]["content"][:300])
    answer = RLMLoop(make_run(root), CONTEXT).answer("What is the secret launch code?")
    copied = " ".join(root.requests[0].messages[0]["content"].split())[:60]
    assert answer.text and copied not in " ".join(answer.text.split()) and len(root.requests) == 3


def test_an_answer_said_twice_without_code_is_taken(tmp_path):
    said = "Either party may end the agreement after thirty days."
    root = ScriptedLM([said] * 30)
    contract = write_contract(tmp_path / "contract.md")
    with SingleDocRLM(contract, root, cache=False, store_path=tmp_path / "i.sqlite") as rlm:
        answer = rlm.query("Can either party end the agreement?", mode="rlm")
    assert answer.text == said and len(root.requests) == 2
