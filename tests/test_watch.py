"""A folder's index kept fresh as its files change (`watch_corpus`, `longread watch`): each kind
of change reaches the index, and afterwards it holds what a fresh build of the folder holds; a
move keeps what was read and built of the file; the index's own files are no change."""

from __future__ import annotations

import os
import random
import shutil
import signal
import statistics
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from cli import LONGREAD, longread
from corpus_fixtures import built, comparable, open_index, write_corpus
from longread.config import index_path
from longread.index.corpus import CorpusIndex
from longread.index.watching import WatchUpdate, watch_corpus
from longread.ingest.metadata import ContentMeta
from longread.store.corpus_store import CorpusStore

WAIT_SECONDS = 10.0


def wait_until(holds: Callable[[], object], what: str, seconds: float = WAIT_SECONDS) -> float:
    """Seconds until `holds()` is true (checked every 20 ms); fails after `seconds`."""
    started = time.monotonic()
    while not holds():
        assert time.monotonic() - started < seconds, f"not within {seconds} s: {what}"
        time.sleep(0.02)
    return time.monotonic() - started


@contextmanager
def watching(index: CorpusIndex) -> Iterator[list[WatchUpdate]]:
    """`index` watched on a thread, from its first listing on; the updates it made."""
    stop, updates, errors = threading.Event(), [], []
    thread = threading.Thread(
        target=watch_corpus, args=(index, stop, updates.append, errors.append)
    )
    thread.start()
    try:
        wait_until(lambda: updates, "the first listing")
        yield updates
    finally:
        stop.set()
        thread.join(WAIT_SECONDS)
    assert not thread.is_alive() and errors == []


def found(store: CorpusStore, word: str) -> list[str]:
    return [doc_id for doc_id, _ in store.search.rank([word], 5)]


def test_each_kind_of_change_reaches_the_index_as_it_happens(tmp_path):
    root = write_corpus(tmp_path / "corpus")
    outside = write_corpus(
        tmp_path / "elsewhere", {"pack/a.md": "Quince jam.", "pack/b.md": "Fig."}
    )
    index = open_index(root, tmp_path / "watched.sqlite")
    reader = CorpusStore(tmp_path / "watched.sqlite")  # (as another process reads it)
    with watching(index) as updates:
        assert updates[0].events is None and len(updates[0].report.added) == 5
        (root / "fresh").mkdir()
        (root / "fresh" / "kumquat.md").write_text("# Kumquats\n\nKumquats grow in pots.\n")
        wait_until(lambda: found(reader, "kumquats") == ["fresh/kumquat.md"], "a new file")
        (root / "notes" / "garden.txt").write_text("Garden notes\n\nRhubarb by the wall.\n")
        wait_until(lambda: found(reader, "rhubarb") == ["notes/garden.txt"], "a changed file")
        assert found(reader, "compost") == []  # (its old text is gone from the full text)
        (root / "news" / "log.txt").unlink()
        wait_until(lambda: reader.catalog.doc("news/log.txt") is None, "a deleted file")
        os.renames(root / "reports" / "merger.md", root / "archive" / "merger.md")
        wait_until(lambda: found(reader, "initech") == ["archive/merger.md"], "a moved file")
        (outside / "pack").rename(root / "pack")
        wait_until(
            lambda: reader.catalog.doc_ids("pack") == ["pack/a.md", "pack/b.md"],
            "a folder moved in",
        )
        shutil.rmtree(root / "news")
        wait_until(lambda: reader.catalog.doc_ids("news") == [], "a deleted folder")
        (root / ".draft.md").write_text("Hidden drafts are not documents.")
        (root / ".cache").mkdir()
        (root / ".cache" / "x.md").write_text("Nor is what a hidden folder holds.")
        (root / "last.md").write_text("Plums last.")
        wait_until(lambda: found(reader, "plums") == ["last.md"], "the last file")
    assert not [d for d in reader.catalog.doc_ids() if d.startswith(".")]
    assert all(u.events for u in updates[1:]) and index.updated() > time.time() - 60
    assert comparable(index) == comparable(built(root, tmp_path / "fresh.sqlite"))


def test_an_index_kept_in_its_folder_is_no_change_of_it(tmp_path):
    root = write_corpus(tmp_path / "corpus")
    index = CorpusIndex(root, CorpusStore(root / "index.sqlite"))
    with watching(index) as updates:
        (root / "one.md").write_text("Apricots.")
        wait_until(lambda: any("one.md" in u.report.added for u in updates), "a new file")
        settled = len(updates)
        time.sleep(1.5)  # (its own writes, were they watched, would update it again and again)
        assert len(updates) == settled
    assert "index.sqlite" not in index.store.catalog.doc_ids()


def test_a_moved_file_keeps_what_was_read_and_built_of_it(tmp_path):
    root = write_corpus(tmp_path / "corpus")
    index = built(root, tmp_path / "c.sqlite")

    def scripted_reader(batch):  # (a model's reading of each document: a title and a keyword)
        return [
            ContentMeta(title=f"Read: {meta.title}", keywords=["damson"], source="scripted-model")
            for _, _, meta in batch
        ]

    index.update(meta_reader=scripted_reader)
    before = index.store.catalog.doc("reports/merger.md")
    os.renames(root / "reports" / "merger.md", root / "old" / "merger.md")
    report = index.update(parallel=False)
    assert (report.added, report.removed) == (["old/merger.md"], ["reports/merger.md"])
    moved = index.store.catalog.doc("old/merger.md")
    assert moved.meta["title"] == "Read: Merger Announcement"
    assert moved.meta["source"] == "scripted-model"
    assert moved.store_id == before.store_id  # (its text, and all built on it, were kept)
    assert "old/merger.md" in index.store.search.lookup("keyword", "damson")
    assert "reports/merger.md" not in index.store.search.lookup("keyword", "damson")
    assert index.store.catalog.rows_with_meta_source("rules") == []  # (no model reads it again)


