"""Tests for context slicing: strategies, id conventions, the slicer API and text invariants."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from longread.errors import LongreadError, UnknownSliceError
from longread.text.slices import ContextSlice, ContextSlicer

auto_slice = ContextSlicer.auto_slice_context


def _paragraphs(n: int, words: int = 40) -> str:
    """`n` paragraphs of plain prose separated by blank lines."""
    body = " ".join(f"word{i}" for i in range(words)) + "."
    return "\n\n".join(f"Paragraph {k}. {body}" for k in range(n))


def _assert_covers(text: str, slices: dict[str, ContextSlice]) -> None:
    """The slices are non-empty, contiguous `[start, end)` ranges that rebuild `text`."""
    pos = 0
    for piece in slices.values():
        start, end = piece.metadata["start"], piece.metadata["end"]
        assert start == pos
        assert end > start
        assert piece.content == text[start:end]
        pos = end
    assert pos == len(text)
    assert "".join(piece.content for piece in slices.values()) == text


# --- dict and list ------------------------------------------------------------------------------


def test_dict_gives_one_slice_per_key():
    context = {"documentation": "How to use it.", "code": [1, 2], "notes": {"a": 1}}
    slices = auto_slice(context)
    assert list(slices) == ["dict_documentation", "dict_code", "dict_notes"]
    assert slices["dict_code"].content == [1, 2]
    assert slices["dict_notes"].metadata == {"key": "notes"}


def test_dict_ids_that_would_clash_stay_distinct():
    slices = auto_slice({1: "int key", "1": "str key"})
    assert list(slices) == ["dict_1", "dict_1_2"]
    assert [s.content for s in slices.values()] == ["int key", "str key"]


def test_small_list_gives_one_slice_per_item():
    items = [f"doc {i}" for i in range(10)]
    slices = auto_slice(items)
    assert list(slices) == [f"item_{i}" for i in range(10)]
    assert slices["item_7"].content == "doc 7"
    assert slices["item_7"].metadata == {"index": 7}


def test_tuple_is_sliced_like_a_list():
    assert list(auto_slice(("a", "b"))) == ["item_0", "item_1"]


def test_large_list_gives_chunks_of_ten():
    items = list(range(25))
    slices = auto_slice(items)
    assert list(slices) == ["chunk_0", "chunk_1", "chunk_2"]
    assert slices["chunk_0"].content == list(range(10))
    assert slices["chunk_2"].content == [20, 21, 22, 23, 24]
    assert slices["chunk_1"].metadata == {"first_index": 10, "last_index": 19}
    assert slices["chunk_2"].metadata == {"first_index": 20, "last_index": 24}


def test_eleven_items_is_already_a_large_list():
    slices = auto_slice(list(range(11)))
    assert list(slices) == ["chunk_0", "chunk_1"]
    assert slices["chunk_1"].content == [10]


def test_list_thresholds_are_configurable():
    slices = auto_slice(list(range(7)), small_list_max=3, list_chunk_size=3)
    assert [s.content for s in slices.values()] == [[0, 1, 2], [3, 4, 5], [6]]


def test_empty_containers_give_no_slices():
    assert auto_slice({}) == {}
    assert auto_slice([]) == {}
    assert auto_slice("") == {}
    assert auto_slice("", "markdown") == {}


# --- markdown -----------------------------------------------------------------------------------

DOC = """Some words before any header.

# Introduction
Welcome.

## Setup Steps
Install it.

### Fine Print
Details.

