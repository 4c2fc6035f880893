"""The corpus index: level 1 (registry, metadata, full text, inverted indexes, links, clusters),
level 2 on first use, skipped files, and incremental updates equal to a fresh build."""

from __future__ import annotations

import os
import shutil
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from corpus_fixtures import (
    ARTICLES,
    built,
    comparable,
    open_index,
    write_bad_files,
    write_corpus,
)
from longread.errors import InputError
from longread.index import corpus_update
from longread.index.corpus import CorpusIndex
from longread.index.corpus_files import compare, list_ahead, scan
from longread.store.corpus_store import CorpusStore
from longread.store.search_terms import distinctive


@pytest.fixture
def corpus(tmp_path):
    return write_corpus(tmp_path / "corpus")


def test_level_one_registry_and_metadata(corpus, tmp_path):
    index = built(corpus, tmp_path / "c.sqlite")
    assert index.store.catalog.doc_ids() == sorted(ARTICLES)
    meta = index.meta("news/heron.md")
    assert (
        meta.title == "The Silver Heron"
        and meta.author == "Ingrid Vale"
        and meta.date == "2024-03-03"
    )
    assert "Silver Heron" in meta.entities and "Leith Harbour" in meta.entities
    assert meta.char_count == len(ARTICLES["news/heron.md"]) and meta.meta_source == "rules"
    assert not meta.has_detailed_index
    assert index.meta("reports/merger.md").date == "2024-10-12"
    assert index.totals() == (5, sum(map(len, ARTICLES.values())))


def test_inverted_indexes_and_full_text_rank(corpus, tmp_path):
    store = built(corpus, tmp_path / "c.sqlite").store
    assert store.search.lookup("keyword", "layoff") == ["reports/layoffs.md"]
    assert store.search.lookup("entity", "acme corp") == ["reports/layoffs.md"]
    assert store.search.lookup("date", "2024-03-03") == ["news/heron.md", "news/log.txt"]
    assert store.search.lookup_range("date", "2024-10", "2024-12") == [
        "reports/layoffs.md",
        "reports/merger.md",
    ]
    ranked = store.search.rank(["compost", "tomatoes"], 3)
    assert [doc_id for doc_id, _ in ranked] == ["notes/garden.txt"] and ranked[0][1] > 0


def test_a_search_of_a_large_corpus_leaves_out_words_most_documents_hold(tmp_path):
    articles = {
        f"{n}.txt": f"Note {n}\n\nThe harbour opens at dawn." + (" A zebra came." if n == 3 else "")
        for n in range(12)
    }
    store = built(write_corpus(tmp_path / "notes", articles), tmp_path / "c.sqlite").store
    store.search.small_corpus = 0  # as if it were large
    assert [d for d, _ in store.search.rank(["harbour", "zebra"], 12)] == [
        "3.txt"
    ]  # "harbour" is everywhere
    assert (
        len(store.search.rank(["harbour", "dawn", "opens"], 12)) == 12
    )  # all common: the two rarest kept
    held = {"harbour": 12, "zebra": 1, "dawn": 12}
    assert distinctive(["harbour", "zebra", "dawn"], held, 12, common=1.0, postings=13) == [
        "harbour",
        "zebra",
    ]
    assert distinctive(["harbour", "zebra", "dawn"], held, 12, common=1.0, postings=5) == [
        "zebra"
    ]  # the rarest
    store.search.small_corpus = 1_000
    assert len(store.search.rank(["harbour", "zebra"], 12)) == 12


def test_full_text_is_indexed_on_first_search_in_resumable_steps(corpus, tmp_path):
    index = CorpusIndex(
        corpus, CorpusStore(tmp_path / "c.sqlite", fts_batch_chars=1)
    )  # one document a step
    index.update(parallel=False)
    store = index.store
    assert (
        store.db.execute("SELECT count(*) FROM corpus_fts_docsize").fetchone()[0] == 0
    )  # not yet indexed
    store.remove_docs(["notes/garden.txt"])  # a document never indexed leaves no trace
    steps = []
    store.search._step()  # as if a first search were interrupted after one step
    store.search.build(lambda done, todo: steps.append((done, todo)))
    assert steps == [(1, 3), (2, 3), (3, 3)]
    assert store.search.rank(["compost"], 3) == [] and store.search.rank(["harbour"], 1)
    index.update(parallel=False)
    assert [d for d, _ in store.search.rank(["compost", "tomatoes"], 3)] == ["notes/garden.txt"]


