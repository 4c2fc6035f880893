"""Bridges, comparisons and questions whether two things are both so, answered in steps: the
model that states answers reads the question's shape, each step searches for its own question and
states its answer from the sentences found (kept only where code finds the sentence it rests on),
and code compares a comparison's values or says whether both are so. Every step that fails leaves
the question to the reading of passages."""

from __future__ import annotations

import json
import re

import pytest

from longread.api import MultiDocRLM, RunOptions
from longread.llm.scripted import ScriptedLM
from longread.strategies.fact_shape import SHAPE_SCHEMA, SINGLE, Kind, Pick, checked
from longread.strategies.shaped import _order, value_of
from longread.strategies.stated import STATE_SCHEMA
from longread.strategies.verify import checked_claims
from test_document_strategies import run_with

DOCS = {
    "alpha.md": "Alpha Editor is a text editor for the console. It was first released in 1994.",
    "beta.md": "Beta Viewer shows pictures in a window. Its first release came out in 2001.",
    "gamma.md": "Gamma Shell is a front end to the Delta Engine. It adds menus.",
    "delta.md": "The Delta Engine does the work of several tools. It was written by Mara Quell.",
    "filler.md": "Many programs are released every year. A window shows a picture.",
}
COMPARED = {"shape": "comparison", "sides": ["Alpha Editor", "Beta Viewer"], "measure":
            "first release year", "pick": "earlier", "yes_no": False}  # fmt: skip
BRIDGED = {
    "shape": "bridge",
    "first": "What is Gamma Shell a front end to?",
    "then": "Who wrote #1?",
}
ANSWERS = {"came out first": "Alpha Editor", "is newer": "Beta Viewer", "out before": "No",
           "Alpha Editor": "1994", "Beta Viewer": "2001", "Gamma Shell": "the Delta Engine",
           "the Delta Engine": "Mara Quell"}  # fmt: skip
# (a step's answer by the first of these its question holds: the question as asked, then a side)
BOTH = {"shape": "both", "sides": ["Alpha Editor", "Beta Viewer"],
        "then": "Does #1 run in the console?"}  # fmt: skip
CONSOLE = {"Alpha Editor": "yes", "Beta Viewer": "no"}


@pytest.fixture
def folder(tmp_path):
    folder = tmp_path / "programs"
    folder.mkdir()
    for name, text in DOCS.items():
        (folder / name).write_text(text + "\n", "utf-8")
    return folder


def model(shape, answers=ANSWERS):
    """A model that reads the question as `shape` (a dict, or a reply as it is), states each
    step's answer from the passage shown that holds it (`answers`: by a name the step's question
    holds), and reads passages as a small model does."""

    def respond(request) -> str:
        shown = request.messages[-1]["content"]
        if request.json_schema == SHAPE_SCHEMA:
            return json.dumps(shape) if isinstance(shape, dict) else shape
        if request.json_schema == STATE_SCHEMA:
            question = shown.split("Question: ", 1)[1].split("\n", 1)[0]
            answer = next((a for name, a in answers.items() if name in question), "")
            passages = re.findall(r"^\[(\d+)\] .*$", shown.split("\n\nQuestion:")[0], re.M)
            holding = [int(n) for n in passages if answer and answer in _passage(shown, n)]
            return json.dumps({"passage": holding[0] if holding else 1, "answer": answer})
        return "NONE"

    return ScriptedLM(respond, writes_code=False, writes_queries=True, context_window=4096)


def _passage(shown: str, number: str) -> str:
    return shown.split(f"[{number}] ", 1)[1].split("\n\n[", 1)[0]


def ask(folder, tmp_path, lm, question):
    options = RunOptions(answer_model="auto")
    with MultiDocRLM(
        folder, lm, lm, store_path=tmp_path / "c.sqlite", cache=False, options=options
    ) as rlm:
        return rlm.query(question, "map")


def quotes_hold(answer, folder, question) -> None:
    """Every quote the answer shows is its citation's text, as the file holds it there, and each
    claim is held by its citations or by what code compared."""
    for claim in checked_claims(answer, question, run_with(None, None)):
        assert claim.supported, (claim.text, claim.reason)
    for citation in answer.citations:
        text = (folder / citation.doc_id).read_text("utf-8")
        assert text[citation.start : citation.end] == citation.text
    for quote in re.findall(r"“(.+?)”", answer.text):
        assert any(quote == " ".join(c.text.split()) for c in answer.citations), quote


