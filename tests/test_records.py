"""Records found in text: each registered kind on a text of its genre, the general finder on
genres no kind knows, and every row's span holding what the row says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from longread.ingest.records import find_tables
from longread.ingest.records.cells import ColumnType, date, number, typed
from longread.ingest.records.table import Role

EXAMPLES = Path(__file__).parent.parent / "examples"

MBOX = """From alice@example.org Mon Mar  4 09:15:02 2024
From: Alice Moreau <alice@example.org>
To: team@example.org
Date: Mon, 04 Mar 2024 09:15:02 +0000
Subject: Release plan

The release moves to Friday.

From bob@example.org Mon Mar  4 10:01:40 2024
From: "Bob Okafor" <bob@example.org>
To: team@example.org, alice@example.org
Date: Mon, 04 Mar 2024 10:01:40 +0000
Subject: Re: Release plan

Friday works for me.
Date: inside a body is not a header block.

From alice@example.org Tue Mar  5 08:00:00 2024
From: Alice Moreau <alice@example.org>
To: team@example.org
Date: Tue, 05 Mar 2024 08:00:00 +0000
Subject: =?utf-8?q?Caf=C3=A9_order?=

Coffee for the review.
"""

LOG = """2024-03-01 12:00:05,120 INFO  [main] app.boot: starting
2024-03-01 12:00:06,004 ERROR [worker-2] db.pool: connection refused
2024-03-01 12:00:07,310 WARN  [worker-1] db.pool: retrying in 5s
2024-03-01 12:00:09,881 ERROR [worker-2] db.pool: connection refused
2024-03-01 12:00:12,002 INFO  [main] app.http: listening on 8080
2024-03-01 12:01:00,000 ERROR [worker-3] app.http: timeout after 30s
"""

LEDGER = """# Accounts

Balances at the close of March.

| Account | Owner | Balance |
|---|---|---|
| 1001 | Wren Ames | 1,250.00 |
| 1002 | Hugo Stell | 980.50 |
| 1003 | Tilda Marsh | 12,400.75 |
| 1004 | Odo Brant | -35.20 |
| 1005 | Mara Quell | 4,000.00 |
| 1006 | Piet Harlan | 310.00 |
"""

CSV = """order_id,item,quantity,price,ordered
17,"deck paint, white",4,32.50,2024-02-01
18,bilge pump,1,120.00,2024-02-03
19,"rope
(braided)",12,2.10,2024-02-03
20,deck paint,10,29.00,2024-02-09
21,anchor chain,2,88.00,2024-02-11
22,cleat,6,7.25,2024-02-12
"""

STANZAS = """Package: adduser
Version: 3.134
Maintainer: Debian Adduser Developers <adduser@packages.debian.org>
Installed-Size: 686
Description: add and remove users and groups
 This package includes the adduser and deluser commands.

Package: apt
Version: 2.6.1
Maintainer: APT Development Team <deity@lists.debian.org>
Installed-Size: 4123
Description: commandline package manager

Package: base-files
Version: 12.4
Maintainer: Santiago Vila <sanvila@debian.org>
Installed-Size: 391

Package: bash
Version: 5.2.15-2
Maintainer: Matthias Klose <doko@debian.org>
Installed-Size: 7164

Package: coreutils
Version: 9.1-1
Maintainer: Michael Stone <mstone@debian.org>
Installed-Size: 17496
"""

MINUTES = "\n".join(
    f"{speaker}: {line}"
    for speaker, line in [
        ("Chair", "Let us begin with the budget."),
        ("Treasurer", "We spent 4,100 on repairs."),
        ("Chair", "Any questions?"),
        ("Dana Holt", "Was the roof included?"),
        ("Treasurer", "It was."),
    ]
    * 5
)

CHANGELOG = "\n".join(
    f"""widget ({version}) {dist}; urgency={urgency}

  * {change}
  * Refresh the translations.

 -- {who} <{mail}>  {stamp}
