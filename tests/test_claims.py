"""Claims: an answer split into statements, each checked against the spans it cites. A planted
suite (wrong citation, changed digit, swapped name, no citation) against correct claims (quoted,
paraphrased); the sub-model's verdict with --verify in one call (and what it may not overrule);
the claims on the answer object, in the CLI's output and in the web API's JSON."""

from __future__ import annotations

import json
import re

import pytest

from cli import longread
from fake_openai import fake_openai
from longread.answer import Answer, Citation
from longread.api import SingleDocRLM
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.llm.usage import Budget
from longread.strategies.common import Run, RunOptions
from longread.strategies.verify import checked_claims
from longread.text.claims import check_claims, split_claims

TERMINATION = (
    "Either party may terminate this Agreement upon thirty (30) days prior written notice."
)
FEE = "The annual licence fee is $4,500, payable in advance on the first of January."
LAW = "This Agreement is governed by the laws of the State of Delaware."
AUDIT = "The Supplier keeps its records for seven years and opens them to the Customer's auditors."
CITED = [TERMINATION, FEE, LAW, AUDIT]
QUESTION = "What are the main terms of the agreement?"

CORRECT = [
    "Either party may terminate the Agreement on 30 days written notice [1].",  # close to quoted
    "The licence fee of $4,500 a year is paid in advance [2].",  # reworded
    "Delaware law governs the Agreement [3].",  # word order changed
    "Records are kept for seven years and auditors of the Customer may see them [4].",
    "The fee, $4,500, is due in advance [2][1].",  # two citations, one of them holding it
]
PLANTED = [
    "Either party may terminate the Agreement on 30 days written notice [2].",  # wrong citation
    "The annual licence fee is $4,600, payable in advance [2].",  # a digit changed
    "The Agreement is governed by the laws of the State of Texas [3].",  # a name swapped
    "The Supplier keeps its records for seven years [5].",  # cites a passage that is not there
    "Either party may terminate the Agreement on 60 days written notice [1].",
    "The Customer must insure the goods against fire and flood.",  # no citation, nothing holds it
]


@pytest.mark.parametrize("claim", CORRECT)
def test_a_correct_claim_is_supported(claim):
    [checked] = check_claims(claim, CITED, QUESTION)
    assert checked.supported, checked.reason


@pytest.mark.parametrize("claim", PLANTED)
def test_a_planted_wrong_claim_is_unsupported_with_a_reason(claim):
    [checked] = check_claims(claim, CITED, QUESTION)
    assert not checked.supported and checked.reason


@pytest.mark.parametrize(
    ("question", "claim", "supported"),
    [
        ("Is the fee payable in advance?", "Yes, the fee is payable in advance [2].", True),
        ("Is the fee payable in advance?", "The fee is payable in advance [2].", True),
        ("Is the fee paid in arrears?", "The fee is paid in arrears [2].", False),
        ("Does the fee rise every year?", "The fee rises every year [2].", False),
        ("Does a boat come on Fridays?", "Yes, a boat comes on Fridays [2].", False),
    ],
)
def test_a_claim_that_only_restates_a_yes_no_question_needs_all_its_words_cited(
    question, claim, supported
):
    [checked] = check_claims(claim, CITED, question)
    assert checked.supported is supported and (supported or "does not say" in checked.reason)


def test_a_mixed_answer_marks_exactly_the_planted_claims():
    answer = " ".join(CORRECT[:2] + PLANTED[:2]) + "\n\n- " + CORRECT[2] + "\n- " + PLANTED[2]
    claims = check_claims(answer, CITED, QUESTION)
    assert [c.supported for c in claims] == [True, True, False, False, True, False]
    for claim in claims:  # each claim's span in the answer is the claim's text
        assert answer[claim.start : claim.end] == claim.text
    assert claims[3].reason == "the cited text does not state 4600"
    assert claims[5].reason == "the cited text does not name Texas"


def test_an_unmarked_claim_rests_on_the_citation_that_holds_it_and_none_is_dropped():
    answer = "The licence fee is $4,500 a year. The Customer must insure the goods."
    first, second = check_claims(answer, CITED, QUESTION)
    assert first.supported and first.citations == [2]
    assert not second.supported and second.citations == []
    assert "none of the 4 citations" in second.reason
    [alone] = check_claims("The Customer must insure the goods.", [], QUESTION)
    assert not alone.supported and alone.reason == "cites nothing"


