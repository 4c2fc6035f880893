"""Faults survived: the real `longread` command, as a subprocess, killed, starved of disk and
given damaged files, then checked against an index built without a fault.

- **SIGKILL** at a random moment of a run (uniform over a clean run's wall time), `--kills` times
  for each of: `longread index` of a document, and of a folder, from no index; `longread corpus
  update` of a folder after 4 of its files changed, 60 were added and 6 deleted since its index
  was built (from that index each time); `longread index FOLDER --shards 4` from no index. Each
  run has a session of its own, and a process of it still alive 5 s after the kill is counted
  (and killed). Then every SQLite file it left passes `PRAGMA integrity_check`, and the command
  run again finishes and gives what a fresh index gives (`longread toc`, or `longread corpus ls
  --json` and the shards' manifest: each shard's documents, content digest and state).
- **SIGKILL of the server** mid-analysis: `longread serve` (its root model the tests' scripted
  OpenAI-compatible server, its TMPDIR a folder of the trial's own) asked for an rlm analysis of
  an indexed folder whose code opens every document's sections (built into the index the first
  time a document is opened) and ranks the documents, killed at a random moment of a clean
  analysis's wall time, from the fresh index each time. Then: no REPL worker or other process of
  it is alive 5 s later, the index files pass the integrity check, the server started again
  answers (200) what a fresh server answers, that analysis leaves no run folder of the killed
  server (the next server to start a worker removes them), and, stopped, the server leaves no
  process or file in its TMPDIR (bench/faults_server.py).
- **Disk full**: `longread index` with a file-size limit (RLIMIT_FSIZE, so writes fail as on a
  full disk) at sizes below what the index needs: one line and exit 1, no traceback; then, with
  room, it finishes and gives what a fresh index gives.
- **Damage**: a built index with runs of bytes overwritten at random places; then `longread toc`
  must not crash (a damaged file is set aside and built again), and its output is compared with
  a fresh one's (SQLite keeps no checksums: damage inside a value it does not notice is counted
  as "differs").

    python bench/faults.py [--kills 50] [--damages 20] [--copies 40] [--dir /tmp/longread-faults]

The table goes to docs/bench-faults.md; `tests/test_faults.py` runs a short version.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import signal
import sqlite3
import subprocess
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import faults_server  # noqa: E402 - (this folder is on the path when run as a script)
from fault_checks import LONGREAD, Trials, environment, outlived, reset, sound  # noqa: E402
from pages import write_page  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARDS = 4


@dataclass(frozen=True)
class Killed:
    """A command killed in trials: its arguments, the target whose index it builds or updates,
    the build whose result a run again must give, and the cache it starts from (a copy of
    `start`; None: no index). `about` says what the target went through."""

    args: tuple[str, ...]
    target: Path
    fresh: tuple[str, ...]
    start: Path | None = None
    about: str = ""

    def title(self) -> str:
        words = [Path(a).name if a == str(self.target) else a for a in self.args]
        return f"`longread {' '.join(w for w in words if not w.startswith('--no-'))}`{self.about}"


def longread(args: list[str], cache: Path, fsize: int | None = None) -> subprocess.CompletedProcess:
    """`longread ARGS` with its own cache folder (and, with `fsize`, that file-size limit)."""

    def limited() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    return subprocess.run(
        [LONGREAD, *args],
        env=environment(cache),
        capture_output=True,
        text=True,
        preexec_fn=limited,
        timeout=600,
    )


def shown(target: Path, cache: Path) -> str:
    """What the index says of the target: its outline, or the folder's documents (and its shards'
    manifest, if it is sharded)."""
    if not target.is_dir():
        return longread(["toc", str(target)], cache).stdout
    listed = longread(["corpus", "ls", str(target), "--json"], cache)
    documents = json.loads(listed.stdout) if listed.stdout else None
    shards = [json.loads(p.read_text()) for p in sorted(cache.glob("indexes/*.shards/*.json"))]
    return json.dumps({"documents": documents, "shards": shards}, sort_keys=True)


def index_args(target: Path, *more: str) -> list[str]:
    return ["index", str(target), "--no-summaries", *more]


_FRESH: dict[Path, tuple[object, str, float]] = {}


def fresh(args: list[str], target: Path, folder: Path) -> tuple[str, float, Path]:
    """(what a fresh index shows, seconds its build took, its cache folder): built once a process
    for the same command and the same files."""
    cache = folder / ("fresh-" + "-".join(Path(a).name.lstrip("-") for a in args))
    files = sorted(target.rglob("*")) if target.is_dir() else [target]
    stamp = (args, [(str(p), p.stat().st_size, p.stat().st_mtime_ns) for p in files])
    if cache not in _FRESH or _FRESH[cache][0] != stamp or not cache.exists():
        reset(cache)
        started = time.monotonic()
        built = longread(args, cache)
        assert built.returncode == 0, built.stderr
        seconds = time.monotonic() - started
        _FRESH[cache] = (stamp, shown(target, cache), seconds)
    return _FRESH[cache][1], _FRESH[cache][2], cache


def kills(run: Killed, folder: Path, times: int, chance: random.Random) -> Trials:
    """SIGKILL the command at random moments; then check, run it again and compare."""
    expected, seconds, _ = fresh(list(run.fresh), run.target, folder)
    clean = expected
    if run.start is not None or run.args != run.fresh:  # (else the fresh build was a clean run)
        cache = reset(folder / "clean", run.start)
        started = time.monotonic()
        ran = longread(list(run.args), cache)
        assert ran.returncode == 0, ran.stderr
        seconds, clean = time.monotonic() - started, shown(run.target, cache)
    trials = Trials(f"SIGKILL during {run.title()} ({seconds:.1f} s clean)")
    if clean != expected:
        trials.notes.append("a run without a kill differs from a fresh build")
    for _ in range(times):
        cache = reset(folder / "killed", run.start)
        build = subprocess.Popen(
            [LONGREAD, *run.args],
            env=environment(cache),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # (its group: what it started, counted if it outlives it)
        )
        time.sleep(chance.uniform(0.05, seconds))
        build.send_signal(signal.SIGKILL)
        build.wait()
        left = outlived(build.pid)
        outcome = after_kill(run, cache, expected, trials)
        trials.outcomes[f"a process of it lived on (then: {outcome})" if left else outcome] += 1
    return trials


def after_kill(run: Killed, cache: Path, expected: str, trials: Trials) -> str:
    """What the killed run left: its files sound, and run again, a fresh index."""
    if not sound(cache):
        return "left a file failing the integrity check"
    again = longread(list(run.args), cache)
    if again.returncode != 0:
        trials.notes.append(again.stderr[-300:])
        return "the next run failed"
    got = shown(run.target, cache)
    if got == expected:
        return "finished as fresh"
    if run.target.is_dir() and json.loads(got)["documents"] == json.loads(expected)["documents"]:
        return "the next run's documents are as fresh, its shards' manifest is not"
    return "the next run differs from a fresh build"


def index_run(target: Path, *more: str) -> Killed:
    args = tuple(index_args(target, *more))
    return Killed(args, target, args)


def update_run(folder: Path) -> Killed:
    """`corpus update` of a folder changed since its index was built (that index: its start)."""
    target, before = folder / "edited", folder / "edited-index"
    reset(target, many(folder))
    built = longread(index_args(target), reset(before))
    assert built.returncode == 0, built.stderr
    for name in ("news/lighthouse.md", "records/crew-register.txt", "macbeth.md", "part-03.md"):
        with (target / name).open("a", encoding="utf-8") as edited:
            edited.write("\n\nA paragraph written after the index was built.\n")
    for name in ("esther-kjv.txt", *(f"part-{n:02}.md" for n in range(10, 15))):
        (target / name).unlink()
    (target / "added").mkdir()
    for name, count in (("gnu-coding-standards.txt", 40), ("esther-kjv.txt", 20)):
        text = (ROOT / "examples" / name).read_text(encoding="utf-8")
        for n, piece in enumerate(pieces(text, count)):
            (target / "added" / f"{Path(name).stem}-{n:02}.txt").write_text(piece, "utf-8")
    about = " after 4 files changed, 60 were added and 6 deleted"
    args = ("corpus", "update", str(target), "--no-llm-meta")
    return Killed(args, target, tuple(index_args(target)), before, about)


def full_disk(target: Path, folder: Path, sizes: list[int]) -> Trials:
    """The build with too little room: one line, then it finishes when there is room."""
    expected, _, _ = fresh(index_args(target), target, folder)
    trials = Trials(f"disk full during `longread index {target.name}`")
    for size in sizes:
        cache = reset(folder / "full")
        starved = longread(index_args(target), cache, fsize=size)
        lines = starved.stderr.strip().splitlines()
        if starved.returncode == 0:
            trials.outcomes["had room enough"] += 1
            continue
        if "Traceback" in starved.stderr or len(lines) != 1 or starved.returncode != 1:
            trials.outcomes["failed without one line"] += 1
            trials.notes.append(starved.stderr[-300:])
            continue
        again = longread(index_args(target), cache)
        kept = again.returncode == 0 and shown(target, cache) == expected
        trials.outcomes["one line, then finished as fresh" if kept else "not usable after"] += 1
    return trials


def damages(target: Path, folder: Path, times: int, chance: random.Random) -> Trials:
    """Overwrite runs of bytes of a built index; `toc` must not crash."""
    expected, _, built = fresh(index_args(target), target, folder)
    trials = Trials(f"damaged index of {target.name} (8 runs of 64 bytes overwritten)")
    for _ in range(times):
        cache = reset(folder / "damaged", built)
        for path in cache.rglob("*.sqlite"):
            with closing(sqlite3.connect(path)) as db:
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            data = bytearray(path.read_bytes())
            for _ in range(8):
                at = chance.randrange(0, len(data))
                data[at : at + 64] = bytes(chance.randrange(256) for _ in range(64))
            path.write_bytes(bytes(data))
        toc = longread(["toc", str(target)], cache)
        if "Traceback" in toc.stderr or toc.returncode not in (0, 1):
            trials.outcomes["crashed"] += 1
            trials.notes.append(toc.stderr[-300:])
        elif toc.returncode == 1:
            trials.outcomes["one line, exit 1"] += 1
        elif toc.stdout == expected:
            trials.outcomes["answered as fresh"] += 1
        else:
            trials.outcomes["answered, but differs (damage inside a value)"] += 1
    return trials


def corpus(folder: Path) -> Path:
    """A folder of documents: the examples' harbour, and the longer examples beside it."""
    target = folder / "corpus"
    if not target.exists():
        shutil.copytree(ROOT / "examples" / "harbour", target)
        for name in ("macbeth.md", "esther-kjv.txt", "gnu-coding-standards.txt"):
            shutil.copy(ROOT / "examples" / name, target / name)
    return target


