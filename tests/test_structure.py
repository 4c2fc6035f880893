"""Rule-based table of contents: doc types, heading families, and the section tree's invariants."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from longread.ingest.doctype import DOC_TYPES, detect_doc_type
from longread.ingest.headings import detect_headings
from longread.ingest.toc import Section, build_toc, deepest_shown, flatten, outline_lines

MARKDOWN_PAPER = """\
# Sparse Attention for Long Documents

## Abstract

We show that sparse attention scales to very long inputs.

## 1. Introduction

Long documents are hard. Our recipe is simple:

1. First, split the document into sections.
2. Then summarize each section.

```python
# Step 1: this comment is code, not a heading
## neither is this
def split(text): ...
```

### 1.1 Größe und Maß

Sizes and measures, with non-ASCII titles.

## 2. Methods

We use blocks of 512 tokens.

## 3. Results

Accuracy improves by 4 points.

## 4. Conclusion

It works.

## References

[1] Vaswani et al. Attention is all you need.
"""

LATEX_PAPER = r"""\documentclass{article}
\begin{document}
\title{Recursive Readers}
\maketitle
\begin{abstract}
We read recursively.
\end{abstract}
\section{Introduction}\label{sec:intro}
Prior work \cite{zhang2024} reads linearly.
\subsection*{The \emph{Big} Idea}
Recurse.
\section{Experiments}
We test on books.
\subsection{Datasets}
Three corpora.
\subsubsection{Licensing}
All open.
\section{Conclusion}
Done.
\end{document}
"""

CONTRACT = """\
MASTER SERVICES AGREEMENT

This Agreement is made between Acme Corp. (hereinafter "Provider") and Beta LLC ("Client").

WHEREAS the Provider offers hosting services; NOW, THEREFORE, the parties agree as follows:

ARTICLE I. DEFINITIONS

Section 1.1 Agreement. "Agreement" means this document and all schedules hereto, as amended from \
time to time by the parties in writing.

Section 1.2 Services. The Provider shall perform the services described in Schedule A.

ARTICLE II — PAYMENT

Section 2.1 Fees. The Client shall pay all fees within thirty days of each invoice.

§ 2.2 Late payment

Interest shall accrue as provided in
Section 2.1 above, and
Article 5 of the Convention shall not apply.

IN WITNESS WHEREOF the parties have signed this Agreement.
"""

SPEC = """\
Widget Transfer Protocol Specification

1 Scope

This document specifies the widget transfer protocol.

1.1 Purpose

The purpose is to move widgets between hosts. A sender proceeds as follows:

1. Open the channel.
2. Send the widget.

1.2 Terms and Definitions

Widget: a unit of transfer.

2 Requirements

2.1 Transport

2.1.1 Framing

Frames shall not exceed 4 KB.

2.1.2 Error Handling

3 widgets were lost in 2019 because of this.
"""

BOOK = """\
The Long Road

CONTENTS

CHAPTER I. The Start
CHAPTER II. The Middle
CHAPTER III. The End

PART ONE

CHAPTER I. The Start

It was a dark night. "Who goes there?" said Tom. Part of the reason was fear.

CHAPTER II. The Middle

"Nobody," she answered, and they walked on.

PART TWO

CHAPTER III. The End

The road ended at the sea.

Chapitre 3 — L'été

Ils marchèrent encore.
"""

PLAY = """\
THE TRAGEDY OF HAMLET

ACT I

SCENE I. Elsinore. A platform before the castle.

BERNARDO: Who's there?

SCENE II. A room of state in the castle.

KING: Though yet of Hamlet our dear brother's death the memory be green...

ACT II

SCENE I. A room in Polonius' house.

POLONIUS: Give him this money and these notes, Reynaldo.
"""

MANUAL = """\
Dishwasher X200 User Manual

Chapter 1 Installation

WARNING: Disconnect power before installation.

Step 1: Unpack the dishwasher

Remove all packaging and press the door latch.

Step 2: Connect the water supply

Attach the hose.

Chapter 2 Maintenance

Procedure for cleaning the filter. Troubleshooting tips follow.

Step 1: Remove the filter

Twist counterclockwise.

Step 2: Rinse

Use warm water.
"""

REPORT = """\
# Annual Safety Report 2023

## Executive Summary

