"""Counting questions on documents of several genres, each read once into a plan and answered by
code from the records found in the text, the rows counted cited; the gold here is computed by
walking the text another way (the rules read them: a model writing the query is tested in
test_sql_reader)."""

from __future__ import annotations

import re
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from longread.api import SingleDocRLM
from longread.llm.scripted import ScriptedLM
from longread.query import read as reading
from longread.query.core import execute
from longread.store.record_query import mentions
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


def never_called(request) -> str:
    raise AssertionError("a count must not call a model")


def ask(tmp_path: Path, name: str, text: str, question: str, root=None):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    lm = ScriptedLM(never_called)
    with SingleDocRLM(
        path, root or lm, lm, store_path=tmp_path / f"{name}.sqlite", cache=False
    ) as rlm:
        return rlm.query(question), path.read_text(encoding="utf-8")


def test_mail_who_sent_the_most_and_how_many_one_sent(tmp_path):
    senders = Counter(re.findall(r"^From: ([^<\n]+?) <", MAILBOX, re.MULTILINE))
    ((best, most),) = senders.most_common(1)
    answer, _ = ask(tmp_path, "crew.mbox", MAILBOX, "Who sent the most emails?")
    assert answer.text.startswith(f"{best}: {most} emails, the most.")
    assert answer.usage["calls"] == 0 and answer.citations
    assert all(f"From: {best}" in c.text for c in answer.citations)
    answer, _ = ask(tmp_path, "crew.mbox", MAILBOX, "How many emails did Hugo Stell send?")
    assert answer.text.startswith(f"{senders['Hugo Stell']} emails.")


def test_log_lines_that_are_errors_and_the_component_with_most(tmp_path):
    errors = [line for line in LOG.splitlines() if " ERROR " in line]
    answer, text = ask(tmp_path, "app.log", LOG, "How many log lines are errors?")
    assert answer.text.startswith(f"{len(errors)} log lines.")
    assert all(" ERROR " in c.text for c in answer.citations)
    by_source = Counter(re.search(r"\] (\S+):", line).group(1) for line in errors)
    ((source, n),) = by_source.most_common(1)
    answer, _ = ask(tmp_path, "app.log", LOG, "Which source has the most errors?")
    assert answer.text.startswith(f"{source}: {n} ")


def test_a_table_its_largest_value_its_total_and_a_row_named(tmp_path):
    rows = re.findall(r"^\| (\d+) \| ([^|]+?) \| ([-\d,.]+) \|$", LEDGER, re.MULTILINE)
    balances = {account: float(value.replace(",", "")) for account, _, value in rows}
    best = max(balances, key=balances.__getitem__)
    answer, _ = ask(tmp_path, "ledger.md", LEDGER, "Which account has the largest balance?")
    assert answer.text.startswith(f"{best}: {balances[best]:,.2f}".rstrip("0").rstrip("."))
    assert answer.citations[0].text.startswith(f"| {best} |")
    answer, _ = ask(tmp_path, "ledger.md", LEDGER, "What is the total balance?")
    assert f"{sum(balances.values()):,.2f}".rstrip("0") in answer.text.splitlines()[0]
    answer, _ = ask(tmp_path, "ledger.md", LEDGER, "How many accounts have a balance over 1000?")
    assert answer.text.startswith(f"{sum(v > 1000 for v in balances.values())} ")


def test_minutes_speakers_written_name_colon(tmp_path):
    turns = Counter(line.split(":")[0] for line in MINUTES.splitlines()[2:])
    answer, _ = ask(tmp_path, "minutes.md", MINUTES, "How many times did Dana Holt speak?")
    assert answer.text.startswith(f"{turns['Dana Holt']} ")
    ((best, most),) = turns.most_common(1)
    answer, _ = ask(tmp_path, "minutes.md", MINUTES, "Who spoke the most at the meeting?")
    assert answer.text.startswith(f"{best}: {most} ")


@pytest.mark.parametrize(
    "question",
    [
        "How many emails did Wren Ames send? (Answer with a number.)",
        "How many emails did Wren Ames send? Reply with the number only.",
        "Count the emails Wren Ames sent, exactly as written in the mailbox.",
    ],
)
def test_a_question_asked_as_users_ask_it_reads_the_same(tmp_path, question):
    sent = len(re.findall(r"^From: Wren Ames <", MAILBOX, re.MULTILINE))
    answer, _ = ask(tmp_path, "crew.mbox", MAILBOX, question)
    assert answer.mode == "aggregate" and answer.text.startswith(f"{sent} emails")


