"""The cost estimate against the cost, end to end: for each document, question and mode,
`longread ask --dry-run --json` (which must make no request) and then the real `longread ask
--json`, both as subprocesses against a scripted OpenAI-compatible server on 127.0.0.1
that counts tokens its own way (with a real BPE vocabulary, Qwen2.5's, where the client estimates
four characters a token). With `--local`, the same runs on the embedded local model. One cache
serves each model's runs, as a user's does: an estimate's seconds come from the calls timed
before it (none for the first). The tables go to docs/bench-estimate.md.

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

from pages import write_page  # noqa: E402 - (this folder is on the path when run as a script)

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
        sentence = next((s.strip() for s in snippet.split(".") if 30 < len(s.strip()) < 500), "")
        return json.dumps({"relevant": bool(sentence), "summary": sentence, "quote": sentence})
    return "The passages answer it [1]; the second adds a detail [2]."


def ask(path: Path, question: str, mode: str, cache: Path, *model: str) -> dict:
    """`longread ask` as a subprocess, with `cache` as its cache folder."""
    env = {**os.environ, "OPENAI_API_KEY": "sk-bench", "LONGREAD_CACHE_DIR": str(cache)}
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


def measure(model: list[str], cache: Path, server=None) -> list[tuple]:
    rows = []
    for path, question in TASKS:
        for mode in MODES:
            [expected] = ask(path, question, mode, cache, "--dry-run", *model)
            sent = len(server.requests) if server else 0
            if server and sent:
                raise SystemExit(f"--dry-run sent {sent} requests")
            usage = ask(path, question, mode, cache, *model)["usage"]
            if server:
                server.requests.clear()
            rows.append((path.name, question, mode, expected, usage))
    return rows


def bpe_count():
    """A real BPE tokenizer as the server's token count: Qwen2.5's vocabulary (151K tokens, near
    a hosted model's; fetched on first use), only the vocabulary loaded."""
    from llama_cpp import Llama

    from longread.llm.local_models import LOCAL_MODELS, model_path

    path = model_path(LOCAL_MODELS["qwen2.5-coder-0.5b"])
    vocab = Llama(str(path), vocab_only=True, verbose=False)
    return lambda text: len(vocab.tokenize(text.encode("utf-8"), add_bos=False, special=True))


def error(estimated: float, actual: float) -> str:
    return f"{100 * (estimated - actual) / actual:+.0f}%" if actual else "n/a"


def total(usage: dict) -> int:
    return usage["input_tokens"] + usage["output_tokens"]


def seconds_within(e: dict, u: dict, factor: float = 2.0) -> bool | None:
    """Whether the estimate's seconds (its range) hold the run's within `factor`; None when the
    estimate had no seconds (no call of the model timed yet)."""
    if e["seconds"] is None:
        return None
    low, high = e["seconds"]
    high = low if high is None else high
    return low / factor <= u["seconds"] <= high * factor


def table(title: str, rows: list[tuple]) -> list[str]:
    lines = [
        f"**{title}**",
        "",
        "| document | mode | calls est / actual | in est / actual | out est / actual | tokens "
        "| seconds est / actual |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, _, mode, e, u in rows:
        guess = {key: e[key][0] for key in ("input_tokens", "output_tokens")}
        lines.append(
            f"| {name} | {mode} | {e['calls'][0]} / {u['calls']} "
            f"| {guess['input_tokens']:,} / {u['input_tokens']:,} "
            f"| {guess['output_tokens']:,} / {u['output_tokens']:,} "
            f"| {error(total(guess), total(u))} "
            f"| {'unknown' if e['seconds'] is None else e['seconds'][0]} / {u['seconds']} |"
        )
    exact = sum(e["calls"][0] == u["calls"] for *_, e, u in rows)
    within = sum(
        abs(e["input_tokens"][0] + e["output_tokens"][0] - total(u)) <= 0.15 * total(u)
        for *_, e, u in rows
    )
    timed = [seconds_within(e, u) for *_, e, u in rows]
    known = [t for t in timed if t is not None]
    lines += [
        "",
        f"Calls exact in {exact} of {len(rows)} runs; tokens within ±15% in {within}; seconds "
        f"within 2x in {sum(known)} of the {len(known)} estimated after a first call of the "
        "model was timed.",
        "",
    ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--local", action="store_true", help="also on the local model")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        cache = Path(scratch) / "cache"
        with fake_openai([scripted] * 10_000) as server:
            server.count = bpe_count()
            model = ["--model", "openai:gpt-4o-mini", "--base-url", server.url]
            report = table("Scripted server (gpt-4o-mini prices)", measure(model, cache, server))
        if args.local:  # a fresh cache of its own, the downloaded models linked in
            from longread.config import cache_dir

            local = Path(scratch) / "local"
            local.mkdir()
            (local / "models").symlink_to(cache_dir() / "models")
            report += table("Local model (SmolLM2-135M)", measure(["--model", "local"], local))
    write_page("estimate", "Cost estimates against the cost", "\n".join(report))


if __name__ == "__main__":
    main()
