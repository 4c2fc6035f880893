"""Files built to break record finding (a row of thousands of values, an insert into SQLite's own
table, names said twice, nesting ten thousand deep, a line past the csv module's limit) beside a
normal CSV: the folder's records are listed and its counting questions answered, with no
traceback; a file a finder still cannot read is skipped and named in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli import longread
from longread.index import records as finding
from longread.query.core.catalog import texts_catalog

DEEP = 10_000
PEOPLE = "name,city\n" + "".join(f"p{i},{'Oslo' if i % 3 == 0 else 'Rome'}\n" for i in range(30))


def _rows(head: str, values) -> str:
    return "".join(f"{head} VALUES ({values(i)});\n" for i in range(6))


HOSTILE = {
    "wide.sql": _rows("INSERT INTO t", lambda i: ", ".join(str(i + j) for j in range(2_100))),
    "master.sql": _rows(
        "INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql)",
        lambda i: f"'table', 'x{i}', 'x{i}', {i}, 'CREATE TABLE x{i} (a)'",
    ),
    "twice.sql": _rows('INSERT INTO t (a, A, "End")', lambda i: f"{i}, {i}, {i}"),
    "deep.xml": "<root>" + "<a>" * DEEP + "x" + "</a>" * DEEP + "<r n='1'/>" * 6 + "</root>\n",
    "deep.jsonl": "\n".join(
        ['{"a": 1}', '{"a": 2}', '{"a": ' + "[" * DEEP + "]" * DEEP + "}", '{"a": 3}']
        + ['{"b": ' + '{"b": ' * DEEP + "1" + "}" * DEEP + "}", '{"a": 4}', '{"a": 5}']
    ),
    "long-line.txt": "x\n" + "y" * 200_000 + "\nz\nw\n",
}


@pytest.fixture
def folder(tmp_path) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    (folder / "people.csv").write_text(PEOPLE, encoding="utf-8")
    for name, text in HOSTILE.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_hostile_file_alone_has_its_records_listed(tmp_path, name):
    path = tmp_path / name
    path.write_text(HOSTILE[name], encoding="utf-8")
    result = longread("records", str(path), cache=tmp_path / "cache")
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 0, result.stderr
    assert "documents" in result.stdout


def test_a_folder_with_hostile_files_lists_its_records(tmp_path, folder):
    result = longread("records", str(folder), cache=tmp_path / "cache")
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 0, result.stderr
    assert "people" in result.stdout and "30 rows" in result.stdout


def test_a_folder_with_hostile_files_answers_a_counting_question(tmp_path, folder):
    result = longread("ask", str(folder), "How many people live in Oslo?", cache=tmp_path / "cache")
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 0, result.stderr
    assert "10" in result.stdout.split("people.csv")[0], result.stdout


def test_a_file_a_finder_cannot_read_is_skipped_and_named(monkeypatch):
    """Whatever a finder raises on one file, the others' records are counted."""
    found = finding.find_tables

    def breaks_on_one(text, name, *rest):
        if name == "broken.txt":
            raise RecursionError("maximum recursion depth exceeded")
        return found(text, name, *rest)

    monkeypatch.setattr(finding, "find_tables", breaks_on_one)
    catalog = texts_catalog([("people.csv", PEOPLE), ("broken.txt", "Some words.\n")])
    try:
        assert "people" in catalog.tables and catalog.tables["people"].rows == 30
        assert catalog.skipped == (
            "the records of broken.txt were not read "
            "(RecursionError: maximum recursion depth exceeded)"
        )
        assert "\n" not in catalog.skipped
    finally:
        catalog.close()
