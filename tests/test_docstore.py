"""The document store: exact range reads across blocks, identity by content, sections, lazy and
resumable full-text index, resume, schema changes."""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import re
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from longread.store import section_search
from longread.store.cache import ResponseCache
from longread.store.docstore import SCHEMA_VERSION, DocStore
from longread.store.text_hash import content_hash

MACBETH = Path(__file__).resolve().parents[1] / "examples" / "macbeth.md"

TEXT = "Größe – naïve café ✓ 日本語のテキスト 🚀 " * 40  # multi-byte and astral characters


def test_read_range_returns_exactly_the_characters_across_block_boundaries(tmp_path):
    store = DocStore(tmp_path / "i.sqlite", block_chars=97)
    doc = store.documents.add("a.txt", "text", TEXT)
    for start, end in [
        (0, 10),
        (90, 200),
        (96, 97),
        (97, 98),
        (500, 1_000),
        (len(TEXT) - 5, len(TEXT) + 50),
    ]:
        assert store.documents.read_range(doc, start, end) == TEXT[start:end]
    assert store.documents.read_range(doc, 50, 40) == ""
    assert "".join(body for _, body in store.documents.iter_blocks(doc)) == TEXT


@settings(max_examples=60, deadline=None)
@given(text=st.text(min_size=1, max_size=600), a=st.integers(0, 700), b=st.integers(0, 700))
def test_read_range_property(tmp_path_factory, text, a, b):
    store = DocStore(tmp_path_factory.mktemp("s") / "i.sqlite", block_chars=13)
    doc = store.documents.add("x", "text", text)
    assert store.documents.read_range(doc, a, b) == text[a:b]


def test_unchanged_text_is_reused_and_changed_text_is_new(tmp_path):
    store = DocStore(tmp_path / "i.sqlite")
    first = store.documents.add("a.txt", "text", "version one")
    assert store.documents.add("renamed.txt", "text", "version one") == first
    assert store.documents.find(content_hash("version one")) == first
    second = store.documents.add("a.txt", "text", "version two")
    assert second != first and store.documents.get(second)["chars"] == len("version two")


def test_sections_search_and_resumable_summaries(tmp_path):
    text = (
        "Intro about nothing. " * 5
        + "Termination: either party may end this agreement. " * 3
        + "Fees are due monthly. " * 4
    )
    store = DocStore(tmp_path / "i.sqlite")
    doc = store.documents.add("c.txt", "text", text)
    intro, term = 105, 105 + 51 * 3
    ids = store.sections.save(
        doc,
        [
            (None, "Contract", 1, 0, len(text)),
            (0, "Intro", 2, 0, intro),
            (0, "Termination", 2, intro, term),
            (0, "Fees", 2, term, len(text)),
        ],
    )
    rows = store.sections.all(doc)
    assert [r.title for r in rows] == ["Contract", "Intro", "Termination", "Fees"]
    assert rows[2].parent_id == ids[0] and rows[0].parent_id is None
    best = store.search.sections_matching(doc, "terminate agreement termination", k=2)
    assert best[0][0] == ids[2] or best[1][0] == ids[2]
    assert ids[3] not in [sid for sid, _ in best]

    store.summaries.put(ids[1], "An introduction.", ["intro"], "local:test")
    store.close()
    reopened = DocStore(tmp_path / "i.sqlite")  # a killed build, run again
    assert [s.title for s in reopened.summaries.missing(doc)] == ["Contract", "Termination", "Fees"]
    assert reopened.summaries.by_section(doc)[ids[1]] == ("An introduction.", ["intro"])


def test_remove_document_leaves_nothing_behind(tmp_path):
    store = DocStore(tmp_path / "i.sqlite")
    doc = store.documents.add("a.txt", "text", "alpha beta gamma")
    ids = store.sections.save(doc, [(None, "All", 1, 0, 16)])
    store.summaries.put(ids[0], "s", [], "m")
    assert [sid for sid, _ in store.search.sections_matching(doc, "beta")] == ids
    store.remove_document(doc)
    counts = [
        store.db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
        for t in ("documents", "text_blocks", "sections", "summaries")
    ]
    assert counts == [0, 0, 0, 0] and _fts_tables(store) == []


def _fts_tables(store: DocStore) -> list[str]:
    return [
        name
        for (name,) in store.db.execute(
            "SELECT name FROM sqlite_master "
            "WHERE name LIKE 'section_fts%' AND sql LIKE 'CREATE VIRTUAL%'"
        )
    ]


