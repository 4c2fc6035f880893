"""Cross-references resolved to the sections they name, on real documents that write them three
ways (Debian Policy: `see Related documents`; the Ada Reference Manual: `(see 3.2.1)`, `see
D.3`, `in Clause 13`; the GNU Coding Standards: `*note Option Table::`), checked against a list
made by hand by reading each document; the REPL's `references` and `follow`; and `map` reading
the section a cited passage sends the reader to, citing both."""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import pytest

from longread.evals.records_data import unpacked_deb
from longread.index.corpus import CorpusIndex
from longread.index.single import SingleDocIndex
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.store.corpus_store import CorpusStore
from longread.store.docstore import DocStore
from longread.strategies import modes
from longread.tools.corpus import CorpusTools
from longread.tools.single_doc import SingleDocTools
from test_document_strategies import run_with

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
# (document, a line of it that holds the reference, the reference as written there, the
# heading of the section it names, as the document prints it: number first), by hand
BY_HAND = [
    (
        "policy",
        "Please see Introduction and scope of these appendices for more",
        "Introduction and scope of these appendices",
        "1. Introduction and scope of these appendices",
    ),
    (
        "policy",
        "control files (see Priority). This information is used",
        "Priority",
        '5.6.6. "Priority"',
    ),
    (
        "policy",
        "virtual package names. (See also Virtual packages - Provides)",
        "Virtual packages - Provides",
        '7.5. Virtual packages - "Provides"',
    ),
    (
        "policy",
        'field in the ".changes" file. See Distribution.',
        "Distribution",
        '5.6.14. "Distribution"',
    ),
    (
        "policy",
        'By" field in the ".changes" file (see Changed-By), and then',
        "Changed-By",
        '5.6.4. "Changed-By"',
    ),
    (
        "policy",
        'rules" to any configure scripts.  See also Binaries.',
        "Binaries",
        "10.1. Binaries",
    ),
    (
        "policy",
        "Reference (see Related documents) documents the conventions",
        "Related documents",
        "1.4. Related documents",
    ),
    (
        "policy",
        "See The maintainer of a package for additional requirements",
        "The maintainer of a package",
        "3.3. The maintainer of a package",
    ),
    ("policy", "source package names. See Source for the details.", "Source", '5.6.1. "Source"'),
    (
        "policy",
        "with which the package complies.  See Standards\nconformance.",
        "Standards\nconformance",
        "4.1. Standards conformance",
    ),
    (
        "policy",
        "information file. See Prompting in maintainer scripts for details.",
        "Prompting in maintainer scripts",
        "3.9.1. Prompting in maintainer scripts",
    ),
    (
        "policy",
        "required. See Summary of ways maintainer scripts are called.",
        "Summary of ways maintainer scripts are called",
        "6.5. Summary of ways maintainer scripts are called",
    ),
    (
        "policy",
        "omitted. Please see Package relationships for more information.",
        "Package relationships",
        "4.2. Package relationships",
    ),
    (
        "policy",
        "library.  See Run-time shared libraries\nfor more information",
        "Run-time shared libraries",
        "8.1. Run-time shared libraries",
    ),
    (
        "policy",
        "package via an init script. See Writing the scripts for more",
        "Writing the scripts",
        "9.3.2. Writing the scripts",
    ),
    (
        "policy",
        "warnings as possible (see Main building script: debian/rules).",
        "Main building script: debian/rules",
        '4.9. Main building script: "debian/rules"',
    ),
    (
        "policy",
        "purge. (See Package maintainer scripts and installation procedure for",
        "Package maintainer scripts and installation procedure",
        "6. Package maintainer scripts and installation procedure",
    ),
    (
        "policy",
        "(see The main control information file: control).",
        "The main control information file: control",
        '2.3. The main control information file: "control"',
    ),
    (
        "policy",
        "needs. See Source packages (from old Packaging Manual) for more\ndetails.",
        "Source packages (from old Packaging Manual)",
        "3. Source packages (from old Packaging Manual)",
    ),
    (
        "policy",
        "subdirectory. See Creating package files - dpkg-deb.",
        "Creating package files - dpkg-deb",
        '2.1. Creating package files - "dpkg-deb"',
    ),
    ("policy", "\nSee List of fields.\n", "List of fields", "5.6. List of fields"),
    (
        "policy",
        "mechanism (see Conflicting binary packages -\nConflicts) to ensure",
        "Conflicting binary packages -\nConflicts",
        '7.4. Conflicting binary packages - "Conflicts"',
    ),
    (
        "ada",
        "* Any interaction with an external file (see A.7);",
        "A.7",
        "A.7 External Files and File Objects",
    ),
    (
        "ada",
        "attribute_definition_clause (see 13.3); the expression",
        "13.3",
        "13.3 Operational and Representation Attributes",
    ),
    ("ada", "(see 3.6.1 and 3.5.1)", "3.6.1", "3.6.1 Index Constraints and Discrete Ranges"),
    ("ada", "(see 3.6.1 and 3.5.1)", "3.5.1", "3.5.1 Enumeration Types"),
    ("ada", "calls (see 6.4 and 6.4.1).", "6.4", "6.4 Subprogram Calls"),
    ("ada", "calls (see 6.4 and 6.4.1).", "6.4.1", "6.4.1 Parameter Associations"),
    ("ada", "specified as part of an allocator (see 4.8).", "4.8", "4.8 Allocators"),
    (
        "ada",
        "generate a value for a loop parameter (see 5.5.2) designating",
        "5.5.2",
        "5.5.2 Generalized Loop Iteration",
    ),
    (
        "ada",
        "Priority_Specific_Dispatching pragma (see D.2.2) in a partition",
        "D.2.2",
        "D.2.2 Task Dispatching Pragmas",
    ),
    (
        "ada",
        "pragmas specifies that the similarly named aspect (see C.6) of the type",
        "C.6",
        "C.6 Shared Variable Control",
    ),
    (
        "ada",
        "pragma Locking_Policy(policy_identifier); - See D.3.",
        "D.3",
        "D.3 Priority Ceiling Locking",
    ),
    (
        "ada",
        "The declarations of Any_Priority and Priority. See D.1(11).",
        "D.1(11)",
        "D.1 Task Priorities",
    ),
    (
        "ada",
        "General rules for aspects and aspect_specifications are found in Clause 13",
        "Clause 13",
        "13 Representation Issues",
    ),
    (
        "gnu",
        "*Note System\nPortability::",
        "System\nPortability",
        "5.5 Portability between System Types",
    ),
    ("gnu", "(*note Option Table::)", "Option Table", "4.10 Table of Long Options"),
    ("gnu", "(*note Internationalization::)", "Internationalization", "5.8 Internationalization"),
    ("gnu", "*Note Trademarks::.", "Trademarks", "2.3 Trademarks"),
    ("gnu", "(*note Change Logs::)", "Change Logs", "6.8 Change Logs"),
    ("gnu", "*Note Style of Change Logs::.", "Style of Change Logs", "6.8.2 Style of Change Logs"),
    (
        "gnu",
        "*note Command Variables::",
        "Command Variables",
        "7.2.3 Variables for Specifying Commands",
    ),
    ("gnu", "*Note Making Releases: Releases.", "Making Releases", "7.3 Making Releases"),
]
RESOLVED = 0.9  # of the references listed by hand, resolved to the section listed