def many(folder: Path) -> Path:
    """The folder of documents, and Macbeth beside it in 20 parts: 29 documents."""
    target = folder / "many"
    if not target.exists():
        shutil.copytree(corpus(folder), target)
        macbeth = (ROOT / "examples" / "macbeth.md").read_text(encoding="utf-8")
        for n, piece in enumerate(pieces(macbeth, 20)):
            (target / f"part-{n:02}.md").write_text(f"# Part {n}\n\n{piece}", encoding="utf-8")
    return target


def pieces(text: str, count: int) -> list[str]:
    """The text cut into `count` runs of whole lines, of about the same length."""
    lines = text.splitlines(keepends=True)
    size = -(-len(lines) // count)
    return ["".join(lines[n * size : (n + 1) * size]) for n in range(count)]


def document(folder: Path, copies: int) -> Path:
    """The examples' longer texts, `copies` times over, as one Markdown document."""
    target = folder / f"long-{copies}.md"
    if not target.exists():
        texts = [(ROOT / "examples" / n).read_text(encoding="utf-8") for n in ("macbeth.md",)]
        target.write_text(
            "\n\n".join(f"# Copy {n + 1}\n\n{t}" for n in range(copies) for t in texts), "utf-8"
        )
    return target


def served_kills(folder: Path, scratch: Path, times: int, chance: random.Random) -> Trials:
    """The server killed mid-analysis of the folder, from its fresh index each time."""
    _, _, indexed = fresh(index_args(folder), folder, scratch)
    return faults_server.kills(indexed, scratch, times, chance)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/longread-faults"))
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--damages", type=int, default=20)
    parser.add_argument("--copies", type=int, default=40)
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    chance = random.Random(11)
    long_doc, folder = document(args.dir, args.copies), corpus(args.dir)
    results = [
        kills(index_run(long_doc), args.dir, args.kills, chance),
        kills(index_run(folder), args.dir, args.kills, chance),
        kills(update_run(args.dir), args.dir, args.kills, chance),
        kills(index_run(many(args.dir), "--shards", str(SHARDS)), args.dir, args.kills, chance),
        served_kills(folder, args.dir, args.kills, chance),
        full_disk(long_doc, args.dir, [2**k for k in range(14, 24)]),
        damages(long_doc, args.dir, args.damages, chance),
    ]
    table = ["| fault | trials | outcomes |", "|---|---|---|", *(r.row() for r in results)]
    notes = [f"- {r.name}: `{n.strip()}`" for r in results for n in r.notes[:2]]
    report = "\n".join(table + ([""] + notes if notes else [])) + "\n"
    write_page("faults", "Faults: killed, starved of disk, damaged", report)


if __name__ == "__main__":
    main()
