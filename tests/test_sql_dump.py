"""An SQL dump's inserted rows are records, read as text, never run: SQLite's `.dump` (a row to a
statement, columns named by `CREATE TABLE`) and a mysqldump's rows many to a statement with their
columns listed; and a fact one row states is looked up in a table by code. The statements are the
test's, written by a scripted stand-in for the code model (see statements); gold answers are
computed by the test's own code (`Counter`, SQLite itself)."""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from pathlib import Path

from counted import answered, ask
from longread.api import RunOptions, SingleDocRLM
from longread.ingest.records import find_tables
from longread.strategies import planning
from statements import writing

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _speeches() -> list[tuple[str, str]]:
    play = (EXAMPLES / "macbeth.md").read_text(encoding="utf-8")
    return re.findall(r"^\*\*([^*]+)\*\*\s*\n([^\n]+?)\s*$", play, re.M)


def test_rows_of_sqlites_dump_are_a_table_named_by_create_table(tmp_path):
    speeches = _speeches()
    db = sqlite3.connect(":memory:")
    db.execute('CREATE TABLE speech (id INTEGER PRIMARY KEY, speaker TEXT, "line" TEXT, words INT)')
    db.executemany(
        "INSERT INTO speech (speaker, line, words) VALUES (?, ?, ?)",
        [(who, line, len(line.split())) for who, line in speeches],
    )
    path = tmp_path / "speeches.sql"
    path.write_text("\n".join(db.iterdump()) + "\n", encoding="utf-8")
    assert any("'" in line for _, line in speeches)  # (quotes doubled in the dump)
    [table] = [t for t in find_tables(path.read_text(encoding="utf-8")) if t.kind == "sql"]
    assert [c.name for c in table.columns] == ["id", "speaker", "line", "words"]
    assert list(table.values[2]) == [line for _, line in speeches]
    top, most = Counter(who for who, _ in speeches).most_common(1)[0]
    sql = "SELECT speaker, count(*) AS n FROM speech GROUP BY speaker ORDER BY n DESC LIMIT 1"
    assert ask(path, "Who has the most speeches?", tmp_path, sql) == top
    question = f"How many speeches does {top.title()} have?"
    sql = f"SELECT count(*) FROM speech WHERE speaker = '{top}'"
    answer = answered(path, question, tmp_path, sql)
    assert answer.mode == "aggregate" and answer.text.splitlines()[0] == str(most), answer.text
    first = next(line for who, line in speeches if who == top).replace("'", "''")
    assert any(first in c.text for c in answer.citations), answer.citations


def test_rows_many_to_a_statement_with_their_columns_listed_are_read(tmp_path):
    speeches = _speeches()[:60]
    rows = ",".join(f"({n},'{who}',{len(line)})" for n, (who, line) in enumerate(speeches, 1))
    path = tmp_path / "dump.sql"
    path.write_text(
        "-- MySQL dump\nDROP TABLE IF EXISTS `turns`;\n"
        "CREATE TABLE `turns` (\n  `id` int NOT NULL,\n  `who` varchar(40),\n"
        "  `chars` decimal(10,2),\n  PRIMARY KEY (`id`)\n) ENGINE=InnoDB;\n"
        f"INSERT INTO `turns` (`id`, `who`, `chars`) VALUES {rows};\nUNLOCK TABLES;\n",
        encoding="utf-8",
    )
    [table] = [t for t in find_tables(path.read_text(encoding="utf-8")) if t.kind == "sql"]
    assert len(table) == len(speeches) and [c.name for c in table.columns] == ["id", "who", "chars"]
    longest = max(len(line) for _, line in speeches)
    n, who = next((n, who) for n, (who, line) in enumerate(speeches, 1) if len(line) == longest)
    sql = "SELECT who, chars FROM turns ORDER BY chars DESC, id LIMIT 1"
    answer = answered(path, "Whose turn has the most chars?", tmp_path, sql)
    assert answer.mode == "aggregate" and answer.text.splitlines()[0] == who, answer.text
    assert any(c.text == f"({n},'{who}',{longest})" for c in answer.citations), answer.citations


def _pins(path: Path) -> dict[str, str]:
    names = "anthropic anyio attrs certifi click fastapi h11 idna jinja2 lxml markupsafe numpy"
    names += " openai packaging pluggy pydantic pytest rich sniffio typer urllib3"
    pins = [(name, f"{len(name)}.{n}.{n % 3}") for n, name in enumerate(names.split())]
    path.write_text("\n".join(f"{name}=={version}" for name, version in pins) + "\n")
    return dict(pins)


def test_a_fact_one_row_states_is_looked_up(tmp_path):
    path = tmp_path / "requirements.txt"
    pins = _pins(path)
    sql = "SELECT version FROM records WHERE field = 'numpy'"
    answer = answered(path, "Which version of numpy is installed?", tmp_path, sql)
    assert answer.mode == "aggregate" and answer.text.splitlines()[0] == pins["numpy"], answer.text
    assert [c.text for c in answer.citations] == [f"numpy=={pins['numpy']}"], answer.citations


def test_a_long_documents_fact_is_looked_up_once_its_records_are_found(tmp_path, monkeypatch):
    """Finding a long document's records for a fact would cost more than the fact: a which
    question is looked up only once a count has found them."""
    monkeypatch.setattr(planning, "LOOKUP_CHARS", 100)
    path = tmp_path / "requirements.txt"
    pins = _pins(path)
    question = "Which version of numpy is installed?"
    counting = "How many packages are pinned?"
    model = writing(
        {
            question: "SELECT version FROM records WHERE field = 'numpy'",
            counting: "SELECT count(*) FROM records",
        },
        other=lambda request: "It does not say.",
    )
    options = RunOptions(reader="auto")
    store = tmp_path / "i.sqlite"
    with SingleDocRLM(path, model, model, cache=False, store_path=store, options=options) as doc:
        before = doc.ask(question)
        counted = doc.ask(counting)
        after = doc.ask(question)
    assert before.mode != "aggregate" and before.text == "It does not say."
    assert counted.mode == "aggregate" and counted.text.splitlines()[0] == str(len(pins))
    assert after.mode == "aggregate" and after.text.splitlines()[0] == pins["numpy"], after.text
