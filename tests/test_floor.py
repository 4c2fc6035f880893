"""The lexical floor: a text's sentences (hard-wrapped lines joined, paragraphs apart) weighed
against a question by the IDF of the words they share; in `map`, the chunks holding the best of
them are always read, and a small model's reply never leads over a sentence that matches the
question better than the one the reply rests on."""

from __future__ import annotations

from longread.api import SingleDocRLM
from longread.llm.scripted import ScriptedLM
from longread.strategies.common import RunOptions
from longread.text.lexical import floor, sentence_spans

MANUAL = """\
OPTIONS
       -t, --list
              List the contents of an archive.  Arguments are optional.

       -x, --extract
              Extract files from an archive.  Arguments are optional.

       -v, --verbose
              Verbosely list files processed.
"""


def said(text: str, span: tuple[int, int]) -> str:
    return " ".join(text[span[0] : span[1]].split())


def test_a_sentence_runs_across_wrapped_lines_and_ends_at_a_blank_one():
    spans = sentence_spans(MANUAL)
    shown = [said(MANUAL, s) for s in spans]
    assert "OPTIONS -t, --list List the contents of an archive." in shown  # (a heading above)
    assert "Arguments are optional." in shown  # a sentence end cuts a paragraph
    assert not any("--list" in s and "--extract" in s for s in shown)
    long_run = "word " * 200 + "\nmore words here\n"
    assert all(b - a <= 1_000 for a, b in sentence_spans(long_run))
    assert len(sentence_spans(long_run)) == 2  # (cut at its line break)
    headed = "Staff\nThe keeper is paid in salt.\n\nWhen shall we three meet again\nIn rain?\n"
    assert [said(headed, s) for s in sentence_spans(headed)] == [
        "Staff",  # a heading over its paragraph is no part of its first sentence
        "The keeper is paid in salt.",
        "When shall we three meet again In rain?",  # (a line of verse is no heading)
    ]
    wrapped = "".join(f"line {n} of a sentence that never ends\n" for n in range(30))
    runs = sentence_spans(wrapped)
    assert 2 <= len(runs) < 30 and all(b - a <= 400 for a, b in runs)  # lines, grouped


def test_rare_words_weigh_most_and_word_forms_meet():
    text = (
        "The archive holds copies of files. The archive is listed. The archive is big.\n\n"
        "An archive copy is kept off site."
    )
    weighed = floor("Where is a copy of the archive kept?", [(0, text)])
    assert said(text, weighed.best(1)[0]) == "An archive copy is kept off site."
    assert weighed.weights["archive"] < weighed.weights["kept"]  # in every sentence: weighs least
    assert "copi" not in weighed.weights and "copy" in weighed.weights  # `copies` is `copy`
    assert floor("Who rules Mars?", [(0, text)]).best(3) == []


def test_map_reads_the_floor_s_passage_and_ranks_a_reply_by_its_evidence(tmp_path):
    filler = "Records of the quarterly meetings are filed in the archive room.\n\n"
    text = (
        "# Handbook\n\n## Meetings\n\n"
        + filler * 30
        + "The archive room closes at six.\n\n"
        + "## Keys\n\n"
        + filler * 30
        + "Spare keys for the archive room are held by the night porter.\n\n"
    )
    path = tmp_path / "handbook.md"
    path.write_text(text)

    def tiny(request):  # a tiny model that answers from whatever mentions the archive room
        prompt = request.messages[-1]["content"]
        if "closes at six" in prompt:
            return "The archive room closes at six."
        return "NONE"

    sub = ScriptedLM(tiny, writes_code=False)
    with SingleDocRLM(
        path,
        sub,
        sub,
        mode="map",
        cache=False,
        store_path=tmp_path / "i.sqlite",
        options=RunOptions(max_slices=2),
    ) as rlm:
        answer = rlm.query("Who holds the spare keys for the archive room?")
    read = "\n".join(r.messages[-1]["content"] for r in sub.requests)
    assert "night porter" in read  # the floor's passage was read
    lead = answer.text.split("\n\n")[0]
    assert lead.startswith("Spare keys for the archive room are held by the night porter.")
    assert answer.citations[0].text.strip().endswith("night porter.")


def test_pieces_in_a_search_s_order_are_weighed_where_they_stand():
    later = (500, "Deck paint is stored in the north shed. Ropes hang there.")
    earlier = (0, "The harbour keeps its ropes dry. Nothing else is said.")
    weighed = floor("Where is the deck paint stored?", [later, earlier])  # (best match first)
    [(start, end)] = weighed.best(1)
    assert (start, end) == (500, 500 + later[1].index(".") + 1)
