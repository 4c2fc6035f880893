"""End to end, as a user feels it: the real `longread` command run as a subprocess, its wall time
and the peak memory of its whole process tree (the CLI and its REPL worker or index builders,
sampled from /proc every 5 ms; pages a forked builder shares with the CLI count once in each).
The root model is a scripted OpenAI-compatible server on 127.0.0.1 that answers in two turns:
turn 1 greps for a regex, turn 2 calls FINAL with what the grep printed.

Measured: `longread --help`; `longread index FILE --no-summaries` on a 400 MB document; `ask` on
it (2-turn regex grep, median of --runs), and a first cell's result after the run starts (from the
trace: the loop's own first cell and the model's) and back at the model after the process starts;
`ask` after `touch FILE` (must not index again); an answer of 500,000 lines (how long the command
runs on after the model's last reply, shown and as --json); `ask` on a 100,000-document corpus
(`grep_corpus` + answer); `ask --mode map` on the 400 MB document with the local model. With
`--peer PYTHON` (a Python with the reference RLM installed: `pip install rlms`), the same 400 MB
task through the reference RLM in the same run, and the ratio. The table goes to
docs/bench-end-to-end.md.

    python bench/end_to_end.py [--mb 400] [--docs 100000] [--runs 5] [--peer /venv/bin/python]
                               [--skip corpus map]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from corpus import write_corpus  # noqa: E402 - (this folder is on the path when run as a script)
from pages import write_page  # noqa: E402
from single_doc import write_document  # noqa: E402

from fake_openai import fake_openai  # noqa: E402

LONGREAD = str(Path(sys.executable).with_name("longread"))
REGEX = r"QZX-\d{4}-RARE-TOKEN-\d{4}"
NEEDLE = "The harbour's ledger code is QZX-4821-RARE-TOKEN-0397, kept by the clerk."
CORPUS_REGEX = r"quokka-\w+ treaty"
QUESTION = "What is the harbour's ledger code?"
PAGE = os.sysconf("SC_PAGE_SIZE")
ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
HUGE_LINES = 500_000
HUGE = f'```repl\nFINAL("\\n".join(f"row {{i}} of the table" for i in range({HUGE_LINES})))\n```'


@dataclass
class Measure:
    wall: float
    peak_mb: float
    output: str


def tree_rss(root: int) -> int:
    """Resident bytes of `root` and all its descendants now (0 for processes already gone)."""
    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        try:
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo += map(int, (task / "children").read_text().split())
        except (FileNotFoundError, ProcessLookupError, ValueError):
            continue
    return total


def user_environment(extra: dict[str, str]) -> dict[str, str]:
    """This environment with `extra`, as on a user's machine: Python keeps the bytecode it
    compiles (a setting that stops it, as in some containers, would charge every run for
    compiling the project again)."""
    environment = {**os.environ, **extra}
    environment.pop("PYTHONDONTWRITEBYTECODE", None)
    return environment


def run(args: list[str], env: dict[str, str], timeout: float = 900) -> Measure:
    """Run a command to its end, sampling its process tree's memory; fail loudly if it fails."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as sink:  # (a pipe left unread would stop a long output)
        process = subprocess.Popen(
            args, env=user_environment(env), stdout=sink, stderr=subprocess.STDOUT
        )
        peak = 0
        while process.poll() is None:
            peak = max(peak, tree_rss(process.pid))
            if time.perf_counter() - started > timeout:
                process.kill()
            time.sleep(0.005)
        wall = time.perf_counter() - started
        sink.seek(0)
        output = sink.read().decode("utf-8", "replace")
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed ({process.returncode}):\n{output[-3000:]}")
    return Measure(wall, peak / 1e6, output)


class TwoTurns:
    """The scripted root model: turn 1 runs `code`, turn 2 answers with what it found (`final`:
    how the REPL is told the answer). It records when each root turn arrives."""

    def __init__(self, code: str, final: str = "FINAL(str(found))"):
        self.code, self.final = code, final
        self.arrivals: list[float] = []

    def __call__(self, messages: list[dict]) -> str:
        self.arrivals.append(time.perf_counter())
        if len(self.arrivals) == 1:
            return f"```repl\n{self.code}\n```"
        return f"```repl\n{self.final}\n```"