"""
    for version, dist, urgency, change, who, mail, stamp in [
        (
            "2.4-1",
            "unstable",
            "medium",
            "New upstream release.",
            "Ines Duarte",
            "ines@example.org",
            "Sat, 07 Jun 2025 14:44:33 +0200",
        ),
        (
            "2.3-2",
            "unstable",
            "high",
            "Fix a crash on start.",
            "Ines Duarte",
            "ines@example.org",
            "Mon, 12 May 2025 09:01:10 +0200",
        ),
        (
            "2.3-1",
            "experimental",
            "low",
            "New upstream release.",
            "Kofi Mensah",
            "kofi@example.org",
            "Tue, 01 Apr 2025 18:20:00 +0000",
        ),
        (
            "2.2-3",
            "unstable",
            "medium",
            "Build with the new compiler.",
            "Ines Duarte",
            "ines@example.org",
            "Thu, 20 Feb 2025 11:00:00 +0100",
        ),
        (
            "2.2-2",
            "bookworm-security",
            "high",
            "Fix an overflow.",
            "Ana Sousa Lima",
            "ana@example.org",
            "Fri, 10 Jan 2025 08:30:00 +0000",
        ),
        (
            "2.2-1",
            "unstable",
            "medium",
            "New upstream release.",
            "Kofi Mensah",
            "kofi@example.org",
            "Wed, 04 Dec 2024 16:45:00 +0000",
        ),
    ]
)


def only(tables, kind):
    found = [t for t in tables if t.kind == kind]
    assert len(found) == 1, [(t.name, t.kind) for t in tables]
    return found[0]


def column(table, name):
    at = [c.name for c in table.columns].index(name)
    return [row[2][at] for row in table.rows]


def spans_hold_values(text, table):
    """Every row's span holds each of its text values as written (numbers and dates aside)."""
    for start, end, values in table.rows:
        span = " ".join(text[start:end].split())
        for col, value in zip(table.columns, values, strict=True):
            if isinstance(value, str) and col.type is ColumnType.TEXT and len(value) < 60:
                assert " ".join(value.split()) in span or col.role is Role.BODY, (value, span)


def test_cells_are_typed_as_numbers_and_dates_only_when_nearly_all_read_so():
    assert number("1,250.00") == 1250.0 and number("-35.20") == -35.2 and number("45%") == 45
    assert number("$12") == 12 and number("12 apples") is None and number("1.2.3") is None
    assert date("Mon, 04 Mar 2024 09:15:02 +0000") == "2024-03-04 09:15:02"
    assert date("2024-03-01 12:00:05,120") == "2024-03-01 12:00:05"
    assert date("Jun 21 16:47:48") == "--06-21 16:47:48"
    assert date("10/Oct/2000:13:55:36 -0700") == "2000-10-10 13:55:36"
    assert date("2024-02-30") is None and date("Friday") is None
    kind, values = typed(["3", "4.5", "", "n/a"] + ["7"] * 20)
    assert kind is ColumnType.NUMBER and values[:4] == [3, 4.5, None, None]
    assert typed(["3", "apples", "pears"])[0] is ColumnType.TEXT


def test_mail_is_a_message_a_row_with_its_sender_date_and_subject():
    tables = find_tables(MBOX, "team.mbox")
    mail = only(tables, "messages")
    assert column(mail, "sender") == ["Alice Moreau", "Bob Okafor", "Alice Moreau"]
    assert column(mail, "date")[1] == "2024-03-04 10:01:40"
    assert column(mail, "subject")[2] == "Café order"
    assert "alice@example.org" in column(mail, "recipients")[1]
    assert "Date: inside a body" in column(mail, "body")[1]  # (not a fourth message)
    assert [c.role for c in mail.columns if c.name == "sender"] == [Role.WHO]
    for start, _, _ in mail.rows:
        assert MBOX[start:].startswith("From ")


def test_log_lines_are_read_with_time_level_source_and_message():
    log = only(find_tables(LOG * 2, "app.log"), "log")
    assert len(log.rows) == 12
    assert column(log, "level").count("ERROR") == 6
    assert column(log, "source")[1] == "db.pool" and column(log, "thread")[1] == "worker-2"
    assert column(log, "time")[0] == "2024-03-01 12:00:05"
    assert column(log, "message")[5] == "timeout after 30s"
    spans_hold_values(LOG * 2, log)


def test_syslog_lines_take_their_level_from_the_text_they_open_with():
    lines = "\n".join(
        f"Jun {d:2} 16:47:{d:02} host{d % 3} sshd[{1000 + d}]: "
        + ("error: PAM: authentication failure" if d % 2 else "Accepted publickey for root")
        for d in range(1, 11)
    )
    log = only(find_tables(lines, "auth.log"), "log")
    assert column(log, "level") == ["error", None] * 5
    assert column(log, "pid")[0] == 1001 and column(log, "host")[2] == "host0"


