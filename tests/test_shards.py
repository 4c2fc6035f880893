"""A corpus indexed in shards answers as one index does: the same documents, ranks and scores, the
same keyword lookups and grep hits, whether its four shards were built by local processes or by
Ray tasks; a one-database index is split without reading a file or calling a model again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from longread.errors import InputError
from longread.executor import LocalExecutor
from longread.index.corpus import CorpusIndex
from longread.index.corpus_files import file_state
from longread.index.shard_build import ShardBatch, build_batch
from longread.ingest.metadata import ContentMeta
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.store.manifest import READY, Manifest, shard_of, shards_folder
from longread.store.open_corpus import open_corpus_store
from longread.store.sharded_store import ShardedCorpusStore
from longread.tools.corpus import CorpusTools

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
SOURCES = {"macbeth": "macbeth.md", "esther": "esther-kjv.txt", "gnu": "gnu-coding-standards.txt"}
QUERIES = [
    "blood",
    "banquo ghost",
    "thane of cawdor",
    "sleep no more murder",
    "weird sisters",
    "macduff wife children",
    "dagger",
    "birnam wood dunsinane",
    "king ahasuerus",
    "queen vashti",
    "haman gallows",
    "mordecai gate",
    "purim",
    "error messages",
    "command line options",
    "makefile conventions",
    "free software license",
    "portability between systems",
    "memory allocation malloc",
    "documentation texinfo manual",
]
KEYWORDS = ["macbeth", "esther", "program", "king", "software", "ghost"]
PATTERNS = [r"\bCawdor\b", r"Ahasuerus", r"--help", r"\bmalloc\b", r"Thou\w*"]


def write_documents(root: Path) -> list[str]:
    """The example texts as ~1,500-character documents in three folders; their ids."""
    ids = []
    for folder, name in SOURCES.items():
        paragraphs = (EXAMPLES / name).read_text(encoding="utf-8").split("\n\n")
        part: list[str] = []
        for paragraph in paragraphs + [""]:
            part.append(paragraph)
            if (sum(map(len, part)) > 1_500 or not paragraph) and "".join(part).strip():
                doc_id = f"{folder}/{len(ids):03d}.md"
                (root / folder).mkdir(parents=True, exist_ok=True)
                (root / doc_id).write_text("\n\n".join(part), encoding="utf-8")
                ids.append(doc_id)
                part = []
    return ids


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> tuple[Path, list[str]]:
    root = tmp_path_factory.mktemp("corpus")
    return root, write_documents(root)


def indexed(root: Path, database: Path, shards: int | None, executor=None) -> CorpusIndex:
    index = CorpusIndex(root, open_corpus_store(database, shards))
    index.update(executor=executor)
    index.index_full_text()
    return index


def answers(index: CorpusIndex) -> dict[str, object]:
    """What the equivalence is checked on: ranked search, keyword lookups and grep hits."""
    tools = CorpusTools(index, ScriptedLM(lambda r: "NONE"), Gateway(concurrency=2))
    return {
        "ranked": [
            [(doc_id, round(score, 6)) for doc_id, score in tools.ranked(q, 10)] for q in QUERIES
        ],
        "rank_documents": [tools.rank_documents(q) for q in QUERIES],
        "keywords": [tools.search_by_keyword(k) for k in KEYWORDS],
        "grep": [tools.grep_corpus(p, max_docs=500) for p in PATTERNS],
        "documents": tools.list_documents(),
    }


@pytest.fixture(scope="module")
def one_index(folder, tmp_path_factory) -> dict[str, object]:
    root, _ = folder
    return answers(indexed(root, tmp_path_factory.mktemp("one") / "c.sqlite", None))


def test_four_local_shards_answer_as_one_index(folder, one_index, tmp_path):
    root, ids = folder
    with LocalExecutor() as executor:
        sharded = indexed(root, tmp_path / "c.sqlite", 4, executor)
    assert isinstance(sharded.store, ShardedCorpusStore)
    counts = [shard.catalog.totals()[0] for shard in sharded.store.shards]
    assert sum(counts) == len(ids) and all(counts)  # (every shard holds some)
    for at, shard in enumerate(sharded.store.shards):
        assert all(shard_of(d, 4) == at for d in shard.catalog.doc_ids())
    ours = answers(sharded)
    assert all(one_index["ranked"]) and all(one_index["grep"])  # (each query finds something)
    for key, theirs in one_index.items():
        assert ours[key] == theirs, key
    manifest = Manifest.load(shards_folder(tmp_path / "c.sqlite"))
    assert manifest is not None and [s.state for s in manifest.shards] == [READY] * 4
    assert [s.docs for s in manifest.shards] == counts


@pytest.mark.ray
def test_four_shards_built_by_ray_tasks_answer_as_one_index(
    folder, one_index, tmp_path, monkeypatch, shared_ray
):
    from longread.executor import RayExecutor

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    root, ids = folder
    with RayExecutor() as executor:
        sharded = indexed(root, tmp_path / "c.sqlite", 4, executor)
    assert sharded.totals()[0] == len(ids)
    ours = answers(sharded)
    for key, theirs in one_index.items():
        assert ours[key] == theirs, key


def test_a_sharded_index_follows_its_folder(tmp_path):
    root = tmp_path / "notes"
    for n in range(12):
        (root / f"n{n:02d}.txt").parent.mkdir(exist_ok=True)
        (root / f"n{n:02d}.txt").write_text(f"Note {n} about the harbour crane.", encoding="utf-8")
    index = indexed(root, tmp_path / "c.sqlite", 3)
    (root / "n03.txt").write_text("Note 3 now names the lighthouse.", encoding="utf-8")
    (root / "n04.txt").unlink()
    (root / "n99.txt").write_text("A new note on the lighthouse keeper.", encoding="utf-8")
    report = index.update()
    assert (report.added, report.changed, report.removed) == (["n99.txt"], ["n03.txt"], ["n04.txt"])
    assert report.unchanged == 10
    assert index.totals()[0] == 12
    assert [d for d, _ in index.store.search.rank(["lighthouse"], 10)] == ["n03.txt", "n99.txt"]
    index.remove_document("n99.txt")
    (root / "sub").mkdir()
    (root / "sub" / "late.txt").write_text("A late lighthouse note.", encoding="utf-8")
    assert index.add_document(root / "sub" / "late.txt") == "sub/late.txt"
    index.index_full_text()
    assert sorted(d for d, _ in index.store.search.rank(["lighthouse"], 10)) == [
        "n03.txt",
        "sub/late.txt",
    ]
    assert index.store.holding("sub/late.txt").catalog.doc("sub/late.txt") is not None
    level2 = index.document_index("n03.txt")  # (a document's own index, in its shard)
    assert level2.store is index.store.holding("n03.txt").docstore
    assert index.update().unchanged == 12  # (nothing to do: no batch runs)


def test_a_one_database_index_is_split_without_reading_files_or_models_again(tmp_path, folder):
    root, ids = folder
    database = tmp_path / "c.sqlite"
    whole = CorpusIndex(root, open_corpus_store(database))
    read = []

    def reader(batch):
        read.extend(doc.doc_id for doc, _, _ in batch)
        return [
            ContentMeta(**{**rules.to_dict(), "source": "llm", "summary": f"About {doc.doc_id}."})
            for doc, _, rules in batch
        ]

    whole.update(meta_reader=reader)
    assert len(read) == len(ids)
    before = answers(whole)
    whole.store.close()
    split = CorpusIndex(root, open_corpus_store(database, 4))
    assert not database.exists() and isinstance(split.store, ShardedCorpusStore)
    report = split.update(meta_reader=reader)
    assert report.unchanged == len(ids) and not (report.added or report.changed)
    assert len(read) == len(ids)  # (no document read by the model again)
    assert (
        split.meta(ids[5]).summary == f"About {ids[5]}." and split.meta(ids[5]).meta_source == "llm"
    )
    assert answers(split) == before
    with pytest.raises(InputError, match="has 4 shards; to have 2"):
        open_corpus_store(database, 2)


def test_a_worker_that_cannot_write_its_shard_says_so_in_one_line(tmp_path, folder):
    root, ids = folder
    (tmp_path / "file").write_text("not a folder")
    one = ((ids[0], file_state(root / ids[0])),)
    batch = ShardBatch(str(root), str(tmp_path / "file" / "shard-0.sqlite"), one)
    with pytest.raises(InputError, match="storage every node can reach") as failed:
        build_batch(batch)
    assert "\n" not in str(failed.value)
    gone = ShardBatch(str(tmp_path / "gone"), str(tmp_path / "s.sqlite"), one)
    with pytest.raises(InputError, match="cannot reach the corpus folder"):
        build_batch(gone)


def test_a_batch_run_twice_stores_each_document_once(tmp_path, folder):
    root, ids = folder
    own = tuple((d, file_state(root / d)) for d in ids[:40])
    batch = ShardBatch(str(root), str(tmp_path / "s.sqlite"), own)
    first, again = build_batch(batch), build_batch(batch)
    assert len(first.added) == 40 and again.unchanged == 40 and not again.added
    with sqlite3.connect(tmp_path / "s.sqlite") as db:
        assert db.execute("SELECT count(*) FROM corpus_docs").fetchone()[0] == 40
        assert db.execute("SELECT count(*) FROM corpus_fts_docsize").fetchone()[0] == 40
    forget = build_batch(ShardBatch(str(root), str(tmp_path / "s.sqlite"), (), (ids[0], "x")))
    assert forget.removed == [ids[0]]
