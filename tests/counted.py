"""Asking a question a document's (or a folder's) records answer, as a user would, its statement
written by a scripted stand-in for the code model (see statements)."""

from __future__ import annotations

from pathlib import Path

from longread.answer import Answer
from longread.api import MultiDocRLM, RunOptions, SingleDocRLM
from statements import writing


def answered(path: Path, question: str, tmp_path: Path, sql: str) -> Answer:
    """The answer code counted with `sql` (the statement the model writes for the question) over
    the records of `path`, a file or a folder."""
    model = writing({question: sql})
    kind = MultiDocRLM if path.is_dir() else SingleDocRLM
    options = RunOptions(reader="auto")
    with kind(
        path, model, model, cache=False, store_path=tmp_path / "i.sqlite", options=options
    ) as rlm:
        return rlm.query(question)


def ask(path: Path, question: str, tmp_path: Path, sql: str) -> str:
    """The first line of that answer, which cites the rows it counted."""
    answer = answered(path, question, tmp_path, sql)
    assert answer.mode == "aggregate" and answer.citations, answer.text
    return answer.text.strip().splitlines()[0]
