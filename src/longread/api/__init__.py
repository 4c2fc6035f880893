"""The public Python API: `SingleDocRLM` (a file), `MultiDocRLM` (a folder of documents) and
`RLM_REPL` (a context held in memory), the names users know, with the settings they take. Each
is imported when first asked for, so a command about a file loads no corpus code."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from longread.api.context import RLM_REPL
    from longread.api.corpus import MultiDocRLM
    from longread.api.document import SingleDocRLM
    from longread.index.tree import TreeOptions
    from longread.llm.usage import Budget
    from longread.strategies.common import RunOptions

_HOMES = {
    "RLM_REPL": "longread.api.context",
    "MultiDocRLM": "longread.api.corpus",
    "SingleDocRLM": "longread.api.document",
    "TreeOptions": "longread.index.tree",
    "Budget": "longread.llm.usage",
    "RunOptions": "longread.strategies.common",
}
__all__ = ["RLM_REPL", "Budget", "MultiDocRLM", "RunOptions", "SingleDocRLM", "TreeOptions"]


def __getattr__(name: str) -> Any:
    if name not in _HOMES:
        raise AttributeError(f"module 'longread.api' has no attribute {name!r}")
    value = getattr(importlib.import_module(_HOMES[name]), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