def test_python_logging_s_default_lines_are_log_lines_with_no_time():
    said = [("WARNING", "app.db", "pool: 3 of 4 in use"), ("ERROR", "root", "Key: not found")] * 4
    text = "".join(f"{level}:{source}:{message}\n" for level, source, message in said)
    log = only(find_tables(text, "app.log"), "log")
    assert column(log, "level") == [level for level, _, _ in said]
    assert column(log, "source") == [source for _, source, _ in said]
    assert column(log, "message") == [message for _, _, message in said]


def test_a_markdown_table_is_named_by_its_heading_and_typed():
    table = only(find_tables(LEDGER, "ledger.md"), "table")
    assert table.name == "accounts"
    assert [c.name for c in table.columns] == ["account", "owner", "balance"]
    assert [c.type for c in table.columns][2] is ColumnType.NUMBER
    assert max(column(table, "balance")) == 12400.75
    spans_hold_values(LEDGER, table)


def test_a_csv_file_is_a_table_a_quoted_field_over_two_lines_included():
    table = only(find_tables(CSV, "orders.csv"), "table")
    assert table.name == "orders" and len(table.rows) == 6
    assert column(table, "item")[2] == "rope\n(braided)"
    assert column(table, "quantity") == [4, 1, 12, 10, 2, 6]
    assert [c.type for c in table.columns if c.name == "ordered"] == [ColumnType.DATE]
    start, end, _ = table.rows[2]
    assert CSV[start:end].startswith("19,") and CSV[start:end].endswith("2024-02-03")


def test_stanzas_are_rows_whose_keys_are_columns_a_folded_value_joined():
    table = only(find_tables(STANZAS, "status"), "stanzas")
    assert column(table, "package") == ["adduser", "apt", "base-files", "bash", "coreutils"]
    assert column(table, "installed_size")[4] == 17496
    assert "deluser commands" in column(table, "description")[0]
    assert [c.role for c in table.columns if c.name == "maintainer"] == [Role.WHO]


def test_dialogue_in_three_label_forms():
    macbeth = (EXAMPLES / "macbeth.md").read_text(encoding="utf-8")
    turns = only(find_tables(macbeth, "macbeth.md"), "dialogue")
    labels = re.findall(r"^\*\*(.+?)\*\*\s*$", macbeth, re.MULTILINE)  # (counted another way)
    assert len(turns.rows) == len(labels)
    assert column(turns, "speaker").count("MACBETH") == labels.count("MACBETH")
    minutes = only(find_tables(MINUTES, "minutes.txt"), "dialogue")
    assert column(minutes, "speaker")[:4] == ["Chair", "Treasurer", "Chair", "Dana Holt"]
    caps = "\n".join(f"{'HAMLET' if n % 2 else 'HORATIO'}. Line {n}, my lord." for n in range(30))
    assert len(only(find_tables(caps, "play.txt"), "dialogue").rows) == 30


def test_the_general_finder_reads_entries_led_by_one_line_and_closed_by_another():
    table = only(find_tables(CHANGELOG, "changelog"), "template")
    assert len(table.rows) == 6
    names = {c.name: c for c in table.columns}
    urgency = column(table, "urgency")
    assert urgency == ["medium", "high", "low", "medium", "high", "medium"]
    who = [c.name for c in table.columns if c.role is Role.WHO and c.type is ColumnType.TEXT]
    assert column(table, who[0]).count("Ines Duarte") == 3
    assert "Ana Sousa Lima" in column(table, who[0])
    dates = [c.name for c in table.columns if c.type is ColumnType.DATE]
    assert column(table, dates[0])[0] == "2025-06-07 14:44:33"
    assert "text" in names and "Fix an overflow." in column(table, "text")[4]
    for start, end, _ in table.rows:
        assert CHANGELOG[start:end].startswith("widget (") and "-- " in CHANGELOG[start:end]


def test_the_general_finder_reads_lines_of_a_shape_nobody_registered():
    text = "Build report\n\n" + "\n".join(
        f"build #{400 + n} on {host} took {12 + n * 1.5}s result={'pass' if n % 3 else 'FAIL'}"
        for n, host in enumerate(["ci-01", "ci-02", "ci-03"] * 4)
    )
    table = only(find_tables(text, "builds.txt"), "template")
    assert len(table.rows) == 12
    assert column(table, "result").count("FAIL") == 4
    assert column(table, "took")[1] == 13.5
    verses = (EXAMPLES / "esther-kjv.txt").read_text(encoding="utf-8")
    found = only(find_tables(verses, "esther.txt"), "template")
    assert len(found.rows) == len(re.findall(r"^Est\d+:\d+ ", verses, re.MULTILINE))


