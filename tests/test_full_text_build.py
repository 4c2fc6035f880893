"""A large document's build on every core: the heading lines searched in pieces by forked copies
(the same matches as one search), its full-text index built in parts beside the rest of the build
(the same ranking as one table; a part whose builder fails is built here), and its content hash
taken from the file's where the text is the file's bytes."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from longread.forking import can_fork, forked_map
from longread.index import full_text, single
from longread.index.single import SingleDocIndex
from longread.ingest import headings
from longread.store.docstore import DocStore
from longread.store.full_text import build_part, copy_part
from longread.store.text_hash import content_hash

MACBETH = Path(__file__).resolve().parents[1] / "examples" / "macbeth.md"
QUERIES = ["dagger air", "sleep no more murder", "Birnam wood Dunsinane", "witches thunder"]
LINES = [
    "# Title",
    "## Part two ##",
    "Setext title",
    "=====",
    "plain text line",
    "1.2 Numbered heading",
    "Chapter 3",
    "ACT IV",
    "Scene 2",
    "\\section{Methods}",
    "```",
    "  ~~~",
    "",
    "§ 4 Fees",
    "Step 5 Mix",
]


def _matches(text: str, pieces: int) -> list[tuple[int, int, dict[str, str | None]]]:
    return [(at, m.end(), m.groupdict()) for at, m in headings._line_matches(text, pieces)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(LINES), min_size=1, max_size=40), st.integers(2, 5))
def test_heading_lines_searched_in_pieces_are_those_one_search_finds(lines, pieces):
    text = "\n".join(lines)
    assert _matches(text, pieces) == _matches(text, 1)


def test_forked_map_runs_in_copies_in_order_and_raises_what_they_raise():
    answers = forked_map(lambda n: (n * n, os.getpid()), [1, 2, 3])
    assert [square for square, _ in answers] == [1, 4, 9]
    if can_fork():
        assert len({pid for _, pid in answers}) == 3 and answers[-1][1] == os.getpid()

    def fails(n: int) -> int:
        if n == 1:
            raise ValueError("no one")
        return n

    with pytest.raises(ValueError, match="no one"):
        forked_map(fails, [1, 2])


@pytest.fixture
def parallel(monkeypatch):
    """Build Macbeth (108 KB) as a large document is built: its index in parts, beside."""
    assert can_fork(), f"a thread left running (by an earlier test?): {threading.enumerate()}"
    monkeypatch.setattr(full_text, "PARALLEL_CHARS", 1_000)
    monkeypatch.setattr(full_text, "cores", lambda: 2)
    monkeypatch.setattr(full_text, "FTS_BATCH_CHARS", 40_000)


def _ranking(store: DocStore, store_id: int, query: str) -> list[tuple[str, float]]:
    names = {row.id: row.name for row in store.sections.all(store_id)}
    return [
        (names[sid], round(score, 9))
        for sid, score in store.search.sections_matching(store_id, query)
    ]


@pytest.mark.skipif(not can_fork(), reason="this system cannot fork (the build runs here)")
def test_a_large_documents_index_is_built_in_parts_beside_with_the_ranking_of_one(
    parallel, tmp_path, monkeypatch
):
    store = DocStore(tmp_path / "parts.sqlite")
    built = SingleDocIndex.build(MACBETH, store)
    parts = store.db.execute("SELECT part, first, stop FROM fts_parts ORDER BY part").fetchall()
    assert store.search._fts_state(built.store_id) == (len(parts), True) and len(parts) >= 3
    assert [p[1] for p in parts[1:]] == [p[2] for p in parts[:-1]]  # the runs meet end to end
    assert parts[-1][2] == len(built.rows)
    assert store.db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    monkeypatch.setattr(full_text, "PARALLEL_CHARS", 10**12)
    serial = DocStore(tmp_path / "one.sqlite")
    one = SingleDocIndex.build(MACBETH, serial)  # (small: one part, on the first search)
    assert not serial.search.built(one.store_id)
    for query in QUERIES:
        assert _ranking(store, built.store_id, query) == _ranking(serial, one.store_id, query)
    assert len(serial.search.tables(one.store_id)) == 1


@pytest.mark.skipif(not can_fork(), reason="this system cannot fork (the build runs here)")
def test_a_part_whose_builder_fails_is_built_here(parallel, tmp_path, monkeypatch):
    made_here = os.getpid()
    real = full_text.build_part

    def fails_in_a_builder(rows):
        rows = list(rows)
        if os.getpid() != made_here and rows[0][0] == 0:  # the first part, in a builder
            raise OSError("disk full")
        return real(rows)

    monkeypatch.setattr(full_text, "build_part", fails_in_a_builder)
    store = DocStore(tmp_path / "i.sqlite")
    built = SingleDocIndex.build(MACBETH, store)
    assert store.search.built(built.store_id)
    reference = DocStore(tmp_path / "ref.sqlite")
    ref = SingleDocIndex.build(MACBETH, reference)
    assert _ranking(store, built.store_id, "Birnam wood") == _ranking(
        reference, ref.store_id, "Birnam wood"
    )


@pytest.mark.parametrize(
    ("content", "from_file"),
    [
        (b"# Notes\n\nPlain ASCII text.\n", True),
        (b"# Notes\r\n\r\nWindows line ends.\r\n", False),
        (b"# Notes\r\rOld Mac line ends, the text as long as the bytes.\r", False),
        ("# Notes\n\nCaf\u00e9 au lait.\n".encode(), True),
        ("# Notes\n\nCaf\u00e9 au lait.\n".encode("cp1252"), False),
        (b"\xef\xbb\xbf# Notes\n\nA byte order mark.\n", False),
    ],
    ids=["ascii", "crlf", "cr", "utf-8", "cp1252", "bom"],
)
def test_the_content_hash_is_the_files_only_where_the_text_is_its_bytes(
    content, from_file, tmp_path, monkeypatch
):
    path = tmp_path / "notes.md"
    path.write_bytes(content)
    hashed: list[int] = []
    monkeypatch.setattr(
        single, "content_hash", lambda text: hashed.append(len(text)) or content_hash(text)
    )
    store = DocStore(tmp_path / "i.sqlite")
    built = SingleDocIndex.build(path, store)
    text = store.documents.read_range(built.store_id, 0, built.total_chars)
    stored = store.db.execute("SELECT content_hash FROM documents").fetchone()[0]
    assert stored == content_hash(text) and (hashed == []) is from_file


def _macbeth_stored(tmp_path: Path) -> tuple[DocStore, int]:
    """Macbeth's text and sections stored, no full-text index yet."""
    store = DocStore(tmp_path / "i.sqlite", fts_batch_chars=40_000)
    built = SingleDocIndex.build(MACBETH, store)
    assert not store.search.built(built.store_id)
    return store, built.store_id