def test_headings_notes_and_not_found_lines_are_not_claims():
    answer = (
        "Other findings:\n[2] (Payment) The fee is $4,500.\n"
        "(Answered from 8 of 20 passages, chosen by relevance.)\nNot mentioned.\n"
        "See Sec. 4 of the Agreement. It ends in 2027."
    )
    assert [c.text for c in split_claims(answer)] == [
        "[2] (Payment) The fee is $4,500.",
        "See Sec. 4 of the Agreement.",
        "It ends in 2027.",
    ]


# --- the sub-model as judge (--verify) ---------------------------------------------------------


def judged_run(judge: ScriptedLM, **budget) -> Run:
    return Run(ScriptedLM([]), judge, Gateway(budget=Budget(**budget)), RunOptions(verify=True))


def answer_of(text: str) -> Answer:
    return Answer(text, "retrieval", [Citation("doc", 0, len(t), t) for t in CITED])


def test_verify_judges_every_cited_claim_in_one_call_and_no_verdict_overrules_the_facts():
    paraphrase = "Either side can end the deal by telling the other a month ahead [1]."
    text = f"{paraphrase} {PLANTED[1]} {PLANTED[0]} {PLANTED[5]}"

    def judge(request):  # says "supported" to everything it is shown
        shown = request.messages[-1]["content"]
        count = shown.count("\nSource ")
        return json.dumps([{"claim": n, "supported": True} for n in range(1, count + 1)])

    sub = ScriptedLM(judge)
    assert not check_claims(text, CITED, QUESTION)[0].supported  # the words alone miss it
    claims = checked_claims(answer_of(text), QUESTION, judged_run(sub))
    assert len(sub.requests) == 1
    shown = sub.requests[0].messages[-1]["content"]
    assert "end the deal" in shown  # judged: the words missed it, the judge holds it
    assert "4,600" not in shown and "30 days" not in shown  # numbers not in the span: not judged
    assert "insure" not in shown  # nor a claim that cites nothing
    assert [c.supported for c in claims] == [True, False, False, False]


def test_the_judge_can_reject_what_the_words_accept():
    sub = ScriptedLM([json.dumps([{"claim": 1, "supported": False, "reason": "not stated"}])])
    [claim] = checked_claims(answer_of(CORRECT[0]), QUESTION, judged_run(sub))
    assert not claim.supported and claim.reason == "not stated"


def test_an_unreadable_verdict_or_a_spent_budget_leaves_the_check_by_words(tmp_path):
    events = []
    sub = ScriptedLM(["no idea", "still not JSON"])
    run = judged_run(sub)
    run.on_event = events.append
    claims = checked_claims(answer_of(CORRECT[0] + " " + PLANTED[0]), QUESTION, run)
    assert [c.supported for c in claims] == [True, False] and len(sub.requests) == 2
    assert any(e.kind == "warning" and "by their words" in e.data["text"] for e in events)
    spent = ScriptedLM([json.dumps([{"claim": 1, "supported": False}])])
    claims = checked_claims(answer_of(CORRECT[0]), QUESTION, judged_run(spent, max_subcalls=0))
    assert claims[0].supported and spent.requests == []


# --- end to end ----------------------------------------------------------------------------------


def contract(tmp_path):
    path = tmp_path / "contract.md"
    sections = ["Termination", "Fees", "Law", "Audit"]
    path.write_text(
        "\n\n".join(
            f"# {name}\n\n{text}\n\n" + "Filler about the parties. " * 200
            for name, text in zip(sections, CITED, strict=True)
        )
    )
    return path


def citing_root(messages: list[dict]) -> str:
    """A root model answering from the numbered passages: the fee cited right, the notice period
    cited to the passage on the governing law."""
    passages = dict(
        re.findall(r"\[(\d+)\] \(.*?\)\n(.*?)(?=\n\n\[\d+\] \(|$)", messages[-1]["content"], re.S)
    )
    fee, law = (
        next(n for n, text in passages.items() if w in text) for w in ("$4,500", "Delaware")
    )
    return f"The licence fee is $4,500 a year [{fee}]. Notice of termination is 30 days [{law}]."


ASKED = "What are the licence fee, the notice of termination and the governing law?"