@pytest.mark.parametrize(
    "prose",
    [
        (EXAMPLES / "gnu-coding-standards.txt").read_text(encoding="utf-8")[:20_000],
        "It was a dark night. The rain fell.\n" * 200,
    ],
)
def test_prose_is_no_table_of_words(prose):
    for table in find_tables(prose, "book.txt"):
        assert table.kind == "template"
        shapes = {c.type for c in table.columns}
        assert shapes != {ColumnType.TEXT}, [c.name for c in table.columns]


SHORT_MINUTES = """# Harbour committee, 12 March

Present: Ingrid Holm (chair), Tomas Berg, Sofia Lind.

## 1. Budget

Ingrid Holm: We have two items today.
Sofia Lind: The dredging quote came in at 40,000 kronor.
Tomas Berg: That is more than last year.
Sofia Lind: The silt is worse, the contractor says.
Ingrid Holm: Let us ask for a second quote.

## 2. Moorings

Tomas Berg: Six moorings are free.
Ingrid Holm: Put them on the notice board. The meeting is closed.
"""
NOTES = (
    "A guide to the tool, in prose. " * 30
    + "\n\nNote: the cache is kept.\n\nWarning: keys are secret.\n\nNote: run it twice.\n\n"
    + "Warning: back up first.\n\nNote: read the manual.\n\n"
    + "\n\n".join(f"Paragraph {n} says more about the tool and how to use it." for n in range(40))
)


def test_short_minutes_are_turns_but_a_few_notes_in_prose_are_not():
    turns = only(find_tables(SHORT_MINUTES, "minutes.md"), "dialogue")
    said = [line.split(":")[0] for line in SHORT_MINUTES.splitlines() if ": " in line]
    assert column(turns, "speaker") == said[1:]  # (not `Present:`, who was there)
    assert not [t for t in find_tables(NOTES, "guide.md") if t.kind == "dialogue"]


GIT_LOG = "".join(
    f"commit {n:040x}\nAuthor: {who} <{who.split()[0].lower()}@x.org>\n"
    f"Date:   Mon Apr {n + 1} 10:00:00 2024 +0200\n\n    {what}\n\n"
    for n, (who, what) in enumerate(
        [("Ana Silva", "Fix the parser"), ("Ben Cole", "Add docs"), ("Ana Silva", "Add tests")] * 3
    )
)
CALENDAR = (
    "BEGIN:VCALENDAR\nVERSION:2.0\n"
    + "".join(
        f"BEGIN:VEVENT\nUID:{n}@x.org\nDTSTART:202405{n + 1:02}T090000Z\nSUMMARY:{what}\n"
        f"LOCATION:{room}\nEND:VEVENT\n"
        for n, (what, room) in enumerate([("Standup", "Room A"), ("Review", "Boardroom")] * 4)
    )
    + "END:VCALENDAR\n"
)
TAG_PAIRS = "".join(
    f'[Event "Club {n}"]\n[White "{white}"]\n[Black "Giri"]\n[Result "{result}"]\n\n'
    f"1. e4 e5 2. Nf3 {result}\n\n"
    for n, (white, result) in enumerate([("Carlsen", "1-0"), ("Ding", "0-1")] * 3)
)
XML = (
    "<catalog>\n"
    + "".join(
        f'  <book id="bk{n}">\n    <author>{who}</author>\n    <price>{n + 5}.95</price>\n'
        "  </book>\n"
        for n, who in enumerate(["Ralls", "Corets", "Ralls", "Kress", "Ralls"])
    )
    + "</catalog>\n"
)
JSON_LINES = "\n".join(
    f'{{"ts": "2024-04-0{n % 9 + 1}T10:00:00Z", "user": "{who}", "bytes": {n * 10}, '
    f'"action": "{"login" if n % 4 else "upload"}"}}'
    for n, who in enumerate(["alice", "bob", "alice", "carol", "alice", "bob", "alice"])
)