def test_links_follow_file_names_and_titles(corpus, tmp_path):
    index = built(corpus, tmp_path / "c.sqlite")
    assert index.all_links() == [("news/log.txt", "news/heron.md")]
    assert index.links("news/heron.md") == ([], ["news/log.txt"])
    (corpus / "notes" / "see.txt").write_text(
        "Read Quarterly Workforce Report and merger.md first.\n"
    )
    assert index.update(parallel=False).added == ["notes/see.txt"]
    assert index.links("notes/see.txt") == (["reports/layoffs.md", "reports/merger.md"], [])
    assert ("notes/see.txt", "reports/merger.md") in index.all_links()


def test_clusters_and_topics_group_documents_by_shared_keywords(corpus, tmp_path):
    index = built(corpus, tmp_path / "c.sqlite")
    clusters = index.clusters(max_share=0.5)
    together = [docs for docs in clusters.values() if "news/heron.md" in docs]
    assert together and "news/log.txt" in together[0]
    assert all(len(docs) >= 1 for docs in clusters.values())
    assert set(index.topics(max_share=0.5)["heron"]) == {"news/heron.md", "news/log.txt"}


def test_unreadable_files_are_skipped_and_reported(corpus, tmp_path):
    bad = write_bad_files(corpus)
    (corpus / "latin1.txt").write_bytes(
        "Café Müller in Zürich serves crème brûlée.\n".encode("cp1252")
    )
    index = open_index(corpus, tmp_path / "c.sqlite")
    report = index.update(parallel=False)
    assert {s.doc_id for s in report.skipped} == bad
    assert all(s.reason for s in report.skipped)
    assert "latin1.txt" in report.added
    assert "Café Müller" in index.store.documents.read_range(
        index.doc("latin1.txt").store_id, 0, 100
    )
    assert (
        index.store.search.rank(["cafe"], 1)[0][0] == "latin1.txt"
    )  # diacritics folded for search


def test_update_reindexes_only_what_changed(corpus, tmp_path):
    index = built(corpus, tmp_path / "c.sqlite")
    (corpus / "notes" / "garden.txt").write_text("Garden notes\n\nBeans climb the fence.\n")
    (corpus / "news" / "log.txt").unlink()
    (corpus / "new.md").write_text("# New\n\nA fresh page about beans.\n")
    os.utime(corpus / "reports" / "merger.md")  # touched, same text
    report = index.update(parallel=False)
    assert (report.added, report.changed, report.removed) == (
        ["new.md"],
        ["notes/garden.txt"],
        ["news/log.txt"],
    )
    assert report.unchanged == 3
    assert index.all_links() == []  # the link came from the removed log
    assert index.store.search.lookup("keyword", "bean") == ["new.md", "notes/garden.txt"]
    assert index.store.search.rank(["tomatoes"], 5) == []


def test_level_two_is_built_on_first_use_and_kept(corpus, tmp_path):
    (corpus / "long.md").write_text(
        "# Manual\n\n## Install\n\nRun the installer.\n\n## Remove\n\nDelete the folder.\n"
    )
    index = built(corpus, tmp_path / "c.sqlite")
    assert not index.meta("long.md").has_detailed_index
    level2 = index.document_index("long.md")
    assert level2.names == ["Manual", "Install", "Remove"]
    assert open_index(corpus, tmp_path / "c.sqlite").meta("long.md").has_detailed_index
    (corpus / "long.md").write_text("# Manual\n\nChanged.\n")
    with pytest.raises(InputError, match="changed since it was indexed"):
        open_index(corpus, tmp_path / "c.sqlite").document_index("long.md")


def test_add_and_remove_single_documents(corpus, tmp_path):
    index = built(corpus, tmp_path / "c.sqlite")
    assert index.remove_document("news/heron.md") and not index.remove_document("news/heron.md")
    assert index.store.search.lookup("entity", "silver heron") == ["news/log.txt"]
    assert index.add_document(corpus / "news" / "heron.md") == "news/heron.md"
    assert index.all_links() == [("news/log.txt", "news/heron.md")]
    with pytest.raises(InputError, match="not inside the corpus folder"):
        index.add_document(tmp_path / "elsewhere.md")
    write_bad_files(corpus)
    with pytest.raises(InputError, match="cannot index bad/blob.bin"):
        index.add_document(corpus / "bad" / "blob.bin")


def test_identical_files_share_their_stored_text(corpus, tmp_path):
    (corpus / "copy.md").write_text(ARTICLES["news/heron.md"])
    index = built(corpus, tmp_path / "c.sqlite")
    assert index.doc("copy.md").store_id == index.doc("news/heron.md").store_id
    index.remove_document("copy.md")
    assert "Silver Heron" in index.store.documents.read_range(
        index.doc("news/heron.md").store_id, 0, 200
    )