def write_notes(root: Path, count: int) -> None:
    """`count` notes in folders of 100, note i holding the word `tokenNi` found in no other."""
    for number in range(count):
        write_note(root, f"d{number // 100:03}/note{number:05}.txt", f"token{number}i")


def write_note(root: Path, doc_id: str, word: str) -> None:
    path = root / doc_id
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"A note on {word}.\n\nHarbour ledger, {doc_id}, garden letter.\n")


@contextmanager
def watch_command(root: Path, cache: Path) -> Iterator[subprocess.Popen]:
    """`longread watch ROOT` running, once it has listed the folder."""
    command = subprocess.Popen(
        [LONGREAD, "watch", str(root)],
        env={**os.environ, "LONGREAD_CACHE_DIR": str(cache)},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        first = command.stdout.readline()
        assert first.startswith("watching"), first + command.stdout.read()
        yield command
    finally:
        command.kill()
        command.wait()


def test_ten_thousand_files_watched_while_queried_and_killed_mid_burst(tmp_path):
    root, cache = tmp_path / "notes", tmp_path / "cache"
    write_notes(root, 10_000)
    chance = random.Random(5)
    with watch_command(root, cache):
        reader = CorpusStore(index_path(root, cache / "indexes"))
        assert reader.catalog.totals()[0] == 10_000
        ids = sorted(reader.catalog.doc_ids())
        picked = chance.sample(ids, 130)
        changes = (  # (doc id, how, word it holds after): 100 changed, 20 deleted, 10 moved
            [(d, "change", f"changed{n}x") for n, d in enumerate(picked[:100])]
            + [
                (d, "delete", reader.catalog.doc(d).meta["title"].split()[-1][:-1])
                for d in picked[100:120]
            ]
            + [
                (d, "move", reader.catalog.doc(d).meta["title"].split()[-1][:-1])
                for d in picked[120:]
            ]
            + [(f"new/n{n}.txt", "create", f"created{n}x") for n in range(50)]
        )
        chance.shuffle(changes)
        pending: dict[int, float] = {}
        latencies: list[float] = []

        def visible(doc_id: str, how: str, word: str) -> bool:
            hits = found(reader, word)
            if how == "delete":
                return hits == [] and reader.catalog.doc(doc_id) is None
            if how == "move":
                return hits == [f"moved/{doc_id}"] and reader.catalog.doc(doc_id) is None
            return hits == [doc_id]

        def check() -> None:  # (the queries, run as the changes happen)
            for at, since in list(pending.items()):
                if visible(*changes[at]):
                    latencies.append(time.monotonic() - since)
                    del pending[at]

        for at, (doc_id, how, word) in enumerate(changes):
            if how in ("change", "create"):
                write_note(root, doc_id, word)
            elif how == "delete":
                (root / doc_id).unlink()
            else:
                os.renames(root / doc_id, root / "moved" / doc_id)
            pending[at] = time.monotonic()
            check()
            time.sleep(0.02)
        wait_until(lambda: check() or not pending, "every change", 30)
    assert len(latencies) == 180
    assert statistics.median(latencies) <= 2.0 and max(latencies) <= 5.0, latencies
    fresh = built(root, tmp_path / "fresh.sqlite")
    words = [word for _, _, word in changes[:40]]
    assert comparable(watched(root, cache), words) == comparable(fresh, words)

    with watch_command(root, cache) as command:  # a burst, the watch killed in its middle
        burst = [f"d{n // 100:03}/note{n:05}.txt" for n in range(0, 10_000, 7)]
        for number, doc_id in enumerate(burst):
            write_note(root, doc_id, f"burst{number}x")
            if number == 200:
                wait_until(lambda: found(reader, "burst1x"), "the burst's first update")
        command.send_signal(signal.SIGKILL)
        assert not found(reader, f"burst{len(burst) - 1}x")  # (killed before its last update)
        shutil.rmtree(root / "new")
    with watch_command(root, cache):  # started again: the folder is listed whole
        pass
    fresh = built(root, tmp_path / "fresh-after.sqlite")
    words = ["burst1x", f"burst{len(burst) - 1}x", "created3x", "changed2x"]
    assert comparable(watched(root, cache), words) == comparable(fresh, words)


def watched(root: Path, cache: Path) -> CorpusIndex:
    return open_index(root, index_path(root, cache / "indexes"))


def test_a_folder_that_is_none_is_refused_in_one_line(tmp_path):
    for args in (["watch", str(tmp_path / "gone")], ["serve", "--watch", str(tmp_path / "gone")]):
        done = longread(*args, cache=tmp_path / "cache", timeout=60)
        assert done.returncode != 0 and "not a folder" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr


def test_the_watch_ends_with_a_clear_error_when_its_folder_goes(tmp_path):
    root = write_corpus(tmp_path / "corpus")
    index = open_index(root, tmp_path / "watched.sqlite")
    ended: list[BaseException] = []
    updates: list[WatchUpdate] = []

    def watch() -> None:
        try:
            watch_corpus(index, threading.Event(), updates.append)
        except BaseException as error:  # (what ends the watch, for the test to see)
            ended.append(error)

    thread = threading.Thread(target=watch)
    thread.start()
    wait_until(lambda: updates, "the first listing")
    shutil.rmtree(root)
    thread.join(WAIT_SECONDS)
    assert not thread.is_alive() and "is gone: the watch ends" in str(ended[0])
