"""longread: answer questions about documents far larger than any context window.

    >>> import longread as lr
    >>> with lr.open("report.pdf") as doc:
    ...     answer = doc.ask("What are the termination clauses?")
    >>> print(answer.text, answer.citations)

`lr.open` takes a file or a folder; `lr.AskSettings` says how questions are answered (models,
mode, `lr.Budget`, …); `lr.RLM_REPL` answers about a str, dict or list held in memory. The
names are those of `longread.api`, each imported when first asked for."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from longread.api import *  # noqa: F403 - (for type checkers: the names below)

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    api = importlib.import_module("longread.api")  # (not imported above: lower floors import us)
    if name not in api.__all__:
        raise AttributeError(f"module 'longread' has no attribute {name!r}")
    return getattr(api, name)


def __dir__() -> list[str]:
    return sorted([*importlib.import_module("longread.api").__all__, "__version__"])
