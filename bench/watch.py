"""How fresh `longread watch` keeps a folder's index, and what a change costs, end to end: the real
command runs as a subprocess on a folder of notes (each holding a word no other holds), and this
process, as any reader would, queries the index through a connection of its own.

For each folder size: the first listing (the command's start to its "watching" line); then
changes made one at a time, 50 ms apart, a quarter each of files changed, created, deleted and
moved, each timed from the write to the moment a query sees it (the new word found in that file;
a deleted file's word found nowhere; a moved file found at its new path alone); then a burst of
1,000 files changed at once, timed until the last is searchable. The watch's CPU time (its
process's, from /proc) over the single changes, divided by their count, is the cost per change;
its CPU time over 10 idle seconds is what waiting costs. The table goes to docs/bench-watch.md.

    python bench/watch.py [--dir /tmp/longread-watch-bench] [--files 1000 100000] [--changes 200]
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from pages import write_page

from longread.config import index_path
from longread.store.corpus_store import CorpusStore

LONGREAD = str(Path(sys.executable).with_name("longread"))
TICKS = os.sysconf("SC_CLK_TCK")
GAP_SECONDS = 0.05  # between two single changes
BURST = 1_000


def write_note(root: Path, doc_id: str, word: str) -> None:
    path = root / doc_id
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"A note on {word}.\n\nHarbour ledger, {doc_id}, garden letter, river.\n")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of the process so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def found(store: CorpusStore, word: str) -> list[str]:
    return [doc_id for doc_id, _ in store.search.rank([word], 5)]


def shows(store: CorpusStore, word: str, documents: list[str]) -> bool:
    """Whether a search for `word` finds exactly `documents`."""
    return found(store, word) == documents


def wait_until(holds: Callable[[], bool], seconds: float = 120) -> None:
    started = time.monotonic()
    while not holds():
        if time.monotonic() - started > seconds:
            raise SystemExit(f"not within {seconds} s")
        time.sleep(0.01)


def measure(base: Path, files: int, changes: int) -> dict[str, float]:
    root, cache = base / f"notes-{files}", base / f"cache-{files}"
    shutil.rmtree(root, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)
    for number in range(files):
        write_note(root, f"d{number // 100:04}/note{number:06}.txt", f"token{number}i")
    started = time.monotonic()
    command = subprocess.Popen(
        [LONGREAD, "watch", str(root)],
        env={**os.environ, "LONGREAD_CACHE_DIR": str(cache)},
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert command.stdout is not None and command.stdout.readline().startswith("watching")
        first = time.monotonic() - started
        reader = CorpusStore(index_path(root, cache / "indexes"))
        chance = random.Random(3)
        kinds = ["change", "create", "delete", "move"]
        picked = iter(chance.sample(range(files), changes))
        latencies: list[float] = []
        cpu_before = cpu_seconds(command.pid)
        for at in range(changes):
            kind, number = kinds[at % 4], next(picked)
            doc_id = f"d{number // 100:04}/note{number:06}.txt"
            if kind == "change":
                word, shown = f"changed{at}x", [doc_id]
                write_note(root, doc_id, word)
            elif kind == "create":
                word, shown = f"created{at}x", [f"new/n{at}.txt"]
                write_note(root, shown[0], word)
            elif kind == "delete":
                word, shown = f"token{number}i", []
                (root / doc_id).unlink()
            else:
                word, shown = f"token{number}i", [f"moved/{doc_id}"]
                os.renames(root / doc_id, root / "moved" / doc_id)
            made = time.monotonic()
            wait_until(partial(shows, reader, word, shown))
            latencies.append(time.monotonic() - made)
            time.sleep(GAP_SECONDS)
        per_change = (cpu_seconds(command.pid) - cpu_before) / changes
        idle_before = cpu_seconds(command.pid)
        time.sleep(10)
        idle = (cpu_seconds(command.pid) - idle_before) / 10
        made = time.monotonic()
        for number in range(BURST):
            write_note(root, f"d{number // 100:04}/note{number:06}.txt", f"burst{number}x")
        wait_until(lambda: found(reader, f"burst{BURST - 1}x") != [] and found(reader, "burst0x"))
        burst = time.monotonic() - made
        peak = peak_mb(command.pid)
    finally:
        command.kill()
        command.wait()
    latencies.sort()
    return {
        "files": files,
        "first": first,
        "median": statistics.median(latencies),
        "p90": latencies[int(len(latencies) * 0.9)],
        "worst": latencies[-1],
        "per_change": per_change,
        "idle": idle,
        "burst": burst,
        "peak": peak,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/longread-watch-bench"))
    parser.add_argument("--files", type=int, nargs="+", default=[1_000, 100_000])
    parser.add_argument("--changes", type=int, default=200)
    args = parser.parse_args()
    rows = [measure(args.dir, files, args.changes) for files in args.files]
    lines = [
        "`longread watch` runs as a subprocess (end to end); "
        f"the queries are this process's own, through a connection of their own. {args.changes} "
        "single changes a folder (a quarter each changed, created, deleted, moved), then a burst "
        f"of {BURST:,} files changed at once.",
        "",
        "| files | first listing (start to watching) | change to searchable: median / 90% / worst "
        "| watch CPU per change | watch CPU idle | burst of 1,000 searchable | peak memory |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['files']:,} | {row['first']:.1f} s | {row['median']:.2f} s / "
            f"{row['p90']:.2f} s / {row['worst']:.2f} s | {row['per_change'] * 1000:.0f} ms "
            f"| {row['idle'] * 100:.1f}% of a core | {row['burst']:.1f} s | {row['peak']:.0f} MB |"
        )
    write_page(
        "watch",
        "Watching a folder: how soon a change is searchable, what it costs",
        "\n".join(lines),
    )


if __name__ == "__main__":
    main()
