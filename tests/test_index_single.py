"""SingleDocIndex: build from a real document, reuse by stamp and content, the JSON form."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from pathlib import Path

import pytest

from longread.errors import InputError
from longread.index import single
from longread.index.single import SingleDocIndex
from longread.store.docstore import DocStore
from longread.store.documents import Documents

MACBETH = Path(__file__).resolve().parents[1] / "examples" / "macbeth.md"


def at_once(work, count: int) -> None:
    """Run `work` on `count` threads, and wait for them."""
    threads = [threading.Thread(target=work) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)


@pytest.fixture
def store(tmp_path):
    return DocStore(tmp_path / "index.sqlite")


def test_build_covers_the_document_with_a_nested_toc(store):
    index = SingleDocIndex.build(MACBETH, store)
    text = MACBETH.read_text(encoding="utf-8")
    assert index.total_chars == len(text) and index.doc_type == "markdown"
    top = index.toc["sections"]
    assert top[0]["start_char"] == 0 and top[-1]["end_char"] == len(text)
    acts = [c["title"] for c in top[0]["children"] if c["title"].startswith("ACT")]
    assert acts == ["ACT I", "ACT II", "ACT III", "ACT IV", "ACT V"]
    for name, (start, end) in index.section_map.items():
        assert index.read_range(start, start + 40) == text[start : start + 40]
        assert text[start:end].lstrip("#").strip().startswith(name.split(" (")[0][:10])


def test_unchanged_file_is_reused_and_a_changed_one_rebuilt(store, tmp_path):
    doc = tmp_path / "notes.md"
    doc.write_text("# One\n\nfirst text\n\n# Two\n\nsecond text\n", encoding="utf-8")
    first = SingleDocIndex.build(doc, store)
    assert SingleDocIndex.build(doc, store).store_id == first.store_id
    doc.write_text("# One\n\nfirst text, edited\n\n# Two\n\nsecond text\n", encoding="utf-8")
    changed = SingleDocIndex.build(doc, store)
    assert changed.store_id != first.store_id and "edited" in changed.read_range(
        0, changed.total_chars
    )


class Reads:
    """Counts what a build reads of the file: its bytes (to hash them) and its text (to index)."""

    def __init__(self, monkeypatch):
        self.hashed = self.loaded = 0
        hash_file, load = single.fingerprint, single.load_document
        monkeypatch.setattr(single, "fingerprint", lambda *a: self._count("hashed", hash_file, *a))
        monkeypatch.setattr(single, "load_document", lambda *a: self._count("loaded", load, *a))

    def _count(self, name, call, *args):
        setattr(self, name, getattr(self, name) + 1)
        return call(*args)


def test_a_file_with_its_stamp_unchanged_is_not_read(store, tmp_path, monkeypatch):
    doc = tmp_path / "notes.md"
    doc.write_text("# One\n\nfirst text\n", encoding="utf-8")
    first = SingleDocIndex.build(doc, store)
    reads = Reads(monkeypatch)
    assert SingleDocIndex.build(doc, store).store_id == first.store_id
    assert (reads.hashed, reads.loaded) == (0, 0)


def test_a_touched_file_is_hashed_not_indexed_and_a_changed_byte_is_indexed(
    store, tmp_path, monkeypatch
):
    doc = tmp_path / "notes.md"
    doc.write_text("# One\n\nfirst text\n", encoding="utf-8")
    first = SingleDocIndex.build(doc, store)
    reads = Reads(monkeypatch)
    later = doc.stat().st_mtime_ns + 5_000_000_000
    os.utime(doc, ns=(later, later))
    assert SingleDocIndex.build(doc, store).store_id == first.store_id
    assert (reads.hashed, reads.loaded) == (1, 0)
    assert SingleDocIndex.build(doc, store).store_id == first.store_id  # the new stamp is known
    assert (reads.hashed, reads.loaded) == (1, 0)
    doc.write_text("# One\n\nfirst texT\n", encoding="utf-8")  # same size, one byte changed
    os.utime(doc, ns=(later + 1, later + 1))
    changed = SingleDocIndex.build(doc, store)
    assert (reads.hashed, reads.loaded) == (2, 1)
    assert changed.store_id != first.store_id
    assert changed.read_range(0, changed.total_chars).endswith("texT\n")


def test_a_file_that_cannot_be_read_fails_as_before(store, tmp_path):
    with pytest.raises(InputError):
        SingleDocIndex.build(tmp_path / "missing.md", store)
    with pytest.raises(InputError):
        SingleDocIndex.build(tmp_path, store)


def test_json_form_round_trips_summaries(store, tmp_path):
    index = SingleDocIndex.build(MACBETH, store)
    target = index.rows[3]
    store.summaries.put(target.id, "The witches meet on the heath.", ["witches", "heath"], "test")
    saved = tmp_path / "macbeth.index.json"
    index.save(saved)
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert set(data) >= {
        "path",
        "doc_type",
        "total_chars",
        "toc",
        "section_map",
        "summaries",
        "keywords",
    }
    name = index.names[3]
    assert data["summaries"] == {name: "The witches meet on the heath."}

    fresh = DocStore(tmp_path / "other.sqlite")
    loaded = SingleDocIndex.load(saved, fresh)
    assert loaded.summaries == {name: "The witches meet on the heath."}
    assert loaded.keywords[name] == ["witches", "heath"] and loaded.section_map == index.section_map


def test_build_stores_the_rows_it_returns_and_leaves_full_text_to_the_first_search(store):
    index = SingleDocIndex.build(MACBETH, store)
    assert index.rows == SingleDocIndex.open(store, index.store_id).rows
    assert store.db.execute("SELECT fts_complete FROM documents").fetchone() == (0,)
    names = dict(zip((row.id for row in index.rows), index.names, strict=True))
    best = store.search.sections_matching(index.store_id, "dagger", k=2)
    assert names[best[0][0]] == "SCENE I. Court of Macbeth's castle."
    assert index.names.index(names[best[0][0]]) > index.names.index("ACT II")
    assert store.db.execute("SELECT fts_complete FROM documents").fetchone() == (1,)


def test_rebuilding_a_removed_document_indexes_it_again(store):
    first = SingleDocIndex.build(MACBETH, store)
    assert store.search.sections_matching(first.store_id, "Birnam", k=1)
    store.remove_document(first.store_id)
    again = SingleDocIndex.build(MACBETH, store)
    assert [r.title for r in again.rows] == [r.title for r in first.rows]
    assert store.search.sections_matching(again.store_id, "Birnam", k=1)


def test_a_file_indexed_by_several_threads_at_once_is_stored_once(tmp_path, monkeypatch):
    stores = Documents.add
    meet = threading.Barrier(4, timeout=2)

    def all_at_once(self, *args, **kwargs):  # (every thread stores it at the same moment...)
        with contextlib.suppress(threading.BrokenBarrierError):  # (...if none has to wait)
            meet.wait()
        return stores(self, *args, **kwargs)

    monkeypatch.setattr(Documents, "add", all_at_once)
    path = tmp_path / "play.md"
    path.write_text(
        "\n\n".join(f"## Scene {n}\n\n" + f"Line {n} of the play. " * 200 for n in range(40)),
        encoding="utf-8",
    )
    store_path = tmp_path / "index.sqlite"
    DocStore(store_path).close()  # (the schema made once, as a first run makes it)
    built: list[int] = []
    failed: list[BaseException] = []
    start = threading.Barrier(4)

    def index() -> None:
        store = DocStore(store_path)
        try:
            start.wait()
            built.append(SingleDocIndex.build(path, store).store_id)
        except BaseException as error:  # noqa: BLE001 - reported below
            failed.append(error)
        finally:
            store.close()

    at_once(index, 4)
    assert not failed, failed
    assert len(set(built)) == 1 and len(built) == 4
    store = DocStore(store_path)
    try:
        assert store.documents.ids() == built[:1]
        assert store.sections.count(built[0]) == 40
    finally:
        store.close()


def test_records_are_found_on_first_need_once_though_several_threads_need_them(
    tmp_path, monkeypatch
):
    from longread.index import records
    from longread.query.core.catalog import document_catalog

    store_path = tmp_path / "index.sqlite"
    index = SingleDocIndex.build(MACBETH, DocStore(store_path))
    assert index.store.records.version(index.store_id) is None  # (not while indexing)
    finds: list[int] = []
    finder = records.document_tables

    def counted_finder(*args, **kwargs):
        finds.append(1)
        return finder(*args, **kwargs)

    monkeypatch.setattr(records, "document_tables", counted_finder)
    start = threading.Barrier(3)
    kinds: list[set[str]] = []

    def need() -> None:
        store = DocStore(store_path)
        start.wait()
        catalog = document_catalog(SingleDocIndex.open(store, index.store_id), "macbeth.md")
        kinds.append({kind for table in catalog.tables.values() for kind in table.kinds})
        catalog.close()
        store.close()

    at_once(need, 3)
    assert finds == [1]  # (found by one; the others waited and read them stored)
    assert len(kinds) == 3 and all("dialogue" in found for found in kinds)
    assert index.store.records.version(index.store_id) == records.FINDERS_VERSION
