"""A small corpus on disk for the corpus tests: articles with known titles, keywords, entities,
dates and a cross-reference, plus files that must be skipped."""

from __future__ import annotations

import os
from pathlib import Path

from longread.index.corpus import CorpusIndex
from longread.store.corpus_store import CorpusStore

ARTICLES = {
    "news/heron.md": "# The Silver Heron\n\nBy Ingrid Vale\n\n"
    "March 3, 2024. The ship that carried the royal "
    "letters to Norway was the Silver Heron. "
    "It left Leith Harbour at dawn with a cargo of wool.\n",
    "news/log.txt": "Harbour Log\n\n"
    "The Silver Heron was captained by Ingrid Vale, who sailed from Leith Harbour "
    "on 2024-03-03. See heron.md for the ship and its letters.\n",
    "reports/layoffs.md": "# Quarterly Workforce Report\n\n"
    "On 2024-11-14 Acme Corp announced layoffs of 300 "
    "workers. Acme Corp said the layoffs follow weak demand. Layoffs hit the Oslo plant.\n",
    "reports/merger.md": "# Merger Announcement\n\n"
    "On 12 October 2024 Globex Industries agreed a merger with "
    "Initech Systems. The merger creates the largest widget maker in Bergen.\n",
    "notes/garden.txt": "Garden notes\n\n"
    "Tomatoes need sun and water. The compost heap by the shed is ready "
    "in spring. Water the tomatoes each morning in July.\n",
}


def write_corpus(root: Path, articles: dict[str, str] = ARTICLES) -> Path:
    for name, text in articles.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def write_bad_files(root: Path) -> set[str]:
    """A corrupt PDF, a binary file, an empty file and a broken link: each must be skipped."""
    (root / "bad").mkdir(exist_ok=True)
    (root / "bad" / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj garbage without end")
    (root / "bad" / "blob.bin").write_bytes(bytes(range(256)) * 4)
    (root / "bad" / "empty.txt").write_text("")
    os.symlink(root / "nowhere.txt", root / "bad" / "dangling.txt")
    return {"bad/broken.pdf", "bad/blob.bin", "bad/empty.txt", "bad/dangling.txt"}


def open_index(root: Path, db: Path) -> CorpusIndex:
    return CorpusIndex(root, CorpusStore(db))


def built(root: Path, db: Path, **options) -> CorpusIndex:
    index = open_index(root, db)
    index.update(parallel=False, **options)
    return index


def comparable(index: CorpusIndex, words: list[str] | None = None) -> dict:
    """Everything the index holds, by document id, without where level 2 lives (for comparing
    two), with the ranking of each of `words` (default: of the first 20 keywords)."""
    snapshot = index.to_dict()
    for meta in snapshot["documents"].values():
        meta.pop("has_detailed_index")
        meta.pop("detailed_index_path")
    if words is None:
        words = sorted({k for m in snapshot["documents"].values() for k in m["keywords"]})[:20]
    snapshot["ranks"] = {w: index.store.search.rank([w], 5) for w in words}
    return snapshot
