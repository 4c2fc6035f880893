"""`longread.open(path)`: a file or a folder of documents, ready for questions."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from longread.api.settings import AskSettings
from longread.errors import InputError
from longread.llm.base import LM

if TYPE_CHECKING:
    from longread.api.asker import SourceAsker


def open(  # noqa: A001 - `longread.open`, as files are opened
    path: str | Path,
    root_model: str | LM | None = None,
    sub_model: str | LM | None = None,
    *,
    settings: AskSettings | None = None,
    **changes: Any,
) -> SourceAsker:
    """A `SingleDocRLM` for a file or a `MultiDocRLM` for a folder (`changes`: any `AskSettings`
    field, over `settings`); ask it questions with `.ask("…")`, close it (or use `with`) when
    done.

    >>> import longread as lr
    >>> with lr.open("contract.pdf") as doc:
    ...     print(doc.ask("What is the notice period?").text)
    """
    source = Path(path)
    if not source.exists():
        raise InputError(f"{path}: no such file or folder")
    if source.is_dir():
        from longread.api.corpus import MultiDocRLM

        return MultiDocRLM(source, root_model, sub_model, settings=settings, **changes)
    from longread.api.document import SingleDocRLM

    return SingleDocRLM(source, root_model, sub_model, settings=settings, **changes)
