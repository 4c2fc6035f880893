"""Faults survived: the real `longread` command, as a subprocess, killed, starved of disk and
given damaged files, then checked against an index built without a fault.

- **SIGKILL**: `longread index` of a document, and of a folder, killed at a random moment of its
  run (uniform over a clean run's wall time), from no index each time; then every SQLite file
  it left passes `PRAGMA integrity_check`, and `longread index` run again finishes and gives
  what a fresh index gives (`longread toc`, or `longread corpus ls --json`).
- **Disk full**: `longread index` with a file-size limit (RLIMIT_FSIZE, so writes fail as on a
  full disk) at sizes below what the index needs: one line and exit 1, no traceback; then, with
  room, it finishes and gives what a fresh index gives.
- **Damage**: a built index with runs of bytes overwritten at random places; then `longread toc`
  must not crash (a damaged file is set aside and built again), and its output is compared with
  a fresh one's (SQLite keeps no checksums: damage inside a value it does not notice is counted
  as "differs").

    python bench/faults.py [--kills 50] [--damages 20] [--dir /tmp/longread-faults]

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
import sys
import time
from collections import Counter
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path

from pages import write_page  # noqa: E402 - (this folder is on the path when run as a script)

ROOT = Path(__file__).resolve().parents[1]
LONGREAD = str(Path(sys.executable).with_name("longread"))


@dataclass
class Trials:
    """What a kind of fault did over its trials."""

    name: str
    outcomes: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)

    def row(self) -> str:
        tried = sum(self.outcomes.values())
        shown = ", ".join(f"{n} {what}" for what, n in self.outcomes.most_common())
        return f"| {self.name} | {tried} | {shown} |"


def longread(args: list[str], cache: Path, fsize: int | None = None) -> subprocess.CompletedProcess:
    """`longread ARGS` with its own cache folder (and, with `fsize`, that file-size limit)."""

    def limited() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))

    env = {"PATH": "/usr/bin:/bin", "HOME": str(cache.parent), "LONGREAD_CACHE_DIR": str(cache)}
    return subprocess.run(
        [LONGREAD, *args], env=env, capture_output=True, text=True, preexec_fn=limited, timeout=600
    )


def shown(target: Path, cache: Path) -> str:
    """What the index says of the target: its outline, or the folder's documents."""
    if target.is_dir():
        listed = longread(["corpus", "ls", str(target), "--json"], cache)
        return json.dumps(json.loads(listed.stdout), sort_keys=True) if listed.stdout else ""
    return longread(["toc", str(target)], cache).stdout


def sound(cache: Path) -> bool:
    """Whether every SQLite file under the cache passes the integrity check (opened as the next
    run opens it: a killed writer's log is rolled back or replayed first)."""
    for path in cache.rglob("*.sqlite"):
        with closing(sqlite3.connect(path)) as db:
            if db.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
                return False
    return True


def index_args(target: Path) -> list[str]:
    return ["index", str(target), "--no-summaries"]


def fresh(target: Path, folder: Path) -> tuple[str, float]:
    """(what a fresh index shows, seconds its build took)."""
    cache = folder / "fresh"
    shutil.rmtree(cache, ignore_errors=True)
    started = time.monotonic()
    built = longread(index_args(target), cache)
    assert built.returncode == 0, built.stderr
    return shown(target, cache), time.monotonic() - started


def kills(target: Path, folder: Path, times: int, chance: random.Random) -> Trials:
    """SIGKILL the index build at random moments; then check, finish and compare."""
    expected, seconds = fresh(target, folder)
    trials = Trials(f"SIGKILL during `longread index {target.name}` ({seconds:.1f} s clean)")
    env = {"PATH": "/usr/bin:/bin", "HOME": str(folder)}
    for _ in range(times):
        cache = folder / "killed"
        shutil.rmtree(cache, ignore_errors=True)
        build = subprocess.Popen(
            [LONGREAD, *index_args(target)],
            env={**env, "LONGREAD_CACHE_DIR": str(cache)},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(chance.uniform(0.05, seconds))
        build.send_signal(signal.SIGKILL)
        build.wait()
        if not sound(cache):
            trials.outcomes["left a file failing the integrity check"] += 1
            continue
        again = longread(index_args(target), cache)
        if again.returncode != 0:
            trials.outcomes["the next build failed"] += 1
            trials.notes.append(again.stderr[-300:])
        elif shown(target, cache) != expected:
            trials.outcomes["the next build differs from a fresh one"] += 1
        else:
            trials.outcomes["finished as fresh"] += 1
    return trials


def full_disk(target: Path, folder: Path, sizes: list[int]) -> Trials:
    """The build with too little room: one line, then it finishes when there is room."""
    expected, _ = fresh(target, folder)
    trials = Trials(f"disk full during `longread index {target.name}`")
    for size in sizes:
        cache = folder / "full"
        shutil.rmtree(cache, ignore_errors=True)
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
    expected, _ = fresh(target, folder)
    trials = Trials(f"damaged index of {target.name} (8 runs of 64 bytes overwritten)")
    for _ in range(times):
        cache = folder / "damaged"
        shutil.rmtree(cache, ignore_errors=True)
        shutil.copytree(folder / "fresh", cache)
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


def document(folder: Path, copies: int) -> Path:
    """The examples' longer texts, `copies` times over, as one Markdown document."""
    target = folder / f"long-{copies}.md"
    if not target.exists():
        texts = [(ROOT / "examples" / n).read_text(encoding="utf-8") for n in ("macbeth.md",)]
        target.write_text(
            "\n\n".join(f"# Copy {n + 1}\n\n{t}" for n in range(copies) for t in texts), "utf-8"
        )
    return target


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
        kills(long_doc, args.dir, args.kills, chance),
        kills(folder, args.dir, args.kills, chance),
        full_disk(long_doc, args.dir, [2**k for k in range(14, 24)]),
        damages(long_doc, args.dir, args.damages, chance),
    ]
    table = ["| fault | trials | outcomes |", "|---|---|---|", *(r.row() for r in results)]
    notes = [f"- {r.name}: `{n.strip()}`" for r in results for n in r.notes[:2]]
    report = "\n".join(table + ([""] + notes if notes else [])) + "\n"
    write_page("faults", "Faults: killed, starved of disk, damaged", "faults.py", report)


if __name__ == "__main__":
    main()