def huge_answer(env: dict[str, str], *extra: str) -> tuple[Measure, float]:
    """`longread ask` on the examples' Macbeth where the root model's answer is HUGE_LINES lines:
    the command's measure, and the seconds it ran on after the model's last reply."""
    arrivals: list[float] = []

    def final(messages: list[dict]) -> str:
        arrivals.append(time.perf_counter())
        return HUGE

    with fake_openai([]) as server:
        server.last = final
        command = [LONGREAD, "ask", str(EXAMPLES / "macbeth.md"), "Who kills Duncan?"]
        command += ["--mode", "rlm", "--model", "openai:scripted", "--base-url", server.url]
        started = time.perf_counter()
        measure = run([*command, "--no-cache", "-q", *extra], env)
    return measure, started + measure.wall - arrivals[-1]


def ask(target: Path, code: str, env: dict[str, str], *extra: str) -> tuple[Measure, TwoTurns]:
    """`longread ask TARGET` in rlm mode against a scripted root model running `code` first."""
    turns = TwoTurns(code)
    with fake_openai([]) as server:
        server.last = turns
        command = [LONGREAD, "ask", str(target), QUESTION, "--mode", "rlm"]
        command += ["--model", "openai:scripted", "--base-url", server.url, "--no-cache", "-q"]
        started = time.perf_counter()
        measure = run([*command, *extra], env)
    turns.arrivals = [t - started for t in turns.arrivals]
    return measure, turns


def build(document: Path, env: dict[str, str], folder: Path) -> Measure:
    """`longread index DOCUMENT --no-summaries` from no index at all."""
    for old in (folder / "cache" / "indexes").glob("*"):
        old.unlink()
    return run([LONGREAD, "index", str(document), "--no-summaries"], env)


def first_cell(document: Path, env: dict[str, str], folder: Path) -> tuple[float, float, float]:
    """A 2-turn ask whose first cell is trivial, timed from its trace: (the run's start to the
    result of the loop's own first cell, the search it runs before any model call; the run's
    start to the result of the model's first cell; the process's start to that result's arrival
    back at the root model)."""
    trace = folder / "first-cell.jsonl"
    _, turns = ask(document, "found = len(context)\nprint(found)", env, "--trace", str(trace))
    events = [json.loads(line) for line in trace.read_text(encoding="utf-8").splitlines()]
    started = next(e["t"] for e in events if e["kind"] == "run")
    outputs = {e["turn"]: e["t"] for e in events if e["kind"] == "output" and e["block"] == 1}
    return outputs[0] - started, outputs[1] - started, turns.arrivals[1]


def peer(python: str, document: Path, env: dict[str, str]) -> Measure:
    """The same task through the reference RLM (`rlms`), its root model the same scripted server."""
    code = f"import re\nfound = re.findall(r'{REGEX}', context)\nprint(found)"
    script = (
        "import sys\nfrom pathlib import Path\nfrom rlm import RLM\n"
        "context = Path(sys.argv[1]).read_text(encoding='utf-8')\n"
        "rlm = RLM(backend='openai', backend_kwargs={'model_name': 'scripted', "
        "'base_url': sys.argv[2], 'api_key': 'sk-test'}, max_iterations=4)\n"
        "print(rlm.completion(context, root_prompt=sys.argv[3]).response)\n"
    )
    with fake_openai([]) as server:
        # (this version of the reference RLM ends a run through its `answer` dict)
        server.last = TwoTurns(code, 'answer["content"] = str(found)\nanswer["ready"] = True')
        return run([python, "-c", script, str(document), server.url, QUESTION], env)


