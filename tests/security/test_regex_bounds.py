"""Documents built to make a regular expression backtrack: each is indexed and its records found
(`longread records FILE`, as a user runs it) in seconds, not minutes. Each pattern that read one
of them in quadratic time or worse (200 KB of `[`: 263 s) now reads each character a bounded
number of times."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from cli import longread

SIZE = 200_000
KEYED = "".join(f"Name: p{i} | Age: {i} | City: Oslo\n" for i in range(40))
HOSTILE = {
    "brackets": "[" * SIZE,  # (a Markdown link's text, never closed)
    "link openings": "[x](" * (SIZE // 4),
    "tabs": "\t" * SIZE,  # (fields parted by tabs, no key after them)
    "spaces": " " * SIZE,
    "stars": "*" * SIZE,
    "hashes": "#" * SIZE,
    "a keyed line of tabs": KEYED + "Name: " + "\t" * SIZE + "\n" + KEYED,
    "a table cell of spaces": "name,amount\n"
    + "".join(f"n{i},{i}\n" for i in range(20))
    + "x,"
    + " " * 20_000
    + "x\n",
    "a heading's leaders": "Chapter 1 " + "." * SIZE + "\n",
    "a ruled table's line of tabs": "| a | b |\n|---|---|\n| 1 | 2 |\n|" + "\t" * SIZE + "\n",
}
SECONDS = 60  # (each takes 1-3 s; before, minutes to hours)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_document_is_read_in_seconds(tmp_path, name):
    path = tmp_path / "hostile.txt"
    path.write_text("x\n" + HOSTILE[name] + "\nx\n", encoding="utf-8")
    try:
        result = longread("records", str(path), cache=tmp_path / "cache", timeout=SECONDS)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name}: not read within {SECONDS} s")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "documents" in result.stdout  # (its own one-row table, at least)


def test_keyed_lines_are_still_read(tmp_path):
    """The linear reading of `Key: value` lines finds what the pattern found."""
    path: Path = tmp_path / "people.txt"
    path.write_text(KEYED, encoding="utf-8")
    result = longread("records", str(path), "--csv", "people", cache=tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    rows = result.stdout.splitlines()
    assert len(rows) == 41 and rows[1].endswith("p0,0,Oslo"), rows[:3]
