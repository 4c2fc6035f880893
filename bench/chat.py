"""What a follow-up costs in a conversation against the same question asked cold, end to end:
for each pair of related questions, `longread chat FILE --json` answers both (the second is
measured), and `longread ask FILE SECOND --json` answers the second alone; both as subprocesses,
each with a fresh cache folder (no answer is reused from the cache). By default on the embedded
local model; `--scripted` runs the same against a scripted OpenAI-compatible server on 127.0.0.1
(readers quote the sentence sharing most words with the question; the root answers from the
numbered passage sentence that does, and says when no passage bears on a follow-up). The table
goes to its set-up's section of docs/bench-chat.md.

    python bench/chat.py [--scripted] [--model SPEC] [--mode MODE] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from contextlib import nullcontext
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from pages import write_page  # noqa: E402 - (this folder is on the path when run as a script)

from fake_openai import fake_openai  # noqa: E402 - (the tests folder is on the path)
from longread.text.rank import terms  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LONGREAD = str(Path(sys.executable).with_name("longread"))
PAIRS = [  # (document, first question, related follow-up, a word the follow-up's answer needs)
    (
        ROOT / "examples" / "macbeth.md",
        "What do the witches promise Banquo?",
        "Will Banquo himself be king?",
        "kings",
    ),
    (
        ROOT / "examples" / "esther-kjv.txt",
        "What did Vashti refuse to do?",
        "Who commanded her to come?",
        "king",
    ),
    (
        ROOT / "examples" / "esther-kjv.txt",
        "Why did Haman hate Mordecai?",
        "Did Mordecai bow to Haman?",
        "bowed not",
    ),
    (
        ROOT / "examples" / "gnu-coding-standards.txt",
        "How should error messages be formatted?",
        "Should an error message begin with a capital letter?",
        "capital",
    ),
]


def scripted(messages: list[dict]) -> str:
    """A capable model: JSON for the passage readers (the snippet's sentence sharing the most
    words with the question), else an answer resting on the numbered passage sentence that shares
    the most words with the question; a follow-up no passage bears on is NOT IN THE PASSAGES."""
    prompt = messages[-1]["content"]
    asked = re.search(r"^(?:New question|Question): (.+)$", prompt, re.MULTILINE)
    words = set(terms(asked.group(1))) if asked else set()
    if "Reply with JSON only" in prompt:
        snippet = prompt.split('"""')[1] if '"""' in prompt else prompt
        sentence, shared = best_sentence(snippet, words)
        found = sentence if shared else ""
        return json.dumps({"relevant": bool(found), "summary": found, "quote": found})
    numbered = re.findall(r"^\[(\d+)\] (?:\([^)]*\)\n)?(.+)$", prompt, re.MULTILINE)
    scored = [(*best_sentence(text, words), n) for n, text in numbered]
    sentence, shared, n = max(scored, key=lambda s: s[1], default=("", 0, "1"))
    if "New question:" in prompt and shared < max(1, len(words) // 2):
        return "NOT IN THE PASSAGES"
    return f"{sentence.strip(' .')} [{n}]." if sentence else "Not found."


def best_sentence(text: str, words: set[str]) -> tuple[str, int]:
    """The sentence of `text` sharing the most of `words`, and how many it shares."""
    sentences = [s.strip() for s in re.split(r"(?<=[.!?;:])\s+", text) if 20 < len(s.strip()) < 500]
    scored = [(s, len(words & set(terms(s)))) for s in sentences]
    return max(scored, key=lambda s: s[1], default=("", 0))


def run(args: list[str], cache: Path, stdin: str | None = None) -> tuple[list[dict], float]:
    """`longread ARGS --json -q` as a subprocess: its answers (one JSON object each) and the
    wall time."""
    env = {**os.environ, "OPENAI_API_KEY": "sk-bench", "LONGREAD_CACHE_DIR": str(cache)}
    started = time.perf_counter()
    done = subprocess.run(
        [LONGREAD, *args, "--json", "-q"],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=1_800,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"longread {args[0]} failed: {done.stderr[-800:]}")
    decoder, text, answers = json.JSONDecoder(), done.stdout.strip(), []
    while text:
        answer, end = decoder.raw_decode(text)
        answers.append(answer)
        text = text[end:].strip()
    return answers, seconds


def has(answer: dict, needed: str) -> bool:
    """Whether the answer holds the word its follow-up needs."""
    return needed.lower() in answer["text"].lower()


def row(label: str, answer: dict, needed: str) -> str:
    usage = answer["usage"]
    return (
        f"| {label} | {answer['mode']} | {usage['calls']} | "
        f"{usage['input_tokens'] + usage['output_tokens']:,} | {usage['seconds']:.1f} | "
        f"{'yes' if has(answer, needed) else 'no'} |"
    )


def report(measured: list[tuple[str, dict, dict, str]]) -> str:
    """The table (each follow-up in chat, then cold) and the calls and key words of each way."""
    lines = [
        "| follow-up | answered by | calls | tokens | seconds | answer has the key word |",
        "|---|---|---|---|---|---|",
    ]
    for name, in_chat, cold, needed in measured:
        lines += [row(f"{name} (in chat)", in_chat, needed), row(f"{name} (cold)", cold, needed)]
    ways, words = [], [m[3] for m in measured]
    for way, answers in (("in chat", [m[1] for m in measured]), ("cold", [m[2] for m in measured])):
        calls = sum(a["usage"]["calls"] for a in answers)
        found = sum(map(has, answers, words))
        ways.append(f"{way} {calls} calls, the key word in {found} of {len(measured)}")
    return "\n".join(lines) + f"\n\nOver the {len(measured)} follow-ups: " + "; ".join(ways) + ".\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scripted", action="store_true", help="a scripted server, not local")
    parser.add_argument("--model", default=None, help="model spec (default: the local default)")
    parser.add_argument("--mode", default=None, help="(default: auto; map with --scripted)")
    parser.add_argument("--limit", type=int, default=len(PAIRS), help="the first N pairs only")
    options = parser.parse_args()
    mode = options.mode or ("map" if options.scripted else "auto")
    measured = []
    with fake_openai() if options.scripted else nullcontext() as server:
        model = ["--model", options.model] if options.model else []
        if server is not None:
            server.last = scripted
            model = ["--model", "openai:scripted", "--base-url", server.url]
        for path, first, follow_up, needed in PAIRS[: options.limit]:
            with tempfile.TemporaryDirectory() as chat_cache, tempfile.TemporaryDirectory() as cold:
                answers, _ = run(
                    ["chat", str(path), *model, "--mode", mode],
                    Path(chat_cache),
                    f"{first}\n{follow_up}\n",
                )
                [alone], _ = run(["ask", str(path), follow_up, *model, "--mode", mode], Path(cold))
            measured.append((f"{path.name}: {follow_up}", answers[1], alone, needed))
    setup = "scripted server" if options.scripted else options.model or "the local default"
    write_page(
        "chat",
        "A follow-up in a conversation against the same question asked cold",
        report(measured),
        section=f"{setup}, --mode {mode}",
    )


if __name__ == "__main__":
    main()