def test_a_part_built_for_a_plan_the_document_no_longer_has_is_not_copied(tmp_path):
    store, doc = _macbeth_stored(tmp_path)
    plan = [(0, 10), (10, store.sections.count(doc))]  # (no plan is recorded: its sections are new)
    copied = copy_part(build_part([(0, "t", "Birnam wood")]), store.path, doc, 0, plan)
    assert not copied and store.db.execute("SELECT count(*) FROM fts_parts").fetchone() == (0,)
    names = [name for (name,) in store.db.execute("SELECT name FROM sqlite_master")]
    assert not [name for name in names if name.startswith("section_fts")]


def test_a_recorded_part_that_does_not_match_the_plan_is_built_again(tmp_path):
    store, doc = _macbeth_stored(tmp_path)
    store.search.build(doc)
    plan = store.search.plan(doc)
    with store.db:  # (part 0 recorded as another plan would have cut it, the index not complete)
        store.db.execute("UPDATE fts_parts SET stop = stop - 1 WHERE part = 0")
        store.db.execute("UPDATE documents SET fts_complete = 0")
    store.search.build(doc)
    runs = store.db.execute("SELECT first, stop FROM fts_parts ORDER BY part").fetchall()
    assert runs == plan and store.search.built(doc) and len(plan) >= 3
    reference = DocStore(tmp_path / "ref.sqlite")
    ref = SingleDocIndex.build(MACBETH, reference)
    for query in QUERIES:
        assert _ranking(store, doc, query) == _ranking(reference, ref.store_id, query)