@pytest.mark.parametrize(
    ("text", "records", "key_column", "key_values", "kind"),
    [
        (GIT_LOG, r"(?m)^commit ", "author", r"(?m)^Author: ([^<\n]+?) <", "stanzas"),
        (CALENDAR, r"(?m)^BEGIN:VEVENT$", "location", r"(?m)^LOCATION:(.+)$", "stanzas"),
        (TAG_PAIRS, r'(?m)^\[Event "', "white", r'(?m)^\[White "([^"]+)"', "stanzas"),
        (XML, r"<book ", "author", r"<author>(\w+)</author>", "xml"),
    ],
)
def test_key_value_records_in_any_common_syntax_are_rows(
    text, records, key_column, key_values, kind
):
    (table,) = [t for t in find_tables(text, "records") if t.kind == kind]
    wanted = re.findall(key_values, text)
    held = [v for v in column(table, key_column) if v is not None]
    assert len(re.findall(records, text)) == len(wanted) == len(held)
    assert [str(v).split(" <")[0] for v in held] == wanted
    spans_hold_values(text, table)


def test_a_record_s_opening_line_names_it_and_the_lines_after_it_are_its_text():
    (table,) = [t for t in find_tables(GIT_LOG, "git.log") if t.kind == "stanzas"]
    assert table.name == "commit" and "commit" in table.nouns
    assert column(table, "text") == re.findall(r"(?m)^    (.+)$", GIT_LOG)
    assert [c.role for c in table.columns if c.name == "author"] == [Role.WHO]
    days = [int(d) for d in re.findall(r"(?m)^Date:   Mon Apr (\d+) ", GIT_LOG)]
    assert column(table, "date") == [f"2024-04-{d:02} 10:00:00" for d in days]  # (asctime)
    (games,) = [t for t in find_tables(TAG_PAIRS, "games.pgn") if t.kind == "stanzas"]
    assert column(games, "text") == re.findall(r"(?m)^1\. .+$", TAG_PAIRS)


def test_turns_written_name_colon_are_dialogue_not_key_value_records():
    kinds = {t.kind for t in find_tables(MINUTES, "minutes.txt")}
    assert "dialogue" in kinds and "stanzas" not in kinds


@pytest.mark.parametrize("text", [JSON_LINES, "[\n" + JSON_LINES.replace("}\n", "},\n") + "\n]\n"])
def test_json_objects_a_line_or_in_an_array_are_rows(text):
    table = only(find_tables(text, "events.json"), "json")
    assert column(table, "user") == re.findall(r'"user": "(\w+)"', text)
    assert column(table, "bytes") == [int(v) for v in re.findall(r'"bytes": (\d+)', text)]
    assert [c.role for c in table.columns if c.name == "user"] == [Role.WHO]
    spans_hold_values(text, table)


SQL_DUMP = "CREATE TABLE staff (id INT, name TEXT, dept TEXT, salary INT);\n" + "".join(
    f"INSERT INTO staff VALUES ({n}, '{who}', '{dept}', {40000 + 1000 * n});\n"
    for n, (who, dept) in enumerate(
        [("Ann Smith", "IT"), ("Bo Park", "HR"), ("Eve Jones", "IT"), ("Cid Park", "Sales")] * 3
    )
)


def test_statements_whose_commas_part_arguments_are_no_csv_but_the_rows_they_insert():
    kinds = {t.kind for t in find_tables(SQL_DUMP, "dump.sql")}
    assert "table" not in kinds and "template" not in kinds
    table = only(find_tables(SQL_DUMP, "dump.sql"), "sql")
    names = re.findall(r"VALUES \(\d+, '([^']+)'", SQL_DUMP)
    assert [v for row in table.rows for v in row[2] if v in names] == names  # (no quote kept)
    assert [c.name for c in table.columns][:4] == ["id", "name", "dept", "salary"]  # (the header)
    assert column(table, "salary") == [int(v) for v in re.findall(r"(\d+)\);", SQL_DUMP)]


