"""Conditions copied from the tables shown and not named by the question are left out of a
model's statement by code, wherever they stand in its WHERE; what the question names, a value
shown nowhere, a subquery's own conditions and a lone synonym stay."""

from __future__ import annotations

import sqlglot

from longread.query.core.sql_unasked import without_unasked

SHOWN = """CREATE TABLE "items" (
  "section" TEXT,  -- 4 values: 'Fixed' (147), 'Added' (100), 'Changed' (65), 'Removed' (29)
  "urgency" TEXT,  -- 2 values: 'high' (3), 'low' (2)
);
-- row: section='Fixed'; words=43; text='Fix the WSGITransport timeout'"""


def left(sql: str, question: str) -> tuple[str, list[str]]:
    kept, dropped = without_unasked(sql, question, SHOWN)
    sqlglot.parse_one(kept, read="sqlite")  # (what is left is a statement)
    return kept, dropped


def test_copied_values_go_and_named_ones_stay():
    kept, dropped = left(
        "SELECT count(*) FROM items WHERE (section = 'Fixed' OR section = 'Added') AND year = 2021",
        "How many items in 2021?",
    )
    assert kept == "SELECT COUNT(*) FROM items WHERE year = 2021"
    assert sorted(dropped) == ["section = 'Added'", "section = 'Fixed'"]
    kept, dropped = left(
        "SELECT count(*) FROM items WHERE section IN ('Fixed', 'Added', 'Removed')",
        "How many fixes?",
    )
    assert kept == "SELECT COUNT(*) FROM items WHERE section IN ('Fixed')"
    assert dropped == ["'Added'", "'Removed'"]


def test_a_sample_row_s_number_goes_and_a_number_the_question_writes_stays():
    kept, dropped = left(
        "SELECT count(*) FROM items WHERE words >= 43 AND size > 4000",
        "How many items are over 4,000 bytes?",
    )
    assert kept == "SELECT COUNT(*) FROM items WHERE size > 4000" and dropped == ["words >= 43"]


def test_a_lone_synonym_and_a_value_shown_nowhere_stay():
    sql = "SELECT count(*) FROM items WHERE urgency = 'high'"
    assert left(sql, "How many urgent items?") == (sql, [])
    sql = "SELECT count(*) FROM items WHERE section = 'Security' AND tag = 'cve'"
    assert left(sql, "How many items?") == (sql, [])


def test_a_subquery_keeps_its_outer_conditions_and_a_case_is_not_said_to_be_left():
    kept, dropped = left(
        "SELECT count(*) FROM items WHERE year = 2019 AND id IN "
        "(SELECT id FROM items WHERE section = 'Fixed' OR section = 'Added')",
        "How many in 2019?",
    )
    assert "year = 2019" in kept and kept.endswith("(SELECT id FROM items)")
    assert sorted(dropped) == ["section = 'Added'", "section = 'Fixed'"]
    kept, dropped = left(
        "SELECT count(*) FROM items WHERE CASE WHEN section = 'Fixed' THEN 1 END = 1 "
        "AND section = 'Added'",
        "How many?",
    )
    assert "CASE WHEN section = 'Fixed'" in kept and dropped == ["section = 'Added'"]
