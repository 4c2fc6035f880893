"""Conversations: a follow-up that earlier answers' passages hold costs one call instead of a
full read (and a recalled claim its passage does not hold sends the question back to the
strategy); the rlm loop keeps its REPL and variables; a named session is saved and resumed; the
CLI answers question after question and lists and removes saved sessions."""

from __future__ import annotations

import json
import re

import pytest

from cli import longread
from fake_openai import fake_openai
from longread.answer import Answer, Citation
from longread.api import RunOptions, SingleDocRLM
from longread.errors import InputError
from longread.llm.scripted import ScriptedLM
from longread.llm.types import Request
from longread.store.sessions import SessionStore
from longread.strategies.conversation import Conversation, Turn, widened
from longread.strategies.texts import TextDoc, TextDocs
from test_document_strategies import SECTIONS, write_contract

FIRST = "How long is the cure period after notice?"
FOLLOW_UP = "Can either party end the agreement?"
TERMINATION = SECTIONS["3 Termination"]


def reader(request: Request) -> str:
    """The sub-model reading a passage: the termination clause is relevant, nothing else."""
    prompt = request.messages[-1]["content"]
    if "cure period" not in prompt:
        return json.dumps({"relevant": False, "summary": ""})
    return json.dumps({"relevant": True, "summary": TERMINATION, "quote": TERMINATION})


def root_saying(recalled: str):
    """A root model joining findings, and answering a follow-up from passages with `recalled`."""

    def reply(request: Request) -> str:
        prompt = request.messages[-1]["content"]
        if "New question:" in prompt:
            return recalled
        return "The cure period is thirty days after notice [1]."

    return reply


@pytest.fixture
def contract(tmp_path):
    return write_contract(tmp_path / "contract.md", fillers=40)


def asker(contract, tmp_path, root, sub, **settings):
    return SingleDocRLM(
        contract,
        root,
        sub,
        cache=False,
        store_path=tmp_path / "i.sqlite",
        options=RunOptions(max_slices=6),
        mode="map",
        **settings,
    )


def asked_cold(contract, tmp_path, question: str) -> Answer:
    """The answer to `question` asked alone, by a new asker."""
    with asker(contract, tmp_path, ScriptedLM(root_saying("")), ScriptedLM(reader)) as rlm:
        return rlm.query(question)


def test_a_follow_up_the_earlier_passages_hold_costs_one_call_instead_of_a_read(contract, tmp_path):
    recalled = "Yes, either party may end the agreement [1]."
    root, sub = ScriptedLM(root_saying(recalled)), ScriptedLM(reader)
    with asker(contract, tmp_path, root, sub) as rlm, rlm.session() as chat:
        first = chat.ask(FIRST)
        assert first.mode == "map" and any(TERMINATION in c.text for c in first.citations)
        second = chat.ask(FOLLOW_UP)
    cold = asked_cold(contract, tmp_path, FOLLOW_UP)
    assert second.mode == "recall" and second.usage["calls"] == 1
    assert cold.mode == "map" and cold.usage["calls"] >= 4  # passages read, then joined
    [cited] = second.citations  # the passage the first answer cited, with its sentences around
    assert second.text == recalled and TERMINATION in cited.text and len(cited.text) > 400
    assert contract.read_text(encoding="utf-8")[cited.start : cited.end] == cited.text
    assert [c.supported for c in second.claims] == [True]
    prompt = root.requests[-1].messages[-1]["content"]
    assert f"Q: {FIRST}" in prompt and TERMINATION in prompt  # the history and its passages


def line_reader(request: Request) -> str:
    """A small sub-model reading a passage a line at a time: the clause, where it is shown."""
    prompt = request.messages[-1]["content"]
    return TERMINATION if TERMINATION in prompt else "NONE"


def small(reply) -> ScriptedLM:
    return ScriptedLM(reply, writes_code=False)


