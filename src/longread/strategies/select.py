"""The decision gate (which strategy answers) and the dispatch to it."""

from __future__ import annotations

from typing import Any

from longread.answer import Answer
from longread.errors import InputError
from longread.llm.base import LM
from longread.strategies.base import BASE_LIMIT_CHARS, run_base
from longread.strategies.common import Run
from longread.strategies.mapreduce import best_chunks, map_answer
from longread.strategies.refine import run_refine
from longread.strategies.retrieval import run_retrieval
from longread.strategies.rlm import RLMLoop
from longread.strategies.sections import chunk_plan, run_map, search_chunks
from longread.strategies.tree import run_tree
from longread.tools.single_doc import SingleDocTools
from longread.tools.slices import ContextSlice
from longread.tools.texts import TextDoc, TextDocs

MODES = ("auto", "base", "retrieval", "refine", "rlm")
DOCUMENT_MODES = ("auto", "base", "retrieval", "map", "tree", "rlm")
TEXT_MODES = ("auto", "base", "retrieval", "map", "rlm")  # documents held in memory (the web app)


def choose_mode(
    context_chars: int, root: LM, fallback: str = "refine", allow_code: bool = True
) -> tuple[str, str]:
    """`base` when the context fits the root model's window, else `rlm` for a root model that
    writes code (where running its code is allowed) and `fallback` otherwise. Returns (mode, reason)."""
    tokens = context_chars // 3
    if tokens + 1_500 <= root.context_window:
        return "base", f"the context (~{tokens:,} tokens) fits in {root.name}'s window"
    if root.writes_code and allow_code:
        return (
            "rlm",
            f"the context (~{tokens:,} tokens) exceeds {root.name}'s window and it writes code",
        )
    if root.writes_code:
        return fallback, (
            f"the context (~{tokens:,} tokens) exceeds {root.name}'s window, and "
            "model-written code is not run here without operating-system isolation"
        )
    return fallback, (
        f"the context (~{tokens:,} tokens) exceeds {root.name}'s window, which cannot "
        "drive the code-writing loop"
    )


def check_mode(mode: str, modes: tuple[str, ...]) -> str:
    if mode not in modes:
        raise InputError(f"unknown mode '{mode}'; choose one of {', '.join(modes)}")
    return mode


def _mode(
    mode: str, modes: tuple[str, ...], chars: int, run: Run, fallback: str
) -> tuple[str, str]:
    check_mode(mode, modes)
    if mode == "auto":
        return choose_mode(chars, run.root, fallback, run.options.allow_code)
    return mode, f"{mode} was asked for"


def answer_question(
    question: str, context: Any, run: Run, mode: str = "auto", doc_id: str = "context"
) -> Answer:
    mode, reason = _mode(mode, MODES, len(ContextSlice("c", context).text()), run, "refine")
    run.emit("mode", mode=mode, reason=reason)
    if mode == "base":
        answer = run_base(question, context, run)
    elif mode == "retrieval":
        docs = TextDocs(
            [TextDoc(doc_id, doc_id, ContextSlice("c", context).text())], chunk_plan(run)[0]
        )
        answer = run_retrieval(question, docs.chunks, run, docs)
    elif mode == "refine":
        answer = run_refine(question, context, run, doc_id=doc_id)
    else:
        answer = RLMLoop(run, context, doc_id=doc_id).answer(question)
    answer.reason = reason
    return answer


def answer_document(question: str, tools: SingleDocTools, run: Run, mode: str = "auto") -> Answer:
    """Answer about an indexed document: `base` if it fits the root model, `rlm` for a root model
    that writes code, `map` otherwise (or the mode asked for)."""
    mode, reason = _mode(mode, DOCUMENT_MODES, tools.index.total_chars, run, "map")
    run.emit("mode", mode=mode, reason=reason)
    if mode == "base":
        total = tools.index.total_chars
        answer = run_base(
            question, tools.read_range(0, min(total, BASE_LIMIT_CHARS)), run, total_chars=total
        )
        answer.citations = tools.cite(answer.text, question)
    elif mode == "retrieval":
        chunk_chars, _ = chunk_plan(run)
        answer = run_retrieval(
            question, search_chunks(question, tools, chunk_chars, run.options.top_k), run, tools
        )
    elif mode == "map":
        answer = run_map(question, tools, run)
    elif mode == "tree":
        answer = run_tree(question, tools, run)
    else:
        answer = RLMLoop(run, tools=tools).answer(question)
    answer.reason = reason
    return answer


def answer_texts(question: str, docs: TextDocs, run: Run, mode: str = "auto") -> Answer:
    """Answer about documents held in memory, cut into `docs.chunks`: `map` reads up to
    `max_slices` of them (chosen by BM25 when there are more), `retrieval` answers from the
    `top_k` best, `base` from the start of the text; `rlm` explores them as its context."""
    mode, reason = _mode(mode, TEXT_MODES, docs.total_chars, run, "map")
    run.emit("mode", mode=mode, reason=reason)
    if mode == "base":
        answer = run_base(question, docs.text[:BASE_LIMIT_CHARS], run, total_chars=docs.total_chars)
        answer.citations = docs.cite(answer.text, question)
    elif mode == "retrieval":
        answer = run_retrieval(question, docs.chunks, run, docs)
    elif mode == "map":
        _, limit = chunk_plan(run)
        chosen = best_chunks(question, docs.chunks, limit)
        run.emit("phase", name="MAP", chunks=len(chosen))
        answer = map_answer(question, chosen, run, docs, "map", len(docs.chunks))
    else:
        context = (
            docs.docs[0].text if len(docs.docs) == 1 else {d.doc_id: d.text for d in docs.docs}
        )
        answer = RLMLoop(run, context, doc_id=docs.docs[0].doc_id).answer(question)
        answer.citations = [docs.locate(c) for c in answer.citations]
    answer.reason = reason
    return answer