def _macbeth(store: DocStore, *, eager: bool) -> tuple[int, list[int]]:
    """Macbeth stored with one section per scene (the text before the first scene a section of
    its own), its full-text index built now (`eager`) or left to the first search."""
    text = MACBETH.read_text(encoding="utf-8")
    starts = [0] + [m.start() + 1 for m in re.finditer(r"\n### SCENE", text)]
    spans = list(zip(starts, [*starts[1:], len(text)], strict=True))
    entries = [(None, f"part {n}", 1, a, b) for n, (a, b) in enumerate(spans)]
    doc = store.documents.add("macbeth.md", "markdown", text)
    ids = store.sections.save(doc, entries)
    if eager:
        store.search.build(doc)
    return doc, ids


def _same_ranking(found: list[tuple[int, float]], expected: list[tuple[int, float]]) -> bool:
    """The same sections in the same order, scored alike (one index in parts, its scores summed
    in Python, against one table scored by SQLite)."""
    return [s for s, _ in found] == [s for s, _ in expected] and [
        score for _, score in found
    ] == pytest.approx([score for _, score in expected], rel=1e-9)


QUERIES = [
    "dagger air",
    "sleep no more murder",
    "Birnam wood Dunsinane",
    "witches thunder lightning",
    "zzzz unknownword",
]


def _search_as_before(store: DocStore, doc: int, query: str, k: int) -> list[tuple[int, float]]:
    """The search as it was before the index was lazy: one FTS5 table that keeps its content."""
    old = sqlite3.connect(":memory:")
    old.execute("CREATE VIRTUAL TABLE section_fts USING fts5(title, body, tokenize = 'unicode61')")
    old.executemany(
        "INSERT INTO section_fts (rowid, title, body) VALUES (?, ?, ?)",
        [
            (r.id, r.title, store.documents.read_range(doc, r.start, r.end))
            for r in store.sections.all(doc)
        ],
    )
    match = " OR ".join(f'"{t}"' for t in query.split())
    rows = old.execute(
        "SELECT rowid, bm25(section_fts) AS score FROM section_fts WHERE section_fts MATCH ? "
        "ORDER BY score LIMIT ?",
        (match, k),
    ).fetchall()
    return [(sid, -score) for sid, score in rows]


def test_full_text_index_is_built_on_first_search_with_the_same_results(tmp_path):
    eager = DocStore(tmp_path / "eager.sqlite")
    lazy = DocStore(tmp_path / "lazy.sqlite", fts_batch_chars=5_000)
    eager_doc, _ = _macbeth(eager, eager=True)
    lazy_doc, _ = _macbeth(lazy, eager=False)
    assert _fts_tables(lazy) == [] and lazy.search.sections_matching(lazy_doc, "   ") == []
    for query in QUERIES:
        found = lazy.search.sections_matching(lazy_doc, query, k=5)
        assert _same_ranking(found, eager.search.sections_matching(eager_doc, query, k=5))
        before = _search_as_before(lazy, lazy_doc, query, k=5)
        assert [sid for sid, _ in found] == [sid for sid, _ in before]
        assert [score for _, score in found] == pytest.approx([score for _, score in before])
    assert lazy.search.sections_matching(lazy_doc, "dagger", k=3)[0][1] > 0


def test_search_folds_case_and_diacritics_beyond_ascii(tmp_path):
    store = DocStore(tmp_path / "i.sqlite")
    doc = store.documents.add("a.txt", "text", TEXT)
    ids = store.sections.save(doc, [(None, "Tout", 1, 0, len(TEXT))])
    for query in ("GRÖßE", "große", "cafe", "NAÏVE", "naive"):
        assert [sid for sid, _ in store.search.sections_matching(doc, query)] == ids, query


SCRIPTS = [  # (a section's text, a query as a reader would type it)
    ("Η Αθήνα είναι η πρωτεύουσα.", "Αθήνα"),
    ("Под ёлкой лежит подарок.", "ёлкой"),
    ("한국어 문서입니다.", "한국어"),
    ("The ﬁle was signed.", "ﬁle"),
    ("Die GRÖßE zählt, naïve.", "große"),
    ("Cost ½ of the fee.", "½"),
]


