"""The readers of counting questions side by side on blind sets: question sets written by helpers
that never read the reader's code, over real documents of many genres, gold computed by their own
parsers (bench/blind/*/: each set's fetch.sh, gold.py, README.md and tasks.jsonl). Each set is
fetched once into a cache, then `longread eval` runs it (as a subprocess, the default local set-up:
SmolLM2-135M as root model, `auto` mode) once per reader, and the table of lead accuracy per
genre, reader by reader, goes to docs/bench-blind-readers.md.

    python bench/blind_readers.py set_b [set_c ...] [--reader rules --reader local:...]

A set is scored once per change that it judges; a set whose questions were read one by one is
not used to judge again (write a new one).
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from longread.config import cache_dir

ROOT = Path(__file__).resolve().parents[1]
SETS = ROOT / "bench" / "blind"
LONGREAD = str(Path(sys.executable).with_name("longread"))
READERS = ["rules", "local:qwen2.5-coder-0.5b", "local:qwen2.5-coder-1.5b"]


def fetched(name: str) -> Path:
    """The set's folder with its documents, fetched once (its own fetch.sh) into the cache."""
    home = cache_dir() / "blind" / name
    if not (home / "docs").is_dir():
        home.mkdir(parents=True, exist_ok=True)
        for part in ("fetch.sh", "tasks.jsonl", "gold.py", "docs.sha256", "SHA256SUMS"):
            if (SETS / name / part).exists():
                (home / part).write_bytes((SETS / name / part).read_bytes())
        subprocess.run(["bash", "fetch.sh"], cwd=home, check=True)
    return home


def scored(home: Path, readers: list[str], seconds: float) -> list[dict]:
    out = home / "results.json"
    command = [LONGREAD, "eval", "tasks.jsonl", "--json", str(out), "--max-seconds", str(seconds)]
    command += [arg for reader in readers for arg in ("--reader", reader)]
    subprocess.run(command, cwd=home, check=True, stdout=subprocess.DEVNULL)
    return json.loads(out.read_text(encoding="utf-8"))


def table(sets: dict[str, list[dict]], readers: list[str]) -> list[str]:
    """One row per set and genre, a column per reader: lead right of asked; then all genres."""
    lines = [
        "| set | genre | " + " | ".join(readers) + " |",
        "|---|---|" + "---|" * len(readers),
    ]
    overall: dict[str, list[float]] = defaultdict(list)
    for name, results in sets.items():
        by: dict[tuple[str, str], list[float]] = defaultdict(list)
        for r in results:
            if r["mode"] == "baseline":
                continue
            reader = next((x for x in readers if r["model"].endswith(f"reader {x}")), readers[0])
            by[(r["family"], reader)].append(r["lead"])
            overall[reader].append(r["lead"])
        for family in sorted({f for f, _ in by}):
            cells = [f"{sum(by[(family, x)]):.0f}/{len(by[(family, x)])}" for x in readers]
            lines.append(f"| {name} | {family} | " + " | ".join(cells) + " |")
    cells = [f"**{sum(overall[x]):.0f}/{len(overall[x])}**" for x in readers]
    lines.append("| all | all | " + " | ".join(cells) + " |")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", help="sets under bench/blind/ (set_b, set_c…)")
    parser.add_argument("--reader", action="append", help="a reader (repeat); default: three")
    parser.add_argument("--max-seconds", type=float, default=150.0)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "bench-blind-readers.md")
    args = parser.parse_args()
    readers = args.reader or READERS
    results = {name: scored(fetched(name), readers, args.max_seconds) for name in args.sets}
    today = datetime.date.today().isoformat()
    command = "python bench/blind_readers.py " + " ".join(args.sets)
    command += "".join(f" --reader {r}" for r in readers)
    text = "\n".join(
        [
            "# Counting questions on blind sets, reader by reader",
            "",
            f"Written by `{command}` on {today} (bench/blind_readers.py says what is measured):",
            "lead right of asked, per genre; the default local set-up (SmolLM2-135M root, `auto`).",
            "",
            *table(results, readers),
            "",
        ]
    )
    args.out.write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