@pytest.fixture(scope="module")
def documents(tmp_path_factory):
    """The three documents indexed, by name (Debian's packages fetched once, unpacked)."""
    folder = tmp_path_factory.mktemp("references")
    policy = folder / "debian-policy" / "usr/share/doc/debian-policy/policy.txt.gz"
    ada = folder / "ada" / "usr/share/doc/ada-reference-manual-2012/arm2012.txt"
    if not (unpacked_deb("debian-policy", folder / "debian-policy")):
        pytest.skip("Debian's debian-policy package cannot be fetched here (apt-get download)")
    if not unpacked_deb("ada-reference-manual-2012", folder / "ada"):
        pytest.skip("Debian's ada-reference-manual-2012 cannot be fetched here")
    texts = {
        "policy": gzip.decompress(policy.read_bytes()).decode("utf-8"),
        "ada": "".join(p.read_text(encoding="utf-8") for p in sorted(ada.glob("rm-*.TXT"))),
        "gnu": (EXAMPLES / "gnu-coding-standards.txt").read_text(encoding="utf-8"),
    }
    indexed = {}
    for name, text in texts.items():
        path = folder / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        indexed[name] = SingleDocIndex.build(path, DocStore(folder / f"{name}.sqlite"))
    return indexed


def test_references_listed_by_hand_resolve_to_the_sections_they_name(documents):
    wrong = []
    for name, line, written, heading in BY_HAND:
        index = documents[name]
        text = index.read_range(0, index.total_chars)
        at = text.index(line) + line.index(written)
        found = {r.start: r for r in index.references(at - 200, at + len(written) + 200)}
        reference = found.get(at)
        target = reference.target.title if reference and reference.target else None
        if target != heading:
            wrong.append((name, written, heading, reference and reference.text, target))
    assert len(wrong) <= (1 - RESOLVED) * len(BY_HAND), wrong