#### Deep Note
Still part of the fine print.
"""


def test_markdown_splits_at_levels_one_to_three():
    slices = auto_slice(DOC)
    assert list(slices) == [
        "section_preamble",
        "section_introduction",
        "section_setup_steps",
        "section_fine_print",
    ]
    assert slices["section_preamble"].content == "Some words before any header.\n\n"
    assert slices["section_introduction"].content == "# Introduction\nWelcome.\n\n"
    assert slices["section_setup_steps"].metadata["level"] == 2
    fine = slices["section_fine_print"]
    assert fine.metadata["title"] == "Fine Print"
    assert fine.metadata["level"] == 3
    assert "#### Deep Note\nStill part of the fine print." in fine.content
    _assert_covers(DOC, slices)


def test_markdown_whitespace_only_preamble_joins_first_section():
    text = "\n\n# Title\nbody\n"
    slices = auto_slice(text)
    assert list(slices) == ["section_title"]
    assert slices["section_title"].content == text


def test_markdown_duplicate_headers_get_numbered():
    text = "# Notes\na\n## Notes\nb\n# notes\nc\n"
    slices = auto_slice(text)
    assert list(slices) == ["section_notes", "section_notes_2", "section_notes_3"]
    assert slices["section_notes_3"].content == "# notes\nc\n"


def test_markdown_header_id_cleanup():
    text = "# Ça va, World?!\nx\n#   \ny\n## What's New ##\nz\n# C#\nw\n"
    slices = auto_slice(text)
    assert list(slices) == [
        "section_ça_va_world",
        "section_untitled",
        "section_whats_new",
        "section_c",
    ]
    assert slices["section_whats_new"].metadata["title"] == "What's New"


def test_markdown_header_inside_code_fence_is_not_a_split():
    text = "# Usage\nRun:\n```bash\n# install it\npip install x\n```\nDone.\n# Next\nmore\n"
    slices = auto_slice(text)
    assert list(slices) == ["section_usage", "section_next"]
    assert "# install it" in slices["section_usage"].content


def test_string_with_headers_only_inside_fence_is_plain_text():
    text = "intro\n```\n# not a header\n```\n"
    assert list(auto_slice(text)) == ["chunk_0"]


def test_hash_without_space_or_indented_is_not_a_header():
    text = "#hashtag\n ## indented\n#### too deep\nbody\n"
    assert list(auto_slice(text)) == ["chunk_0"]


def test_markdown_handles_crlf_line_endings():
    text = "# One\r\nfirst\r\n# Two\r\nsecond\r\n"
    slices = auto_slice(text)
    assert list(slices) == ["section_one", "section_two"]
    assert slices["section_one"].metadata["title"] == "One"
    _assert_covers(text, slices)


def test_long_markdown_section_is_split_into_parts():
    text = "# Big\n" + _paragraphs(30) + "\n# Small\nshort\n"
    slices = auto_slice(text, chunk_chars=1000)
    ids = list(slices)
    assert ids[0] == "section_big_part1"
    assert ids[1] == "section_big_part2"
    assert ids[-1] == "section_small"
    big_parts = [s for s in slices.values() if s.slice_id.startswith("section_big_part")]
    assert len(big_parts) >= 3
    assert all(s.size <= 1000 and s.metadata["title"] == "Big" for s in big_parts)
    _assert_covers(text, slices)


def test_markdown_strategy_on_text_without_headers_gives_preamble():
    slices = auto_slice("just text\n", "markdown")
    assert list(slices) == ["section_preamble"]
    assert slices["section_preamble"].metadata["level"] == 0


# --- plain text chunks --------------------------------------------------------------------------


def test_plain_string_chunks_of_about_ten_thousand_chars():
    text = _paragraphs(200)
    assert len(text) > 50_000
    slices = auto_slice(text)
    ids = list(slices)
    assert ids == [f"chunk_{n}" for n in range(len(ids))]
    assert len(ids) >= 5
    for piece in list(slices.values())[:-1]:
        assert 5_000 <= piece.size <= 10_000
        assert piece.content.endswith("\n\n")  # cut on a paragraph break
    _assert_covers(text, slices)


def test_chars_cut_falls_back_to_newline_then_sentence_then_space():
    newline = "a" * 70 + "\n" + "b" * 100
    assert auto_slice(newline, chunk_chars=100)["chunk_0"].content == "a" * 70 + "\n"
    sentence = "a" * 60 + ". " + "b" * 10 + " " + "c" * 100
    assert auto_slice(sentence, chunk_chars=100)["chunk_0"].content == "a" * 60 + ". "
    space = "a" * 60 + " " + "b" * 100
    assert auto_slice(space, chunk_chars=100)["chunk_0"].content == "a" * 60 + " "


def test_chars_break_in_first_half_of_window_is_ignored():
    text = "a" * 10 + "\n\n" + "b" * 200
    first = auto_slice(text, chunk_chars=100)["chunk_0"]
    assert first.content == text[:100]  # no usable break in the second half: hard cut


def test_other_values_are_chunked_as_text():
    slices = auto_slice(12345)
    assert list(slices) == ["chunk_0"]
    assert slices["chunk_0"].content == "12345"
    assert auto_slice(None)["chunk_0"].content == "None"


# --- strategy errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("context", "strategy"),
    [([1, 2], "dict"), ({"a": 1}, "list"), ("text", "list"), ([1], "markdown"), (5, "chars")],
)
def test_strategy_that_does_not_fit_raises(context, strategy):
    with pytest.raises(ValueError, match=strategy):
        auto_slice(context, strategy)


def test_unknown_strategy_raises():
    with pytest.raises(ValueError, match="unknown slicing strategy 'paragraphs'"):
        auto_slice("text", "paragraphs")


def test_bad_sizes_raise():
    with pytest.raises(ValueError):
        auto_slice("text", chunk_chars=0)
    with pytest.raises(ValueError):
        auto_slice([1], list_chunk_size=0)


# --- slicer API ---------------------------------------------------------------------------------


def test_add_get_list_and_container_protocol():
    slicer = ContextSlicer()
    added = slicer.add_slice("notes", "some notes", {"source": "manual"})
    slicer.add_slice("data", {"k": [1, 2]})
    assert slicer.get_slice("notes") is added
    assert slicer.list_slices() == ["notes", "data"]
    assert len(slicer) == 2
    assert "data" in slicer and "missing" not in slicer
    assert [s.slice_id for s in slicer] == ["notes", "data"]

    slicer.add_slice("notes", "replaced")
    assert slicer.get_slice("notes").content == "replaced"
    assert slicer.get_slice("notes").metadata == {}
    assert len(slicer) == 2


def test_get_slice_info():
    slicer = ContextSlicer()
    slicer.add_slice("text", "line one\n\n   line   two " + "x" * 300, {"source": "a"})
    slicer.add_slice("data", {"name": "café"})
    text_info, data_info = slicer.get_slice_info()
    assert text_info["slice_id"] == "text"
    assert text_info["type"] == "str"
    assert text_info["chars"] == len(slicer.get_slice("text").content)
    assert text_info["preview"].startswith("line one line two xxx")
    assert len(text_info["preview"]) == 120
    assert text_info["metadata"] == {"source": "a"}
    text_info["metadata"]["source"] = "changed"
    assert slicer.get_slice("text").metadata == {"source": "a"}  # info holds a copy
    assert data_info["type"] == "dict"
    assert "café" in data_info["preview"]
    assert data_info["chars"] == slicer.get_slice("data").size


def test_slice_text_for_non_strings():
    assert ContextSlice("s", "plain").text() == "plain"
    assert ContextSlice("d", {"k": "é"}).text() == '{\n "k": "é"\n}'
    assert ContextSlice("n", [1, 2]).size == len("[\n 1,\n 2\n]")
    assert "object" in ContextSlice("o", [object()]).text()  # default=str


def test_unknown_slice_id_raises_keyerror_naming_it():
    slicer = ContextSlicer.from_context([f"doc {i}" for i in range(10)])
    with pytest.raises(UnknownSliceError) as excinfo:
        slicer.get_slice("item_99")
    message = str(excinfo.value)
    assert "'item_99'" in message
    assert "item_0" in message
    assert isinstance(excinfo.value, KeyError)
    assert isinstance(excinfo.value, LongreadError)
    with pytest.raises(KeyError):
        slicer.get_slice("nope")


def test_unknown_slice_message_caps_known_ids():
    slicer = ContextSlicer({f"s{i}": ContextSlice(f"s{i}", i) for i in range(30)})
    message = str(pytest.raises(UnknownSliceError, slicer.get_slice, "x").value)
    assert "s9" in message
    assert "s10" not in message
    assert message.endswith("…")


def test_from_context_passes_options():
    slicer = ContextSlicer.from_context("abc def ghi", "chars", chunk_chars=4)
    assert [s.content for s in slicer] == ["abc ", "def ", "ghi"]


# --- properties ---------------------------------------------------------------------------------

_pieces = st.one_of(
    st.sampled_from(
        ["# ", "## ", "### ", "#### ", "```", "\n", "\r\n", "\n\n", ". ", "! ", " ", "\t"]
    ),
    st.sampled_from(["Intro", "notes", "Ça", "漢字", "😀", "x" * 60]),
    st.text(max_size=20),
)
texts = st.lists(_pieces, max_size=60).map("".join)


@settings(max_examples=300)
@given(text=texts, strategy=st.sampled_from(["chars", "markdown"]))
def test_text_slices_rebuild_the_original(text, strategy):
    slices = auto_slice(text, strategy, chunk_chars=50)
    _assert_covers(text, slices)
    assert all(piece.size <= 50 for piece in slices.values())
    assert len(slices) == len(set(slices))


@given(text=texts)
def test_auto_on_text_rebuilds_the_original(text):
    _assert_covers(text, auto_slice(text, chunk_chars=50))


@given(items=st.lists(st.integers(), max_size=60))
def test_list_slices_keep_every_item_in_order(items):
    slices = auto_slice(items)
    if len(items) <= 10:
        rebuilt = [piece.content for piece in slices.values()]
    else:
        rebuilt = [x for piece in slices.values() for x in piece.content]
        assert all(len(piece.content) <= 10 for piece in slices.values())
    assert rebuilt == items


# --- scale --------------------------------------------------------------------------------------


def test_twenty_megabyte_string_slices():
    text = _paragraphs(1, words=300) + "\n\n"
    text *= 20_000_000 // len(text)
    slices = auto_slice(text, "chars")
    # every cut lands in the second half of a 10k window, so 2k to 4k chunks for ~20 MB
    assert len(text) // 10_000 <= len(slices) <= len(text) // 5_000 + 1
    last = slices[f"chunk_{len(slices) - 1}"]
    assert last.metadata["end"] == len(text)
