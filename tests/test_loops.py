"""Loops and echoes of small models: a reply that says a stretch again right after itself is cut
after its first copy (by text, and while the local model generates), in every prose reply the
gateway returns and never in code or JSON; the prompt's own labels never reach a finding."""

from __future__ import annotations

import numpy as np
import pytest

from longread.llm.gateway import Gateway
from longread.llm.local import LOOP_COPIES, loop_stopper
from longread.llm.scripted import ScriptedLM
from longread.strategies.reading import FOCUSED
from longread.text.loops import cut_echo, cut_loop

LOOPED = "The exit status of grep is 0. " * 42
GENTRY = "He makes up the file Of all the gentry; " * 12 + "He makes up the"


@pytest.mark.parametrize(
    ("reply", "kept"),
    [
        (LOOPED, "The exit status of grep is 0."),
        (GENTRY, "He makes up the file Of all the gentry;"),
        (
            "Use --gzip.\n" + "--gzip compresses the archive with gzip\n" * 20,
            "Use --gzip.\n--gzip compresses the archive with gzip",
        ),
        ("Answer: 42 [1]. The cure period is thirty days [2].", None),  # nothing said twice
        ("Very very good. Yes, yes.", None),  # too short to be a loop
        ("| a | b |\n|---|---|---|---|---|\n| 1 | 2 |", None),
    ],
)
def test_a_loop_is_cut_after_its_first_copy(reply, kept):
    assert cut_loop(reply) == (kept if kept is not None else reply)


def test_the_gateway_cuts_loops_in_prose_only():
    lm = ScriptedLM(lambda request: LOOPED)
    gateway = Gateway()
    assert gateway.complete(lm, "q", purpose="map_chunk").text == "The exit status of grep is 0."
    assert gateway.complete(lm, "q", purpose="root").text == LOOPED  # code may repeat lines
    assert gateway.complete(lm, "q", purpose="subcall").text == LOOPED  # (its caller reads it)
    json_reply = gateway.complete(lm, "q", purpose="map_chunk", json_schema={"type": "string"})
    assert json_reply.text == LOOPED


def test_the_local_model_stops_once_a_stretch_repeats():
    end = 2
    stop = loop_stopper(end)
    prompt = list(range(100, 140))
    stretch = [11, 12, 13, 14, 15, 16, 17, 18, 19]

    def chosen(made: list[int]) -> int:
        scores = np.zeros(50)
        return int(np.argmax(stop(np.array(prompt + made), scores)))

    assert chosen([]) != end  # (the first call marks where the prompt ends)
    assert chosen(stretch * (LOOP_COPIES - 1)) != end
    assert chosen(stretch * LOOP_COPIES) == end
    fresh = loop_stopper(end)
    scores = fresh(np.array(stretch * 5), np.ones(50))  # a repetitive prompt is not the reply
    assert (scores == 1).all()


def test_the_prompt_s_labels_never_reach_a_finding():
    echoed = "Which command formats a floppy disk? Text: fdformat does a low-level format"
    assert cut_echo(echoed, FOCUSED) == "Which command formats a floppy disk?"
    assert cut_echo("Question: fdformat formats it.", FOCUSED) == "fdformat formats it."
    note = "The passage says: use fdformat."  # a label the prompt does not use stays
    assert cut_echo(note, FOCUSED) == note
