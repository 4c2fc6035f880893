"""A changelog laid out as headings and lists (reStructuredText or Markdown): each heading's date
(in its title, or on the line under it) is a column of the sections table, and each list item is
a record with the section it stands in and the version and date of the release it is under;
answered by SQL over them. A Debian entry's items carry its version. Gold from the test's own
releases."""

from __future__ import annotations

import json
import random

import pytest

from longread.api import SingleDocRLM
from longread.index.records import document_tables
from longread.ingest.heading_marks import heading_date, heading_version
from longread.ingest.records import find_tables
from longread.ingest.records.cells import date
from longread.store.rows import SectionRow
from test_sql_reader import reading_rows, written

RNG = random.Random(11)
RELEASES = [
    (f"{2 + n // 4}.{n % 4}.0", f"20{18 + n // 3}-{1 + n % 12:02}-{10 + n:02}", RNG.randrange(1, 6))
    for n in range(12)
]


CHANGES = [
    "Fixed a leak of sockets",
    "Pools keep their size when asked twice",
    "New option ``timeout``",
    "Dropped support for Python 2",
    "Headers are no longer copied",
]


def rst() -> str:
    parts = ["Changes\n=======\n"]
    for version, day, changes in RELEASES:
        parts.append(f"\n{version} ({day})\n{'-' * (len(version) + 13)}\n\n")
        parts += [f"- {CHANGES[k]} in {version}\n  and its docs.\n" for k in range(changes)]
    return "".join(parts)


def markdown() -> str:  # (as Keep a Changelog lays it out)
    parts = ["# Changelog\n"]
    for version, day, changes in RELEASES:
        parts.append(f"\n## [{version}] - {day}\n\n### Fixed\n\n")
        parts += [f"* {CHANGES[k]} ({version}).\n" for k in range(changes)]
    return "".join(parts)


def test_a_heading_s_date_is_in_its_title_or_on_the_line_under_it():
    text = "Version 2.3.0\n-------------\n\nReleased 2023-04-25\n\n- A change.\n"
    assert heading_date(text, "Version 2.3.0", 0) == "2023-04-25"
    assert heading_date("x", "2.2.2 (June 17, 2024)", 0) == "2024-06-17"
    assert heading_date("Notes\n\nWe met on the 4th and talked.\n", "Notes", 0) is None
    assert heading_date("Fixed\n\n- A crash of 2019-01-02 builds.\n", "Fixed", 0) is None


@pytest.fixture(autouse=True)
def _model_reads(monkeypatch):
    monkeypatch.setenv("LONGREAD_READER", "auto")


@pytest.mark.parametrize("write", [rst, markdown])
def test_a_heading_s_date_and_its_items_are_counted(tmp_path, write):
    path = tmp_path / ("CHANGES.rst" if write is rst else "CHANGELOG.md")
    path.write_text(write(), encoding="utf-8")
    statements = {
        "2019": "SELECT count(*) FROM sections WHERE strftime('%Y', date) = '2019'",
        "3.1.0": "SELECT count(*) FROM items WHERE version = '3.1.0'",
    }

    def write_query(request) -> str:
        asked = request.messages[1]["content"]
        return json.dumps({"sql": next(v for k, v in statements.items() if k in asked)})

    model = reading_rows(write_query)
    with SingleDocRLM(path, model, model, store_path=tmp_path / "c.sqlite", cache=False) as doc:
        year = doc.query("How many releases came out in 2019?")
        items = doc.query("How many changes does 3.1.0 list?")
    assert year.text.startswith(f"{sum(d.startswith('2019') for _, d, _ in RELEASES)}\n"), year.text
    wanted = next(c for v, _, c in RELEASES if v == "3.1.0")
    assert items.text.startswith(f"{wanted}\n"), items.text
    shown = written(model)[0].messages[0]["content"]
    assert 'CREATE TABLE "items"' in shown and '"date" TEXT' in shown, shown
    assert shown.count('"version" TEXT') == 2, shown  # (the sections' and the items')
    assert "-- row: title='Changes'" not in shown  # (a sample row is a full one: a release's)
    assert "-- the row read from the line: '" in shown, shown


def test_a_release_heading_s_version_and_date_are_read_as_written():
    assert heading_version("Noteworthy changes in release 2.11 (2012-03-02) [stable]") == "2.11"
    assert heading_version("0.27.0 (21st February, 2024)") == "0.27.0"
    assert heading_version("Release v2.6.30") == "2.6.30"
    assert heading_version("2.0.0a1 (2022-11-03)") == "2.0.0a1"
    assert heading_version("17.06.2021") is None and heading_version("Changelog") is None
    assert date("September 22nd, 2020") == "2020-09-22"
    assert date("21st February, 2024") == "2024-02-21"


def test_the_items_of_an_entry_a_template_reads_are_given_its_key():
    entries = "".join(
        f"tool ({v}-1) unstable; urgency=low\n\n"
        + "".join(f"  * {CHANGES[k]} (Closes: #{9000 + 10 * n + k})\n" for k in range(changes))
        + f"\n -- Ada Brant <ada@example.org>  Mon, 0{1 + n % 9} Jan 2024 10:00:00 +0000\n\n"
        for n, (v, _, changes) in enumerate(RELEASES)
    )
    tables = {t.kind: t for t in find_tables(entries, "changelog")}
    assert len(tables["template"]) == len(RELEASES)
    items = tables["list"]
    held = {c.name: list(v) for c, v in zip(items.columns, items.values, strict=True)}
    assert held["version"] == [f"{v}-1" for v, _, c in RELEASES for _ in range(c)]
    assert held["closes"] == [
        f"#{9000 + 10 * n + k}" for n, (_, _, c) in enumerate(RELEASES) for k in range(c)
    ]


def test_headings_of_a_version_kind_and_their_version_mark_make_one_column():
    rows, text = [], ""
    for n in range(4):
        title = f"Version 2.{n}.0 (2023-04-2{n})"
        start = len(text)
        text += f"{title}\n\n" + "".join(f"- change {k} of 2.{n}\n" for k in range(4)) + "\n"
        rows.append(SectionRow(n + 1, None, n, title, 1, start, len(text), title))
    for table in document_tables(text, "CHANGES.txt", rows):
        names = [c.name for c in table.columns]
        assert len(names) == len(set(names)), (table.name, names)
    items = next(t for t in document_tables(text, "CHANGES.txt", rows) if len(t) == 16)
    held = {c.name: list(v) for c, v in zip(items.columns, items.values, strict=True)}
    assert held["date"] == [f"2023-04-2{n}" for n in range(4) for _ in range(4)]
