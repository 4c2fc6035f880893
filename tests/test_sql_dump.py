"""An SQL dump's inserted rows are records, read as text, never run: SQLite's `.dump` (a row to a
statement, columns named by `CREATE TABLE`) and a mysqldump's rows many to a statement with their
columns listed; and a fact one row states is looked up in a table by code. Gold answers are
computed by the test's own code (`Counter`, SQLite itself)."""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from pathlib import Path

from counted import ask
from longread.api import SingleDocRLM
from longread.ingest.records import find_tables
from longread.llm.scripted import ScriptedLM
from longread.strategies import planning

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
    said = ask(path, "Who has the most speeches?", tmp_path)
    assert said.startswith(top), said
    said = ask(path, f"How many speeches does {top.title()} have?", tmp_path)
    assert said.startswith(f"{most} speeches"), said


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
    who = next(who for who, line in speeches if len(line) == longest)
    said = ask(path, "What is the largest chars value?", tmp_path)
    assert said.startswith(f"{who}: {longest} chars"), said


def _pins(path: Path) -> dict[str, str]:
    names = "anthropic anyio attrs certifi click fastapi h11 idna jinja2 lxml markupsafe numpy"
    names += " openai packaging pluggy pydantic pytest rich sniffio typer urllib3"
    pins = [(name, f"{len(name)}.{n}.{n % 3}") for n, name in enumerate(names.split())]
    path.write_text("\n".join(f"{name}=={version}" for name, version in pins) + "\n")
    return dict(pins)


def test_a_fact_one_row_states_is_looked_up(tmp_path):
    path = tmp_path / "requirements.txt"
    pins = _pins(path)
    said = ask(path, "Which version of numpy is installed?", tmp_path)
    assert said.startswith(f"{pins['numpy']}, the only one (1 "), said


def test_a_long_documents_fact_is_looked_up_once_its_records_are_found(tmp_path, monkeypatch):
    """Finding a long document's records for a fact would cost more than the fact: a which
    question is looked up only once a count has found them."""
    monkeypatch.setattr(planning, "LOOKUP_CHARS", 100)
    path = tmp_path / "requirements.txt"
    pins = _pins(path)
    model = ScriptedLM(["It does not say."] * 4, writes_code=False)
    question = "Which version of numpy is installed?"
    with SingleDocRLM(path, model, model, cache=False, store_path=tmp_path / "i.sqlite") as doc:
        before = doc.ask(question)
        counted = doc.ask("How many packages are pinned?")
        after = doc.ask(question)
    assert before.mode != "aggregate" and before.text == "It does not say."
    assert counted.mode == "aggregate" and counted.text.startswith(f"{len(pins)} packages")
    assert after.mode == "aggregate" and after.text.startswith(pins["numpy"]), after.text
