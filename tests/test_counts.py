"""A counted answer carries what it was counted over, to be seen: the groups with their figures
(a bar chart's) and the rows counted, each cited; the CLI prints them as a compact table and
`--json` holds them all. Gold is counted here from the table's own lines."""

from __future__ import annotations

import json
import os
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from cli import LONGREAD
from longread.answer import Answer
from longread.api import SingleDocRLM
from longread.llm.scripted import ScriptedLM

ORDERS = [
    ("Ada", "deck paint", 4),
    ("Bob", "bilge pump", 1),
    ("Ada", "rope", 10),
    ("Cy", "deck paint", 6),
    ("Ada", "deck paint", 4),
    ("Bob", "rope", 2),
    ("Dee", "varnish", 3),
]


def never_called(request) -> str:
    raise AssertionError("a count must not call a model")


@pytest.fixture
def ledger(tmp_path) -> Path:
    lines = ["# Orders", "", "| order | customer | item | quantity |", "|---|---|---|---|"]
    lines += [f"| {n} | {c} | {i} | {q} |" for n, (c, i, q) in enumerate(ORDERS, 1)]
    path = tmp_path / "ledger.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_grouped_count_keeps_its_groups_and_cites_each_row_it_shows(ledger, tmp_path):
    gold = Counter(customer for customer, _, _ in ORDERS)
    with SingleDocRLM(
        ledger, ScriptedLM(never_called), store_path=tmp_path / "i.sqlite", cache=False
    ) as doc:
        answer = doc.ask("How many orders did each customer place?")
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
    env = {**os.environ, "LONGREAD_CACHE_DIR": str(tmp_path / "cache")}
    question = "How many orders did each customer place?"
    command = [LONGREAD, "ask", str(ledger), question, "--mode", "aggregate"]
    shown = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    table = [line.split() for line in shown.stdout.splitlines()]
    assert ["customer", "orders"] in table
    assert table[table.index(["customer", "orders"]) + 1] == ["Ada", "3"]
    as_json = subprocess.run(
        [*command, "--json"], env=env, capture_output=True, text=True, timeout=120
    )
    held = json.loads(as_json.stdout)["counts"]
    assert dict(held["groups"]) == dict(Counter(c for c, _, _ in ORDERS))
    assert held["rows"][0]["start"] < held["rows"][0]["end"]


def _totals(by: int) -> Counter:
    """Each customer's (by=0) or item's (by=1) total quantity, from the orders themselves."""
    totals: Counter = Counter()
    for order in ORDERS:
        totals[order[by]] += order[2]
    return totals


@pytest.mark.parametrize(
    ("question", "lead"),
    [
        # `who` over a table: the column of names said again and again (the customers)
        ("Who placed the most orders?", "{most_orders}: 3 "),
        # the column named right after `which`, not a later word like it (`ordered`: `order`)
        ("Which customer ordered the most, by quantity?", "{most_quantity}: {quantity} "),
        # a number column after `by` in a question asking who: what is summed, not grouped
        ("Who ordered the most items, by quantity?", "{most_quantity}: {quantity} "),
        # `total` sums, though `largest` ranks
        ("Which customer ordered the largest total quantity?", "{most_quantity}: {quantity} "),
    ],
)
def test_a_table_is_asked_who_and_which_in_a_user_s_words(ledger, tmp_path, question, lead):
    orders = Counter(customer for customer, _, _ in ORDERS)
    (most_orders, _), (most_quantity, quantity) = (
        orders.most_common(1)[0],
        _totals(0).most_common(1)[0],
    )
    expected = lead.format(most_orders=most_orders, most_quantity=most_quantity, quantity=quantity)
    with SingleDocRLM(
        ledger, ScriptedLM(never_called), store_path=tmp_path / "i.sqlite", cache=False
    ) as doc:
        answer = doc.ask(question)
    assert answer.mode == "aggregate" and answer.text.startswith(expected), answer.text
