"""Asking a question a document's records answer, as a user would, with no model to call."""

from __future__ import annotations

from pathlib import Path

from longread.api import SingleDocRLM
from longread.llm.scripted import ScriptedLM


def ask(path: Path, question: str, tmp_path: Path) -> str:
    """The first line of the answer, which code counted (no model call) citing its rows."""
    model = ScriptedLM([], writes_code=False)  # (asked nothing: counted by code)
    with SingleDocRLM(path, model, model, cache=False, store_path=tmp_path / "i.sqlite") as doc:
        answer = doc.ask(question)
    assert answer.mode == "aggregate" and answer.usage["calls"] == 0 and answer.citations
    return answer.text.strip().splitlines()[0]