def median_of(measures: list[Measure]) -> tuple[float, float]:
    return statistics.median(m.wall for m in measures), statistics.median(
        m.peak_mb for m in measures
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=400)
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/longread-e2e"))
    parser.add_argument("--peer", help="a Python with the reference RLM (`pip install rlms`)")
    parser.add_argument("--skip", nargs="*", default=[], choices=["corpus", "map", "build"])
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    env = {"LONGREAD_CACHE_DIR": str(args.dir / "cache"), "OPENAI_API_KEY": "sk-test"}
    rows: list[tuple[str, str, str]] = []

    helps = [run([LONGREAD, "--help"], env) for _ in range(args.runs)]
    rows.append(("`longread --help`, median", f"{median_of(helps)[0]:.2f} s", "≤ 0.3 s"))

    document = args.dir / f"document-{args.mb}MB.md"
    if not document.exists():
        write_document(document, args.mb, NEEDLE)
    size = document.stat().st_size
    if "build" not in args.skip or not (args.dir / "cache").exists():
        builds = [build(document, env, args.dir) for _ in range(args.runs)]
        wall, peak = median_of(builds)
        rows.append(
            (
                f"`index` {size / 1e6:,.0f} MB, no summaries, median of {args.runs} (wall, peak)",
                f"{size / 1e6 / wall:,.0f} MB/s ({wall:.1f} s, {peak:,.0f} MB)",
                "≥ 50 MB/s",
            )
        )

    grep = f"found = grep_all(r'{REGEX}')\nprint(found)"
    asks = [ask(document, grep, env) for _ in range(args.runs)]
    if not all("QZX-4821-RARE-TOKEN-0397" in m.output for m, _ in asks):
        raise SystemExit(f"the answer lacks the needle:\n{asks[0][0].output[-2000:]}")
    wall, peak = median_of([m for m, _ in asks])
    rows.append(
        (
            f"`ask` {size / 1e6:,.0f} MB, 2-turn regex grep, median of {args.runs} (wall, peak)",
            f"{wall:.2f} s, {peak:,.0f} MB",
            "≤ 1.2 s, ≤ 300 MB",
        )
    )
    first = statistics.median(turns.arrivals[1] for _, turns in asks)
    rows.append(("the grep's result back at the root model, after start", f"{first:.2f} s", "—"))
    trivial = [first_cell(document, env, args.dir) for _ in range(3)]
    rows.append(
        (
            "a trivial first cell's result, after the run starts (the loop's own / the model's)",
            f"{statistics.median(t[0] for t in trivial):.2f} s / "
            f"{statistics.median(t[1] for t in trivial):.2f} s",
            "≤ 0.5 s",
        )
    )
    rows.append(
        (
            "the model's first cell's result back at the root model, after the process starts",
            f"{statistics.median(t[2] for t in trivial):.2f} s",
            "—",
        )
    )
    os.utime(document)
    touched, _ = ask(document, grep, env)
    rows.append(("`ask` after `touch FILE` (not indexed again)", f"{touched.wall:.2f} s", "—"))

    for extra, shown in (((), "shown"), (("--json",), "as --json")):
        huge = [huge_answer(env, *extra) for _ in range(3)]
        after = statistics.median(seconds for _, seconds in huge)
        rows.append(
            (
                f"an answer of {HUGE_LINES:,} lines, {shown}: after the model's last reply, "
                "median of 3 (s, peak)",
                f"{after:.2f} s, {max(m.peak_mb for m, _ in huge):,.0f} MB",
                "≤ 3 s, ≤ 300 MB",
            )
        )

    if args.peer:
        theirs = [peer(args.peer, document, env) for _ in range(args.runs)]
        if not all("QZX-4821-RARE-TOKEN-0397" in m.output for m in theirs):
            raise SystemExit(f"the peer's answer lacks the needle:\n{theirs[0].output[-2000:]}")
        peer_wall, peer_peak = median_of(theirs)
        rows.append(
            (
                "the reference RLM, same task, median (wall, peak)",
                f"{peer_wall:.2f} s, {peer_peak:,.0f} MB",
                "—",
            )
        )
        rows.append(("longread / reference RLM, wall", f"{wall / peer_wall:.2f}", "≤ 0.35"))

    if "corpus" not in args.skip:
        folder = args.dir / f"corpus-{args.docs}"
        if not folder.exists():
            write_corpus(folder, args.docs)
        run([LONGREAD, "index", str(folder), "--no-llm-meta"], env, timeout=3600)
        code = f"found = grep_corpus(r'{CORPUS_REGEX}')\nprint(found)"
        corpus_asks = [ask(folder, code, env)[0] for _ in range(args.runs)]
        corpus_wall, corpus_peak = median_of(corpus_asks)
        rows.append(
            (
                f"`ask` {args.docs:,}-document corpus, grep_corpus + answer (wall, peak)",
                f"{corpus_wall:.2f} s, {corpus_peak:,.0f} MB",
                "≤ 3 s",
            )
        )

    if "map" not in args.skip:
        mapped = run(
            [LONGREAD, "ask", str(document), QUESTION, "--mode", "map", "--no-cache", "-q"], env
        )
        rows.append(
            (
                f"`ask --mode map` {size / 1e6:,.0f} MB, local model (wall, peak)",
                f"{mapped.wall:.1f} s, {mapped.peak_mb:,.0f} MB",
                "—",
            )
        )

    calls = re.findall(r"(\d+) calls", asks[0][0].output)
    report = [
        "Each figure is the real `longread` command run as a subprocess: wall time, and the peak "
        f"memory of its process tree. The grep `ask` made {calls[-1] if calls else '?'} model "
        "calls.",
        "",
        "| measure (real CLI, subprocess) | result | target |",
        "|---|---|---|",
        *("| " + " | ".join(row) + " |" for row in rows),
    ]
    write_page("end-to-end", "End to end, as users feel it", "\n".join(report))


if __name__ == "__main__":
    main()