def test_numbers_that_are_quantities_versions_or_another_works_parts_are_no_references(documents):
    policy, ada, gnu = documents["policy"], documents["ada"], documents["gnu"]
    for index, line in (
        (ada, "range 0.0 .. 1.0"),  # a quantity
        (gnu, "installing section 1 man pages"),  # a man page section, not one of the document's
        (gnu, "conditions in section 3."),  # a clause of the licence the document quotes
        (policy, "Standards-Version: 3.9.1"),  # a version
    ):
        text = index.read_range(0, index.total_chars)
        if line not in text:
            continue
        at = text.index(line)
        assert not [r for r in index.references(at, at + len(line)) if r.target], line


def test_a_heading_is_no_reference_to_itself_and_the_words_that_refer_are_learned(documents):
    ada = documents["ada"]
    heading = next(row for row in ada.rows if row.title.startswith("3.2.1 "))
    assert not [r for r in ada.references(heading.start, heading.start + 40)]
    assert {"see", "and"} <= ada.reference_finder.referring


def test_kinds_of_parts_are_learned_from_the_headings(tmp_path):
    book = tmp_path / "book.md"
    body = "The reader keeps a ledger of every page turned.\n\n"
    book.write_text(
        f"# PART ONE\n\n{body}As described below in Part Two, the forms (Appendix B) and "
        f"Appendix C are kept; read [the tables](#appendix-a-tables) first. To part I would "
        f"grieve.\n\n"
        f"# PART TWO\n\n{body}# Appendix A: Tables\n\n{body}# Appendix B: Forms\n\n{body}",
        encoding="utf-8",
    )
    index = SingleDocIndex.build(book, DocStore(tmp_path / "book.sqlite"))
    found = [(r.text, r.target and r.target.title) for r in index.references()]
    assert found == [
        ("Part Two", "PART TWO"),
        ("Appendix B", "Appendix B: Forms"),
        ("Appendix C", None),  # (a part the document does not hold: kept, unresolved)
        ("[the tables](#appendix-a-tables)", "Appendix A: Tables"),
    ]


