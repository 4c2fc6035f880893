"""What runs after a run is bounded by what a reader reads, not by the answer's size: a model whose
answer is 500,000 lines has its first characters' claims checked (the rest said unchecked), its
first lines printed and its first unsupported claims named, and the whole answer kept in --json.
The real CLI against a scripted OpenAI-compatible server."""

from __future__ import annotations

import json
from pathlib import Path

from cli import longread
from fake_openai import fake_openai
from longread.cli.display import MAX_ANSWER_LINES, MAX_WARNINGS
from longread.text.claims import CHECKED_CHARS

LINES = 500_000
FINAL = f'```repl\nFINAL("\\n".join(f"row {{i}} of the table" for i in range({LINES})))\n```'
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def test_a_500000_line_answer_is_checked_shown_and_kept_within_bounds(tmp_path):
    args = ["ask", str(EXAMPLES / "macbeth.md"), "Who kills Duncan?", "--mode", "rlm"]
    with fake_openai([FINAL, FINAL]) as server:
        common = ["--model", "openai:scripted", "--base-url", server.url, "--no-cache", "-q"]
        shown = longread(*args, *common, cache=tmp_path / "cache", COLUMNS="100")
        kept = longread(*args, *common, "--json", cache=tmp_path / "cache")
    assert shown.returncode == 0, shown.stderr[-2000:]
    printed = shown.stdout.splitlines()
    assert len(printed) <= MAX_ANSWER_LINES + MAX_WARNINGS + 10, len(printed)
    assert "more lines of the answer (--json has all)" in shown.stdout
    assert f"in the first {CHECKED_CHARS:,} of" in printed[-1]
    assert sum(1 for line in printed if "unsupported:" in line) == MAX_WARNINGS
    answer = json.loads(kept.stdout)
    assert len(answer["text"].splitlines()) > 40_000  # (kept as the REPL gave it, not cut)
    assert max(c["end"] for c in answer["claims"]) <= CHECKED_CHARS
