"""What isolation costs: a REPL worker's start (process up, confined, ready) and a cell's round trip
(host → worker → host), per isolation set-up. The table goes to the `--label` section of
docs/bench-sandbox.md.

    python bench/sandbox.py [--starts 20] [--cells 300] [--label "this checkout"]

It imports only `longread.repl.sandbox`, so it also runs against an older checkout installed in a
venv of its own: `/old/venv/bin/python bench/sandbox.py --label "before (COMMIT)"` writes the
before section."""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import time

from pages import write_page


def _setups() -> list[tuple[str, str | None]]:
    """(name, LONGREAD_BWRAP value) for each set-up this checkout offers."""
    if importlib.util.find_spec("longread.repl.isolation") is None:
        return [("audit hook only (no kernel layers)", None)]
    from longread.repl import isolation

    setups = [("Landlock + seccomp + rlimits", "off")]
    os.environ["LONGREAD_BWRAP"] = "auto"
    if isolation.bwrap() is not None:
        setups.append(("the same + bubblewrap namespaces", "auto"))
    return setups


def _percentile(values: list[float], share: float) -> float:
    return sorted(values)[min(len(values) - 1, int(len(values) * share))]


def measure(starts: int, cells: int) -> list[tuple[str, float, float, float, float, float]]:
    from longread.repl.sandbox import Sandbox

    rows = []
    for name, bwrap in _setups():
        if bwrap is not None:
            os.environ["LONGREAD_BWRAP"] = bwrap
        start_times = []
        for _ in range(starts):
            sandbox = Sandbox({"echo": lambda text: text})
            began = time.perf_counter()
            sandbox.start()
            start_times.append(time.perf_counter() - began)
            sandbox.close()
        with Sandbox({"echo": lambda text: text}) as sandbox:
            cell_times, tool_times = [], []
            for number in range(cells):
                began = time.perf_counter()
                sandbox.run(f"x = {number}")
                cell_times.append(time.perf_counter() - began)
                began = time.perf_counter()
                sandbox.run("echo('ping')")
                tool_times.append(time.perf_counter() - began)
        rows.append(
            (
                name,
                statistics.median(start_times),
                _percentile(start_times, 0.9),
                statistics.median(cell_times),
                _percentile(cell_times, 0.9),
                statistics.median(tool_times),
            )
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--starts", type=int, default=20, help="worker starts to time")
    parser.add_argument("--cells", type=int, default=300, help="cells to time")
    parser.add_argument("--label", default="this checkout", help="the checkout measured")
    args = parser.parse_args()
    lines = [
        "| set-up | worker start, median (p90) | cell round trip, median (p90) "
        "| cell with one tool call, median |",
        "|---|---|---|---|",
    ]
    for name, start, start_p90, cell, cell_p90, tool in measure(args.starts, args.cells):
        lines.append(
            f"| {name} | {start * 1000:.0f} ms ({start_p90 * 1000:.0f} ms) | {cell * 1000:.2f} ms "
            f"({cell_p90 * 1000:.2f} ms) | {tool * 1000:.2f} ms |"
        )
    write_page("sandbox", "What the sandbox costs", "\n".join(lines), section=args.label)


if __name__ == "__main__":
    main()
