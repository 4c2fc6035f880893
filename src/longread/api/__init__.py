"""The public Python API: `SingleDocRLM` (a file), `MultiDocRLM` (a folder of documents) and
`RLM_REPL` (a context held in memory), the names users know, each taking one `AskSettings`; and
`open` (a file or a folder, whichever the path is). Each is imported when first asked for, so a
command about a file loads no corpus code."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from longread.answer import Answer
    from longread.api.context import RLM_REPL
    from longread.api.corpus import MultiDocRLM
    from longread.api.document import SingleDocRLM
    from longread.api.opening import open
    from longread.api.settings import AskSettings
    from longread.index.tree import TreeOptions
    from longread.llm.usage import Budget
    from longread.strategies.common import RunOptions

_HOMES = {
    "Answer": "longread.answer",
    "AskSettings": "longread.api.settings",
    "open": "longread.api.opening",
    "RLM_REPL": "longread.api.context",
    "MultiDocRLM": "longread.api.corpus",
    "SingleDocRLM": "longread.api.document",
    "TreeOptions": "longread.index.tree",
    "Budget": "longread.llm.usage",
    "RunOptions": "longread.strategies.common",
}
__all__ = [
    "RLM_REPL",
    "Answer",
    "AskSettings",
    "Budget",
    "MultiDocRLM",
    "RunOptions",
    "SingleDocRLM",
    "TreeOptions",
    "open",
]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'longread.api' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