def test_a_small_root_answers_a_follow_up_by_reading_the_earlier_passages_again(contract, tmp_path):
    root, sub = small(root_saying("unused")), small(line_reader)
    with asker(contract, tmp_path, root, sub) as rlm, rlm.session() as chat:
        first = chat.ask(FIRST)
        read_first = len(sub.requests)
        second = chat.ask(FOLLOW_UP)
    cold = asked_cold(contract, tmp_path, FOLLOW_UP)
    reread = sub.requests[read_first:]
    assert second.mode == "recall" and 1 <= len(reread) <= 3 < cold.usage["calls"]
    assert root.requests == []  # (no prompt it cannot follow)
    assert all(FOLLOW_UP in r.messages[-1]["content"] for r in reread)
    assert second.text.startswith(TERMINATION.rstrip(".")) and first.citations
    [cited] = second.citations
    assert TERMINATION in cited.text and second.claims and all(c.supported for c in second.claims)
    assert contract.read_text(encoding="utf-8")[cited.start : cited.end] == cited.text


def test_a_small_root_reads_afresh_when_the_earlier_passages_say_nothing_of_it(contract, tmp_path):
    answered = {"first": False}

    def once(request: Request) -> str:  # the clause is found once, then never again
        prompt = request.messages[-1]["content"]
        if TERMINATION in prompt and not answered["first"]:
            answered["first"] = True
            return TERMINATION
        return "NONE"

    sub, events = small(once), []
    with (
        asker(contract, tmp_path, small(root_saying("")), sub, on_event=events.append) as rlm,
        rlm.session() as chat,
    ):
        chat.ask(FIRST)
        read_first = len(sub.requests)
        second = chat.ask(FOLLOW_UP)
    with asker(contract, tmp_path, small(root_saying("")), small(lambda r: "NONE")) as rlm:
        cold = rlm.query(FOLLOW_UP)
    [recall] = [e for e in events if e.data.get("name") == "RECALL"]
    assert recall.data == {
        "name": "RECALL",
        "answered": False,
        "why": "the passages read again do not answer it",
    }
    reread = len(sub.requests) - read_first - cold.usage["calls"]
    assert second.mode == "map" and 1 <= reread <= 3
    assert second.usage["calls"] == reread + cold.usage["calls"]
    assert second.text.startswith("Either party may end the agreement")  # the floor's sentence


def test_a_cited_span_is_widened_to_whole_sentences_within_its_own_document():
    first = TextDoc("doc-1", "a.txt", "Short one. It ends here.")
    second = TextDoc("doc-2", "b.txt", "The bell rings at noon. " + TERMINATION + " Then more.")
    docs = TextDocs([first, second])
    at = second.text.index(TERMINATION)
    cited = Citation("doc-2", at, at + 17, TERMINATION[:17])
    wide = widened(docs, cited)
    assert (wide.doc_id, wide.start, wide.end) == ("doc-2", 0, len(second.text))
    assert wide.text == second.text  # not a character of doc-1 (nor of the blank line between)
    inside = widened(docs, Citation("doc-1", 11, 15, "It e"))
    assert (inside.doc_id, inside.text) == ("doc-1", first.text)


def test_an_earlier_yes_does_not_make_a_later_yes_an_answer_said_again(contract, tmp_path):
    recalled = "Yes: either party may end the agreement [1]."

    def root(request: Request) -> str:
        prompt = request.messages[-1]["content"]
        return recalled if "New question:" in prompt else "Yes, it is [1]."

    with (
        asker(contract, tmp_path, ScriptedLM(root), ScriptedLM(reader)) as rlm,
        rlm.session() as chat,
    ):
        chat.ask(FIRST)
        second = chat.ask(FOLLOW_UP)
    assert second.mode == "recall" and second.text == recalled