def test_a_question_is_read_into_a_plan_once(tmp_path, monkeypatch):
    calls = []
    original = reading.read_rules

    def counted(question, catalog):
        calls.append(question)
        return original(question, catalog)

    monkeypatch.setattr(reading, "read_rules", counted)
    answer, _ = ask(tmp_path, "crew.mbox", MAILBOX, "Who sent the most emails?")
    assert answer.mode == "aggregate" and calls == ["Who sent the most emails?"]

    calls.clear()  # (as the CLI asks: the cost estimated for every mode, then the answer)
    path, lm = tmp_path / "crew.mbox", ScriptedLM(never_called)
    with SingleDocRLM(path, lm, lm, store_path=tmp_path / "cli.sqlite", cache=False) as rlm:
        estimates = rlm.estimate("How many emails did Wren Ames send?")
        answer = rlm.query("How many emails did Wren Ames send?")
    assert len(estimates) > 3 and answer.mode == "aggregate"
    assert calls == ["How many emails did Wren Ames send?"]


def test_an_operation_over_a_column_the_table_lacks_is_no_count(tmp_path):
    reader = ScriptedLM(lambda request: "NONE", writes_code=False)
    question = "What is the average height of the owners?"
    answer, _ = ask(tmp_path, "ledger.md", LEDGER, question, reader)
    assert answer.mode != "aggregate"
    assert all(r.json_schema is None for r in reader.requests)


def test_two_tables_of_one_shape_in_a_document_are_counted_as_one(tmp_path):
    """Tables under one heading with the same columns share a stored table: their rows add up,
    and so do their values' counts."""

    def week(first: str) -> str:
        return "| day | sold |\n|---|---|\n" + "".join(
            f"| {first}{n} | {n} |\n" for n in range(1, 6)
        )

    text = f"# Sales\n\n{week('mon')}\n# Sales\n\n{week('tue')}"
    answer, _ = ask(tmp_path, "sales.md", text, "What is the total sold?")
    assert answer.mode == "aggregate" and answer.text.startswith(f"{2 * sum(range(1, 6))} ")


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
    lm = ScriptedLM(never_called)
    with SingleDocRLM(path, lm, lm, store_path=tmp_path / "pdf.sqlite", cache=False) as rlm:
        answer = rlm.query("Which account has the largest balance?")
    assert answer.mode == "aggregate" and answer.usage["calls"] == 0
    assert answer.text.startswith(f"{best}: {balances[best]:,.2f}".rstrip("0").rstrip("."))
    assert answer.citations and best in answer.citations[0].text


def test_a_name_after_a_column_s_name_is_that_column_s_whole_value_where_it_is_one(tmp_path):
    battle = script(
        "A battle",
        [
            ("Siward", "The castle yields."),
            ("Young Siward", "What is thy name?"),
            ("Macduff", "Turn, hell-hound, turn."),
            ("Siward", "This way, my lord."),
            ("Young Siward", "Thou liest."),
            ("Young Siward", "I am not afraid."),
            ("Macduff", "That way the noise is."),
        ],
        3,
    )
    turns = Counter(line.split(":")[0] for line in battle.splitlines()[2:])
    answer, _ = ask(
        tmp_path, "battle.md", battle, "How many times does the character Siward speak?"
    )
    assert answer.text.startswith(f"{turns['Siward']} ")  # (not Young Siward's turns too)
    answer, _ = ask(
        tmp_path, "battle.md", battle, "How many turns did the speaker Young Siward take?"
    )
    assert answer.text.startswith(f"{turns['Young Siward']} ")


def test_records_of_genres_no_kind_names_are_counted_by_their_keys(tmp_path):
    from test_records import CALENDAR, GIT_LOG, JSON_LINES

    authors = Counter(re.findall(r"(?m)^Author: ([^<\n]+?) <", GIT_LOG))
    ((best, most),) = authors.most_common(1)
    answer, _ = ask(tmp_path, "git.log", GIT_LOG, "Who made the most commits?")
    assert answer.text.startswith(f"{best} ") and f": {most} commits" in answer.text
    answer, _ = ask(tmp_path, "cal.ics", CALENDAR, "How many events are in Room A?")
    assert answer.text.startswith(f"{CALENDAR.count('LOCATION:Room A')} ")
    answer, _ = ask(tmp_path, "events.jsonl", JSON_LINES, "How many events did alice perform?")
    alice = JSON_LINES.count('"user": "alice"')
    assert answer.text.startswith(f"{alice} ")
    logins = sum('"alice"' in line and '"login"' in line for line in JSON_LINES.splitlines())
    answer, _ = ask(tmp_path, "events.jsonl", JSON_LINES, "How often did alice log in?")
    assert answer.text.startswith(f"{logins} ")  # (`log in`: the value `login`)
    assert answer.usage["calls"] == 0


