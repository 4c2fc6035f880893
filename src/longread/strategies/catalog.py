"""The modes by name, as their files under `strategies/declared/` declare them: what each does
and the kinds of source it answers about. Light on purpose (it loads no strategy), so that help
texts and validation cost nothing."""

from __future__ import annotations

from longread.errors import InputError
from longread.strategies.declared import declared
from longread.strategies.mode import Mode

RECALL = "recall"  # (no mode: a follow-up answered from the passages earlier answers cited)
_NOUNS = {
    "context": "a context",
    "texts": "documents in memory",
    "document": "a document",
    "corpus": "a corpus",
}


def modes_for(kind: str) -> tuple[str, ...]:
    """`auto` and every mode that answers about this kind of source, in the modes' order."""
    return ("auto", *(m.name for m in declared().values() if kind in m.runners))


def mode_named(name: str) -> Mode:
    return declared()[name]


def check_mode(mode: str, kind: str) -> str:
    allowed = modes_for(kind)
    if mode not in allowed:
        raise InputError(
            f"unknown mode '{mode}' for {_NOUNS[kind]}; choose one of {', '.join(allowed)}"
        )
    return mode


def cites_by_number(mode: str) -> bool:
    """Whether an answer of this mode (or a recalled follow-up, which cites its passages so)
    marks its citations `[n]` by their numbers."""
    found = declared().get(mode)
    return mode == RECALL or (found is not None and found.cites_by_number)
