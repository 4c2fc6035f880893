"""The model reads what a question asks for, where the rules would count: a figure computed over
many rows of the source's tables, or what the text states (one fact: a name, a value, a date, yes
or no; or two stated facts, compared or both checked). `text` sends the question to the passages
instead of the tables. The instructions and examples are the same for every question, so a local
model keeps them evaluated."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from longread.errors import LongreadError

KIND_PROMPT = """You say how a question about documents is answered. "rows": by computing over \
many records of a table (how many, which one the most or the least, a total, an average, a list \
of every one). "text": by what the text states of the things the question names (a name, a \
value, a date, yes or no), even when it names two things to compare or to check both.

Q: How many releases came out in 2019?
{"answer": "rows"}
Q: Which author signed the most entries?
{"answer": "rows"}
Q: List every package with high urgency.
{"answer": "rows"}
Q: Who maintains the zlib package?
{"answer": "text"}
Q: Are Nginx and Lighttpd both written in C?
{"answer": "text"}
Q: Was Hamlet written before Othello?
{"answer": "text"}"""
KIND_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"answer": {"enum": ["rows", "text"]}},
    "required": ["answer"],
}
Ask = Callable[[str, str, dict[str, Any]], Any]  # (instructions, prompt, JSON schema) -> value


def asks_for_text(question: str, ask: Ask) -> bool:
    """Whether the model reads the question as asking for what the text states (False where it
    reads rows, or gives no reading: the question is counted as the rules read it)."""
    try:
        reply = ask(KIND_PROMPT, f"Q: {question}", KIND_SCHEMA)
    except (LongreadError, ValueError):
        return False
    return isinstance(reply, dict) and reply.get("answer") == "text"
