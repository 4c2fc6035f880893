"""Records found on a question's first need: within its time budget (a process of their own, ended
when the budget is spent, nothing half-stored), and read back in the text's order. A count's
statement is the test's, written by a scripted stand-in for the code model (see statements)."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from counted import answered as counted
from counted import ask
from longread import deadline
from longread.api import RunOptions, SingleDocRLM
from longread.api.asker import answered
from longread.errors import BudgetExceededError
from longread.index import first_need
from longread.index.records import FINDERS_VERSION
from longread.index.single import SingleDocIndex
from longread.llm.usage import Budget
from longread.query.core.catalog import document_catalog
from longread.store.docstore import DocStore
from statements import writing

LEVELS = ["INFO", "ERROR", "INFO", "WARN", "ERROR", "INFO", "DEBUG", "ERROR", "INFO", "INFO"]
HOSTS = ["web1", "web2", "db1"]


def write_log(path: Path, lines: int = 40_000) -> list[str]:
    """A service log whose lines the test knows (each a host and a level, drawn in turn)."""
    written = [
        f"2024-05-{1 + n // 1440 % 28:02d} {n // 60 % 24:02d}:{n % 60:02d}:{n % 59:02d} "
        f"{HOSTS[n % 3]} {LEVELS[n % len(LEVELS)]} request {n} handled in {n % 97} ms"
        for n in range(lines)
    ]
    path.write_text("\n".join(written) + "\n", encoding="utf-8")
    return written


def test_records_found_apart_end_with_the_deadline_and_are_found_within_one(tmp_path, monkeypatch):
    monkeypatch.setattr(first_need, "APART_CHARS", 0)  # (this small log is found apart too)
    finders: list[subprocess.Popen] = []
    popen = subprocess.Popen

    def finder(*args, **kwargs):  # (the finder processes this test starts, to see them end)
        finders.append(popen(*args, **kwargs))
        return finders[-1]

    monkeypatch.setattr(first_need.subprocess, "Popen", finder)
    log = tmp_path / "service.log"
    write_log(log)
    index = SingleDocIndex.build(log, DocStore(tmp_path / "index.sqlite"))
    store = index.store
    started = time.monotonic()
    with deadline.until(started + 0.3), pytest.raises(deadline.DeadlineExceeded) as late:
        first_need.ensure_records(store, index.store_id, log.name)
    assert "finding the records of service.log" in str(late.value)
    assert store.records.version(index.store_id) is None  # (nothing stored)
    assert len(finders) == 1 and finders[0].poll() is not None  # (the finder was ended)
    with deadline.until(time.monotonic() + 60):
        first_need.ensure_records(store, index.store_id, log.name)  # (found by a process)
    assert store.records.version(index.store_id) == FINDERS_VERSION
    catalog = document_catalog(index, log.name)
    assert catalog.tables["log"].rows == 40_000
    catalog.close()


def test_a_count_whose_records_outlast_its_time_budget_ends_with_the_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(first_need, "APART_CHARS", 0)
    log = tmp_path / "service.log"
    write_log(log)
    question = "How many log lines are errors?"
    model = writing({question: "SELECT count(*) FROM log WHERE level = 'ERROR'"})

    def opened(seconds: float | None) -> SingleDocRLM:
        return SingleDocRLM(
            log, model, model, cache=False, store_path=tmp_path / "index.sqlite",
            budget=Budget(max_seconds=seconds), options=RunOptions(reader="auto"),
        )  # fmt: skip

    with pytest.raises(BudgetExceededError) as spent:
        answered(opened(0.2), question)  # (as `longread ask` does: its estimate, then the answer)
    assert spent.value.limit == "max_seconds" and "time budget of 0.2 s" in str(spent.value)
    assert "finding the records of service.log" in str(spent.value)
    with pytest.raises(BudgetExceededError):
        opened(0.2).ask(question)  # (the library's ask keeps the budget too)
    errors = sum(1 for n in range(40_000) if LEVELS[n % len(LEVELS)] == "ERROR")
    answer = answered(opened(60), question)
    assert answer.mode == "aggregate" and answer.text.splitlines()[0] == str(errors)
    assert answer.citations and all(" ERROR request " in c.text for c in answer.citations)


def test_rows_are_cited_in_the_text_s_order_though_two_tables_of_one_shape_make_one(tmp_path):
    page = tmp_path / "orders.md"
    first = [("A-1", "rope", 3), ("A-2", "paint", 5), ("A-3", "rope", 2), ("A-4", "tar", 1)]
    second = [("B-1", "paint", 1), ("B-2", "rope", 4), ("B-3", "tar", 2), ("B-4", "rope", 6)]

    def table(rows: list[tuple[str, str, int]]) -> str:
        body = "\n".join(f"| {o} | {item} | {n} |" for o, item, n in rows)
        return f"| order | item | quantity |\n|---|---|---|\n{body}\n"

    page.write_text(
        f"{table(first)}\nThe second list came after the spring.\n\n{table(second)}",
        encoding="utf-8",
    )
    rope = [o for o, item, _ in first + second if item == "rope"]
    sql = "SELECT \"order\" FROM orders WHERE item = 'rope'"  # (no ORDER BY: as stored)
    answer = counted(page, "Which orders are for rope?", tmp_path, sql)
    assert answer.mode == "aggregate" and answer.text.splitlines()[0] == ", ".join(rope)
    text = page.read_text(encoding="utf-8")
    starts = [c.start for c in answer.citations]
    assert len(starts) == min(len(rope), 3) and starts == sorted(starts)
    for citation, order in zip(answer.citations, rope, strict=False):
        assert text[citation.start : citation.end] == citation.text
        assert citation.text.startswith(f"| {order} | rope |")
    sql = "SELECT count(*) FROM orders WHERE item = 'rope'"  # (the rows of both tables)
    assert ask(page, "How many orders are for rope?", tmp_path, sql) == str(len(rope))


def test_a_document_s_rows_of_one_table_are_stored_in_the_text_s_order(tmp_path):
    from longread.store.record_tables import StoredColumn

    page = tmp_path / "notes.txt"
    page.write_text("one two three four five six\n", encoding="utf-8")
    index = SingleDocIndex.build(page, DocStore(tmp_path / "index.sqlite"))
    columns = [StoredColumn("word", "text", "", ())]

    def part(starts: list[int]) -> tuple:  # (a table of one shape, found in two parts)
        words = [page.read_text()[s : s + 5].split()[0] for s in starts]
        return ("words", "template", columns, ("word",), starts, [s + 3 for s in starts],
                [words], [([(w, 1) for w in words], 0)])  # fmt: skip

    index.store.records.save(index.store_id, [part([14, 19]), part([0, 4, 8])], FINDERS_VERSION)
    catalog = document_catalog(index, page.name)
    assert catalog.query.text_order("words") == "_row"  # (read as stored: no sort)
    rows = catalog.query.execute('SELECT _start, word FROM "words" ORDER BY _row').rows
    assert rows == [(0, "one"), (4, "two"), (8, "three"), (14, "four"), (19, "five")]
    assert catalog.tables["words"].rows == 5
    catalog.close()
