"""Documents held in memory (TextDocs) and the `retrieval` strategy, on in-memory documents,
in-memory contexts and indexed documents through the one dispatch (`modes.answer`), and the map
rewrite pass."""

from __future__ import annotations

import json
import re

import pytest

from conftest import make_run
from longread.errors import InputError
from longread.llm.scripted import ScriptedLM
from longread.strategies import modes
from longread.strategies.texts import InMemory, TextDoc, TextDocs
from test_document_strategies import FACT, contract, reads_the_fact, run_with, tools_for  # noqa: F401

FILLER = "The committee meets on Mondays to review the turbine maintenance figures.\n\n"
NEEDLE = "The warehouse in Tromsø stores the spare turbine blades."


def needle_passage(request) -> str:
    """The number the retrieval prompt gives the passage holding the needle."""
    return re.search(r"\[(\d)\] \([^)]*\)\n[^\[]*Tromsø", request.messages[-1]["content"]).group(1)


def two_docs(chunk_chars: int = 300) -> TextDocs:
    first = FILLER * 12
    second = FILLER * 5 + NEEDLE + "\n\n" + FILLER * 5
    return TextDocs(
        [
            TextDoc("doc-1", "minutes.txt", first),
            TextDoc("doc-2", "depots.pdf", second, pages=[(1, 0, 300), (2, 300, len(second))]),
        ],
        chunk_chars,
    )


def test_chunks_are_named_per_document_and_cite_in_document_offsets():
    docs = two_docs()
    ids = [c.chunk_id for c in docs.chunks]
    assert ids[0] == "doc-1-chunk-1" and any(i.startswith("doc-2-chunk-") for i in ids)
    assert all(len(c.text) <= 300 for c in docs.chunks)
    second = docs.docs[1].text
    at = docs.text.index(NEEDLE)
    citation = docs.citation(at, at + len(NEEDLE))
    assert citation.doc_id == "doc-2" and second[citation.start : citation.end] == NEEDLE
    assert citation.span_id == docs.chunk_at(at).chunk_id and citation.span_id.startswith("doc-2-")
    assert citation.page == 2  # the needle lies past offset 300 of its document


def test_locate_maps_a_foreign_citation_by_its_text():
    from longread.answer import Citation

    docs = two_docs()
    moved = docs.locate(Citation("context/dict_doc-2", 5, 60, NEEDLE))
    assert moved.doc_id == "doc-2" and docs.docs[1].text[moved.start : moved.end] == NEEDLE
    unknown = Citation("elsewhere", 0, 3, "not in any document")
    assert docs.locate(unknown) is unknown
    at = docs.docs[1].text.index(NEEDLE)
    own = docs.locate(Citation("doc-2", at, at + len(NEEDLE), NEEDLE, "chunk_0"))
    assert own.span_id.startswith("doc-2-chunk-") and own.text == NEEDLE


def test_retrieval_answers_from_top_k_and_renumbers_its_marks():
    docs = two_docs()
    root = ScriptedLM(
        lambda r: f"Spare turbine blades are stored in Tromsø [{needle_passage(r)}] [99]."
    )
    run = make_run(root, top_k=3)
    answer = modes.answer("Where are the spare turbine blades stored?", docs, run, mode="retrieval")
    prompt = root.requests[0].messages[-1]["content"]
    assert len(re.findall(r"^\[\d\] \(", prompt, re.MULTILINE)) == 3 and NEEDLE in prompt
    assert answer.mode == "retrieval" and answer.text.startswith(
        "Spare turbine blades are stored in Tromsø [1]."
    )
    assert "[99]" not in answer.text  # a mark naming no passage is dropped
    assert [c.text for c in answer.citations] == [NEEDLE]
    assert answer.stats["chunks_read"] == 3 < answer.stats["chunks_total"]
    assert f"of {answer.stats['chunks_total']} passages" in answer.text


def test_retrieval_without_marks_cites_the_supporting_sentence_or_nothing():
    docs = two_docs()
    grounded = modes.answer(
        "Where are the spare turbine blades stored?",
        docs,
        make_run(ScriptedLM(["The warehouse in Tromsø stores them."])),
        mode="retrieval",
    )
    assert [c.text for c in grounded.citations] == [NEEDLE]
    invented = modes.answer(
        "Where are the spare turbine blades stored?",
        docs,
        make_run(ScriptedLM(["In a castle on the moon."])),
        mode="retrieval",
    )
    assert invented.citations == []


