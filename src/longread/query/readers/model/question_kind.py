"""The model reads what a question asks for, where the rules would count: a figure computed over
many rows of the source's tables, or one fact stated in the text (a name, a value, a date, yes or
no, two stated facts compared). `text` sends the question to the passages instead of the tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from longread.errors import LongreadError

KIND_PROMPT = """Question: {question}

How is this question answered? "rows": by computing over many records of a table (how many, \
which one the most or the least, a total, an average, a list of every one). "text": by one fact \
stated in the text (a name, a value, a date, yes or no), or by comparing two facts each stated \
once."""
KIND_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"answer": {"enum": ["rows", "text"]}},
    "required": ["answer"],
}
Ask = Callable[[str, dict[str, Any]], Any]  # (prompt, JSON schema) -> the value the model gives


def asks_for_text(question: str, ask: Ask) -> bool:
    """Whether the model reads the question as asking for a fact stated in the text (False where
    it reads rows, or gives no reading: the question is counted as the rules read it)."""
    try:
        reply = ask(KIND_PROMPT.format(question=question), KIND_SCHEMA)
    except (LongreadError, ValueError):
        return False
    return isinstance(reply, dict) and reply.get("answer") == "text"