@pytest.mark.parametrize("parts", [1, 3])
def test_a_search_spells_its_words_as_the_index_does_in_every_script(tmp_path, parts):
    store = DocStore(tmp_path / "i.sqlite", fts_batch_chars=10 if parts > 1 else 10**9)
    text = "\n\n".join(section for section, _ in SCRIPTS)
    doc = store.documents.add("scripts.txt", "text", text)
    starts = [text.index(section) for section, _ in SCRIPTS]
    entries = [
        (None, f"part {n}", 1, start, start + len(section))
        for n, (start, (section, _)) in enumerate(zip(starts, SCRIPTS, strict=True))
    ]
    ids = store.sections.save(doc, entries)
    store.search.plan(doc, parts)
    for section_id, (_, query) in zip(ids, SCRIPTS, strict=True):
        assert [sid for sid, _ in store.search.sections_matching(doc, query, k=1)] == [
            section_id
        ], query
    assert len(store.search.tables(doc)) == parts


def test_ensure_fts_reports_progress_and_an_interrupted_build_is_completed_once(tmp_path):

    store = DocStore(tmp_path / "i.sqlite", fts_batch_chars=10_000)
    doc, ids = _macbeth(store, eager=False)
    seen: list[tuple[int, int]] = []

    def stop_midway(done: int, total: int) -> None:
        seen.append((done, total))
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        store.search.build(doc, on_progress=stop_midway)
    assert 0 < seen[-1][0] < len(ids) and seen[-1][1] == len(ids)
    store.close()

    resumed = DocStore(tmp_path / "i.sqlite", fts_batch_chars=10_000)
    reference = DocStore(tmp_path / "reference.sqlite")
    ref_doc, _ = _macbeth(reference, eager=True)
    for query in QUERIES:  # a section indexed twice would score differently
        assert _same_ranking(
            resumed.search.sections_matching(doc, query, k=5),
            reference.search.sections_matching(ref_doc, query, k=5),
        )
    parts = _fts_tables(resumed)
    assert len(parts) > 2 and len(_fts_tables(reference)) == 1
    rows = [resumed.db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in parts]
    assert sum(rows) == len(ids)

    resumed.db.execute("UPDATE documents SET fts_complete = 0")  # the completion marker lost
    resumed.db.commit()
    progress: list[tuple[int, int]] = []
    resumed.search.build(doc, on_progress=lambda done, total: progress.append((done, total)))
    assert progress == [(len(ids), len(ids))]
    assert _same_ranking(
        resumed.search.sections_matching(doc, "dagger air"),
        reference.search.sections_matching(ref_doc, "dagger air"),
    )


def test_new_sections_replace_the_old_with_their_summaries_and_index(tmp_path):
    store = DocStore(tmp_path / "i.sqlite")
    doc = store.documents.add("a.txt", "text", "alpha beta gamma delta")
    old = store.sections.save(doc, [(None, "All", 1, 0, 22)])
    store.summaries.put(old[0], "s", [], "m")
    assert [sid for sid, _ in store.search.sections_matching(doc, "delta")] == old
    new = store.sections.save(doc, [(None, "All", 1, 0, 22), (0, "Second", 2, 11, 22)])
    assert store.summaries.by_section(doc) == {} and [r.id for r in store.sections.all(doc)] == new
    assert store.sections.all(doc)[1].parent_id == new[0]
    assert [sid for sid, _ in store.search.sections_matching(doc, "delta")] == [new[1]]


def test_section_names_and_depth_counts_are_saved_with_the_sections_and_replaced_with_them(
    tmp_path,
):
    store = DocStore(tmp_path / "i.sqlite")
    doc = store.documents.add("a.txt", "text", "alpha beta gamma delta")
    assert store.sections.names(doc) == [] and store.sections.depth_counts(doc) == {}
    store.sections.save(
        doc, [(None, "Part", 1, 0, 22), (0, "Part", 2, 5, 11), (0, "Ünï", 2, 11, 22)]
    )
    assert store.sections.names(doc) == ["Part", "Part (2)", "Ünï"]
    assert json.loads(store.sections.names_json(doc)) == [r.name for r in store.sections.all(doc)]
    assert store.sections.depth_counts(doc) == {1: 1, 2: 2}
    store.sections.save(doc, [(None, "Only", 1, 0, 22)])
    assert store.sections.names(doc) == ["Only"] and store.sections.depth_counts(doc) == {1: 1}
    assert store.sections.names(doc + 1) == [] and store.sections.depth_counts(doc + 1) == {}


def test_a_file_from_another_schema_version_is_started_afresh(tmp_path):
    store = DocStore(tmp_path / "i.sqlite")
    store.documents.add("a.txt", "text", "old text")
    store.db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    store.db.commit()
    store.close()
    fresh = DocStore(tmp_path / "i.sqlite")
    assert fresh.documents.find(content_hash("old text")) is None
    assert fresh.db.execute("SELECT value FROM meta").fetchone() == (str(SCHEMA_VERSION),)


