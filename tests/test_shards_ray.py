"""A sharded build on a real Ray survives what clusters do: every batch that raises once is run
again and the build completes; a driver killed mid-build and run again leaves every document
indexed once, redoing none it had stored; on two nodes (two raylets on this machine) the batches
run on both."""

from __future__ import annotations

import hashlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from longread.errors import InputError
from longread.executor import LocalExecutor, RayExecutor
from longread.index import shard_build
from longread.index.corpus import CorpusIndex
from longread.index.corpus_files import file_state
from longread.index.shard_build import ShardBatch, build_batch
from longread.store.manifest import BUILDING, READY, Manifest, shards_folder
from longread.store.open_corpus import open_corpus_store

pytestmark = pytest.mark.ray
RAY_MISSING = "Ray is not installed (pip install 'longread[ray]')"
HERE = str(Path(__file__).parent)  # (Ray's workers import this module's jobs by name)


def watched(job: tuple[str, ShardBatch]) -> object:
    """build_batch, after raising the first time each batch runs; notes the node it ran on."""
    import ray  # (not at the module's import: a process that loaded Ray forks nothing after)

    notes, batch = job
    name = hashlib.sha1(repr(batch).encode()).hexdigest()[:12]
    failed = Path(notes) / f"{name}.failed"
    if not failed.exists():
        failed.write_text("fell over once")
        raise RuntimeError("a shard task fell over")
    (Path(notes) / f"{name}.node").write_text(ray.get_runtime_context().get_node_id())
    return build_batch(batch)


class Watching(RayExecutor):
    """Ray, each job run through `watched`."""

    def __init__(self, notes: Path):
        super().__init__()
        self.notes = notes

    def each(self, work, items, retries=0):
        jobs = [(str(self.notes), item) for item in items]
        for (_, item), result in super().each(watched, jobs, retries):
            yield item, result


def notes_folder(tmp_path: Path, count: int) -> Path:
    root = tmp_path / "notes"
    root.mkdir()
    for n in range(count):
        (root / f"n{n:05d}.txt").write_text(f"Note {n}: token{n} in the harbour log.\n")
    return root


def every_document_once(database: Path, count: int) -> None:
    manifest = Manifest.load(shards_folder(database))
    assert manifest is not None and [s.state for s in manifest.shards] == [READY] * 4
    ids = []
    for path in manifest.paths:
        with sqlite3.connect(path) as db:
            ids += [r[0] for r in db.execute("SELECT doc_id FROM corpus_docs")]
            docs, texts, in_fts = db.execute(
                "SELECT (SELECT count(*) FROM corpus_docs), (SELECT count(*) FROM documents), "
                "(SELECT count(*) FROM corpus_fts_docsize)"
            ).fetchone()
            assert docs == texts == in_fts
    assert sorted(ids) == [f"n{n:05d}.txt" for n in range(count)]


@pytest.fixture
def workers_see_tests(monkeypatch):
    pytest.importorskip("ray", reason=RAY_MISSING)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([HERE, os.environ.get("PYTHONPATH", "")]))


def test_every_shard_task_that_raises_once_is_run_again(
    tmp_path, monkeypatch, workers_see_tests, shared_ray
):
    monkeypatch.setattr(shard_build, "BATCH_FILES", 10)
    root = notes_folder(tmp_path, 60)
    (tmp_path / "watch").mkdir()
    index = CorpusIndex(root, open_corpus_store(tmp_path / "c.sqlite", 4))
    with Watching(tmp_path / "watch") as executor:
        report = index.update(executor=executor)
    manifest = Manifest.load(shards_folder(tmp_path / "c.sqlite"))
    batches = sum(-(-shard.docs // 10) for shard in manifest.shards)
    assert len(report.added) == 60 and batches >= 6
    assert len(list((tmp_path / "watch").glob("*.failed"))) == batches  # (each fell over once)
    assert len(list((tmp_path / "watch").glob("*.node"))) == batches  # (and then ran)
    every_document_once(tmp_path / "c.sqlite", 60)


KILLED_BUILD = """
import sys
from longread.executor import RayExecutor
from longread.index import shard_build
from longread.index.corpus import CorpusIndex
from longread.index.corpus_files import file_state
from longread.store.open_corpus import open_corpus_store
shard_build.BATCH_FILES = 100
index = CorpusIndex(sys.argv[1], open_corpus_store(__import__("pathlib").Path(sys.argv[2]), 4))
index.update(executor=RayExecutor())
"""


def stored(database: Path) -> int:
    """Documents the shards hold as committed (0 before they exist)."""
    total = 0
    for path in sorted(shards_folder(database).glob("shard-*.sqlite")):
        try:
            with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
                total += db.execute("SELECT count(*) FROM corpus_docs").fetchone()[0]
        except sqlite3.OperationalError:  # (not made yet)
            pass
    return total


def test_a_build_whose_driver_is_killed_finishes_on_the_next_run(tmp_path, workers_see_tests):
    count = 4_000
    root, database = notes_folder(tmp_path, count), tmp_path / "c.sqlite"
    driver = subprocess.Popen(
        [sys.executable, "-c", KILLED_BUILD, str(root), str(database)], start_new_session=True
    )
    try:
        deadline = time.monotonic() + 120
        while not (0 < (before := stored(database)) < count) and time.monotonic() < deadline:
            assert driver.poll() is None, "the build ended before it could be killed"
            time.sleep(0.05)
    finally:
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()
    assert 0 < before < count
    manifest = Manifest.load(shards_folder(database))
    assert manifest is not None and BUILDING in {s.state for s in manifest.shards}
    index = CorpusIndex(root, open_corpus_store(database))
    with LocalExecutor() as executor:
        report = index.update(executor=executor)
    assert report.unchanged >= before and len(report.added) + report.unchanged == count
    every_document_once(database, count)


def test_a_build_on_two_nodes_runs_batches_on_both(tmp_path, monkeypatch, workers_see_tests):
    import ray
    from ray.cluster_utils import Cluster

    monkeypatch.setattr(shard_build, "BATCH_FILES", 5)
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    try:
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
        ray.init(address=cluster.address, include_dashboard=False, logging_level="ERROR")
        root = notes_folder(tmp_path, 80)
        (tmp_path / "watch").mkdir()
        index = CorpusIndex(root, open_corpus_store(tmp_path / "c.sqlite", 4))
        with Watching(tmp_path / "watch") as executor:
            assert len(index.update(executor=executor).added) == 80
        nodes = {p.read_text() for p in (tmp_path / "watch").glob("*.node")}
        assert len(nodes) == 2  # (batches ran on both raylets)
        every_document_once(tmp_path / "c.sqlite", 80)
    finally:
        ray.shutdown()
        cluster.shutdown()


def test_a_ray_worker_that_cannot_write_its_shard_fails_in_one_line(
    tmp_path, workers_see_tests, shared_ray
):
    root = notes_folder(tmp_path, 3)
    (tmp_path / "file").write_text("not a folder")
    files = tuple((p.name, file_state(p)) for p in sorted(root.iterdir()))
    batch = ShardBatch(str(root), str(tmp_path / "file" / "shard-0.sqlite"), files)
    with RayExecutor() as executor, pytest.raises(InputError) as failed:
        list(executor.each(build_batch, [batch]))
    assert "storage every node can reach" in str(failed.value)
    assert "\n" not in str(failed.value) and "Traceback" not in str(failed.value)