def test_a_name_in_capitals_is_a_value_and_a_figure_is_rounded_as_asked(tmp_path):
    from test_records import SQL_DUMP

    depts = re.findall(r"'(\w+)', (\d+)\);", SQL_DUMP)
    answer, _ = ask(tmp_path, "dump.sql", SQL_DUMP, "How many employees work in IT?")
    assert answer.text.startswith(f"{sum(1 for d, _ in depts if d == 'IT')} ")  # (`IT`, not `it`)
    pages = [137, 250, 411, 98, 305, 222]
    books = "title\tpages\n" + "".join(f"Book {n}\t{p}\n" for n, p in enumerate(pages))
    mean = sum(pages) / len(pages)
    answer, _ = ask(tmp_path, "books.tsv", books, "What is the average number of pages (rounded)?")
    assert answer.text.startswith(f"{round(mean)} pages")
    answer, _ = ask(
        tmp_path, "books.tsv", books, "What is the mean of pages, to one decimal place?"
    )
    assert answer.text.startswith(f"{round(mean, 1)} pages")


def test_a_word_several_values_hold_names_them_all(tmp_path):
    from test_records import ACCOUNTS_FILE, ZONES

    europe = len(re.findall(r"\tEurope/", ZONES))
    answer, _ = ask(tmp_path, "zone.tab", ZONES, "How many time zones are in Europe?")
    assert answer.text.startswith(f"{europe} ")
    nologin = ACCOUNTS_FILE.count(":/usr/sbin/nologin\n")
    question = "How many accounts have /usr/sbin/nologin as their shell?"
    answer, _ = ask(tmp_path, "passwd", ACCOUNTS_FILE, question)
    assert answer.text.startswith(f"{nologin} ")


def test_what_is_counted_is_named_by_the_rows_noun_not_by_whose_they_are(tmp_path):
    play = (Path(__file__).parent.parent / "examples" / "macbeth.md").read_text(encoding="utf-8")
    first_act = re.split(r"(?m)^#+ *ACT ", play)[1]
    said = len(re.findall(r"(?m)^\*\*MACBETH\*\*\s*$", first_act))
    answer, _ = ask(tmp_path, "macbeth.md", play, "Count Macbeth's speeches in Act 1.")
    assert answer.text.startswith(f"{said} speeches.")


def test_a_figure_column_named_like_its_file_is_summed(tmp_path):
    rows = [("Q1", "EMEA", 2308), ("Q2", "APAC", 4388), ("Q3", "EMEA", 1250), ("Q4", "AMER", 990)]
    rows *= 2
    text = 'quarter,region,"revenue (USD)"\n' + "".join(
        f'{q},{r},"${v:,}.00"\n' for q, r, v in rows
    )
    emea = sum(v for _, r, v in rows if r == "EMEA")
    answer, _ = ask(tmp_path, "revenue.csv", text, "What is the total revenue for EMEA?")
    assert answer.text.startswith(f"{emea:,} revenue")
    by_region = {r: sum(v for _, g, v in rows if g == r) for _, r, _ in rows}
    best = max(by_region, key=by_region.__getitem__)
    answer, _ = ask(tmp_path, "revenue.csv", text, "Which region has the highest total revenue?")
    assert answer.text.startswith(f"{best}: {by_region[best]:,} revenue")


@pytest.mark.parametrize("word", ["root", "Root cause", "café", "naïve", "ROOT"])
def test_the_letters_tested_first_keep_every_row_the_word_test_keeps(word):
    """A mention is tested by SQLite's substring test first, then by the word test: together
    they keep exactly the rows the word test alone keeps (case, word edges, spacing, letters
    SQLite does not fold)."""
    texts = ["Root login", "rooted tree", "the ROOT", "uproot", "root\n  cause", "root-cause",
             "Éclair, root", "NAÏVE café", "CAFÉ au lait", "naïveté", None]  # fmt: skip
    db = sqlite3.connect(":memory:")
    db.create_function("mentions", 2, mentions, deterministic=True)
    db.execute("CREATE TABLE t (text)")
    db.executemany("INSERT INTO t VALUES (?)", [(t,) for t in texts])
    clause, params = execute._mentioned('"text"', word)
    kept = [t for (t,) in db.execute(f"SELECT text FROM t WHERE {clause}", params)]
    assert kept == [t for t in texts if mentions(t, word)]
    assert kept or word == "naïve"  # (the test holds something to keep)