def test_map_over_texts_reads_at_most_max_slices_chunks_and_says_how_many_were_left():
    docs = two_docs()
    sub = ScriptedLM(
        lambda r: (
            "The warehouse in Tromsø stores the spare turbine blades."
            if "Tromsø" in r.messages[-1]["content"]
            else "NONE"
        ),
        writes_code=False,
    )
    events: list = []
    run = make_run(sub, events=events, max_slices=2)
    answer = modes.answer("Which warehouse stores the spare turbine blades?", docs, run, mode="map")
    labels = [e.data["label"] for e in events if e.kind == "llm_start"]
    assert len(labels) == 2 and all(re.fullmatch(r"doc-\d-chunk-\d+", label) for label in labels)
    assert f"(Read 2 of {len(docs.chunks)} candidate passages" in answer.text
    assert answer.citations[0].doc_id == "doc-2" and answer.citations[0].text == NEEDLE


def test_rlm_over_texts_needs_no_index_and_cites_documents():
    docs = two_docs()
    root = ScriptedLM(
        ['```repl\nprint(grep("Tromsø"))\n```', "```repl\nFINAL('Tromsø warehouse')\n```"]
    )
    answer = modes.answer(
        "Which warehouse stores the spare turbine blades?", docs, make_run(root), mode="rlm"
    )
    assert answer.mode == "rlm" and answer.text == "Tromsø warehouse"
    assert answer.citations and all(c.doc_id in {"doc-1", "doc-2"} for c in answer.citations)
    assert all(
        c.span_id == docs.chunk_at(docs.offsets.starts[1] + c.start).chunk_id
        for c in answer.citations
    )


def test_unknown_mode_for_texts_is_an_input_error():
    with pytest.raises(InputError, match="unknown mode 'tree'"):
        modes.answer("q", two_docs(), make_run(ScriptedLM([])), mode="tree")


def test_retrieval_over_an_in_memory_context():
    context = FILLER * 30 + NEEDLE + "\n\n" + FILLER * 30
    root = ScriptedLM(lambda r: f"The warehouse in Tromsø [{needle_passage(r)}].")
    answer = modes.answer(
        "Which warehouse stores the spare turbine blades?",
        InMemory(context, "notes"),
        make_run(root),
        mode="retrieval",
    )
    assert answer.mode == "retrieval" and answer.citations[0].doc_id == "notes"
    cited = answer.citations[0]
    assert context[cited.start : cited.end] == cited.text and NEEDLE in cited.text


def test_retrieval_over_an_indexed_document(contract, tmp_path):  # noqa: F811
    root = ScriptedLM(lambda r: "Thirty days after notice [1].")
    tools = tools_for(contract, tmp_path, root)
    answer = modes.answer(
        "How long is the cure period after notice?", tools, run_with(root, root), mode="retrieval"
    )
    assert answer.mode == "retrieval" and FACT in root.requests[0].messages[-1]["content"]
    assert answer.citations and answer.citations[0].span_id == "3 Termination"


def test_map_rewrite_pass_keeps_marks_or_falls_back_to_the_draft():
    docs = two_docs()

    def snippet(request):
        prompt = request.messages[-1]["content"]
        if "Tromsø" not in prompt:
            return json.dumps({"relevant": False, "summary": ""})
        return json.dumps(
            {"relevant": True, "summary": "Tromsø stores the blades.", "quote": NEEDLE}
        )

    for rewritten, expected in (
        ("Blades: Tromsø [1].", "Blades: Tromsø [1]."),
        ("Blades are in Tromsø.", "They are in Tromsø [1]."),
    ):
        root = ScriptedLM(["They are in Tromsø [1].", rewritten])
        run = make_run(root, ScriptedLM(snippet), max_slices=4, rewrite=True)
        answer = modes.answer("Where are the turbine blades?", docs, run, mode="map")
        assert answer.text.startswith(expected)
        assert [r.messages[-1]["content"].startswith("Question") for r in root.requests] == [
            True,
            True,
        ]


def test_retrieval_drops_a_small_models_marks_and_cites_only_what_is_grounded():
    docs = two_docs()
    weak = ScriptedLM(lambda r: "The passage number is [1].", writes_code=False)
    answer = modes.answer(
        "Where are the spare turbine blades stored?", docs, make_run(weak), mode="retrieval"
    )
    assert answer.text.startswith("The passage number is.") and answer.citations == []
    grounded = ScriptedLM(lambda r: "The warehouse in Tromsø stores them [1].", writes_code=False)
    answer = modes.answer(
        "Where are the spare turbine blades stored?", docs, make_run(grounded), mode="retrieval"
    )
    assert "[1]" not in answer.text and [c.text for c in answer.citations] == [NEEDLE]


def test_joined_offsets_locate_each_text_and_its_gap():
    from longread.text.offsets import JoinedOffsets

    joined = JoinedOffsets([5, 0, 3], gap=2)  # "aaaaa··" + "" + "··" + "bbb"
    assert joined.starts == [0, 7, 9]
    assert [joined.locate(o) for o in (0, 4, 5, 6, 7, 9, 11)] == [
        (0, 0),
        (0, 4),
        (0, 5),
        (0, 6),
        (1, 0),
        (2, 0),
        (2, 2),
    ]
    assert JoinedOffsets([], gap=2).starts == []
