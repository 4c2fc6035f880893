"""Counting questions on documents of several genres, answered by code from the records found in
the text, the rows counted cited: the statement over the records is the test's, written by a
scripted stand-in for the code model (see statements), and the gold here is computed by walking
the text another way."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from counted import answered, ask
from longread.api import RunOptions, SingleDocRLM
from longread.llm.scripted import ScriptedLM
from longread.query.readers.model.sql_reader import SQL_SCHEMA
from statements import writing
from test_records import LEDGER

MAILBOX = "".join(
    f"From {addr} Mon Mar  {day} 09:00:00 2024\nFrom: {name} <{addr}>\nTo: crew@harbour.example\n"
    f"Date: Mon, 0{day} Mar 2024 09:{minute:02}:00 +0000\nSubject: {subject}\n\n{body}\n\n"
    for day, minute, name, addr, subject, body in [
        (4, 1, "Wren Ames", "wren@harbour.example", "Tide tables", "The spring tide is on Friday."),
        (4, 7, "Hugo Stell", "hugo@harbour.example", "Re: Tide tables", "Noted, thanks."),
        (5, 2, "Wren Ames", "wren@harbour.example", "Crane repair", "The crane is fixed."),
        (5, 9, "Tilda Marsh", "tilda@harbour.example", "Fees", "Mooring fees rise in May."),
        (6, 3, "Wren Ames", "wren@harbour.example", "Re: Fees", "By how much?"),
        (6, 5, "Hugo Stell", "hugo@harbour.example", "Re: Fees", "Ten percent."),
        (7, 4, "Wren Ames", "wren@harbour.example", "Dredging", "Dredging starts Monday."),
    ]
)
LOG = "\n".join(
    f"2024-03-0{1 + n % 3} 1{n % 10}:0{n % 6}:00,{n:03} {level:<5} [worker-{n % 4}] {source}: {msg}"
    for n, (level, source, msg) in enumerate(
        [
            ("INFO", "app.boot", "starting"),
            ("ERROR", "db.pool", "connection refused"),
            ("WARN", "db.pool", "retrying"),
            ("ERROR", "db.pool", "connection refused"),
            ("INFO", "app.http", "listening on 8080"),
            ("ERROR", "app.http", "timeout after 30s"),
            ("INFO", "app.http", "GET /health 200"),
            ("ERROR", "db.pool", "pool exhausted"),
        ]
        * 4
    )
)


def script(title: str, turns: list[tuple[str, str]], times: int) -> str:
    """A titled script of `Name: words` turns, said `times` over."""
    return f"# {title}\n\n" + "\n".join(f"{who}: {what}" for who, what in turns * times)


MINUTES = script(
    "Minutes of the harbour board",
    [
        ("Chair", "We begin with the crane."),
        ("Treasurer", "The repair cost 4,100."),
        ("Dana Holt", "Was the roof included?"),
        ("Treasurer", "It was not."),
        ("Chair", "Next, the fees."),
        ("Dana Holt", "I object to the rise."),
        ("Treasurer", "It covers the dredging."),
    ],
    4,
)
MOST_SENT = "Who sent the most emails?"
MOST_SENT_SQL = "SELECT sender, count(*) AS n FROM messages GROUP BY sender ORDER BY n DESC LIMIT 1"


def never_called(request) -> str:
    raise AssertionError("a count must not call a model")


def written(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def unique_best(counts: Counter) -> tuple[str, int]:
    """The most common key and its count, which no other key shares (else the statement's first
    row could be either)."""
    (best, most), *rest = counts.most_common()
    assert all(n < most for _, n in rest), counts
    return best, most


def figure(value: float) -> str:
    """A balance as a result row shows it (12400.75, 980.5, 1250)."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def test_mail_who_sent_the_most_and_how_many_one_sent(tmp_path):
    senders = Counter(re.findall(r"^From: ([^<\n]+?) <", MAILBOX, re.MULTILINE))
    best, most = unique_best(senders)
    mbox = written(tmp_path, "crew.mbox", MAILBOX)
    answer = answered(mbox, MOST_SENT, tmp_path, MOST_SENT_SQL)
    assert answer.mode == "aggregate" and answer.text.splitlines()[0] == best
    assert f"- {best} | {most}" in answer.text.splitlines()
    assert answer.usage["calls"] == 2 and answer.citations  # (the question's kind, the statement)
    assert all(f"From: {best}" in c.text for c in answer.citations)
    sql = "SELECT count(*) FROM messages WHERE sender = 'Hugo Stell'"
    answer = answered(mbox, "How many emails did Hugo Stell send?", tmp_path, sql)
    assert answer.text.splitlines()[0] == str(senders["Hugo Stell"])
    assert answer.citations and all("From: Hugo Stell" in c.text for c in answer.citations)