def test_a_parallel_build_equals_a_serial_one(tmp_path, monkeypatch):
    monkeypatch.setattr(corpus_update, "READ_AHEAD_FILES", 20)  # workers wait for the store, which
    monkeypatch.setattr(corpus_update, "COMMIT_DOCS", 30)  # commits in several transactions
    articles = {
        f"a/{n:03d}.txt": f"Article {n}\n\nThe {['red', 'blue', 'green'][n % 3]} widget number {n} "
        f"ships on 2024-05-{n % 28 + 1:02d}. See {(n + 1) % 80:03d}.txt.\n"
        for n in range(80)
    }
    root = write_corpus(tmp_path / "many", articles)
    serial = built(root, tmp_path / "s.sqlite")
    parallel = open_index(root, tmp_path / "p.sqlite")
    parallel.update(parallel=True)
    assert comparable(parallel) == comparable(serial)
    assert len(serial.all_links()) == 80


POOL = [
    "# Alpha Report\n\nAcme Corp ships widgets on 2024-01-05. See beta.md.\n",
    "# Beta Notes\n\nGlobex Industries buys widgets. Alpha Report is wrong.\n",
    "Gamma\n\nTomatoes and beans grow in Oslo Gardens in June 2023.\n",
    "# Delta Memo\n\nAcme Corp and Globex Industries merge. Read gamma.txt.\n",
]
NAMES = ["alpha.md", "beta.md", "gamma.txt", "sub/delta.md"]
OPS = st.lists(
    st.tuples(
        st.sampled_from(["write", "delete"]),
        st.sampled_from(NAMES),
        st.integers(0, len(POOL) - 1),
        st.sampled_from(["update", "direct"]),
    ),
    max_size=8,
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops=OPS)
def test_any_sequence_of_updates_equals_a_fresh_build(tmp_path_factory, ops):
    base = tmp_path_factory.mktemp("prop")
    root = base / "corpus"
    (root / "sub").mkdir(parents=True)
    index = open_index(root, base / "inc.sqlite")
    clock = 1_700_000_000_000_000_000
    for step, (action, name, content, how) in enumerate(ops):
        path = root / name
        if action == "write":
            path.write_text(POOL[content] + f"Version {step % 2}.\n")
            os.utime(path, ns=(clock + step, clock + step))  # a change is always visible to update
        elif path.exists():
            path.unlink()
        if how == "update":
            index.update(parallel=False)
        elif action == "write":
            index.add_document(path)
        else:
            index.remove_document(name)
    fresh = built(root, base / "fresh.sqlite")
    assert comparable(index) == comparable(fresh)


def test_an_update_uses_the_listing_prescan_started(tmp_path):
    root = write_corpus(tmp_path / "notes", {"a.txt": "First note.", "b.txt": "Second note."})
    index = built(root, tmp_path / "c.sqlite")
    (root / "a.txt").write_text("First note, changed.", encoding="utf-8")
    index.prescan()
    report = index.update(parallel=False)
    assert (report.changed, report.unchanged) == (["a.txt"], 1)
    assert index.update(parallel=False).unchanged == 2  # a fresh listing, once it was used
    shutil.rmtree(root)
    index.prescan()
    with pytest.raises(FileNotFoundError):  # (the listing's error, where it is used)
        index.update(parallel=False)


def test_a_folder_is_listed_against_its_index_ahead_in_a_forked_process_or_on_a_thread(tmp_path):
    root = write_corpus(tmp_path / "notes", {"a.txt": "One.", "sub/b.txt": "Two.", "c.txt": "3"})
    db = tmp_path / "c.sqlite"
    built(root, db)
    (root / "a.txt").write_text("One, changed.", encoding="utf-8")
    (root / "c.txt").unlink()
    (root / "d.txt").write_text("Four.", encoding="utf-8")
    expected = compare(scan(root), CorpusStore(db).catalog.file_states())
    assert (sorted(expected.changed), expected.removed) == (["a.txt", "d.txt"], ["c.txt"])
    assert (expected.stored, expected.unchanged) == ({"a.txt"}, 1)
    forked = list_ahead(root, db, [db])  # (forked: this thread is alone)
    assert forked.result(timeout=30) == expected
    busy = threading.Event()
    other = threading.Thread(target=busy.wait)
    other.start()  # (another thread running: no fork, a thread of its own)
    try:
        assert list_ahead(root, db, [db]).result(timeout=30) == expected
    finally:
        busy.set()
        other.join()
    with pytest.raises(FileNotFoundError):
        list_ahead(tmp_path / "gone", db, [db]).result(timeout=30)
