"""A blind fact set (bench/blind/facts_*: questions written by a helper that never read the code,
over real text it fetched, gold by its own scripts) asked through `longread eval` as a
subprocess, the default local set-up unless --model/--mode say otherwise. Writes the eval's
table and the seconds a question took (median, 90th percentile, in-process as eval times them),
with the models that answered, into its section of docs/bench-blind-facts.md.

    bash bench/blind/facts_c/fetch.sh      # the documents, once
    python bench/blind_facts.py bench/blind/facts_c [--max-seconds S] [--model SPEC] [--mode M]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from pages import write_page


def percentile(values: list[float], share: float) -> float:
    """The value `share` of the way up the sorted values (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("set", type=Path, help="a blind set's folder (holding tasks.jsonl)")
    parser.add_argument("--model", action="append", default=[])
    parser.add_argument("--mode", action="append", default=[])
    parser.add_argument("--max-seconds", type=float, default=150)
    args = parser.parse_args()
    tasks = args.set / "tasks.jsonl"
    results = Path(f"/tmp/longread-{args.set.name}-results.json")
    command = [str(Path(sys.executable).with_name("longread")), "eval", str(tasks)]
    command += [f"--model={m}" for m in args.model] + [f"--mode={m}" for m in args.mode]
    command += [f"--max-seconds={args.max_seconds:g}", f"--json={results}"]
    shown = subprocess.run(command, check=True, stdout=subprocess.PIPE, text=True)  # (progress
    # on stderr, as it goes)
    table = shown.stdout.strip()
    rows = [r for r in json.loads(results.read_text()) if r["mode"] != "baseline"]
    seconds = [r["seconds"] for r in rows]
    answer_model = os.environ.get("LONGREAD_ANSWER_MODEL", "auto")
    models = ", ".join(args.model) or "the default: `local` (SmolLM2-135M) reads the passages"
    summary = (
        f"{len(rows)} questions: median **{statistics.median(seconds):.1f} s** a question, "
        f"90th percentile {percentile(seconds, 0.9):.1f} s, slowest {max(seconds):.1f} s "
        f"(in-process, as `longread eval` times them, the index built on first use included). "
        f"Models: {models}; the answer model `{answer_model}` (beside a local root: "
        "`local:qwen2.5-coder-1.5b`) reads each question's shape and states the answer. The "
        "set's README says how its questions and gold answers were made; the lead is the reply up "
        "to its first blank line (300 characters at most)."
    )
    write_page(
        "blind-facts",
        "Fact questions of blind sets: lead and seconds",
        f"{summary}\n\n{table}",
        section=args.set.name,
    )


if __name__ == "__main__":
    main()