ACCOUNTS_FILE = "".join(
    f"{user}:x:{n}:{n}:{user}:/home/{user}:{shell}\n"
    for n, (user, shell) in enumerate(
        [("root", "/bin/bash"), ("daemon", "/usr/sbin/nologin"), ("games", "/usr/sbin/nologin")]
        + [(f"user{k}", "/bin/bash" if k % 3 else "/usr/sbin/nologin") for k in range(7)]
    )
)
ZONES = "# time zones\n#\n#code\tcoordinates\tTZ\tcomments\n" + "".join(
    f"{code}\t+{n:04d}+{n:05d}\t{zone}" + (f"\t{note}\n" if note else "\n")
    for n, (code, zone, note) in enumerate(
        [
            ("AD", "Europe/Andorra", ""),
            ("AE", "Asia/Dubai", ""),
            ("DE", "Europe/Berlin", "most of Germany"),
            ("DE", "Europe/Busingen", "Busingen"),
            ("NO", "Europe/Oslo", ""),
            ("JP", "Asia/Tokyo", ""),
            ("US", "America/New_York", "Eastern"),
        ]
    )
)


def test_a_file_whose_first_row_is_data_has_columns_named_by_contents_or_a_comment():
    accounts = only(find_tables(ACCOUNTS_FILE, "passwd"), "table")  # (`:` parts the fields)
    names = [c.name for c in accounts.columns]  # (no header: named by what they hold)
    assert names == ["column_1", "category", "number", "number_2", "column_5", "path", "path_2"]
    assert column(accounts, "path_2") == [line.rsplit(":", 1)[1] for line in ACCOUNTS_FILE.split()]
    zones = only(find_tables(ZONES, "zone.tab"), "table")  # (comments out; a last field left out)
    assert [c.name for c in zones.columns] == ["code", "coordinates", "tz", "comments"]
    assert column(zones, "tz") == re.findall(r"\t(\w+/\w+)", ZONES)
    log = "\n".join(f"2024-03-01 12:{n:02}:05 host{n % 3}: job {n} done" for n in range(20))
    assert "table" not in {t.kind for t in find_tables(log, "jobs.txt")}  # (a time's colons)


def test_a_hyphenated_word_is_one_value_of_a_template():
    names = ["ftp-data", "ftp", "ssh", "kerberos-adm", "telnet", "smtp", "time-server", "domain"]
    text = "".join(f"{n:<16}{20 + k}/{'udp' if k % 3 else 'tcp'}\n" for k, n in enumerate(names))
    table = only(find_tables(text, "services"), "template")
    assert len(table) == len(names) and names[0] in table.rows[0][2]


def test_fields_here_and_there_in_a_long_prose_are_no_records():
    prose = "The harbour was quiet that winter, and the boats stayed in.\n" * 40
    notes = "".join(f"{prose}\nNote: item {n}\nSee: page {n}\n\n" for n in range(8))
    assert "stanzas" not in {t.kind for t in find_tables(notes, "report.txt")}
    alone = "".join(f"Note: item {n}\nSee: page {n}\n\n" for n in range(8))
    assert len(only(find_tables(alone, "notes.txt"), "stanzas")) == 8


def test_columns_no_header_names_are_named_by_what_they_hold():
    people = ["Ada Brant", "Cole Ryder", "Mina Olsen", "Tor Vik", "Eli Hart", "Noor Aziz"]
    text = "".join(
        f"{2020 + n % 4}-0{1 + n % 9}-1{n % 10},{people[n % 6]},{people[n % 6].split()[0].lower()}"
        f"@example.org,https://example.org/{n},{'open' if n % 2 else 'closed'},Q{n:03d}\n"
        for n in range(30)
    )
    table = only(find_tables(text, "people.txt"), "table")
    assert [c.name for c in table.columns] == ["date", "name", "email", "link", "category", "code"]
    assert table.columns[1].aliases == ("column_2",)  # (still called by its place)


def test_a_csv_whose_rows_leave_out_their_last_fields_is_one_table():
    header = "version,codename,created,release,eol,eol_server,eol_esm\n"
    rows = [
        f"{n}.04,Name {n},20{n:02d}-01-01,20{n:02d}-04-20,20{n + 1:02d}-01-31"
        + (f",20{n + 3:02d}-04-30" if n % 2 else "")
        + (f",20{n + 5:02d}-04-30" if n % 4 == 1 else "")
        for n in range(4, 24)
    ]
    table = only(find_tables(header + "\n".join(rows) + "\n", "releases.csv"), "table")
    assert len(table) == len(rows) and [c.name for c in table.columns][:2] == [
        "version",
        "codename",
    ]
    assert column(table, "eol_esm") == [
        f"20{n + 5:02d}-04-30" if n % 4 == 1 else None for n in range(4, 24)
    ]