def test_log_lines_that_are_errors_and_the_component_with_most(tmp_path):
    errors = [line for line in LOG.splitlines() if " ERROR " in line]
    log = written(tmp_path, "app.log", LOG)
    sql = "SELECT count(*) FROM log WHERE level = 'ERROR'"
    answer = answered(log, "How many log lines are errors?", tmp_path, sql)
    assert answer.text.splitlines()[0] == str(len(errors))
    assert answer.citations and all(" ERROR " in c.text for c in answer.citations)
    by_source = Counter(re.search(r"\] (\S+):", line).group(1) for line in errors)
    source, n = unique_best(by_source)
    sql = (
        "SELECT source, count(*) AS n FROM log WHERE level = 'ERROR' "
        "GROUP BY source ORDER BY n DESC LIMIT 1"
    )
    answer = answered(log, "Which source has the most errors?", tmp_path, sql)
    assert answer.text.splitlines()[0] == source and f"- {source} | {n}" in answer.text
    assert all("ERROR [worker-" in c.text and f"] {source}:" in c.text for c in answer.citations)


def test_a_table_its_largest_value_its_total_and_a_row_named(tmp_path):
    rows = re.findall(r"^\| (\d+) \| ([^|]+?) \| ([-\d,.]+) \|$", LEDGER, re.MULTILINE)
    balances = {account: float(value.replace(",", "")) for account, _, value in rows}
    best = max(balances, key=balances.__getitem__)
    ledger = written(tmp_path, "ledger.md", LEDGER)
    sql = "SELECT account, balance FROM accounts ORDER BY balance DESC LIMIT 1"
    answer = answered(ledger, "Which account has the largest balance?", tmp_path, sql)
    assert answer.text.splitlines()[0] == best
    assert f"- {best} | {figure(balances[best])}" in answer.text.splitlines()  # (a number)
    assert answer.citations[0].text.startswith(f"| {best} |")
    total = ask(ledger, "What is the total balance?", tmp_path, "SELECT sum(balance) FROM accounts")
    assert float(total) == pytest.approx(sum(balances.values()))
    sql = "SELECT count(*) FROM accounts WHERE balance > 1000"
    over = ask(ledger, "How many accounts have a balance over 1000?", tmp_path, sql)
    assert over == str(sum(v > 1000 for v in balances.values()))


def test_minutes_speakers_written_name_colon(tmp_path):
    turns = Counter(line.split(":")[0] for line in MINUTES.splitlines()[2:])
    minutes = written(tmp_path, "minutes.md", MINUTES)
    sql = "SELECT count(*) FROM dialogue WHERE speaker = 'Dana Holt'"
    said = ask(minutes, "How many times did Dana Holt speak?", tmp_path, sql)
    assert said == str(turns["Dana Holt"])
    best, most = unique_best(turns)
    sql = "SELECT speaker, count(*) AS n FROM dialogue GROUP BY speaker ORDER BY n DESC LIMIT 1"
    answer = answered(minutes, "Who spoke the most at the meeting?", tmp_path, sql)
    assert answer.text.splitlines()[0] == best and f"- {best} | {most}" in answer.text
    assert answer.citations and all(c.text.startswith(f"{best}: ") for c in answer.citations)


def test_a_question_s_statement_is_written_once(tmp_path):
    """Once for its answer; and once though the CLI asks for the cost of every mode first."""
    mbox = written(tmp_path, "crew.mbox", MAILBOX)
    answer = answered(mbox, MOST_SENT, tmp_path, MOST_SENT_SQL)  # (asserts what else is asked)
    assert answer.mode == "aggregate" and answer.usage["calls"] == 2

    question = "How many emails did Wren Ames send?"
    model = writing({question: "SELECT count(*) FROM messages WHERE sender = 'Wren Ames'"})
    options = RunOptions(reader="auto")
    with SingleDocRLM(
        mbox, model, model, store_path=tmp_path / "cli.sqlite", cache=False, options=options
    ) as rlm:
        estimates = rlm.estimate(question)
        answer = rlm.query(question)
    assert len(estimates) > 3 and answer.mode == "aggregate"
    assert answer.text.splitlines()[0] == str(MAILBOX.count("From: Wren Ames <"))
    assert sum(r.json_schema == SQL_SCHEMA for r in model.requests) == 1


def test_an_operation_over_a_column_the_table_lacks_is_no_count(tmp_path):
    reader = ScriptedLM(lambda request: "NONE", writes_code=False)
    question = "What is the average height of the owners?"
    path = written(tmp_path, "ledger.md", LEDGER)
    lm = ScriptedLM(never_called)
    with SingleDocRLM(path, reader, lm, store_path=tmp_path / "i.sqlite", cache=False) as rlm:
        answer = rlm.query(question)
    assert answer.mode != "aggregate"
    assert all(r.json_schema is None for r in reader.requests)


