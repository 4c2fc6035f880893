"""A counted answer carries what it was counted over, to be seen: the groups with their figures
(a bar chart's) and the rows counted, each cited; the CLI prints them as a compact table and
`--json` holds them all. Gold is counted here from the table's own lines; the statement is the
test's, written by a scripted stand-in for the code model (see statements; for the CLI, a
scripted OpenAI-compatible server of the test's)."""

from __future__ import annotations

import json
import os
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from cli import LONGREAD
from counted import answered
from fake_openai import fake_openai
from longread.answer import Answer
from longread.api import SingleDocRLM
from longread.llm.scripted import ScriptedLM
from longread.query.readers.model.question_kind import KIND_PROMPT

ORDERS = [
    ("Ada", "deck paint", 4),
    ("Bob", "bilge pump", 1),
    ("Ada", "rope", 10),
    ("Cy", "deck paint", 6),
    ("Ada", "deck paint", 4),
    ("Bob", "rope", 2),
    ("Dee", "varnish", 3),
]
EACH = "How many orders did each customer place?"
EACH_SQL = "SELECT customer, count(*) AS orders FROM orders GROUP BY customer ORDER BY orders DESC"


def writes(statement: str):
    """A hosted model's reply on the test's server: the question read as asking for rows, then
    `statement` written for it."""

    def reply(messages: list[dict]) -> str:
        if messages[0]["content"].startswith(KIND_PROMPT):
            return json.dumps({"answer": "rows"})
        return json.dumps({"sql": statement})

    return reply


@pytest.fixture
def ledger(tmp_path) -> Path:
    lines = ["# Orders", "", "| order | customer | item | quantity |", "|---|---|---|---|"]
    lines += [f"| {n} | {c} | {i} | {q} |" for n, (c, i, q) in enumerate(ORDERS, 1)]
    path = tmp_path / "ledger.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_grouped_count_keeps_its_groups_and_cites_each_row_it_shows(ledger, tmp_path):
    gold = Counter(customer for customer, _, _ in ORDERS)
    answer = answered(ledger, EACH, tmp_path, EACH_SQL)
    assert answer.mode == "aggregate" and answer.text.splitlines()[0].startswith("Ada, ")
    assert all(f"- {c} | {n}" in answer.text.splitlines() for c, n in gold.items())
    counts = answer.counts
    assert counts is not None and counts.group == "customer"
    assert dict(counts.groups) == dict(gold)
    assert [n for _, n in counts.groups] == sorted(gold.values(), reverse=True)
    text = ledger.read_text(encoding="utf-8")
    assert len(counts.rows) == len(ORDERS) == len(counts.labels)
    for row, label in zip(counts.rows, counts.labels, strict=True):
        assert text[row.start : row.end] == row.text and f"| {label} |" in row.text
    again = Answer.from_dict(json.loads(json.dumps(answer.to_dict())))
    assert again.counts == counts


def test_an_answer_that_counts_nothing_has_no_counts(tmp_path):
    doc = tmp_path / "note.md"
    doc.write_text("# Note\n\nThe harbour opens at dawn.\n", encoding="utf-8")
    reply = ScriptedLM(lambda request: "It opens at dawn [1].")
    with SingleDocRLM(doc, reply, store_path=tmp_path / "i.sqlite", cache=False) as rlm:
        answer = rlm.ask("When does the harbour open?", mode="retrieval")
    assert answer.counts is None and "counts" in answer.to_dict()


def test_the_cli_prints_the_groups_as_a_table_and_json_holds_them(ledger, tmp_path):
    env = {**os.environ, "LONGREAD_CACHE_DIR": str(tmp_path / "cache"), "OPENAI_API_KEY": "sk-test"}
    with fake_openai([writes(EACH_SQL)] * 8) as server:
        command = [LONGREAD, "ask", str(ledger), EACH, "--mode", "aggregate", "--reader", "auto",
                   "--model", "openai:scripted", "--base-url", server.url]  # fmt: skip
        shown = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert shown.returncode == 0, shown.stderr
        assert shown.stdout.strip().startswith("Ada, "), shown.stdout
        table = [line.split() for line in shown.stdout.splitlines()]
        assert ["customer", "orders"] in table, shown.stdout
        assert table[table.index(["customer", "orders"]) + 1] == ["Ada", "3"]
        as_json = subprocess.run(
            [*command, "--json"], env=env, capture_output=True, text=True, timeout=120
        )
    held = json.loads(as_json.stdout)["counts"]
    assert dict(held["groups"]) == dict(Counter(c for c, _, _ in ORDERS))
    assert held["rows"][0]["start"] < held["rows"][0]["end"]
