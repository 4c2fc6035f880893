"""The `base` strategy: the whole document (truncated if need be) in one prompt to the root
model."""

from __future__ import annotations

from typing import Any

from longread.answer import Answer
from longread.events import EventKind
from longread.llm.usage import Purpose
from longread.strategies.common import Run
from longread.text.slices import ContextSlice
from longread.tools.bounds import fit_chars

SYSTEM = (
    "Answer the question using only the document. "
    "If the document does not say, answer that it does not."
)


def base_chars(run: Run) -> int:
    """How much of a document `base` shows: what fits in the root model's window."""
    return fit_chars(run.root, 700)


def run_base(question: str, context: Any, run: Run, total_chars: int | None = None) -> Answer:
    """`total_chars`: the document's full length, when `context` is only its beginning."""
    text = ContextSlice("context", context).text()
    limit = base_chars(run)
    shown = text[:limit]
    total = max(total_chars or 0, len(text))
    note = (
        f"\n[... truncated: {total - limit:,} more characters not shown ...]"
        if total > limit
        else ""
    )
    prompt = f'Document:\n"""\n{shown}{note}\n"""\n\nQuestion: {question}'
    run.emit(EventKind.PHASE, name="RESPOND")
    reply = run.gateway.complete(
        run.root, prompt, system=SYSTEM, purpose=Purpose.BASE, max_tokens=512
    )
    answer_text = reply.text.strip()
    if note:
        answer_text += f"\n\n(Only the first {limit:,} of {total:,} characters were read.)"
    run.emit(EventKind.FINAL, answer=answer_text)
    return Answer(
        text=answer_text,
        mode="base",
        usage=run.gateway.usage.to_dict(),
        stats={"chars_read": len(shown), "chars_total": total},
    )
