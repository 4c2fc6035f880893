"""`sql()` in every REPL takes a statement from model code and runs it on the host: it may only
read the source's record tables. Each attack is model code in the sandbox: a write, an attach, an
extension loaded, a pragma, a recursion without end, a cross join without end, a string grown
without bound, a read of the index's other tables; each is refused or stopped, and the store is
unchanged afterwards."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import pytest

from longread.index.single import SingleDocIndex
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.query.core.sql_guard import checked_select
from longread.repl.sandbox import Sandbox
from longread.store.docstore import DocStore
from longread.store.record_query import QueryError
from longread.tools.single_doc import SingleDocTools

MACBETH = Path(__file__).resolve().parents[2] / "examples" / "macbeth.md"


@pytest.fixture(scope="module")
def tools(tmp_path_factory) -> SingleDocTools:
    folder = tmp_path_factory.mktemp("records")
    index = SingleDocIndex.build(MACBETH, DocStore(folder / "i.sqlite"))
    return SingleDocTools(index, ScriptedLM(lambda r: "sub answer"), Gateway())


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_model_code_reads_the_record_tables(tools):
    with Sandbox(tools.functions(), cell_timeout=10) as sandbox:
        out = sandbox.run(
            'rows = sql("SELECT speaker, count(*) AS n FROM dialogue GROUP BY speaker '
            'ORDER BY n DESC LIMIT 1")\nprint(rows)\nprint(records()[:200])'
        ).render()
    assert "'speaker': 'MACBETH', 'n': 145" in out and "dialogue:" in out


@pytest.mark.parametrize(
    ("statement", "why"),
    [
        ("DELETE FROM dialogue", "only SELECT"),
        ("UPDATE dialogue SET speaker = 'X'", "only SELECT"),
        ("DROP TABLE records_1", "only SELECT"),
        ("CREATE TABLE x (a)", "only SELECT"),
        ("INSERT INTO dialogue (speaker) VALUES ('X')", "only SELECT"),
        ("ATTACH DATABASE '/tmp/longread-evil.sqlite' AS evil", "only SELECT"),
        ("PRAGMA writable_schema = 1", "only SELECT"),
        ("VACUUM INTO '/tmp/longread-copy.sqlite'", "only SELECT"),
        ("SELECT 1; DELETE FROM dialogue", "one statement"),
        ("SELECT load_extension('/tmp/evil.so')", "not authorized"),
        ("SELECT * FROM text_blocks", "prohibited"),
        ("SELECT * FROM sqlite_master", "prohibited"),
        ("SELECT * FROM documents_fts", "no such table|prohibited"),
        ("SELECT path FROM main.documents", "prohibited"),
        ("SELECT count(*) FROM main.documents", "not authorized|prohibited"),
        ("SELECT count(*) FROM temp.sqlite_temp_master", "not authorized|prohibited|no such"),
        (
            "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) "
            "SELECT count(*) FROM r",
            "not authorized",
        ),
        ("SELECT randomblob(2000000000)", "not authorized"),
        ("SELECT zeroblob(2000000000)", "not authorized"),
    ],
)
def test_a_statement_that_is_not_a_read_of_the_records_is_refused(tools, statement, why):
    store = Path(tools.index.store.path)
    before = digest(store)
    with Sandbox(tools.functions(), cell_timeout=10) as sandbox:
        out = sandbox.run(f"print(sql({statement!r}))").render()
    assert "QueryError" in out or "refused" in out or "allowed" in out, out
    assert any(word in out for word in why.split("|")), out
    assert digest(store) == before
    assert not Path("/tmp/longread-evil.sqlite").exists()
    assert not Path("/tmp/longread-copy.sqlite").exists()


@pytest.mark.parametrize(
    "statement",
    [
        "SELECT count(*) FROM dialogue a, dialogue b, dialogue c, dialogue d",
        "SELECT max(length(replace(replace(replace(text, 'e', text), 'a', text), 'o', text))) "
        "FROM dialogue",
    ],
)
def test_a_read_without_end_is_stopped_within_its_time_or_size(tools, statement):
    with Sandbox(tools.functions(), cell_timeout=30) as sandbox:
        started = time.monotonic()
        out = sandbox.run(f"print(sql({statement!r}))").render()
        took = time.monotonic() - started
    assert "QueryError" in out and ("stopped" in out or "too big" in out), out
    assert took < 15


def test_the_guard_parses_before_sqlite_sees_a_statement():
    assert checked_select(" SELECT 1 ; ") == "SELECT 1"
    assert checked_select("WITH x AS (SELECT 1 AS a) SELECT a FROM x")
    for bad in ("", "   ", "SELEC 1 FROM", "SELECT 1; SELECT 2", "x" * 30_000):
        with pytest.raises(QueryError):
            checked_select(bad)


def test_many_rows_are_cut_and_said_so(tools):
    rows = tools.sql("SELECT text FROM dialogue")
    assert len(rows) == 200 and any("first 200 rows" in n for n in tools.take_notices())


def test_a_file_name_holding_sql_is_only_a_name(tmp_path):
    """A document's name stands in the views' SQL as a string: a name with quotes and a statement
    in it names the rows, and runs nothing."""
    name = "ledger'); DROP TABLE records_1; --.csv"
    path = tmp_path / name
    path.write_text("who,amount\n" + "".join(f"p{n % 3},{n}\n" for n in range(12)))
    store = DocStore(tmp_path / "i.sqlite")
    index = SingleDocIndex.build(path, store)
    tools = SingleDocTools(index, ScriptedLM(lambda r: "sub answer"), Gateway())
    before = digest(tmp_path / "i.sqlite")
    (table,) = [t for t in tools.catalog().tables.values() if "table" in t.kinds]
    rows = tools.sql(f'SELECT document, who, sum(amount) AS total FROM "{table.name}" GROUP BY who')
    assert {(r["document"], r["who"], r["total"]) for r in rows} == {
        (name, "p0", 0 + 3 + 6 + 9), (name, "p1", 1 + 4 + 7 + 10), (name, "p2", 2 + 5 + 8 + 11)
    }  # fmt: skip
    assert digest(tmp_path / "i.sqlite") == before


PLAY = "(SELECT group_concat(text) AS g FROM dialogue)"  # (the play's speeches: 89 KB)
GROWN = "replace(substr(g, 1, {}), 'e', g)"  # (a copy of them for each e of its first letters)
WIDE = "SELECT " + ", ".join(["s"] * 100) + " FROM (SELECT {} AS s FROM " + PLAY + ")"
ROWS = "SELECT " + GROWN.format(60) + " || text FROM dialogue, " + PLAY


@pytest.mark.parametrize(
    "statement",
    [
        WIDE.format(GROWN.format(800)),
        WIDE.format(GROWN.format(90)),
        ROWS,
        "SELECT " + ", ".join([GROWN.format(60)] * 60) + " FROM dialogue, " + PLAY,
    ],
    ids=[
        "100 copies of an 8 MB string",
        "100 copies of an 800 KB string",
        "rows of 600 KB",
        "rows of 60 values of 600 KB",
    ],
)
def test_a_result_too_large_for_memory_is_refused_in_one_line(tmp_path, statement):
    """A short statement whose result would take gigabytes (an 8 MB string selected 100 times;
    an 800 KB string on each of hundreds of rows): refused as too large, the process that ran
    it staying under 600 MB (measured in a process of its own)."""
    script = f"""
import resource, sys
from pathlib import Path
from longread.index.single import SingleDocIndex
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.store.docstore import DocStore
from longread.store.record_query import QueryError
from longread.tools.single_doc import SingleDocTools
index = SingleDocIndex.build(Path({str(MACBETH)!r}), DocStore(Path({str(tmp_path)!r}) / "i.sqlite"))
tools = SingleDocTools(index, ScriptedLM(lambda r: "-"), Gateway())
try:
    tools.sql({statement!r})
    print("ran")
except QueryError as error:
    print("refused:", error)
print("peak", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    said, peak = done.stdout.splitlines()[-2:]
    assert said.startswith("refused:") and "\n" not in said and "too large" in said, said
    assert int(peak.split()[1]) < 600, peak


def test_a_long_term_for_mentions_is_refused_at_once(tools):
    started = time.monotonic()
    with pytest.raises(QueryError, match="mentions"):
        tools.sql(f"SELECT sum(mentions(text, '{'a ' * 5_000}')) FROM dialogue")
    assert time.monotonic() - started < 5