def test_a_comparison_states_each_side_and_code_picks_the_earlier(folder, tmp_path):
    lm = model(COMPARED)
    question = "Which came out first, Alpha Editor or Beta Viewer?"
    answer = ask(folder, tmp_path, lm, question)
    lead, sides = answer.text.split("\n\n")
    assert lead == "Alpha Editor (1994, against 2001) [1][2]"
    alpha, beta = sides.splitlines()
    assert alpha.startswith("Alpha Editor: 1994 [1] “It was first released in 1994.”")
    assert beta.startswith("Beta Viewer: 2001 [2] “Its first release came out in 2001.”")
    assert [c.doc_id for c in answer.citations] == ["alpha.md", "beta.md"]
    assert answer.stats["shape"] == "comparison"
    quotes_hold(answer, folder, question)
    later = model({**COMPARED, "pick": "later"})
    assert ask(
        folder, tmp_path, later, "Which is newer, Alpha Editor or Beta Viewer?"
    ).text.startswith("Beta Viewer (2001, against 1994) [1][2]")


def test_a_yes_or_no_comparison_says_whether_the_first_side_is_picked(folder, tmp_path):
    shape = {**COMPARED, "sides": ["Beta Viewer", "Alpha Editor"], "yes_no": True}
    question = "Was Beta Viewer out before Alpha Editor?"
    answer = ask(folder, tmp_path, model(shape), question)
    assert answer.text.startswith("No [1][2]\n\nBeta Viewer: 2001 [1]")
    quotes_hold(answer, folder, question)


def test_a_bridge_finds_what_the_question_names_by_a_fact_then_answers_about_it(folder, tmp_path):
    lm = model(BRIDGED)
    question = "Who wrote the engine that Gamma Shell is a front end to?"
    answer = ask(folder, tmp_path, lm, question)
    lead, through = answer.text.split("\n\n")
    assert lead == "Mara Quell [1]\n“It was written by Mara Quell.” (delta.md)"
    assert through.startswith("Through [2] “Gamma Shell is a front end to the Delta Engine.”")
    assert [c.doc_id for c in answer.citations] == ["delta.md", "gamma.md"]
    stated = [r for r in lm.requests if r.json_schema == STATE_SCHEMA]
    assert "Question: Who wrote the Delta Engine?" in stated[1].messages[-1]["content"]
    quotes_hold(answer, folder, question)


def test_a_bridge_whose_answer_rests_on_a_passage_not_naming_its_bridge_is_not_stated(
    folder, tmp_path
):
    (folder / "engines.md").write_text("Who wrote the engine? Ferro Vane wrote the engine.\n")
    answers = {**ANSWERS, "the Delta Engine": "Ferro Vane"}
    answer = ask(folder, tmp_path, model(BRIDGED, answers), "Who wrote Gamma Shell's engine?")
    assert "Ferro Vane [1]" not in answer.text and "Through [2]" not in answer.text


def test_whether_both_are_so_is_asked_of_each_side_and_yes_only_where_both_are(folder, tmp_path):
    question = "Do Alpha Editor and Beta Viewer both run in the console?"
    lm = model(BOTH, CONSOLE)
    answer = ask(folder, tmp_path, lm, question)
    lead, sides = answer.text.split("\n\n")
    assert lead == "No [1][2]"
    alpha, beta = sides.splitlines()
    assert alpha.startswith("Alpha Editor: Yes [1] “Alpha Editor is a text editor for")
    assert beta.startswith("Beta Viewer: No [2] “Beta Viewer shows pictures in a window.”")
    assert answer.stats["shape"] == "both"
    stated = [r.messages[-1]["content"] for r in lm.requests if r.json_schema == STATE_SCHEMA]
    assert [s.split("Question: ")[1] for s in stated] == [
        "Does Alpha Editor run in the console?",
        "Does Beta Viewer run in the console?",
    ]
    quotes_hold(answer, folder, question)
    both_yes = ask(folder, tmp_path, model(BOTH, {**CONSOLE, "Beta Viewer": "yes"}), question)
    assert both_yes.text.startswith("Yes [1][2]\n\n")


@pytest.mark.parametrize(
    "answers",
    [
        {**CONSOLE, "Beta Viewer": "a window"},  # (a side not answered yes or no)
        {**CONSOLE, "Beta Viewer": ""},  # (nothing stated of a side)
    ],
)
def test_a_both_whose_side_is_not_answered_yes_or_no_leaves_it_to_the_passages(
    folder, tmp_path, answers
):
    answer = ask(folder, tmp_path, model(BOTH, answers), "Do both run in the console?")
    assert "shape" not in answer.stats and "[1][2]" not in answer.text


