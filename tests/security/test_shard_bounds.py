"""Host work for model code over a sharded corpus is bounded: a search runs on every shard's
thread under the deadline of the cell that asked, so it ends when the cell's time does."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest

from longread import deadline
from longread.index.corpus import CorpusIndex
from longread.store.open_corpus import open_corpus_store

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TEXTS = ("macbeth.md", "esther-kjv.txt", "gnu-coding-standards.txt")


def test_a_search_on_every_shard_ends_at_the_cells_deadline(tmp_path):
    root = tmp_path / "scenes"
    root.mkdir()
    text = "\n\n".join((EXAMPLES / name).read_text(encoding="utf-8") for name in TEXTS)
    for n, part in enumerate(text.split("\n\n\n")):
        (root / f"p{n:04d}.md").write_text(part, encoding="utf-8")
    sharded = CorpusIndex(root, open_corpus_store(tmp_path / "c.sqlite", 4))
    sharded.update(parallel=False)
    sharded.index_full_text()
    words = ["the", "and", "of", "to", "thou"]
    assert sharded.store.search.rank(words, 10)  # (in time, it answers)
    with (
        deadline.until(time.monotonic() - 1),
        pytest.raises(sqlite3.OperationalError, match="interrupt"),
    ):
        sharded.store.search.rank(words, 10)
