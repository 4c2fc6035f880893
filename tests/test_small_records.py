"""Counting questions on small documents of records (a mailbox, a service log, a ledger in
Markdown, meeting minutes), counted by code over their records with the statement the test
gives, written by a scripted stand-in for the code model. Each gold answer is computed here from
the lines the test wrote, by string methods of its own."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from counted import answered

PEOPLE = ["Alice Moreau <alice@example.org>", "Bram Visser <bram@example.org>"]
PEOPLE += ["Chen Wei <chen@example.org>", "Dana Kowalski <dana@example.org>"]
SENDERS = [1, 1, 0, 1, 2, 1, 0, 3, 1, 0, 1, 3, 1, 0, 1, 2, 1, 0, 1, 1]  # (who sent each message)
LEVELS = ["INFO", "INFO", "WARN", "INFO", "ERROR", "INFO", "WARN", "INFO", "INFO", "DEBUG"]
COMPONENTS = ["db.pool", "api.gateway", "auth", "scheduler", "auth", "api.gateway", "db.pool"]
ACCOUNTS = [
    ("Cash at bank", "Asset", "12,480.50"),
    ("Accounts receivable", "Asset", "8,920.00"),
    ("Equipment", "Asset", "41,300.00"),
    ("Accounts payable", "Liability", "9,870.25"),
    ("Bank loan", "Liability", "30,000.00"),
    ("Share capital", "Equity", "25,000.00"),
]
TURNS = [
    ("Ingrid Holm", "Welcome, everyone."),
    ("Tomas Berg", "Can we add the ferry timetable?"),
    ("Ingrid Holm", "Yes, as item four."),
    ("Sofia Lind", "The dredging quote came in at 40,000 kronor."),
    ("Per Ek", "That is more than last year."),
    ("Sofia Lind", "The silt is worse."),
    ("Ingrid Holm", "Let us ask for a second quote."),
    ("Per Ek", "Six moorings are free this season."),
    ("Tomas Berg", "The summer timetable starts on 1 June."),
    ("Ingrid Holm", "The meeting is closed."),
]


def _mailbox() -> str:
    messages = []
    for n, sender in enumerate(SENDERS):
        to = PEOPLE[(sender + 1 + n % 3) % len(PEOPLE)]
        messages.append(
            f"From {PEOPLE[sender].split('<')[1][:-1]} Mon Mar  4 09:{n:02d}:00 2024\n"
            f"From: {PEOPLE[sender]}\nTo: {to}\nSubject: budget item {n}\n"
            f"Date: Mon, 4 Mar 2024 09:{n:02d}:00 +0000\n\nSee the figures for item {n}.\n"
        )
    return "\n".join(messages)


def _log() -> str:
    return "\n".join(
        f"2024-05-02 10:{n // 60:02d}:{n % 60:02d},{n:03d} {LEVELS[n % len(LEVELS)]} "
        f"[worker-{n // 3 % 4}] {COMPONENTS[n % len(COMPONENTS)]}: request {n} handled"
        for n in range(140)
    )


def _ledger() -> str:
    rows = "\n".join(f"| {a} | {t} | {b} |" for a, t, b in ACCOUNTS)
    return f"# Trial balance\n\n| Account | Type | Balance (EUR) |\n|---|---|---|\n{rows}\n"


def _minutes() -> str:
    spoken = "\n".join(f"{who}: {said}" for who, said in TURNS)
    present = ", ".join(dict.fromkeys(who for who, _ in TURNS))  # (who was there: no turn)
    return f"# Harbour committee, minutes\n\nPresent: {present}.\n\n{spoken}\n"


def _gold() -> dict[str, str]:
    mailbox, log = _mailbox(), _log()
    senders = Counter(
        line[6:].split(" <")[0] for line in mailbox.splitlines() if line.startswith("From: ")
    )
    levels = Counter(line.split()[2] for line in log.splitlines())
    erring = Counter(
        line.split("[")[1].split("]")[0] for line in log.splitlines() if " ERROR " in line
    )
    liabilities = sum(float(b.replace(",", "")) for _, t, b in ACCOUNTS if t == "Liability")
    speakers = Counter(who for who, _ in TURNS)
    return {
        "alice": str(senders["Alice Moreau"]),
        "to chen": str(
            sum(
                1 for line in mailbox.splitlines() if line.startswith("To: ") and "Chen Wei" in line
            )
        ),
        "worker": erring.most_common(1)[0][0],
        "received": Counter(
            line[4:] for line in mailbox.splitlines() if line.startswith("To: ")
        ).most_common(1)[0][0],
        "fewest": min(senders, key=lambda s: (senders[s], s)),
        "warnings": str(levels["WARN"]),
        "liabilities": f"{liabilities:.2f}".rstrip("0").rstrip("."),
        "people": str(len(speakers)),
        "most": speakers.most_common(1)[0][0],
        "largest": max((float(b.replace(",", "")), a) for a, t, b in ACCOUNTS if t == "Liability")[
            1
        ],
    }


@pytest.mark.parametrize(
    ("name", "write", "question", "sql", "gold"),
    [
        (
            "team.mbox",
            _mailbox,
            "How many emails did Alice send?",
            "SELECT count(*) FROM messages WHERE sender = 'Alice Moreau'",
            "alice",
        ),
        (
            "team.mbox",
            _mailbox,
            "Which sender wrote the fewest messages?",
            "SELECT sender, count(*) FROM messages GROUP BY sender "
            "ORDER BY count(*), sender LIMIT 1",
            "fewest",
        ),
        (
            "team.mbox",
            _mailbox,
            "How many emails were sent to Chen Wei?",
            "SELECT count(*) FROM messages WHERE recipients LIKE '%Chen Wei%'",
            "to chen",
        ),
        (
            "service.log",
            _log,
            "Which worker logged the most errors?",
            "SELECT thread, count(*) FROM log WHERE level = 'ERROR' GROUP BY thread "
            "ORDER BY count(*) DESC LIMIT 1",
            "worker",
        ),
        (
            "team.mbox",
            _mailbox,
            "Who received the most emails?",
            "SELECT recipients, count(*) FROM messages GROUP BY recipients "
            "ORDER BY count(*) DESC LIMIT 1",
            "received",
        ),
        (
            "service.log",
            _log,
            "How many warnings are in the log?",
            "SELECT count(*) FROM log WHERE level = 'WARN'",
            "warnings",
        ),
        (
            "ledger.md",
            _ledger,
            "What is the total balance of all liabilities?",
            "SELECT sum(balance_eur) FROM trial_balance WHERE type = 'Liability'",
            "liabilities",
        ),
        (
            "minutes.md",
            _minutes,
            "How many people spoke at the meeting?",
            "SELECT count(DISTINCT speaker) FROM dialogue",
            "people",
        ),
        (
            "minutes.md",
            _minutes,
            "Who said the most?",
            "SELECT speaker, count(*) FROM dialogue GROUP BY speaker "
            "ORDER BY count(*) DESC LIMIT 1",
            "most",
        ),
        (
            "ledger.md",
            _ledger,
            "Which liability is largest?",
            "SELECT account FROM trial_balance WHERE type = 'Liability' "
            "ORDER BY balance_eur DESC LIMIT 1",
            "largest",
        ),  # (the balances as numbers: '9,870.25' is less than '30,000.00')
    ],
)
def test_a_small_document_of_records_is_counted(tmp_path, name, write, question, sql, gold):
    path = tmp_path / name
    path.write_text(write(), encoding="utf-8")
    answer = answered(path, question, tmp_path, sql)
    expected = _gold()[gold]
    assert answer.mode == "aggregate", answer.text
    assert answer.text.strip().splitlines()[0] == expected, answer.text
    assert answer.citations and answer.usage["calls"] == 2  # (the question's kind, the statement)
    assert (
        Path(path)
        .read_text(encoding="utf-8")[answer.citations[0].start :]
        .startswith(answer.citations[0].text)
    )
