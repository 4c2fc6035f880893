"""Faults survived, through the real command: a damaged index is set aside and built again
(found when opened, or in the middle of a run), a full disk is one line and the next run goes on,
and the short version of bench/faults.py's kill, full-disk and damage runs."""

from __future__ import annotations

import random
import sqlite3
import sys
from contextlib import closing
from pathlib import Path

import pytest

from cli import longread
from longread.store.cache import ResponseCache
from longread.store.damage import DamagedFileWarning
from longread.store.docstore import DocStore

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
import faults  # noqa: E402 - (the bench's runs, in a short version)

MACBETH = ROOT / "examples" / "macbeth.md"


def _overwrite_second_half(path: Path) -> None:
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    half = len(data) // 2
    path.write_bytes(data[:half] + b"\x5a" * (len(data) - half))


@pytest.mark.parametrize("store", [DocStore, ResponseCache])
def test_a_file_that_is_no_database_is_set_aside_and_begun_again(tmp_path, store):
    path = tmp_path / "index.sqlite"
    path.write_bytes(b"this is not an SQLite file at all " * 200)
    with pytest.warns(DamagedFileWarning, match="set aside"):
        opened = store(path)
    opened.close()
    assert [p.name for p in tmp_path.glob("index.sqlite.damaged-*")], "the damaged copy is kept"
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_damage_found_in_the_middle_of_a_run_is_built_again(tmp_path):
    cache = tmp_path / "cache"
    assert longread("index", str(MACBETH), "--no-summaries", cache=cache).returncode == 0
    fresh = longread("ask", str(MACBETH), "Who is Banquo?", "--dry-run", cache=cache)
    [index] = (cache / "indexes").glob("*.sqlite")
    _overwrite_second_half(index)
    again = longread("ask", str(MACBETH), "Who is Banquo?", "--dry-run", cache=cache)
    assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr
    assert "was damaged: it was set aside" in again.stderr
    assert again.stdout.splitlines()[0] == fresh.stdout.splitlines()[0]  # (the same table)


def test_short_fault_runs(tmp_path):
    chance = random.Random(3)
    document, folder = faults.document(tmp_path, 2), faults.corpus(tmp_path)
    good = {"finished as fresh", "one line, then finished as fresh", "had room enough"}
    for trials in (
        faults.kills(document, tmp_path, 1, chance),
        faults.kills(folder, tmp_path, 1, chance),
        faults.full_disk(document, tmp_path, [2**14, 2**19]),
    ):
        assert set(trials.outcomes) <= good, (trials.outcomes, trials.notes)
    damaged = faults.damages(document, tmp_path, 2, chance)
    assert "crashed" not in damaged.outcomes, damaged.notes