@pytest.mark.parametrize(
    "recalled",
    [
        "Either party may end the agreement after 60 days [1].",  # a number the passage lacks
        "NOT IN THE PASSAGES",  # the model says they do not answer it
        "Either party may end the agreement [7].",  # a passage there is not
        "The cure period is thirty days after notice [1].",  # the first answer again
    ],
)
def test_a_follow_up_the_passages_do_not_hold_is_read_again(contract, tmp_path, recalled):
    root, sub = ScriptedLM(root_saying(recalled)), ScriptedLM(reader)
    with asker(contract, tmp_path, root, sub) as rlm, rlm.session() as chat:
        chat.ask(FIRST)
        second = chat.ask(FOLLOW_UP)
    cold = asked_cold(contract, tmp_path, FOLLOW_UP)
    assert second.mode == "map" and second.usage["calls"] == 1 + cold.usage["calls"]
    assert "60" not in second.text


@pytest.mark.parametrize(
    "question",
    ["Which bank holidays count?", "Which bank holidays apply to the agreement?"],
    ids=["no word in the passages", "too few of its new words in them"],
)
def test_a_question_the_earlier_passages_cannot_hold_makes_no_recall_call(
    contract, tmp_path, question
):
    root, sub = ScriptedLM(root_saying("unused")), ScriptedLM(reader)
    with asker(contract, tmp_path, root, sub) as rlm, rlm.session() as chat:
        chat.ask(FIRST)
        second = chat.ask(question)
    assert second.usage["calls"] == asked_cold(contract, tmp_path, question).usage["calls"]
    assert not any("New question:" in r.messages[-1]["content"] for r in root.requests)


def test_the_rlm_repl_and_its_variables_last_from_question_to_question(contract, tmp_path):
    def root(request: Request) -> str:
        prompt = request.messages[-1]["content"]
        if "New question:" in prompt:
            return "NOT IN THE PASSAGES"
        if "Question: What did you note" in prompt and "Output of block" not in prompt:
            return "```repl\nFINAL(notes)\n```"
        if "Output of block" in prompt:
            return "```repl\nFINAL('The cure period is thirty days after notice.')\n```"
        return "```repl\nnotes = 'thirty days, either party'\nprint(len(context))\n```"

    scripted = ScriptedLM(root)
    rlm = SingleDocRLM(
        contract, scripted, cache=False, store_path=tmp_path / "i.sqlite", mode="rlm"
    )
    with rlm, rlm.session() as chat:
        chat.ask(FIRST)
        worker = chat.conversation.repl._process.pid
        second = chat.ask("What did you note about the cure period?")
        assert chat.conversation.repl._process.pid == worker  # the same REPL process
    assert chat.conversation.repl is None  # closed with the session
    assert second.text == "thirty days, either party"
    first_step = next(
        r.messages[1]["content"]
        for r in scripted.requests
        if len(r.messages) > 1 and "Question: What did you note" in r.messages[1]["content"]
    )
    assert f"Q: {FIRST}" in first_step and "'notes': 'str'" in first_step


def test_history_keeps_the_newest_whole_and_condenses_older_turns():
    def turn(n: int) -> Turn:
        said = f"Finding {n} is long. " + "More detail follows here. " * 20
        return Turn(f"Question {n}?", Answer(said, "map"))

    conversation = Conversation([turn(n) for n in range(1, 6)])
    history = conversation.history(limit=2_000)
    assert history.index("Question 3?") < history.index("Question 4?") < history.index("Question 5")
    older = history.split("Q: Question 4?")[0]
    assert "A: Finding 3 is long." in older and "More detail" not in older
    assert history.count("More detail") > 20 and len(history) <= 2_300
    assert "Question 1?" not in conversation.history(limit=300)


def test_evidence_is_each_cited_passage_once_newest_first_within_its_limit():
    a, b, c = (Citation("d", n, n + 10, f"passage {n} " * 20) for n in (0, 100, 200))
    conversation = Conversation(
        [Turn("one?", Answer("x", "map", [a, b])), Turn("two?", Answer("y", "map", [b, c]))]
    )
    assert conversation.evidence() == [b, c, a]
    assert conversation.evidence(limit=len(b.text) + 5) == [b]