def test_the_api_answer_carries_its_claims(tmp_path):
    root = ScriptedLM(lambda request: citing_root(request.messages))
    rlm = SingleDocRLM(
        contract(tmp_path),
        root,
        cache=False,
        mode="retrieval",
        store_path=tmp_path / "index.sqlite",
    )
    answer = rlm.query(ASKED)
    fee, notice = answer.claims
    assert fee.supported and FEE in answer.citations[fee.citations[0] - 1].text
    assert not notice.supported and "Delaware" in answer.citations[notice.citations[0] - 1].text
    assert answer.to_dict()["claims"][1]["supported"] is False


def test_the_cli_marks_the_unsupported_claim_and_counts_the_supported(tmp_path):
    path = contract(tmp_path)
    with fake_openai([citing_root] * 2) as server:
        options = ["--mode", "retrieval", "--model", "openai:scripted", "--base-url", server.url]
        shown = longread("ask", str(path), ASKED, *options, cache=tmp_path / "cache")
        as_json = longread(
            "ask", str(path), ASKED, *options, "--json", "--no-cache", cache=tmp_path / "cache"
        )
    assert shown.returncode == 0, shown.stderr
    assert "Notice of termination is 30 days [2]. ⚠2" in shown.stdout
    assert "\n⚠2 unsupported: the cited text does not state 30\n" in shown.stdout
    assert "1 of 2 claims supported" in shown.stdout and "⚠1" not in shown.stdout
    claims = json.loads(as_json.stdout)["claims"]
    assert [c["supported"] for c in claims] == [True, False] and claims[0]["citations"] == [1]


def test_a_note_in_brackets_is_not_cut_at_its_full_stops():
    answer = (
        "“Comes toward Dunsinane.” (SCENE V. Dunsinane. Within the castle.)\n"
        "He left (see Act I. Scene 2.) at dawn. Then he slept."
    )
    assert [c.text for c in split_claims(answer)] == [
        "“Comes toward Dunsinane.” (SCENE V. Dunsinane. Within the castle.)",  # a quote line, whole
        "He left (see Act I. Scene 2.) at dawn.",
        "Then he slept.",
    ]


ORDERS = "order,item,quantity\n17,deck paint,4\n18,bilge pump,14\n19,deck paint,10\n"


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("The total quantity ordered of deck paint is 14 [1].", False),  # 14 is the bilge pump's
        ("Order 19 was for 10 units of deck paint [1].", True),
        ("The bilge pump order was for 14 [1].", True),
    ],
)
def test_a_number_must_stand_for_what_the_claim_says_it_is(claim, supported):
    question = "What is the total quantity ordered of deck paint?"
    [checked] = check_claims(claim, [ORDERS], question)
    assert checked.supported is supported, checked.reason
    if not supported:
        assert "of something else" in checked.reason


def test_a_computed_value_is_supported_by_the_count_not_by_a_row_holding_the_number():
    counted = Answer(
        text="14 orders of deck paint.\n\nThe orders counted: 17, 19.",
        mode="aggregate",
        citations=[Citation("orders.csv", 0, 40, "18,bilge pump,14")],
        computed="2 orders of deck paint.",
    )
    run = Run(ScriptedLM([]), ScriptedLM([]), Gateway())
    first = checked_claims(counted, "How many orders of deck paint are there?", run)[0]
    assert not first.supported and "not what code counted" in first.reason


def test_the_count_s_own_sentences_are_supported_and_a_changed_figure_is_not():
    computed = (
        "6 orders in all; Ada has 3.\n\nCounted by code over the whole text: count over orders "
        "where section is Orders, by customer (count).\n- Bob: 2"
    )
    counted = Answer(
        text=f"{computed}\n- Bob: 5",
        mode="aggregate",
        citations=[Citation("ledger.md", 0, 16, "| 1 | Ada | 4 |")],
        computed=computed,
    )
    run = Run(ScriptedLM([]), ScriptedLM([]), Gateway())
    claims = checked_claims(counted, "How many orders did each customer place?", run)
    held = {" ".join(c.text.split()): c.supported for c in claims}
    assert held.pop("- Bob: 5") is False
    assert held and all(held.values()), held  # (the method's sentence among them)


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("- web27: 1,297", True),  # (a group named with digits, its own figure)
        ("- web27: 1,290", False),  # (a figure the count does not state)
        ("- web09: 1,309", True),
    ],
)
def test_each_group_of_a_counted_list_is_held_by_its_own_line(claim, supported):
    computed = "2,606 log lines in all; web09 has 1,309.\n\n- web09: 1,309\n- web27: 1,297"
    [checked] = check_claims(claim, [computed], "How many log lines are errors, per host?")
    assert checked.supported is supported, checked.reason