def test_the_repl_lists_a_sections_references_and_follows_one(documents, tmp_path):
    policy = documents["policy"]
    tools = SingleDocTools(policy, ScriptedLM([]), Gateway())
    heading = next(row for row in policy.rows if row.title == "2.4. Sections")
    listed = tools.references(heading.name)
    assert {"text": "Section", "target": '5.6.5. "Section"'}.items() <= listed[0].items()
    assert all(heading.start <= r["start"] < heading.end for r in listed)
    assert tools.follow(listed[0]).startswith('5.6.5. "Section"')
    assert tools.follow("Related documents").startswith("1.4. Related documents")
    assert "Debian Developer" in tools.follow("section 1.4")
    with pytest.raises(Exception, match="names no section"):
        tools.follow("Chapter 99")
    assert {"references", "follow"} <= set(tools.functions())


def test_a_corpus_repl_follows_a_reference_inside_one_of_its_documents(tmp_path):
    root = tmp_path / "corpus"
    root.mkdir()
    shutil.copy(EXAMPLES / "gnu-coding-standards.txt", root / "standards.txt")
    (root / "notes.txt").write_text("Notes\n\nNothing refers here.\n", encoding="utf-8")
    index = CorpusIndex(root, CorpusStore(tmp_path / "c.sqlite"))
    index.update(parallel=False)
    tools = CorpusTools(index, ScriptedLM([]), Gateway())
    listed = tools.references("standards.txt", "4.8 Standards for Command Line Interfaces")
    [option_table] = [r for r in listed if r["text"] == "Option Table"]
    assert option_table["document"] == "standards.txt"
    assert tools.follow(option_table).startswith("4.10 Table of Long Options")
    assert tools.follow("Trademarks", "standards.txt").startswith("2.3 Trademarks")
    assert tools.references("notes.txt") == []


FILLER = "The service keeps a journal of its requests and answers them in turn.\n\n"
MANUAL = f"""# Upload service manual

## 1 Sending files

Files are sent with the upload command, one request per file. The largest
file a request may carry is set by the quota rules (see 4.2). Each upload
is logged with its size and time.

## 2 Naming

Names may hold letters, digits and hyphens.

{FILLER * 12}
## 3 Retries

A failed request is sent again after ten seconds, three times at most.

{FILLER * 12}
## 4 Quotas

### 4.1 Daily totals

Each account may send two gigabytes a day.

{FILLER * 12}
### 4.2 Size limit

Nothing over 50 megabytes is accepted; more is refused with status 413.
"""


def reads_sentences_on_size(request) -> str:
    """A scripted reader: the sentence of its passage on the size of a file, if there is one."""
    shown = " ".join(request.messages[-1]["content"].split("Text:", 1)[-1].split())
    for sentence in re.findall(r"\b(?:The largest|Nothing over)[^;]*?(?:\)\.|;)", shown):
        return sentence
    return "NONE"


def test_map_reads_the_section_a_cited_passage_sends_the_reader_to_and_cites_both(tmp_path):
    path = tmp_path / "manual.md"
    path.write_text(MANUAL, encoding="utf-8")
    sub = ScriptedLM(reads_sentences_on_size, writes_code=False, context_window=2048)
    index = SingleDocIndex.build(path, DocStore(tmp_path / "index.sqlite"))
    tools = SingleDocTools(index, sub, Gateway())
    question = "What is the largest file a request may carry?"
    answer = modes.answer(question, tools, run_with(sub, sub, max_slices=2), mode="map")
    assert answer.stats["chunks_read"] == 3  # (the two chosen, then the section one names)
    cited = {c.span_id for c in answer.citations}
    assert {"1 Sending files", "4.2 Size limit"} <= cited, answer.text
    assert "50 megabytes" in answer.text
    order = [c.span_id for c in answer.citations]
    assert order.index("4.2 Size limit") == order.index("1 Sending files") + 1


