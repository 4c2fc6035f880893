"""One fact put into 5 M characters of real text at 10%, 50% and 90% of its length, asked on the
embedded local model: found, led with and cited at every depth (a text over the size weighed
whole is searched by its sections first)."""

from __future__ import annotations

from pathlib import Path

import pytest

from longread.api import SingleDocRLM
from longread.strategies.floor import WHOLE_CHARS
from test_cli import EXAMPLES

pytestmark = pytest.mark.local_model

SIZE = 5_000_000
NEEDLE = "The access code for the north archive room is 4829301."
QUESTION = "What is the access code for the north archive room?"


@pytest.fixture(scope="module")
def haystack() -> str:
    """5 M characters of the examples' real text (a manual, a play, a book of the Bible), the
    three taken in turn until long enough."""
    texts = [
        (EXAMPLES / name).read_text(encoding="utf-8")
        for name in ("gnu-coding-standards.txt", "macbeth.md", "esther-kjv.txt")
    ]
    parts, size = [], 0
    while size < SIZE:
        text = texts[len(parts) % len(texts)]
        parts.append(text)
        size += len(text) + 2
    return "\n\n".join(parts)[:SIZE]


@pytest.mark.parametrize("depth", [0.1, 0.5, 0.9])
def test_a_needle_in_5m_characters_is_found_at_every_depth(haystack, tmp_path, depth):
    assert len(haystack) > WHOLE_CHARS  # (the long path: sections searched first)
    cut = haystack.index("\n\n", int(len(haystack) * depth))
    path = Path(tmp_path / "haystack.txt")
    text = f"{haystack[:cut]}\n\n{NEEDLE}\n{haystack[cut:]}"
    path.write_text(text, encoding="utf-8")
    with SingleDocRLM(path, store_path=tmp_path / "index.sqlite", cache=False) as doc:
        answer = doc.ask(QUESTION)
    lead = answer.text.split("\n\n")[0]
    assert "4829301" in lead, answer.text
    assert any("4829301" in c.text and text[c.start : c.end] == c.text for c in answer.citations)
