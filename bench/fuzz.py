"""Inputs tried: the loaders fuzzed with many mutated real files of every kind they read (the
property of `tests/test_fuzz.py`, which runs a few), each loaded or refused in one line, in
bounded time and memory; and the REPL's frame protocol with frames of random bytes.

    python bench/fuzz.py [--examples 2000]

The table goes to docs/bench-fuzz.md.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from pages import write_page  # noqa: E402 - (this folder is on the path when run as a script)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from fuzz_inputs import MUTATIONS, Tried, mutated, seeds  # noqa: E402


def fuzz(suffix: str, seed: bytes, examples: int, folder: Path) -> tuple[Tried, float]:
    """(what the inputs did, seconds) for `examples` mutations of one seed."""
    tried = Tried()

    @settings(max_examples=examples, deadline=None, suppress_health_check=list(HealthCheck))
    @given(mutations=MUTATIONS)
    def load(mutations: list[tuple[str, float, bytes]]) -> None:
        tried.load(mutated(seed, mutations), Path(suffix).suffix or suffix, folder)

    started = time.monotonic()
    load()
    return tried, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2_000)
    args = parser.parse_args()
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows = []
    with tempfile.TemporaryDirectory(prefix="longread-fuzz-") as scratch:
        for suffix, seed in seeds().items():
            tried, seconds = fuzz(suffix, seed, args.examples, Path(scratch))
            rows.append(
                f"| `{suffix}` ({len(seed):,} bytes) | {tried.loaded + tried.refused:,} | "
                f"{tried.loaded:,} | {tried.refused:,} | 0 | {tried.slowest:.2f} s | "
                f"{seconds:.0f} s |"
            )
            print(rows[-1], flush=True)
    growth = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024 - baseline
    report = "\n".join(
        [
            "| seed | inputs tried | loaded | refused in one line | tracebacks | slowest load "
            "| run |",
            "|---|---|---|---|---|---|---|",
            *rows,
            "",
            f"Peak memory grew by {growth:,.0f} MB over all the inputs (the bound is 300 MB). "
            "A traceback, a refusal of more than one line or a load over 10 s would have "
            "stopped the run with the input that did it.",
        ]
    )
    write_page("fuzz", "Fuzzing the loaders", report)


if __name__ == "__main__":
    main()
