"""The cost estimate against the cost, end to end: for each document, question and mode,
`longread ask --dry-run --json` (which must make no request) and then the real `longread ask
--json --no-cache`, both as subprocesses against a scripted OpenAI-compatible server on 127.0.0.1
that counts tokens its own way (a word or a punctuation mark each, not the client's count). With
`--local`, the same runs on the embedded local model, whose tokens are counted exactly.

    python bench/estimate.py [--local]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fake_openai import fake_openai  # noqa: E402 - (the tests folder is on the path)

ROOT = Path(__file__).resolve().parents[1]
LONGREAD = str(Path(sys.executable).with_name("longread"))
TASKS = [
    (ROOT / "examples" / "macbeth.md", "Who does Macbeth kill to become king?"),
    (ROOT / "examples" / "macbeth.md", "What do the witches promise Banquo?"),
    (ROOT / "examples" / "gnu-coding-standards.txt", "How should error messages be formatted?"),
    (ROOT / "examples" / "esther-kjv.txt", "Why did Haman hate Mordecai?"),
]
MODES = ("base", "retrieval", "map")


def scripted(messages: list[dict]) -> str:
    """A capable model: JSON for the passage readers (relevant when a question word is in the
    passage), else an answer citing the first passage."""
    prompt = messages[-1]["content"]
    if "Reply with JSON only" in prompt:
        snippet = prompt.split('"""')[1] if '"""' in prompt else prompt
        sentence = next((s.strip() for s in snippet.split(".") if len(s.strip()) > 30), "")
        return json.dumps({"relevant": bool(sentence), "summary": sentence, "quote": sentence})
    return "The passages answer it [1]; the second adds a detail [2]."


def ask(path: Path, question: str, mode: str, cache: Path | None, *model: str) -> dict:
    """`longread ask` as a subprocess (`cache`: its cache folder; None: the user's, where the
    local models are)."""
    env = {**os.environ, "OPENAI_API_KEY": "sk-bench"}
    if cache is not None:
        env["LONGREAD_CACHE_DIR"] = str(cache)
    done = subprocess.run(
        [LONGREAD, "ask", str(path), question, "--mode", mode, "--json", *model],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    if done.returncode != 0:
        raise SystemExit(f"longread ask failed: {done.stderr[-800:]}")
    return json.loads(done.stdout)


def measure(model: list[str], cache: Path | None, server=None) -> list[tuple]:
    rows = []
    for path, question in TASKS:
        for mode in MODES:
            [expected] = ask(path, question, mode, cache, "--dry-run", *model)
            sent = len(server.requests) if server else 0
            if server and sent:
                raise SystemExit(f"--dry-run sent {sent} requests")
            usage = ask(path, question, mode, cache, "--no-cache", *model)["usage"]
            if server:
                server.requests.clear()
            rows.append((path.name, question, mode, expected, usage))
    return rows


def error(estimated: float, actual: float) -> str:
    return f"{100 * (estimated - actual) / actual:+.0f}%" if actual else "n/a"


def table(title: str, rows: list[tuple]) -> None:
    print(f"\n{title}")
    header = "| document | mode | calls est / actual | tokens est / actual (in+out) | error |"
    print(header + "\n|---|---|---|---|---|")
    for name, _, mode, e, u in rows:
        est_tokens = e["input_tokens"][0] + e["output_tokens"][0]
        tokens = u["input_tokens"] + u["output_tokens"]
        print(
            f"| {name} | {mode} | {e['calls'][0]} / {u['calls']} | {est_tokens:,} / {tokens:,} "
            f"| {error(est_tokens, tokens)} |"
        )
    exact = sum(e["calls"][0] == u["calls"] for *_, e, u in rows)
    within = sum(
        abs(e["input_tokens"][0] + e["output_tokens"][0] - u["input_tokens"] - u["output_tokens"])
        <= 0.15 * (u["input_tokens"] + u["output_tokens"])
        for *_, e, u in rows
    )
    print(f"\ncalls exact in {exact} of {len(rows)} runs; tokens within ±15% in {within}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--local", action="store_true", help="also on the local model")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        cache = Path(scratch) / "cache"
        with fake_openai([scripted] * 10_000) as server:
            model = ["--model", "openai:gpt-4o-mini", "--base-url", server.url]
            table("Scripted server (gpt-4o-mini prices)", measure(model, cache, server))
        if args.local:
            table("Local model (SmolLM2-135M)", measure(["--model", "local"], None))


if __name__ == "__main__":
    main()