Incidents fell by 12 percent.

## Key Findings

Training works; audits help.

## Recommendations

Keep training and audit twice a year.

## Appendix

Data tables.
"""


def titles(text: str, **kwargs) -> list[tuple[int, str]]:
    """(level, title) of every heading detect_headings finds."""
    return [(level, title) for _, level, title in detect_headings(text, **kwargs)]


def outline(sections: list[Section]) -> list[tuple[int, str]]:
    """(level, title) of every section in document order."""
    return [(s.level, s.title) for s in flatten(sections)]


def check_tree(text: str, roots: list[Section], max_chars: int | None = None) -> None:
    """Coverage, contiguity, nesting, non-overlap and level invariants of a TOC."""
    if not text:
        assert roots == []
        return
    assert roots[0].start_char == 0 and roots[-1].end_char == len(text)
    assert all(a.end_char == b.start_char for a, b in pairwise(roots))
    assert all(s.level == 1 for s in roots)
    for section in flatten(roots):
        assert section.start_char < section.end_char
        kids = section.children
        assert all(a.end_char <= b.start_char for a, b in pairwise(kids))
        for child in kids:
            assert section.start_char <= child.start_char < child.end_char <= section.end_char
            assert child.level == section.level + 1
        if max_chars is not None and not kids:
            assert section.end_char - section.start_char <= max_chars


@pytest.mark.parametrize(
    "text, kind",
    [
        (MARKDOWN_PAPER, "research_paper"),
        (LATEX_PAPER, "research_paper"),
        (CONTRACT, "legal"),
        (SPEC, "manual"),
        (BOOK, "book"),
        (PLAY, "book"),
        (MANUAL, "manual"),
        (REPORT, "report"),
        (
            (
                "# Notes\n\n## Setup\n\nRun `make`.\n\n```sh\nmake\n```\n\n"
                "## Use\n\nSee [docs](x.md).\n"
            ),
            "markdown",
        ),
        ("just a few words with no telling features at all\n", "other"),
    ],
)
def test_doc_type(text, kind):
    found, confidence = detect_doc_type(text)
    assert found == kind and found in DOC_TYPES
    assert 0 < confidence <= 1


def test_markdown_paper_ignores_code_fences_and_lists():
    assert titles(MARKDOWN_PAPER) == [
        (1, "Sparse Attention for Long Documents"),
        (2, "Abstract"),
        (2, "1. Introduction"),
        (3, "1.1 Größe und Maß"),
        (2, "2. Methods"),
        (2, "3. Results"),
        (2, "4. Conclusion"),
        (2, "References"),
    ]
    toc = build_toc(MARKDOWN_PAPER)
    assert [s.title for s in toc] == ["Sparse Attention for Long Documents"]
    intro = toc[0].children[1]
    assert [c.title for c in intro.children] == ["1.1 Größe und Maß"]
    assert "```python" in MARKDOWN_PAPER[intro.start_char : intro.end_char]
    check_tree(MARKDOWN_PAPER, toc)


def test_latex_levels_are_relative_to_the_shallowest_command():
    assert titles(LATEX_PAPER) == [
        (1, "Introduction"),
        (2, "The Big Idea"),
        (1, "Experiments"),
        (2, "Datasets"),
        (3, "Licensing"),
        (1, "Conclusion"),
    ]
    toc = build_toc(LATEX_PAPER)
    assert toc[0].title == "Preamble" and "\\maketitle" in LATEX_PAPER[: toc[0].end_char]
    assert outline(toc)[3:6] == [(1, "Experiments"), (2, "Datasets"), (3, "Licensing")]


def test_contract_articles_sections_and_paragraph_signs():
    assert titles(CONTRACT) == [
        (1, "ARTICLE I. DEFINITIONS"),
        (2, "Section 1.1 Agreement"),
        (2, "Section 1.2 Services"),
        (1, "ARTICLE II — PAYMENT"),
        (2, "Section 2.1 Fees"),
        (2, "§ 2.2 Late payment"),
    ]
    toc = build_toc(CONTRACT)
    assert [s.title for s in toc] == ["Preamble", "ARTICLE I. DEFINITIONS", "ARTICLE II — PAYMENT"]
    assert "WHEREAS" in CONTRACT[toc[0].start_char : toc[0].end_char]
    late = toc[2].children[1]
    assert CONTRACT[late.start_char : late.end_char].rstrip().endswith("signed this Agreement.")


def test_section_depth_follows_its_number():
    text = "SECTION 4 Fees\n\nBody.\n\nSection 4.2 Late Fees\n\nBody.\n\nSECTION 5 Term\n\nBody.\n"
    assert titles(text) == [
        (1, "SECTION 4 Fees"),
        (2, "Section 4.2 Late Fees"),
        (1, "SECTION 5 Term"),
    ]


def test_numbered_spec_nests_by_depth_and_skips_list_items():
    assert titles(SPEC) == [
        (1, "1 Scope"),
        (2, "1.1 Purpose"),
        (2, "1.2 Terms and Definitions"),
        (1, "2 Requirements"),
        (2, "2.1 Transport"),
        (3, "2.1.1 Framing"),
        (3, "2.1.2 Error Handling"),
    ]
    toc = build_toc(SPEC)
    assert outline(toc[2].children) == [
        (2, "2.1 Transport"),
        (3, "2.1.1 Framing"),
        (3, "2.1.2 Error Handling"),
    ]
    check_tree(SPEC, toc)


def test_numbered_lines_in_prose_are_not_headings():
    text = (
        "Intro paragraph that runs on\n1. Which is the first point, made here\n\n"
        "1. Open the lid\n2. Close the lid\n\n3 apples were eaten.\n\n4. Done with it.\n"
    )
    assert detect_headings(text) == []


def test_book_parts_chapters_contents_listing_and_non_ascii():
    assert titles(BOOK) == [
        (1, "PART ONE"),
        (2, "CHAPTER I. The Start"),
        (2, "CHAPTER II. The Middle"),
        (1, "PART TWO"),
        (2, "CHAPTER III. The End"),
        (2, "Chapitre 3 — L'été"),
    ]
    toc = build_toc(BOOK)
    assert [s.title for s in toc] == ["Preamble", "PART ONE", "PART TWO"]
    assert "CONTENTS" in BOOK[: toc[0].end_char]
    assert [c.level for c in toc[1].children] == [2, 2]


def test_chapters_are_top_level_without_parts():
    text = "CHAPTER I.\n\nOne.\n\nChapter 2: The Hill\n\nTwo.\n\nCHAPTER XII. Home\n\nEnd.\n"
    assert titles(text) == [(1, "CHAPTER I."), (1, "Chapter 2: The Hill"), (1, "CHAPTER XII. Home")]
    assert detect_headings(text, "book") == detect_headings(text)


def test_play_acts_and_scenes():
    assert titles(PLAY) == [
        (1, "ACT I"),
        (2, "SCENE I. Elsinore. A platform before the castle."),
        (2, "SCENE II. A room of state in the castle."),
        (1, "ACT II"),
        (2, "SCENE I. A room in Polonius' house."),
    ]
    check_tree(PLAY, build_toc(PLAY))


def test_manual_steps_sit_below_their_chapter():
    assert titles(MANUAL) == [
        (1, "Chapter 1 Installation"),
        (2, "Step 1: Unpack the dishwasher"),
        (2, "Step 2: Connect the water supply"),
        (1, "Chapter 2 Maintenance"),
        (2, "Step 1: Remove the filter"),
        (2, "Step 2: Rinse"),
    ]
    assert titles(MANUAL, doc_type="book") == [
        (1, "Chapter 1 Installation"),
        (1, "Chapter 2 Maintenance"),
    ]


def test_setext_headings_and_unclosed_fence():
    text = "Guide\n=====\n\nIntro.\n\nInstall\n-------\n\nRun it.\n\n```\n# stray fence\n"
    assert titles(text) == [(1, "Guide"), (2, "Install"), (1, "stray fence")]
    assert titles("Para line one\nline two\n---\n\nx\n") == []
    assert titles("# Title\n-----\n\ntext\n\n## B\n") == [(1, "Title"), (2, "B")]


def test_markdown_wins_over_other_families():
    text = "# Chapter 1 Notes\n\nChapter 2 Title\n\n1 Introduction\n\n## Details\n\nText.\n"
    assert titles(text) == [(1, "Chapter 1 Notes"), (2, "Details")]


def test_prose_lines_starting_with_keywords_are_refused():
    text = (
        "Part of the reason was money.\nChapter and verse were quoted.\nSection 3 of the act.\n"
        "Act 2 was dull.\nStepping out, she left.\nPARTICULARLY not.\n"
    )
    assert detect_headings(text) == []


def test_contents_entries_with_page_numbers_are_refused():
    text = "1 Introduction .......... 3\n\nChapter 4 The Sea ..... 88\n\nBody.\n"
    assert detect_headings(text) == []


def test_no_structure_becomes_paragraph_bounded_parts():
    text = "".join(f"Paragraph {i} " + "word " * 60 + "\n\n" for i in range(40))
    toc = build_toc(text, chunk_chars=1_000)
    assert [s.title for s in toc[:3]] == ["Part 1", "Part 2", "Part 3"]
    assert all(text[s.start_char :].startswith("Paragraph") for s in toc)
    check_tree(text, toc, max_chars=1_000)
    assert build_toc("") == []


def test_preamble_only_when_it_has_text():
    assert build_toc("Foreword.\n\n# One\n\nx\n")[0].title == "Preamble"
    toc = build_toc("\n\n# One\n\nx\n")
    assert [(s.title, s.start_char) for s in toc] == [("One", 0)]


def test_oversized_leaf_is_split_into_parts():
    body = "".join("sentence " * 20 + "\n\n" for _ in range(50))
    text = "# Small\n\nshort\n\n# Big\n\n" + body
    toc = build_toc(text, max_section_chars=2_000)
    small, big = toc
    assert small.children == []
    assert big.children[0].title == "Big (part 1)" and len(big.children) >= 5
    assert big.children[0].start_char == big.start_char
    assert all(text[c.start_char - 2 : c.start_char] == "\n\n" for c in big.children[1:])
    check_tree(text, toc, max_chars=2_000)


def test_extra_headings_take_precedence():
    text = "Intro\n\nCHAPTER I. Dawn\n\nText.\n\n1.1 Detail\n\nMore.\n\nCHAPTER II. Dusk\n\nEnd.\n"
    outline_headings = [
        (text.index("CHAPTER I."), 1, "Dawn"),
        (text.index("CHAPTER II."), 1, "Dusk"),
    ]
    toc = build_toc(text, extra_headings=outline_headings)
    assert outline(toc) == [(1, "Preamble"), (1, "Dawn"), (2, "1.1 Detail"), (1, "Dusk")]
    check_tree(text, toc)


def test_flatten_to_dict_and_summary():
    toc = build_toc(SPEC)
    assert toc[1].to_dict()["children"][0] == {
        "title": "1.1 Purpose",
        "level": 2,
        "start_char": toc[1].children[0].start_char,
        "end_char": toc[1].children[0].end_char,
        "children": [],
    }
    shown = [(1, "Preamble"), (1, "1 Scope"), (2, "1.1 Purpose")]
    assert outline_lines(shown, 5) == "Preamble\n1 Scope\n  1.1 Purpose\n… 2 more sections"
    assert outline_lines(shown, 3).splitlines()[-1] == "  1.1 Purpose"


def test_an_outline_shows_whole_levels_that_fit():
    assert deepest_shown({1: 3, 2: 4}, max_lines=60) == 2  # everything fits
    assert deepest_shown({1: 10, 2: 20, 3: 50}, max_lines=40) == 2  # 30 lines and a "more" line
    assert deepest_shown({1: 100, 2: 100}, max_lines=60) == 1  # the top level, cut, at least
    assert deepest_shown({1: 30, 2: 30}, max_lines=40) == 1


def test_explicit_headings_and_bad_arguments():
    text = "aaa\nbbb\nccc\n"
    toc = build_toc(text, [(4, 3, "B"), (8, 5, "C"), (4, 1, "dup"), (99, 1, "out")])
    assert outline(toc) == [(1, "Preamble"), (1, "B"), (2, "C")]
    with pytest.raises(ValueError):
        build_toc(text, max_section_chars=0)


HEADING_LINES = st.sampled_from(
    [
        "# Title",
        "## Sub Title",
        "### Deep",
        "Chapter 1",
        "CHAPTER IV. Night",
        "Part Two",
        "ACT I",
        "SCENE 2",
        "Step 3: Go",
        "Article 7",
        "Section 4.2 Fees",
        "§ 12",
        "1 Intro",
        "2.3 Scope",
        "4.5.6 Deeper",
        "\\section{Tex}",
        "\\subsection{More}",
        "```",
        "Title",
        "====",
        "-----",
    ]
)
PARAGRAPHS = st.text(alphabet=st.sampled_from("ab é.#1\n \t"), max_size=120)


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.one_of(HEADING_LINES, PARAGRAPHS), max_size=25),
    st.sampled_from(["\n", "\n\n"]),
    st.integers(1, 400),
    st.integers(1, 300),
)
def test_toc_invariants_hold_for_random_texts(pieces, sep, max_chars, chunk):
    text = sep.join(pieces)
    headings = detect_headings(text)
    starts = [h[0] for h in headings]
    assert starts == sorted(set(starts))
    assert all(s == 0 or text[s - 1] == "\n" for s in starts)
    assert not headings or min(h[1] for h in headings) == 1
    assert all(h[2] and "\n" not in h[2] for h in headings)
    check_tree(
        text,
        build_toc(text, headings, max_section_chars=max_chars, chunk_chars=chunk),
        max_chars=max_chars,
    )


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=300))
def test_arbitrary_text_never_breaks_the_tree(text):
    check_tree(text, build_toc(text, max_section_chars=50, chunk_chars=30), max_chars=50)


MAN_PAGE = """\
FROB(1)                      User Commands                     FROB(1)