@pytest.mark.parametrize(
    "shape, answers",
    [
        (COMPARED, {**ANSWERS, "Beta Viewer": "a while ago"}),  # a value code cannot compare
        (COMPARED, {**ANSWERS, "Beta Viewer": "1994"}),  # a tie (and no sentence holds it)
        (COMPARED, {**ANSWERS, "Beta Viewer": "1990"}),  # a value no sentence bears out
        (BRIDGED, {**ANSWERS, "the Delta Engine": ""}),  # the second step states nothing
        ({**COMPARED, "sides": ["Alpha Editor", "Omega Tool"]}, ANSWERS),  # a side not asked of
        ({**BRIDGED, "then": "Who wrote it?"}, ANSWERS),  # no place for the first answer
        ('{"shape": "comparison", "sides": ', ANSWERS),  # not JSON, twice
        (COMPARED, {**ANSWERS, "came out first": "Beta Viewer"}),  # the model and code disagree
        (COMPARED, {**ANSWERS, "came out first": "Yes"}),  # (a yes or no, not asked whether)
        (COMPARED, {**ANSWERS, "Alpha Editor": "2001", "Beta Viewer": "1994"}),  # (each stated
        # from the other side's passage)
    ],
)
def test_a_step_that_fails_leaves_the_question_to_the_passages(folder, tmp_path, shape, answers):
    lm = model(shape, answers)
    answer = ask(folder, tmp_path, lm, "Which came out first, Alpha Editor or Beta Viewer?")
    assert "shape" not in answer.stats and "[1][2]" not in answer.text
    assert answer.citations  # (the passages' best sentences, as before)


def test_the_shape_read_is_checked_by_code():
    question = "Which came out first, Alpha Editor or Beta Viewer?"
    read = checked(question, COMPARED)
    assert (read.kind, read.sides, read.pick) == (
        Kind.COMPARISON,
        ("Alpha Editor", "Beta Viewer"),
        Pick.EARLIER,
    )
    assert checked(question, {**COMPARED, "sides": ["Alpha Editor", "Alpha Editor"]}) == SINGLE
    assert checked(question, {**COMPARED, "pick": "bigger"}) == SINGLE
    assert checked(question, {**COMPARED, "sides": ["Alpha Editor"]}) == SINGLE
    bridge = checked("Who wrote it?", BRIDGED)
    assert bridge.kind is Kind.BRIDGE and bridge.second("Delta") == "Who wrote Delta?"
    assert checked("Who wrote it?", {**BRIDGED, "first": " "}) == SINGLE
    again = {**BRIDGED, "first": "Who wrote Quill, then?"}  # (the question again: no first step)
    assert checked("Who wrote Quill?", again) == SINGLE
    clause = ["Alpha Editor", "the editor that was first released in the year 1994"]
    assert (
        checked(f"Which is older, {clause[0]} or {clause[1]}?", {**COMPARED, "sides": clause})
        == SINGLE
    )
    assert checked("Who wrote it?", {"shape": "single", "first": "x"}) == SINGLE
    asked = "Do Alpha Editor and Beta Viewer both run in the console?"
    read = checked(asked, BOTH)
    assert (read.kind, read.second("Beta Viewer")) == (
        Kind.BOTH,
        "Does Beta Viewer run in the console?",
    )
    assert checked(asked, {**BOTH, "then": "Does it run in the console?"}) == SINGLE
    assert checked(asked, {**BOTH, "sides": ["Alpha Editor", "Gamma Shell"]}) == SINGLE


def test_values_code_compares():
    assert value_of("March 5, 2019") == ("date", "2019-03-05")
    assert value_of("in 1994") == ("date", "1994")
    assert _order(value_of("the 1940s"), value_of("1941")) is None  # (a decade is no year)
    assert value_of("1,200 pages") == ("amount", 1200.0)
    assert value_of("version 5.0") == ("amount", 5.0)
    assert value_of("long ago") is None
    assert _order(("date", "1994"), ("date", "2001-02-03")) == -1
    assert _order(("date", "2001"), ("date", "2001-02-03")) is None  # (as coarse as a year)
    assert _order(("amount", 80.0), ("amount", 72.0)) == 1
    assert _order(("amount", 1994.0), ("date", "1994")) is None