def test_a_schema_6_file_keeps_its_documents_sections_and_summaries(tmp_path):
    """Schema 6 had one full-text table a document, keyed by section id, and `fts_next`."""
    store = DocStore(tmp_path / "i.sqlite")
    doc, ids = _macbeth(store, eager=False)
    store.summaries.put(ids[3], "The witches meet.", ["witches"], "m")
    with store.db:
        store.db.execute("DROP TABLE fts_parts")
        store.db.execute("ALTER TABLE documents RENAME COLUMN fts_parts TO fts_next")
        store.db.execute(
            f"CREATE VIRTUAL TABLE section_fts_{doc} USING fts5(title, body, content='')"
        )
        store.db.execute(f"INSERT INTO section_fts_{doc} (rowid, title, body) VALUES (9, 'a', 'b')")
        store.db.execute("UPDATE documents SET fts_next = 40, fts_complete = 1")
        store.db.execute("UPDATE meta SET value = '6' WHERE key = 'schema_version'")
    store.close()
    upgraded = DocStore(tmp_path / "i.sqlite")
    assert upgraded.sections.count(doc) == len(ids)
    assert upgraded.summaries.by_section(doc) == {ids[3]: ("The witches meet.", ["witches"])}
    assert _fts_tables(upgraded) == [] and not upgraded.search.built(doc)  # (built on first search)
    reference = DocStore(tmp_path / "reference.sqlite")
    ref_doc, _ = _macbeth(reference, eager=True)
    assert _same_ranking(
        upgraded.search.sections_matching(doc, "dagger air"),
        reference.search.sections_matching(ref_doc, "dagger air"),
    )
    assert upgraded.db.execute("SELECT value FROM meta").fetchone() == (str(SCHEMA_VERSION),)


def test_content_hash_is_sha256_of_the_utf8_text():

    long_text = TEXT * 5_000  # several hashing slices
    assert content_hash(long_text) == hashlib.sha256(long_text.encode("utf-8")).hexdigest()
    assert content_hash("") == hashlib.sha256(b"").hexdigest()


def test_a_search_of_many_sections_leaves_out_words_most_of_them_hold(tmp_path, monkeypatch):
    store = DocStore(tmp_path / "s.sqlite")
    text = "".join(
        f"# Part {n}\n\nThe harbour opens at dawn.{' A zebra came.' if n == 7 else ''}\n\n"
        for n in range(40)
    )
    store_id = store.documents.add("notes.md", "markdown", text)
    starts = [i for i in range(len(text)) if text.startswith("# Part", i)] + [len(text)]
    store.sections.save(
        store_id, [(None, f"Part {n}", 1, starts[n], starts[n + 1]) for n in range(40)]
    )
    every = store.search.sections_matching(store_id, "harbour zebra", k=40)
    assert len(every) == 40  # a small document: every word is searched for
    monkeypatch.setattr(section_search, "SMALL_INDEX", 0)  # as if it were large
    only_rare = store.search.sections_matching(store_id, "harbour zebra", k=40)
    assert [store.sections.by_id([sid])[sid].name for sid, _ in only_rare] == ["Part 7"]
    assert (
        len(store.search.sections_matching(store_id, "harbour dawn", k=40)) == 40
    )  # the two rarest


def _open_at_once(kind: str, path: str, barrier, errors) -> None:
    """In a process: open the file as a store or a cache once every process is ready."""
    barrier.wait()
    try:
        (DocStore if kind == "store" else ResponseCache)(path)
    except sqlite3.Error as error:
        errors.put(repr(error))


@pytest.mark.parametrize("kind", ["store", "cache"])
def test_processes_creating_one_file_at_the_same_moment_all_open_it(tmp_path, kind):
    """A new file opened by several processes at once (MCP calls on a source never indexed):
    changing its journal mode does not wait for a lock, and answered `database is locked`."""
    context = multiprocessing.get_context("fork")
    errors = context.Queue()
    for attempt in range(12):
        barrier = context.Barrier(4)
        path = str(tmp_path / f"{kind}-{attempt}.sqlite")
        opening = [
            context.Process(target=_open_at_once, args=(kind, path, barrier, errors))
            for _ in range(4)
        ]
        for process in opening:
            process.start()
        for process in opening:
            process.join(60)
        assert all(process.exitcode == 0 for process in opening)
    assert errors.empty(), errors.get()