def test_two_tables_of_one_shape_in_a_document_are_counted_as_one(tmp_path):
    """Tables under one heading with the same columns share a stored table: their rows add up,
    and so do their values' counts."""

    def week(first: str) -> str:
        return "| day | sold |\n|---|---|\n" + "".join(
            f"| {first}{n} | {n} |\n" for n in range(1, 6)
        )

    sales = written(tmp_path, "sales.md", f"# Sales\n\n{week('mon')}\n# Sales\n\n{week('tue')}")
    total = ask(sales, "What is the total sold?", tmp_path, "SELECT sum(sold) FROM sales")
    assert total == str(2 * sum(range(1, 6)))
    days = ask(sales, "How many days are there?", tmp_path, "SELECT count(*) FROM sales")
    assert days == str(len(re.findall(r"(?m)^\| (?:mon|tue)\d ", sales.read_text())))


def test_a_table_in_a_pdf_is_counted_by_its_columns(tmp_path):
    """A PDF holding the ledger as a drawn table (fpdf2 writes it; pdfplumber finds it back):
    the account with the largest balance, counted by code and cited."""
    fpdf = pytest.importorskip("fpdf")
    rows = re.findall(r"^\| (\d+) \| ([^|]+?) \| ([-\d,.]+) \|$", LEDGER, re.MULTILINE)
    pdf = fpdf.FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=11)
    pdf.multi_cell(0, 8, "Accounts. Balances at the close of March.")
    with pdf.table() as table:
        for cells in [("Account", "Owner", "Balance"), *rows]:
            line = table.row()
            for cell in cells:
                line.cell(cell)
    path = tmp_path / "ledger.pdf"
    pdf.output(str(path))
    balances = {account: float(value.replace(",", "")) for account, _, value in rows}
    best = max(balances, key=balances.__getitem__)
    sql = "SELECT account, balance FROM ledger ORDER BY balance DESC LIMIT 1"
    answer = answered(path, "Which account has the largest balance?", tmp_path, sql)
    assert answer.mode == "aggregate" and answer.usage["calls"] == 2
    assert answer.text.splitlines()[0] == best
    assert f"- {best} | {figure(balances[best])}" in answer.text.splitlines()
    assert answer.citations and best in answer.citations[0].text


def test_records_of_genres_no_kind_names_are_counted_by_their_keys(tmp_path):
    from test_records import CALENDAR, GIT_LOG, JSON_LINES

    authors = Counter(re.findall(r"(?m)^Author: ([^<\n]+?) <", GIT_LOG))
    best, most = unique_best(authors)
    sql = 'SELECT author, count(*) AS n FROM "commit" GROUP BY author ORDER BY n DESC LIMIT 1'
    answer = answered(written(tmp_path, "git.log", GIT_LOG), "Who made the most commits?",
                      tmp_path, sql)  # fmt: skip
    assert answer.text.splitlines()[0].startswith(f"{best} <")  # (the author as written)
    assert f"| {most}" in answer.text and len(answer.citations) > 0
    assert all(f"Author: {best} <" in c.text for c in answer.citations)
    sql = "SELECT count(*) FROM cal WHERE location = 'Room A'"
    cal = written(tmp_path, "cal.ics", CALENDAR)
    assert ask(cal, "How many events are in Room A?", tmp_path, sql) == str(
        CALENDAR.count("LOCATION:Room A")
    )
    events = written(tmp_path, "events.jsonl", JSON_LINES)
    sql = "SELECT count(*) FROM json WHERE user = 'alice'"
    alice = JSON_LINES.count('"user": "alice"')
    assert ask(events, "How many events did alice perform?", tmp_path, sql) == str(alice)
    logins = sum('"alice"' in line and '"login"' in line for line in JSON_LINES.splitlines())
    sql = "SELECT count(*) FROM json WHERE user = 'alice' AND action = 'login'"
    assert ask(events, "How often did alice log in?", tmp_path, sql) == str(logins)


def test_money_under_a_column_named_with_its_unit_is_a_number_summed(tmp_path):
    """Money written `"$2,308.00"` under `"revenue (USD)"` is a number column, summed by code."""
    rows = [("Q1", "EMEA", 2308), ("Q2", "APAC", 4388), ("Q3", "EMEA", 1250), ("Q4", "AMER", 990)]
    rows *= 2
    text = 'quarter,region,"revenue (USD)"\n' + "".join(
        f'{q},{r},"${v:,}.00"\n' for q, r, v in rows
    )
    revenue = written(tmp_path, "revenue.csv", text)
    emea = sum(v for _, r, v in rows if r == "EMEA")
    sql = "SELECT sum(revenue_usd) FROM revenue WHERE region = 'EMEA'"
    assert ask(revenue, "What is the total revenue for EMEA?", tmp_path, sql) == str(emea)
    by_region = Counter()
    for _, region, value in rows:
        by_region[region] += value
    best, most = unique_best(by_region)
    sql = (
        "SELECT region, sum(revenue_usd) AS total FROM revenue GROUP BY region "
        "ORDER BY total DESC LIMIT 1"
    )
    answer = answered(revenue, "Which region has the highest total revenue?", tmp_path, sql)
    assert answer.text.splitlines()[0] == best and f"- {best} | {most}" in answer.text
    assert answer.citations and all(f",{best}," in c.text for c in answer.citations)