PACKER = (  # a manual of our own: the words of a wrong answer are there, never together
    "pack - put files into a compressed archive. pack stores each file with its path and "
    "can store a whole tree of directories when asked to recurse. "
    + "Paths are kept as given, and links are followed only on request. "
    * 4
    + "To read an archive back, use unpack, which restores every file it holds. Files that "
    "are empty are stored too, and a name may be removed from an archive with --delete."
)
SHELL_VARIABLES = (
    "HISTFILE\n    The name of the file in which command history is saved. The default value "
    "is ~/.shell_history.\n"
    + "HISTIGNORE\n    A list of patterns deciding which lines the history keeps or drops.\n"
    * 4
    + "HISTSIZE\n    The number of commands to remember in the command history. The default "
    "value is 500.\n"
)
LICENCE_HEAD = (
    "WIDGET PUBLIC LICENCE\nVersion 2, 1 March 2026\n\nCopyright (C) 2026 Widget Foundation "
    "<https://wf.example.org/>\nEveryone may copy this licence. The Widget Public Licence is "
    "free."
)


@pytest.mark.parametrize(
    ("question", "claim", "cited", "reason"),
    [
        (
            "Which command removes empty directories?",
            "The command to remove empty directories is unpack [1].",
            PACKER,
            "not together",
        ),
        ("What is HISTSIZE?", "HISTSIZE is ~/.shell_history [1].", SHELL_VARIABLES, "together"),
        (
            "Who is the chief of the Widget Foundation?",
            "The chief of the Widget Foundation is the chief of the Widget Public Licence [1].",
            LICENCE_HEAD,
            "itself",
        ),
        ("What does HISTSIZE hold?", "HISTSIZE holds [1].", SHELL_VARIABLES, "restates"),
    ],
)
def test_words_scattered_or_a_thing_said_to_be_itself_support_nothing(
    question, claim, cited, reason
):
    [checked] = check_claims(claim, [cited], question)
    assert not checked.supported and reason in checked.reason


@pytest.mark.parametrize(
    ("question", "claim"),
    [
        ("What is HISTSIZE?", "HISTSIZE is the number of commands to remember [1]."),
        ("What is the default value of HISTSIZE?", "HISTSIZE defaults to 500 [1]."),
        ("Which program reads an archive back?", "unpack restores the files of an archive [1]."),
    ],
)
def test_a_claim_stated_where_its_subject_stands_is_supported(question, claim):
    [checked] = check_claims(claim, [SHELL_VARIABLES + "\n" + PACKER], question)
    assert checked.supported, checked.reason


def test_a_quote_line_is_checked_as_a_quote_whatever_its_label_holds():
    found = "The default value is 500. [1]"
    for label in ("(Part 2)", "(shell-3.txt)", "(§ 8.2)"):
        quote_line = f"“The number of commands to remember in the command history.” {label}"
        claims = check_claims(f"{found}\n{quote_line}", [SHELL_VARIABLES], "What is HISTSIZE?")
        assert [c.supported for c in claims] == [True, True], [c.reason for c in claims]
    cut = "“The number of commands to remember in the…” (Part 2)"
    assert check_claims(cut, [SHELL_VARIABLES], "What is HISTSIZE?")[0].supported
    invented = "“The number of commands to forget in the command history.” (Part 2)"
    [checked] = check_claims(invented, [SHELL_VARIABLES], "What is HISTSIZE?")
    assert not checked.supported and "quote" in checked.reason


def test_a_claim_repeated_in_a_loop_counts_once():
    looped = "The default value of HISTSIZE is 500 [1]. " * 42
    claims = check_claims(looped, [SHELL_VARIABLES], "What is the default of HISTSIZE?")
    assert len(claims) == 1 and claims[0].supported


def test_verify_says_at_once_that_a_tiny_sub_model_cannot_judge():
    events: list = []
    tiny = ScriptedLM(["[]"], writes_code=False)
    run = judged_run(tiny)
    run.on_event = events.append
    claims = checked_claims(answer_of(CORRECT[0] + " " + PLANTED[0]), QUESTION, run)
    assert [c.supported for c in claims] == [True, False] and tiny.requests == []
    [warning] = [e for e in events if e.kind == "warning"]
    assert "needs a sub-model able to judge" in warning.data["text"]
