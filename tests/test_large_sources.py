"""Sources too large to inline into SQL: a folder of 2,000 documents, each with a table of its own
shape and some prose, and one document of 200,000 records. Their records are listed, and a count,
a superlative and a list are answered, with no error; the gold comes from the test's own rows, and
the statements are the test's, written by a scripted stand-in for the code model (see
statements)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from longread.api import MultiDocRLM, RunOptions, SingleDocRLM
from statements import writing

DOCUMENTS = 2_000
RECORDS = 200_000
SHAPES = 40  # tables of as many different column sets across the folder
TOWNS = {
    "How many towns have a population over 5000?":
        "SELECT count(*) FROM report WHERE population > 5000",
    "Which town has the largest population?":
        "SELECT town, population FROM report ORDER BY population DESC LIMIT 1",
    "List the towns with a population above 5990.":
        "SELECT town FROM report WHERE population > 5990",
}  # fmt: skip
STATIONS = {
    "How many stations have a reading above 900?":
        "SELECT count(*) FROM readings WHERE reading > 900",
    "Which station has the highest reading?":
        "SELECT station, max(reading) FROM readings",  # (the first row holding it)
    "List the stations with a reading above 998.":
        "SELECT station FROM readings WHERE reading > 998",
}  # fmt: skip


def _folder(root: Path) -> list[tuple[int, str, int]]:
    """Write the folder; return each document's (shape, town, population) rows."""
    rows = []
    for n in range(DOCUMENTS):
        shape = n % SHAPES
        extra = f"| measure_{shape} " if shape else ""
        lines = [
            f"# Report {n}",
            "",
            f"The survey of district {n} was written up in the spring; its notes follow.",
            "",
            f"| town | population {extra}|",
            f"|---|---{'|---' if shape else ''}|",
        ]
        for k in range(3):
            town, population = f"Town{n}x{k}", 1_000 + (n * 7 + k * 13) % 5_000
            rows.append((shape, town, population))
            lines.append(f"| {town} | {population} {'| 1 ' if shape else ''}|")
        (root / f"report-{n:04d}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return rows


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[int, str, int]]]:
    root = tmp_path_factory.mktemp("reports")
    return root, _folder(root)


def _asked(rlm: MultiDocRLM | SingleDocRLM, question: str, mode: str) -> str:
    answer = rlm.query(question, mode=mode) if mode != "auto" else rlm.query(question)
    assert answer.mode == "aggregate", answer.text
    return answer.text


@pytest.mark.parametrize("mode", ["auto", "aggregate"])
def test_a_folder_of_2000_documents_answers_its_counts(folder, mode):
    root, rows = folder
    model = writing(TOWNS)
    index = root.parent / f"{root.name}.sqlite"  # (built by the first mode, read by the next)
    options = RunOptions(reader="auto")
    rlm = MultiDocRLM(root, model, model, store_path=index, cache=False, options=options)
    count, largest, listed = TOWNS
    said = _asked(rlm, count, mode)
    assert said.split("\n")[0] == str(sum(1 for _, _, p in rows if p > 5000)), said
    ((_, town, population),) = [r for r in rows if r[2] == max(p for _, _, p in rows)]
    said = _asked(rlm, largest, mode)
    assert said.split("\n")[0] == town and f"- {town} | {population}" in said, said
    said = _asked(rlm, listed, mode)
    assert said.split("\n")[0].split(", ") == [t for _, t, p in rows if p > 5990], said


def test_a_folder_of_2000_documents_lists_its_records(folder):
    root, _ = folder
    listed = subprocess.run(
        [sys.executable, "-m", "longread.cli", "records", str(root)],
        capture_output=True,
        text=True,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin", "HOME": str(root.parent)},
    )
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr[-2000:]
    assert f"report (table): {3 * DOCUMENTS:,} rows" in listed.stdout, listed.stdout[:2000]


def test_one_document_of_200000_records_answers_its_counts(tmp_path):
    path = tmp_path / "readings.csv"
    values = [(f"S{n:06d}", (n * 37) % 1_000) for n in range(RECORDS)]
    path.write_text(
        "station,reading\n" + "".join(f"{s},{v}\n" for s, v in values), encoding="utf-8"
    )
    model = writing(STATIONS)
    options = RunOptions(reader="auto")
    count, highest, listed = STATIONS
    first = next(s for s, v in values if v == max(v for _, v in values))  # (S000027)
    with SingleDocRLM(
        path, model, model, cache=False, store_path=tmp_path / "i.sqlite", options=options
    ) as doc:
        for mode in ("auto", "aggregate"):
            said = _asked(doc, count, mode)
            assert said.split("\n")[0] == str(sum(1 for _, v in values if v > 900)), said
            said = _asked(doc, highest, mode)
            assert said.split("\n")[0] == first, said  # (the first of the text holding it)
            said = _asked(doc, listed, mode)
            assert all(s in said for s, v in values[:3_000] if v > 998), said
    listed = subprocess.run(
        [sys.executable, "-m", "longread.cli", "records", str(path), "--csv", "readings"],
        capture_output=True,
        text=True,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert listed.returncode == 0, listed.stderr[-2000:]
    assert len(listed.stdout.splitlines()) == RECORDS + 1


def test_tables_of_one_shape_are_not_merged_into_another_table_of_their_stem():
    """Two item tables of one shape (`records_2`, `records_3`) beside `records` of another: each
    keeps its name (named `records`, they would have been joined to a table not theirs); a
    folder's `report_1`, `report_2` of one shape are one `report`."""
    from longread.query.core.shared_tables import shared_name, shared_names
    from longread.store.record_tables import StoredColumn, StoredTable
    from longread.store.record_views import ViewPart

    def part(n: int, name: str, *columns: str) -> ViewPart:
        stored = StoredTable(
            n, name, "template", tuple(StoredColumn(c, "text") for c in columns), ()
        )
        return ViewPart(Path("x.sqlite"), stored, (1,))

    parts = [
        part(1, "records", "date", "name", "text"),
        part(2, "records_2", "code", "text"),
        part(3, "records_3", "code", "text"),
        part(4, "report_1", "town", "population"),
        part(5, "report_2", "town", "population"),
    ]
    named = shared_names(parts)
    assert [shared_name(p, named) for p in parts] == [
        "records", "records_2", "records_3", "report", "report"
    ]  # fmt: skip
