"""A scripted stand-in for the code model that writes counting questions' queries: the statement
for each question is the test's own, so what is tested is what code does with it (the records
found, the statement checked and run, the answer and its citations), not a model's reading."""

from __future__ import annotations

import json
from collections.abc import Callable

from longread.llm.scripted import ScriptedLM
from longread.llm.types import Request
from longread.query.readers.model.question_kind import KIND_SCHEMA
from longread.query.readers.model.sql_reader import SQL_SCHEMA


def writing(
    statements: dict[str, str], other: Callable[[Request], str] | None = None
) -> ScriptedLM:
    """A model that reads every question it is asked the kind of as asking for rows and writes,
    for a question of `statements`, its statement; any other request goes to `other` (none: the
    test fails, as the count must call no other model)."""

    def respond(request: Request) -> str:
        if request.json_schema == KIND_SCHEMA:
            return json.dumps({"answer": "rows"})
        if request.json_schema == SQL_SCHEMA:
            question = request.messages[-1]["content"].split("\n\n")[0]  # (less value hints)
            assert question in statements, f"no statement written for {question!r}"
            return json.dumps({"sql": statements[question]})
        assert other is not None, f"a model was asked: {request.messages[-1]['content'][:200]}"
        return other(request)

    return ScriptedLM(respond, writes_queries=True, writes_code=False)
