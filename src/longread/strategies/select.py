"""The decision gate (which strategy answers) and the dispatch to it."""

from __future__ import annotations

from typing import Any

from longread.answer import Answer
from longread.errors import InputError
from longread.llm.base import LM
from longread.strategies.base import run_base
from longread.strategies.common import Run
from longread.strategies.refine import run_refine
from longread.strategies.rlm import RLMLoop
from longread.tools.slices import ContextSlice

MODES = ("auto", "base", "refine", "rlm")


def choose_mode(context_chars: int, root: LM) -> tuple[str, str]:
    """`base` when the context fits the root model's window, else `rlm` for a root model that
    writes code and `refine` for one that cannot. Returns (mode, reason)."""
    tokens = context_chars // 3
    if tokens + 1_500 <= root.context_window:
        return "base", f"the context (~{tokens:,} tokens) fits in {root.name}'s window"
    if root.writes_code:
        return "rlm", f"the context (~{tokens:,} tokens) exceeds {root.name}'s window and it writes code"
    return "refine", (f"the context (~{tokens:,} tokens) exceeds {root.name}'s window, which cannot "
                      "drive the code-writing loop")


def answer_question(question: str, context: Any, run: Run, mode: str = "auto",
                    doc_id: str = "context") -> Answer:
    if mode not in MODES:
        raise InputError(f"unknown mode '{mode}'; choose one of {', '.join(MODES)}")
    reason = f"{mode} was asked for"
    if mode == "auto":
        mode, reason = choose_mode(len(ContextSlice("c", context).text()), run.root)
    run.emit("mode", mode=mode, reason=reason)
    if mode == "base":
        answer = run_base(question, context, run)
    elif mode == "refine":
        answer = run_refine(question, context, run, doc_id=doc_id)
    else:
        answer = RLMLoop(run, context, doc_id=doc_id).answer(question)
    answer.reason = reason
    return answer