@pytest.mark.parametrize(
    ("question", "joined"),
    [
        ("And its term?", True),
        ("What about Oslo?", True),
        ("Liability?", True),  # one word: too little to search on alone
        ("Which invoices are payable within 45 days?", False),
    ],
)
def test_a_follow_up_that_refers_back_is_joined_to_the_question_before(question, joined):
    conversation = Conversation(
        [Turn("What does the contract say on termination?", Answer("", ""))]
    )
    standalone = conversation.standalone(question)
    assert standalone.startswith(question)
    assert ("follow-up to: What does the contract say on termination?" in standalone) is joined
    assert Conversation().standalone(question) == question


def test_a_named_session_is_saved_and_resumed_about_the_same_file_only(contract, tmp_path):
    recalled = "Yes, either party may end the agreement [1]."
    root, sub = ScriptedLM(root_saying(recalled)), ScriptedLM(reader)
    with asker(contract, tmp_path, root, sub) as rlm, rlm.session("review") as chat:
        chat.ask(FIRST)
    saved = SessionStore().load("review")
    assert saved is not None and saved.source == str(contract.resolve())
    assert [q for q, _ in saved.turns] == [FIRST]
    with asker(contract, tmp_path, root, sub) as rlm, rlm.session("review") as chat:
        assert [t.question for t in chat.turns] == [FIRST]
        resumed = chat.ask(FOLLOW_UP)  # answered from the saved answer's passages
    assert resumed.mode == "recall" and resumed.usage["calls"] == 1
    assert [q for q, _ in SessionStore().load("review").turns] == [FIRST, FOLLOW_UP]
    other = write_contract(tmp_path / "other.md")
    with asker(other, tmp_path, root, sub) as rlm, pytest.raises(InputError, match="is about"):
        rlm.session("review")
    with pytest.raises(InputError, match="not a session name"):
        rlm.session("../escape")


def test_a_damaged_session_file_is_an_error_that_names_it(tmp_path):
    store = SessionStore()
    store.folder.mkdir(parents=True)
    (store.folder / "broken.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(InputError, match="broken.json cannot be read"):
        store.load("broken")


def test_chat_answers_each_line_saves_the_session_and_sessions_ls_rm_manage_it(contract, tmp_path):
    def root(messages):
        prompt = messages[-1]["content"]
        if "New question:" in prompt:
            return "Yes, either party may end the agreement [1]."
        if "Passages, each with its number" in prompt:  # retrieval's prompt
            return "The cure period is thirty days after notice [1]."
        return "NOT IN THE PASSAGES"

    cache = tmp_path / "cache"
    options = ["--model", "openai:scripted", "--mode", "retrieval", "--session", "c1"]
    with fake_openai([root] * 10) as server:
        done = longread(
            "chat",
            str(contract),
            *options,
            "--base-url",
            server.url,
            "-q",
            cache=cache,
            input=f"{FIRST}\n{FOLLOW_UP}\nexit\nnever asked\n",
        )
        assert done.returncode == 0, done.stderr
        assert len(server.requests) == 2  # one retrieval, one recall
    assert "thirty days" in done.stdout and "either party may end" in done.stdout
    assert re.search(r"recall · 1 call", done.stdout) and "never asked" not in done.stdout
    listed = longread("sessions", "ls", "--json", cache=cache)
    [row] = json.loads(listed.stdout)
    assert row["name"] == "c1" and row["questions"] == 2 and row["kind"] == "document"
    assert longread("sessions", "rm", "c1", cache=cache).returncode == 0
    gone = longread("sessions", "rm", "c1", cache=cache)
    assert gone.returncode != 0 and "no saved session named c1" in gone.stderr
    assert "no saved sessions" in longread("sessions", "ls", cache=cache).stdout
