"""Records written as named fields on one line (`Date: … || User: … || Instance: …`), their
dates read to the hour, counted by a field's value and by a word their text says; a web server's
requests counted by a part of their time and by their method and status. The statements are the
test's, written by a scripted stand-in for the code model; gold answers come from the test's own
parsing with `datetime`."""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import datetime
from pathlib import Path

from counted import ask
from longread.ingest.records import find_tables
from longread.ingest.records.cells import date

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def write_records(path: Path) -> list[tuple[datetime, str, str]]:
    """Esther's verses as posted instances, a date and a user each; (date, user, text) of each.
    Some texts hold a field's mark or a word and a colon, as prose does."""
    verses = re.findall(
        r"^Est\d+:\d+ (.*)$", (EXAMPLES / "esther-kjv.txt").read_text("utf-8"), re.M
    )
    chance = random.Random(1)
    users = [str(chance.randint(10000, 99999)) for _ in range(6)]
    rows = []
    for n, verse in enumerate(verses):
        when = datetime(chance.choice([2022, 2023]), chance.randint(1, 12), chance.randint(1, 28))
        when = when.replace(hour=chance.randint(0, 23))
        text = verse if n % 9 else f"{verse} | so it is written: see the record; amen"
        rows.append((when, chance.choice(users), text))
    lines = [f"Date: {w:%b %d, %Y} {w:%H}:00 || User: {u} || Instance: {t}" for w, u, t in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return rows


def test_each_line_of_named_fields_is_a_record_whatever_its_text_holds(tmp_path):
    path = tmp_path / "records.txt"
    rows = write_records(path)
    [table] = find_tables(path.read_text(encoding="utf-8"), path.name)
    assert [c.name for c in table.columns] == ["date", "user", "instance"]
    assert [c.type.value for c in table.columns] == ["date", "number", "text"]
    assert len(table) == len(rows) and table.values[2] == [t for _, _, t in rows]
    assert table.values[0] == [f"{w:%Y-%m-%d %H}:00:00" for w, _, _ in rows]  # (to the hour)
    user = Counter(u for _, u, _ in rows).most_common()[2][0]
    said = ask(
        path,
        f"How many instances did user {user} post?",
        tmp_path,
        f"SELECT count(*) FROM records WHERE user = {user}",
    )
    assert said == str(sum(u == user for _, u, _ in rows)), said
    king = sum(bool(re.search(r"\bking\b", t, re.I)) for _, _, t in rows)
    said = ask(
        path,
        "How many instances mention the king?",
        tmp_path,
        "SELECT count(*) FROM records WHERE mentions(instance, 'king') > 0",
    )
    assert said == str(king), said


def test_dates_written_in_words_are_dates():
    assert date("May 16, 2022") == "2022-05-16"
    assert date("16 May 2022") == "2022-05-16"
    assert date("Sept. 5, 2020") == "2020-09-05"
    assert date("Feb 30, 2022") is None


def test_a_web_servers_requests_ranked_by_a_part_of_their_date(tmp_path):
    chance = random.Random(16)
    stamps = sorted(
        datetime(2024, 3, chance.randint(4, 6), chance.randint(0, 23), chance.randint(0, 59))
        for _ in range(300)
    )
    path = tmp_path / "access.log"
    path.write_text(
        "\n".join(
            f'10.0.0.{n % 7} - - [{w:%d/%b/%Y:%H:%M:%S} +0000] "GET /p{n % 3} HTTP/1.1" 200 5'
            for n, w in enumerate(stamps)
        )
        + "\n",
        encoding="utf-8",
    )
    hours = Counter(f"{w:%H}" for w in stamps).most_common()
    assert hours[0][1] > hours[1][1]
    said = ask(
        path,
        "What is the busiest hour?",
        tmp_path,
        "SELECT strftime('%H', time), count(*) FROM log GROUP BY strftime('%H', time) "
        "ORDER BY count(*) DESC LIMIT 1",
    )
    assert said == hours[0][0], said
    days = Counter(f"{w:%Y-%m-%d}" for w in stamps).most_common()
    assert days[-1][1] < days[-2][1]  # (one day has the fewest: the answer is one value)
    said = ask(
        path,
        "Which was the quietest day?",
        tmp_path,
        "SELECT date(time), count(*) FROM log GROUP BY date(time) ORDER BY count(*) ASC LIMIT 1",
    )
    assert said == days[-1][0], said
    said = ask(path, "How many requests were made?", tmp_path, "SELECT count(*) FROM log")
    assert said == str(len(stamps)), said


def test_a_share_of_requests_is_counted_from_their_method_and_status(tmp_path):
    chance = random.Random(9)
    rows = [(chance.choice(["GET", "POST"]), chance.choice([200, 200, 404, 500]), f"/p{n % 4}")
            for n in range(200)]  # fmt: skip
    path = tmp_path / "access.log"
    path.write_text(
        "\n".join(
            f'10.0.0.1 - - [04/Mar/2024:10:{n // 60 % 60:02}:{n % 60:02} +0000] "{m} {p} '
            f'HTTP/1.1" {s} 5'
            for n, (m, s, p) in enumerate(rows)
        )
        + "\n",
        encoding="utf-8",
    )
    missing = sum(1 for _, s, _ in rows if s == 404)
    said = ask(
        path,
        "What percentage of requests got a 404?",
        tmp_path,
        "SELECT round(100.0 * sum(status = 404) / count(*), 1) FROM log",
    )
    assert said == f"{round(100 * missing / len(rows), 1):g}", said
    posted = [s for m, s, _ in rows if m == "POST"]
    failed = sum(1 for s in posted if s == 500)
    said = ask(
        path,
        "What share of POST requests returned 500?",
        tmp_path,
        "SELECT round(100.0 * sum(status = 500) / count(*), 1) FROM log WHERE method = 'POST'",
    )
    assert said == f"{round(100 * failed / len(posted), 1):g}", said
