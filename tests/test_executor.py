"""Independent jobs on this machine's processes or on a real local Ray: every result comes back,
a job that fails once is run again, one that keeps failing fails the run, and asking for Ray
without it installed says how to install it in one line."""

from __future__ import annotations

import os
import sys
import types
from pathlib import Path

import pytest

from cli import longread
from longread import executor as executor_module
from longread import forking
from longread.errors import InputError
from longread.executor import INSTALL_RAY, LocalExecutor, make_executor
from longread.index.corpus import CorpusIndex
from longread.store.corpus_store import CorpusStore


def square(n: int) -> tuple[int, int]:
    return n * n, os.getpid()


def fails_first(marker: str) -> str:
    """Raises the first time it runs for `marker` (a file records that it ran)."""
    path = Path(marker)
    if not path.exists():
        path.write_text("ran once")
        raise RuntimeError("a worker fell over")
    return path.name


def test_local_jobs_run_in_worker_processes_and_all_come_back():
    with LocalExecutor(2) as executor:
        results = dict(executor.each(square, list(range(12))))
    assert {n: r[0] for n, r in results.items()} == {n: n * n for n in range(12)}
    assert all(pid != os.getpid() for _, pid in results.values())


def test_a_failed_local_job_is_run_again_and_one_that_keeps_failing_fails(tmp_path):
    markers = [str(tmp_path / f"job-{n}") for n in range(3)]
    with LocalExecutor(2) as executor:
        done = dict(executor.each(fails_first, markers, retries=1))
        assert sorted(done.values()) == ["job-0", "job-1", "job-2"]
        fresh = [str(tmp_path / "fresh")]
        with pytest.raises(RuntimeError, match="fell over"):
            list(executor.each(fails_first, fresh, retries=0))


def test_the_executor_is_chosen_by_name_or_environment(monkeypatch):
    monkeypatch.delenv("LONGREAD_EXECUTOR", raising=False)
    assert make_executor().name == "local"
    monkeypatch.setenv("LONGREAD_EXECUTOR", "LOCAL")
    assert make_executor().name == "local"
    with pytest.raises(InputError, match="unknown executor 'dask'; choose one of: local, ray"):
        make_executor("dask")
    monkeypatch.setitem(sys.modules, "ray", None)  # (as if Ray were not installed)
    with pytest.raises(InputError) as missing:
        make_executor("ray")
    assert str(missing.value) == INSTALL_RAY and "\n" not in str(missing.value)


@pytest.mark.ray
def test_ray_runs_the_jobs_retries_a_failed_one_and_keeps_keys_out_of_arguments(
    tmp_path, monkeypatch
):
    ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'longread[ray]')")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    here = str(Path(__file__).parent)  # (Ray's workers import this module's jobs by name)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([here, os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret")
    executor = make_executor("ray")
    try:
        assert ray.is_initialized() and executor.name == "ray"
        results = dict(executor.each(square, list(range(6))))
        assert {n: r[0] for n, r in results.items()} == {n: n * n for n in range(6)}
        markers = [str(tmp_path / f"ray-{n}") for n in range(2)]
        assert sorted(v for _, v in executor.each(fails_first, markers, retries=1)) == [
            "ray-0",
            "ray-1",
        ]
        seen = dict(executor.each(read_key, ["OPENAI_API_KEY"]))
        assert seen == {"OPENAI_API_KEY": "sk-test-secret"}  # (from the workers' environment)
        job_env = ray.get_runtime_context().runtime_env.get("env_vars", {})
        assert job_env.get("OPENAI_API_KEY") == "sk-test-secret"  # (set for the job, not passed)
    finally:
        executor.close()
    assert not ray.is_initialized()


def read_key(name: str) -> str | None:
    return os.environ.get(name)


@pytest.mark.ray
def test_a_folder_read_by_ray_tasks_is_indexed_as_by_local_processes(
    tmp_path, monkeypatch, shared_ray
):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(80):  # (more than a folder read in this process)
        (folder / f"note-{n:02}.md").write_text(f"# Note {n}\n\nThe tide came in {n} times.\n")
    (folder / "broken.pdf").write_bytes(b"%PDF-1.7 garbage")
    local = CorpusIndex(folder, CorpusStore(tmp_path / "local.sqlite"))
    local_report = local.update()
    with make_executor("ray") as executor:
        on_ray = CorpusIndex(folder, CorpusStore(tmp_path / "ray.sqlite"))
        ray_report = on_ray.update(executor=executor)
    assert len(ray_report.added) == len(local_report.added) == 80
    assert [s.doc_id for s in ray_report.skipped] == ["broken.pdf"]
    hashes = [
        sorted((d.doc_id, d.content_hash) for d in i.store.catalog.docs()) for i in (local, on_ray)
    ]
    assert hashes[0] == hashes[1]


def test_index_names_an_unknown_executor_in_one_line(tmp_path):
    (tmp_path / "a.md").write_text("# A\n\nText.\n")
    done = longread("index", str(tmp_path), "--executor", "dask", cache=tmp_path / "cache")
    assert done.returncode != 0 and "unknown executor 'dask'" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_local_workers_are_not_forked_from_a_process_that_loaded_ray(monkeypatch):
    monkeypatch.delitem(sys.modules, "ray", raising=False)
    monkeypatch.delitem(sys.modules, "ray._raylet", raising=False)
    assert executor_module._start_method() == "fork"
    monkeypatch.setitem(sys.modules, "ray", types.ModuleType("ray"))
    assert executor_module._start_method() == "fork"  # (its Python only: no native core yet)
    monkeypatch.setitem(sys.modules, "ray._raylet", types.ModuleType("ray._raylet"))
    assert executor_module._start_method() == "forkserver"  # (running or shut down alike)
    assert not forking.can_fork()  # (and no forked copies either)