NAME
       frob - turn widgets into gadgets

SYNOPSIS
       frob [OPTION]... FILE

DESCRIPTION
       frob reads each FILE and writes its gadgets.

OPTIONS
   Generic Program Information
       --help Print a usage message and exit.

   Output Control
       -q, --quiet
              Print nothing.

EXIT STATUS
       The exit status is 0 if a gadget was made, 1 otherwise.

frob 1.0                          2026-01-01                      FROB(1)
"""

LICENCE = """\
                       WIDGET PUBLIC LICENCE
                     Version 2, 1 March 2026

                              Preamble

  This licence lets you share widgets.

                         TERMS AND CONDITIONS

  0. Definitions.

  "Widget" means any widget covered by this licence.

  1. Grant of Rights. Subject to these terms, you may copy the widget
and pass it on.

  2. Termination.

  You may not pass the widget on except as this licence allows.
    3.  This sentence runs on from a line above and names a section.

                      END OF TERMS AND CONDITIONS
"""


def test_a_manual_page_s_sections_are_found_by_their_shape():
    assert titles(MAN_PAGE) == [
        (1, "NAME"),
        (1, "SYNOPSIS"),
        (1, "DESCRIPTION"),
        (1, "OPTIONS"),
        (2, "Generic Program Information"),
        (2, "Output Control"),
        (1, "EXIT STATUS"),
    ]
    exit_status = next(s for s in build_toc(MAN_PAGE) if s.title == "EXIT STATUS")
    assert "exit status is 0" in MAN_PAGE[exit_status.start_char : exit_status.end_char]
    check_tree(MAN_PAGE, build_toc(MAN_PAGE))


def test_a_licence_s_centred_titles_and_numbered_clauses_are_headings():
    assert titles(LICENCE) == [
        (1, "WIDGET PUBLIC LICENCE Version 2, 1 March 2026"),
        (1, "Preamble"),
        (1, "TERMS AND CONDITIONS"),
        (2, "0. Definitions"),
        (2, "1. Grant of Rights"),
        (2, "2. Termination"),
        (1, "END OF TERMS AND CONDITIONS"),
    ]


def test_shapes_that_are_no_headings():
    numbered_list = "Steps:\n\n1. Open the lid.\n\n2. Close the lid.\n\n3. Done.\n"
    assert detect_headings(numbered_list) == []
    one_short_line = "Notes\n    indented text under it.\n\nMore prose here.\n"
    assert detect_headings(one_short_line) == []  # one is no structure
    code = "Run this:\n    make all\nThen this:\n    make test\n"
    assert detect_headings(code) == []  # lines ending in a colon
    centred_in_a_play = PLAY.replace("Enter", "                    Exeunt\n\nEnter")
    assert titles(centred_in_a_play) == titles(PLAY)  # a play's own divisions win