def test_tree_reads_the_section_a_cited_passage_names_too(tmp_path):
    path = tmp_path / "manual.md"
    path.write_text(MANUAL, encoding="utf-8")
    sub = ScriptedLM(reads_sentences_on_size, writes_code=False, context_window=2048)
    root = ScriptedLM(lambda request: "1", writes_code=False, context_window=2048)  # (picks 1)
    index = SingleDocIndex.build(path, DocStore(tmp_path / "index.sqlite"))
    tools = SingleDocTools(index, sub, Gateway())
    question = "What is the largest file a request may carry?"
    answer = modes.answer(question, tools, run_with(root, sub), mode="tree")
    assert "4.2 Size limit" not in answer.stats["sections_chosen"]  # (not walked to: named)
    assert [c.span_id for c in answer.citations] == ["1 Sending files", "4.2 Size limit"]


def test_listing_a_huge_documents_references_is_bounded_in_count_and_time(tmp_path, monkeypatch):
    from longread import deadline
    from longread.deadline import DeadlineExceeded
    from longread.tools import referencing
    from longread.tools.referencing import MAX_LISTED, WINDOW_CHARS

    line = "The harbour keeps its ledger of every ship, see 1.1 for the rules.\n"
    path = tmp_path / "huge.md"
    path.write_text(
        "# Book\n\n## 1.1 Rules\n\nKeep the ledger.\n\n## 1.2 Ships\n\n"
        + line * (2 * WINDOW_CHARS // len(line)),
        encoding="utf-8",
    )
    index = SingleDocIndex.build(path, DocStore(tmp_path / "huge.sqlite"))
    tools = SingleDocTools(index, ScriptedLM([]), Gateway())
    monkeypatch.setattr(referencing, "WINDOW_CHARS", 1_000)  # (many windows: one line across each)
    listed = tools.references()
    assert len(listed) == MAX_LISTED and {r["target"] for r in listed} == {"1.1 Rules"}
    starts = [r["start"] for r in listed]
    assert starts == sorted(set(starts))  # (in order, none twice across the windows)
    with deadline.until(0.0), pytest.raises(DeadlineExceeded):
        tools.references("1.2 Ships")


def test_names_and_plain_words_are_no_references(tmp_path):
    plays = tmp_path / "plays.md"
    speech = "**KING HENRY V**  \nI can see a church by daylight, and the same as ever.\n\n"
    plays.write_text(
        "".join(
            f"# {title}\n\n## SCENE I. A church.\n\n{speech}## SCENE II. The same.\n\n{speech}"
            for title in ("King Lear", "King John", "Henry V", "Henry VIII")
        ),
        encoding="utf-8",
    )
    index = SingleDocIndex.build(plays, DocStore(tmp_path / "plays.sqlite"))
    assert index.references() == []  # (`Henry V`: a name with a number; `see a church`: a verb)


def test_a_table_or_figure_is_named_by_its_caption(tmp_path):
    report = tmp_path / "report.md"
    report.write_text(
        "# Harbour report\n\n## 1 Overview\n\nFees rose in winter (see Table 2), and the "
        "quay was rebuilt (Figure 1).\n\n## 2 Works\n\nFigure 1. The new quay, from the east.\n\n"
        "Figure 2. The old quay.\n\nThe figure above shows the quay.\n\n## 3 Fees\n\n"
        "Table 1: Fees by port\n\nOslo 12, Bergen 9.\n\nTable 2: Fees by season\n\n"
        "Winter 14, summer 8. The table above is in crowns.\n",
        encoding="utf-8",
    )
    index = SingleDocIndex.build(report, DocStore(tmp_path / "report.sqlite"))
    found = [(r.text, r.target and r.target.title) for r in index.references()]
    assert found == [("Table 2", "3 Fees"), ("Figure 1", "2 Works")]  # (no caption names itself)
    tools = SingleDocTools(index, ScriptedLM([]), Gateway())
    [table, figure] = tools.references("1 Overview")
    assert tools.follow(table).startswith("Table 2: Fees by season")
    assert tools.follow(figure).startswith("Figure 1. The new quay")
    assert tools.follow("Table 1").startswith("Table 1: Fees by port")
