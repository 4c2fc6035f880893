"""Which model writes a counting question's query (`rules` for none: the rules read it) and which
states a fact's short answer (`none` for none): a model spec given; else the root model where it
is hosted (or declared to write queries), and beside a local root the local code model measured
best at it (bench/reader.py, docs/quality.md)."""

from __future__ import annotations

import re
from typing import Any

from longread.errors import ModelError
from longread.llm.base import LM
from longread.llm.dry_run import DryRunLM
from longread.llm.jsonio import complete_json, extract_json
from longread.llm.specs import resolve_model
from longread.llm.types import Completion, Request
from longread.llm.usage import Purpose
from longread.query.readers.model.question_kind import Ask
from longread.query.readers.model.sql_reader import SQL_GRAMMAR, SQL_SCHEMA, SQL_STOP, Write
from longread.strategies.common import Run

LOCAL_WRITER = "local:qwen2.5-coder-1.5b"  # beside a local root model (measured: bench/reader.py)
WRITE_TOKENS = 400  # a statement's length at most
ASK_TOKENS = 24  # a short reading's (a kind of question)
RETRY_TEMPERATURE = 0.6  # a try after a wrong one is sampled: at 0 a small model writes it again
ROOT = "root"  # (the run's root model writes the queries)
_RESOLVED: dict[str, LM] = {}


def writer_spec(run: Run) -> str | None:
    """Who writes the run's queries (`root`, or a model spec), None where the rules read
    questions; nothing is loaded or fetched to say so."""
    return _spec(run, run.options.reader, "rules")


def _spec(run: Run, choice: str, off: str) -> str | None:
    if choice == off:
        return None
    if choice not in ("auto", "model"):
        return choice
    root = run.root.model if isinstance(run.root, DryRunLM) else run.root
    if root.writes_queries is not None:
        return ROOT if root.writes_queries else None
    return ROOT if not root.on_cpu else LOCAL_WRITER


def query_writer(run: Run) -> LM | None:
    """The model that writes the run's queries (None where the rules read questions); for a dry
    run, a stand-in that counts its tokens without loading (or fetching) it."""
    return _model(run, writer_spec(run))


def answer_writer(run: Run) -> LM | None:
    """The model that states a fact's short answer from the passages found (None: nobody does),
    chosen as the query writer is; a dry run's stand-in counts its tokens."""
    return _model(run, _spec(run, run.options.answer_model, "none"))


def _model(run: Run, spec: str | None) -> LM | None:
    if spec is None:
        return None
    if isinstance(run.root, DryRunLM):
        model = run.root.model if spec == ROOT else _Unloaded(spec)
        return DryRunLM(model, "", None, run.root.finds)
    return run.root if spec == ROOT else _resolved(spec)


class _Unloaded(LM):
    """A model named by its spec, never loaded: what a dry run's estimate counts with."""

    def __init__(self, spec: str):
        self.name = spec
        self.on_cpu = spec.startswith("local")
        self.writes_code = True

    def complete(self, request: Request) -> Completion:
        raise ModelError(f"{self.name} is not loaded in a dry run")


def _resolved(spec: str) -> LM:
    if spec not in _RESOLVED:
        _RESOLVED[spec] = resolve_model(spec)
    return _RESOLVED[spec]


def asking(run: Run, writer: LM) -> Ask:
    """The call that has `writer` give a short JSON value under a schema (how it reads a
    question) through the run's gateway, its instructions kept evaluated for the next question."""

    def ask(instructions: str, prompt: str, schema: dict[str, Any]) -> Any:
        return complete_json(
            run.gateway,
            writer,
            prompt,
            schema,
            purpose=Purpose.PLAN,
            system=instructions,
            max_tokens=ASK_TOKENS,
            keep_prefix=True,
        )

    return ask


_SHOWN = re.compile(r'CREATE TABLE ("[^"\n]+")')


def _stand_in(shown: str, reply: str) -> str:
    """A dry run's statement: one counting the first table its prompt shows (an estimate needs
    a statement that runs, not what a model would write)."""
    found = _SHOWN.search(shown)
    return f"SELECT count(*) FROM {found.group(1)}" if found else reply


def writing(run: Run, writer: LM) -> Write:
    """The call that has `writer` write a statement through the run's gateway: a local model under
    a grammar that lets it write one statement only (its prompt's first message, the source's
    tables, kept evaluated for the next question); a hosted one under a JSON schema. A try after
    a wrong one is sampled."""

    def write(messages: list[dict[str, str]]) -> str:
        local = writer.on_cpu
        reply = run.gateway.complete(
            writer,
            messages,
            purpose=Purpose.PLAN,
            json_schema=None if local else SQL_SCHEMA,
            grammar=SQL_GRAMMAR if local else None,
            stop=SQL_STOP if local else (),
            max_tokens=WRITE_TOKENS,
            temperature=RETRY_TEMPERATURE if len(messages) > 2 else 0.0,
            keep_prefix=True,
        ).text
        if isinstance(writer, DryRunLM):  # (its call counted: a statement that runs stands in)
            return _stand_in(messages[0]["content"], reply)
        if local:
            return reply
        try:
            return str(extract_json(reply)["sql"])
        except (ValueError, KeyError, TypeError):
            return reply

    return write
