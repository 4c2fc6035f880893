"""BM25 from statistics summed over several full-text tables: in one table it is FTS5's own
bm25() to the last digit, and a row split off into any of four tables scores and ranks as it
did in one."""

from __future__ import annotations

import re
import sqlite3
import zlib
from pathlib import Path

import pytest

from longread.index.corpus import CorpusIndex
from longread.store.bm25 import Stats, scores, table_stats, varints
from longread.store.corpus_store import CorpusStore

MACBETH = Path(__file__).resolve().parents[1] / "examples" / "macbeth.md"
ROWS = [p for p in MACBETH.read_text(encoding="utf-8").split("\n\n") if len(p) > 80]
WEIGHTS = {"title": 4.0, "body": 1.0}
QUERIES = [
    ["blood"],
    ["banquo", "ghost"],
    ["thane", "cawdor", "king"],
    ["sleep", "murder"],
    ["witch", "weird", "sisters"],
    ["macduff", "wife", "children"],
    ["dagger"],
    ["birnam", "wood", "dunsinane"],
]


def full_text(db: sqlite3.Connection, name: str, rows: list[tuple[int, str, str]]) -> None:
    db.execute(
        f"CREATE VIRTUAL TABLE {name} USING fts5(title, body, content='', "
        "tokenize='unicode61 remove_diacritics 2')"
    )
    db.execute(f"CREATE VIRTUAL TABLE {name}_row USING fts5vocab({name}, 'row')")
    db.execute(f"CREATE VIRTUAL TABLE {name}_inst USING fts5vocab({name}, 'instance')")
    db.executemany(f"INSERT INTO {name} (rowid, title, body) VALUES (?, ?, ?)", rows)
    db.commit()  # (FTS5 writes its row count and token totals when a transaction ends)


@pytest.fixture
def db():
    rows = [(n + 1, f"Passage {n % 7}", text) for n, text in enumerate(ROWS)]
    db = sqlite3.connect(":memory:")
    full_text(db, "whole", rows)
    shards: list[list[tuple[int, str, str]]] = [[], [], [], []]
    for row in rows:  # (by a stable hash, as a corpus assigns documents to shards)
        shards[zlib.crc32(str(row[0]).encode()) % 4].append(row)
    for number, part in enumerate(shards):
        full_text(db, f"shard{number}", part)
    return db


def fts5_scores(db: sqlite3.Connection, words: list[str]) -> dict[int, float]:
    query = " OR ".join(f'"{w}"' for w in words)
    return {
        row: -score
        for row, score in db.execute(
            "SELECT rowid, bm25(whole, 4.0, 1.0) FROM whole WHERE whole MATCH ?", (query,)
        )
    }


@pytest.mark.parametrize("words", QUERIES)
def test_one_table_scores_as_fts5_does(db, words):
    stats = table_stats(db, "whole", "whole_row", words)
    ours = scores(db, "whole", "whole_inst", words, WEIGHTS, stats)
    theirs = fts5_scores(db, words)
    assert theirs and ours.keys() == theirs.keys()
    assert all(abs(ours[row] - theirs[row]) < 1e-9 for row in theirs)


@pytest.mark.parametrize("words", QUERIES)
def test_four_tables_score_and_rank_every_row_as_one_does(db, words):
    names = [f"shard{n}" for n in range(4)]
    stats = sum((table_stats(db, n, f"{n}_row", words) for n in names), Stats(0, 0, {}))
    assert stats.rows == len(ROWS)
    merged: dict[int, float] = {}
    for name in names:
        merged.update(scores(db, name, f"{name}_inst", words, WEIGHTS, stats))
    alone = scores(
        db, "shard0", "shard0_inst", words, WEIGHTS, table_stats(db, "shard0", "shard0_row", words)
    )
    one = fts5_scores(db, words)
    assert merged.keys() == one.keys()
    assert all(round(merged[row], 6) == round(one[row], 6) for row in one)
    top = sorted(one, key=lambda row: (-one[row], row))[:10]
    assert sorted(merged, key=lambda row: (-merged[row], row))[:10] == top
    assert any(abs(alone[r] - one[r]) > 1e-3 for r in alone)  # (a shard's own statistics differ)


def test_varints_read_as_sqlite_writes_them():
    assert varints(bytes([0x05, 0x81, 0x00, 0xFF, 0x7F])) == [5, 128, 16383]
    assert varints(bytes([0xFF] * 8 + [0x01])) == [(1 << 64) - 255]


def test_a_corpus_in_four_shards_ranks_its_documents_as_one_index_does(tmp_path):
    folder = tmp_path / "scenes"
    folder.mkdir()
    for number, scene in enumerate(re.split(r"^#+ SCENE ", MACBETH.read_text("utf-8"), flags=re.M)):
        title = scene.split("\n", 1)[0][:60]
        (folder / f"scene-{number:02}.md").write_text(f"# {title}\n\n{scene}", encoding="utf-8")
    ids = sorted(p.name for p in folder.iterdir())
    whole = CorpusIndex(folder, CorpusStore(tmp_path / "whole.sqlite"))
    whole.update(parallel=False)
    shards = []
    for number in range(4):
        shard = CorpusIndex(folder, CorpusStore(tmp_path / f"shard-{number}.sqlite"))
        shard.update(parallel=False, only=[d for d in ids if zlib.crc32(d.encode()) % 4 == number])
        shards.append(shard)
    assert (
        sum(s.store.catalog.totals()[0] for s in shards)
        == whole.store.catalog.totals()[0]
        == len(ids)
    )
    for words in QUERIES:
        stats = sum((s.store.search.rank_stats(words) for s in shards), Stats(0, 0, {}))
        merged = sorted(
            (hit for s in shards for hit in s.store.search.rank(words, 10, stats)),
            key=lambda hit: (-hit[1], hit[0]),
        )[:10]
        one = whole.store.search.rank(words, 10)
        assert one and [d for d, _ in merged] == [d for d, _ in one]
        assert [round(s, 6) for _, s in merged] == [round(s, 6) for _, s in one]
