"""Writing a generated task's file, and putting a sentence into a real text."""

from __future__ import annotations

from pathlib import Path


def write(path: Path, text: str) -> str:
    """`text` written to `path` (its folders made); the path as a string."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


def insert(text: str, sentence: str, depth: float) -> str:
    """`sentence` as a paragraph of its own at about `depth` (0–1) of the text."""
    at = text.find("\n\n", int(len(text) * depth))
    at = len(text) if at < 0 else at
    return f"{text[:at]}\n\n{sentence}{text[at:]}"
