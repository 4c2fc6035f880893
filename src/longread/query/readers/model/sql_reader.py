"""The model reads the question: a code model writes one read-only SELECT against the source's
record tables (shown as `schema_text` writes them, the question with where its codes are held),
under a JSON schema that lets it write nothing else; code checks it (one reading statement,
values as the columns hold them, no condition on values copied from the tables shown that the
question does not name) and runs it with the one guarded executor. An error, a value no row
holds, or no row at all goes back to the model with what was wrong, up to REPAIRS times: the RLM
loop in small."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from longread.errors import InputError
from longread.query.core.catalog import Catalog
from longread.query.core.schema_prompt import schema_text
from longread.query.core.sql_checks import Finding, findings
from longread.query.core.sql_guard import checked_select
from longread.query.core.sql_unasked import without_unasked
from longread.query.core.sql_values import Checked, checked_values
from longread.query.core.value_hints import value_hints
from longread.query.readers.model.words import FUNCTION_WORDS, unused_words
from longread.query.readers.rules.reply_form import without_format
from longread.store.record_query import QueryError, Result

REPAIRS = 2  # tries after the first
MAX_RESULT_ROWS = 200  # rows of a result kept for the answer
Message = dict[str, str]
Write = Callable[[list[Message]], str]  # (messages) -> the statement the model writes

INSTRUCTIONS = """You write one SQLite SELECT statement that answers the user's question from \
the tables below. Use only these tables and columns. Compare a column with a value as the \
column holds it (listed below), or use LIKE '%word%' for a word inside longer text. Dates are \
text such as '2021-03-04 12:00:00': compare them as text or use strftime('%Y', date). \
mentions(column, 'word') counts a word's whole-word mentions in a text. Filter only on what the \
question asks to keep: the document's name or kind is no filter. Select what the question asks \
for, the answer in the first column. Reply with the query alone.

"""
# A local model's statement: llama.cpp's GBNF opens it, a stop at `;` ends it. The grammar never
# reaches a state only the end token may follow: llama.cpp aborts the process where the sampler
# then picks a token the grammar refuses (a forced end, an end token cut by top-k).
SQL_GRAMMAR = 'root ::= ("SELECT" | "WITH") [^`]*'
SQL_STOP = (";",)
SQL_SCHEMA: dict[str, Any] = {  # (a hosted model's structured output)
    "type": "object",
    "properties": {"sql": {"type": "string", "maxLength": 1500}},
    "required": ["sql"],
}


class NoQuery(InputError):
    """The model wrote no statement that runs, in every try."""


@dataclass
class Written:
    """A statement the model wrote and code ran: its result, what checking it found (what still
    holds after the last try), the question's words it does not use, and every try before it
    (statement, what was wrong)."""

    sql: str
    result: Result
    checked: Checked
    found: list[Finding] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)  # conditions on values nobody asked for
    tries: list[tuple[str, str]] = field(default_factory=list)

    @property
    def warnings(self) -> list[str]:
        return [f.said for f in self.found if f.blocks]


def system_prompt(catalog: Catalog) -> str:
    """The prompt's first message: the instructions and the source's tables (the same for every
    question on the source, so its evaluation can be kept)."""
    return INSTRUCTIONS + schema_text(catalog)


def asked_with_values(question: str, catalog: Catalog) -> str:
    """The question as the model reads it: with where the codes it names are held, if any."""
    hints = value_hints(question, catalog)
    if not hints:
        return question
    return question + "\n\n-- Codes of the question held in the tables: " + "; ".join(hints)


def write_query(question: str, catalog: Catalog, write: Write) -> Written:
    """The statement the model writes for the question, run and checked; NoQuery when no try
    runs. A try found wrong goes back to the model with what is wrong; a statement it writes
    again unchanged after a doubt (not an error) is taken."""
    messages = [
        {"role": "system", "content": system_prompt(catalog)},
        {"role": "user", "content": asked_with_values(question, catalog)},
    ]
    asked = without_format(question)
    tries: list[tuple[str, str]] = []
    last: Written | None = None
    for attempt in range(1 + REPAIRS):
        reply = write(messages)
        sql, failed, written = _tried(reply, question, messages[0]["content"], catalog)
        if written is not None:
            written.unused = unused_words(asked, written.sql, FUNCTION_WORDS)
            written.found = findings(
                asked, written.checked, written.result, written.unused, catalog
            )
            if not written.result.rows:
                written.found.append(Finding("the query returns no row", False))
            written.tries = list(tries)
            same = last is not None and last.sql == written.sql
            if not written.found or same and not written.warnings or attempt == REPAIRS:
                return written
            last = written
            failed = "; ".join(f.said for f in written.found)
        tries.append((sql, failed))
        messages += [
            {"role": "assistant", "content": reply},
            {"role": "user", "content": f"{failed[0].upper()}{failed[1:]}. Write the query again."},
        ]
    if last is not None:
        return last
    raise NoQuery(f"no query that runs was written ({tries[-1][1]})")


def _tried(
    reply: str, question: str, shown: str, catalog: Catalog
) -> tuple[str, str, Written | None]:
    """(the statement, what failed, the run) of one reply, less its conditions on values copied
    from what the model was `shown` that the question does not name."""
    sql = reply.strip().removeprefix("```sql").strip("`\n ")
    try:
        kept, left_out = without_unasked(checked_select(sql), question, shown)
        checked = checked_values(kept, catalog)
        result = catalog.computed(
            ("sql", checked.sql),
            lambda: catalog.query.execute(checked.sql, max_rows=MAX_RESULT_ROWS),
        )
    except QueryError as error:
        return sql, f"the query failed: {error}{columns_said(sql, catalog)}", None
    except Exception as error:  # (sqlglot's own errors on what it cannot read)
        return sql, f"the query cannot be read: {type(error).__name__}: {error}", None
    return sql, "", Written(checked.sql, result, checked, left_out=left_out)


def columns_said(sql: str, catalog: Catalog) -> str:
    """The columns of the tables a failed statement reads (all tables' names where it reads none
    there is), for the model's next try."""
    import sqlglot
    from sqlglot import exp

    try:
        named = {t.name for t in sqlglot.parse_one(sql, read="sqlite").find_all(exp.Table)}
    except Exception:  # (a statement sqlglot cannot read: the tables are named)
        named = set()
    tables = [catalog.tables[n] for n in sorted(named) if n in catalog.tables]
    if not tables:
        return f" (the tables: {', '.join(catalog.tables)})"
    said = "; ".join(f"{t.name}: {', '.join(c.name for c in t.columns)}" for t in tables)
    return f" (the columns of {said})"
