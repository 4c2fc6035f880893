"""What a follow-up costs in a conversation against the same question asked cold, end to end:
for each pair of related questions, `longread chat FILE --json` answers both (the second is
measured), and `longread ask FILE SECOND --json` answers the second alone; both as subprocesses,
each with a fresh cache folder (no answer is reused from the cache). By default on the embedded
local model; `--scripted` runs the same against a scripted OpenAI-compatible server on 127.0.0.1
(passage readers quote a sentence with a question word, the root answers from passage [1]).

    python bench/chat.py [--scripted] [--model SPEC] [--mode MODE]
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

from fake_openai import fake_openai  # noqa: E402 - (the tests folder is on the path)

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
        ROOT / "examples" / "macbeth.md",
        "Who does Macbeth kill to become king?",
        "Who discovers the murder of Duncan?",
        "Macduff",
    ),
    (
        ROOT / "examples" / "esther-kjv.txt",
        "Why did Haman hate Mordecai?",
        "What did Haman plan against the Jews because of Mordecai?",
        "destroy",
    ),
    (
        ROOT / "examples" / "gnu-coding-standards.txt",
        "How should error messages be formatted?",
        "Should an error message begin with a capital letter?",
        "capital",
    ),
]


def scripted(messages: list[dict]) -> str:
    """A capable model: JSON for the passage readers (a sentence of the passage holding a word
    of the question), else an answer resting on the first passage, as it reads."""
    prompt = messages[-1]["content"]
    if "Reply with JSON only" in prompt:
        snippet = prompt.split('"""')[1] if '"""' in prompt else prompt
        sentence = next((s.strip() for s in snippet.split(".") if 30 < len(s.strip()) < 500), "")
        return json.dumps({"relevant": bool(sentence), "summary": sentence, "quote": sentence})
    passage = re.search(r"^\[1\] (?:\([^)]*\)\n)?(.+)$", prompt, re.MULTILINE)
    sentence = passage.group(1).split(". ")[0].strip(" .") if passage else "No passage"
    return f"{sentence} [1]."


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


def row(label: str, answer: dict, needed: str) -> str:
    usage = answer["usage"]
    found = "yes" if needed.lower() in answer["text"].lower() else "no"
    return (
        f"| {label} | {answer['mode']} | {usage['calls']} | "
        f"{usage['input_tokens'] + usage['output_tokens']:,} | {usage['seconds']:.1f} | {found} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scripted", action="store_true", help="a scripted server, not local")
    parser.add_argument("--model", default=None, help="model spec (default: the local default)")
    parser.add_argument("--mode", default=None, help="(default: auto; map with --scripted)")
    options = parser.parse_args()
    mode = ["--mode", options.mode or ("map" if options.scripted else "auto")]
    print("| follow-up | answered by | calls | tokens | model s | answer has the key word |")
    print("|---|---|---|---|---|---|")
    with fake_openai() if options.scripted else nullcontext() as server:
        model = ["--model", options.model] if options.model else []
        if server is not None:
            server.last = scripted
            model = ["--model", "openai:scripted", "--base-url", server.url]
        for path, first, follow_up, needed in PAIRS:
            with tempfile.TemporaryDirectory() as chat_cache, tempfile.TemporaryDirectory() as cold:
                answers, _ = run(
                    ["chat", str(path), *model, *mode], Path(chat_cache), f"{first}\n{follow_up}\n"
                )
                [alone], _ = run(["ask", str(path), follow_up, *model, *mode], Path(cold))
            name = f"{path.name}: {follow_up}"
            print(row(f"{name} (in chat)", answers[1], needed))
            print(row(f"{name} (cold)", alone, needed))


if __name__ == "__main__":
    main()
