"""The modes by name: what each does and the kinds of source it answers about. Light on purpose
(it loads no strategy), so that help texts and validation cost nothing; `modes.py` holds the
runners and checks that they match this list."""

from __future__ import annotations

from longread.errors import InputError

SUMMARIES: dict[str, str] = {
    "base": "the start of the text in one prompt",
    "retrieval": "the passages BM25 ranks best, in one prompt",
    "map": "the sub-model reads the best passages in parallel; the root joins the findings",
    "tree": "a walk down the summary tree (or the table of contents)",
    "refine": "slice-by-slice hypothesis refinement",
    "rlm": "the root model writes Python in a sandboxed REPL over the source",
    "aggregate": "counts over the whole text by code: speeches, mentions, sections, or what "
    "the sub-model lists from every chunk",
}
KINDS: dict[str, tuple[str, ...]] = {
    "base": ("context", "texts", "document"),
    "retrieval": ("context", "texts", "document", "corpus"),
    "map": ("texts", "document", "corpus"),
    "tree": ("document",),
    "refine": ("context",),
    "rlm": ("context", "texts", "document", "corpus"),
    "aggregate": ("context", "texts", "document", "corpus"),
}
_NOUNS = {
    "context": "a context",
    "texts": "documents in memory",
    "document": "a document",
    "corpus": "a corpus",
}


def modes_for(kind: str) -> tuple[str, ...]:
    """`auto` and every mode that answers about this kind of source, in the registry's order."""
    return ("auto", *(name for name, kinds in KINDS.items() if kind in kinds))


def check_mode(mode: str, kind: str) -> str:
    allowed = modes_for(kind)
    if mode not in allowed:
        raise InputError(
            f"unknown mode '{mode}' for {_NOUNS[kind]}; choose one of {', '.join(allowed)}"
        )
    return mode
