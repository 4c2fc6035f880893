"""Needle in a haystack for the code-writing `rlm` loop, offline, on a local code model.

Inserts one fact into a real public-domain text (Macbeth, 108K characters) at chosen depths and
asks for it. A table (found or not, root turns, sub-calls, tokens and seconds per run) goes to the
model's section of docs/bench-rlm-niah.md.

    python bench/rlm_niah.py [--model local:qwen2.5-coder-1.5b] [--depths 0.3 0.7] [--trace-dir DIR]
"""

from __future__ import annotations

import argparse
import platform
import time
from pathlib import Path

from pages import write_page

from longread.api import RLM_REPL
from longread.errors import LongreadError
from longread.strategies.common import RunOptions

ROOT = Path(__file__).resolve().parents[1]
NEEDLE = "The ship that carried the king's letters to Norway was named the Silver Heron."
QUESTION = "What was the name of the ship that carried the king's letters to Norway?"
GOLD = "silver heron"


def haystack(depth: float) -> str:
    text = (ROOT / "examples" / "macbeth.md").read_text(encoding="utf-8")
    cut = text.index("\n\n", int(len(text) * depth))
    return text[:cut] + "\n\n" + NEEDLE + "\n" + text[cut:]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="local:qwen2.5-coder-1.5b")
    parser.add_argument("--depths", type=float, nargs="+", default=[0.3, 0.7])
    parser.add_argument("--max-iterations", type=int, default=8)
    parser.add_argument("--trace-dir", type=Path, default=None)
    args = parser.parse_args()

    rows = []
    for depth in args.depths:
        text = haystack(depth)
        trace = str(args.trace_dir / f"niah-{depth:.2f}.jsonl") if args.trace_dir else None
        rlm = RLM_REPL(
            args.model,
            mode="rlm",
            cache=False,
            trace_path=trace,
            options=RunOptions(max_iterations=args.max_iterations, cell_timeout=60),
        )
        started = time.monotonic()
        try:
            answer = rlm.answer(text, QUESTION, doc_id="macbeth+needle")
            text_out, usage, turns = answer.text, answer.usage, answer.stats.get("turns", 0)
        except LongreadError as error:
            partial = getattr(error, "partial", None)
            text_out, usage, turns = f"error: {error}", partial.usage if partial else {}, 0
        rows.append(
            {
                "depth": depth,
                "chars": len(text),
                "found": GOLD in text_out.lower(),
                "turns": turns,
                "subcalls": usage.get("subcalls", 0),
                "in": usage.get("input_tokens", 0),
                "out": usage.get("output_tokens", 0),
                "seconds": time.monotonic() - started,
                "answer": " ".join(text_out.split())[:70],
            }
        )
        print(f"depth {depth}: {rows[-1]}", flush=True)

    lines = [
        f"model {args.model} · {platform.machine()} · {_cpu()} · {len(rows)} runs",
        "",
        "| depth | context chars | found | root turns | sub-calls | input tokens | output tokens "
        "| seconds | answer |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['depth']:.2f} | {r['chars']:,} | {'yes' if r['found'] else 'no'} | "
            f"{r['turns']} | "
            f"{r['subcalls']} | {r['in']:,} | {r['out']:,} | {r['seconds']:.0f} | {r['answer']} |"
        )
    write_page(
        "rlm-niah", "Needle in a haystack, the `rlm` loop", "\n".join(lines), section=args.model
    )


def _cpu() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cores = len(list(Path("/sys/devices/system/cpu").glob("cpu[0-9]*")))
                return f"{line.split(':', 1)[1].strip()} ({cores} cores)"
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


if __name__ == "__main__":
    main()
