"""What a counting question costs where a model writes its query, on the default local set-up
(SmolLM2-135M as root model, a local code model writing the query), as a user feels it: `longread
ask FILE QUESTION` as a subprocess, on a document indexed before (`longread index`, not timed),
its records not yet found. The first question on a source pays for finding its records, loading
the code model and evaluating the source's tables described (kept on disk for the next); each
later one pays for its own words. Each reader is measured from an empty cache (the models' files
linked in), end to end: wall time and the peak memory of the process tree.

Sources: the penguins table (CSV), Macbeth (Markdown dialogue), a Debian changelog, this machine's
dpkg status (key-value stanzas); four questions each, written for this bench. The table goes to
docs/bench-reader.md.

    python bench/reader.py [--reader local:qwen2.5-coder-1.5b --reader rules ...]
"""

from __future__ import annotations

import argparse
import datetime
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from end_to_end import run  # noqa: E402 - (this folder is on the path when run as a script)

from longread.config import cache_dir
from longread.evals.records_data import fetch

ROOT = Path(__file__).resolve().parents[1]
LONGREAD = str(Path(sys.executable).with_name("longread"))
READERS = ["local:qwen2.5-coder-1.5b", "local:qwen2.5-coder-0.5b", "rules"]
QUESTIONS = {
    "penguins.csv": [
        "How many penguins were observed on Biscoe island?",
        "Which species has the heaviest average body mass?",
        "How many Adelie penguins are female?",
        "What is the longest flipper length recorded?",
    ],
    "macbeth.md": [
        "How many speeches does Lady Macbeth have?",
        "Who speaks the most in the third act?",
        "How many scenes does the play have?",
        "How many speeches does Banquo make in Act 2?",
    ],
    "changelog": [
        "How many uploads had low urgency?",
        "Who made the most uploads?",
        "How many uploads were made in 2004?",
        "When was the oldest upload?",
    ],
    "status": [
        "How many packages are installed?",
        "Which maintainer maintains the most packages?",
        "How many packages have priority important?",
        "Which package has the largest installed size?",
    ],
}


def sources(cache: Path) -> dict[str, Path]:
    found = fetch(cache)
    changelog = next(iter(sorted(found["changelogs"].iterdir()))) if "changelogs" in found else None
    named = {
        "penguins.csv": found.get("penguins"),
        "macbeth.md": ROOT / "examples" / "macbeth.md",
        "changelog": changelog,
        "status": found.get("status"),
    }
    return {name: path for name, path in named.items() if path is not None}


def measure(reader: str, name: str, path: Path, work: Path) -> list[tuple[float, float]]:
    """(seconds, peak MB) of each question, the first one first, from an empty cache."""
    home = work / f"cache-{reader.replace(':', '_')}-{name}"
    shutil.rmtree(home, ignore_errors=True)
    (home / "models").parent.mkdir(parents=True)
    (home / "models").symlink_to(cache_dir() / "models")
    env = {"LONGREAD_CACHE_DIR": str(home), "LONGREAD_READER": reader}
    copy = work / name
    shutil.copy(path, copy)
    run([LONGREAD, "index", str(copy)], env)
    timed = []
    for question in QUESTIONS[name]:
        done = run([LONGREAD, "ask", str(copy), question, "--no-cache", "-q"], env, timeout=600)
        timed.append((done.wall, done.peak_mb))
    return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reader", action="append", help="a reader (repeat); default: three")
    parser.add_argument("--data", type=Path, default=cache_dir() / "eval-data" / "records")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "bench-reader.md")
    args = parser.parse_args()
    readers = args.reader or READERS
    rows = []
    with tempfile.TemporaryDirectory(prefix="longread-reader-") as folder:
        work = Path(folder)
        for reader in readers:
            firsts, laters, peaks = [], [], []
            for name, path in sources(args.data).items():
                timed = measure(reader, name, path, work)
                firsts.append(timed[0][0])
                laters += [s for s, _ in timed[1:]]
                peaks += [p for _, p in timed]
                print(f"{reader} · {name}: " + ", ".join(f"{s:.1f} s" for s, _ in timed))
            everything = firsts + laters
            rows.append(
                f"| {reader} | {statistics.median(firsts):.1f} | {max(firsts):.1f} | "
                f"{statistics.median(laters):.1f} | {max(laters):.1f} | "
                f"{statistics.median(everything):.1f} | "
                f"{statistics.quantiles(everything, n=10)[-1]:.1f} | {max(peaks):,.0f} |"
            )
    today = datetime.date.today().isoformat()
    command = "python bench/reader.py " + " ".join(f"--reader {r}" for r in readers)
    table = "\n".join(
        [
            "# Counting questions read by a model: seconds, end to end",
            "",
            f"Written by `{command}` on {today}, {os.cpu_count()} cores (bench/reader.py says",
            "what is measured). Each figure is `longread ask` as a subprocess on an indexed",
            f"document: {len(QUESTIONS)} sources, {len(next(iter(QUESTIONS.values())))} "
            "questions each; the first on a source finds its records and",
            "evaluates its tables' description, the later ones reuse it.",
            "",
            "| reader | first: median s | first: max s | later: median s | later: max s | "
            "all: median s | all: 90th percentile s | peak MB |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
            "",
        ]
    )
    args.out.write_text(table, encoding="utf-8")
    print(table)


if __name__ == "__main__":
    main()
