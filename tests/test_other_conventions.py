"""Records written in other conventions: a bank export with semicolons, decimal commas and
day-first dates; an INI file's sections with yes-or-no settings; a BibTeX file's entries of
several types; a transcript whose turns carry a time; a changelog's entries signed by who
uploaded them. The statements are the test's, written by a scripted stand-in for the code model;
every gold answer is computed by the test's own code."""

from __future__ import annotations

import random
from collections import Counter
from datetime import date
from pathlib import Path

from counted import ask
from longread.ingest.records import find_tables
from longread.ingest.records.cells import typed

CATEGORIES = ["Groceries", "Rent", "Transport", "Leisure"]


def write_export(path: Path) -> list[tuple[date, float, str]]:
    chance = random.Random(4)
    rows = [
        (date(2024, chance.randint(1, 12), chance.randint(1, 28)),
         round(chance.uniform(1, 900), 2), chance.choice(CATEGORIES))
        for _ in range(90)
    ]  # fmt: skip
    lines = [f"{d:%d.%m.%Y};{str(a).replace('.', ',')};{c}" for d, a, c in rows]
    path.write_text("Date;Amount;Category\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return rows


def test_a_bank_export_with_decimal_commas_and_day_first_dates(tmp_path):
    path = tmp_path / "export.csv"
    rows = write_export(path)
    [table] = find_tables(path.read_text(encoding="utf-8"), path.name)
    assert [c.type.value for c in table.columns] == ["date", "number", "text"]
    assert table.values[0] == [d.isoformat() for d, _, _ in rows]  # (the day first)
    assert table.values[1] == [a for _, a, _ in rows]
    march = sum(1 for d, _, _ in rows if d.month == 3)
    said = ask(
        path,
        "How many payments were made in March?",
        tmp_path,
        "SELECT count(*) FROM export WHERE strftime('%m', date) = '03'",
    )
    assert said == str(march), said
    totals = Counter()
    for _, amount, category in rows:
        totals[category] += amount
    (top, most), second = totals.most_common(2)
    assert most > second[1]
    said = ask(
        path,
        "Which category has the highest total?",
        tmp_path,
        "SELECT category, sum(amount) FROM export GROUP BY category "
        "ORDER BY sum(amount) DESC LIMIT 1",
    )
    assert said == top, said


def test_a_comma_is_a_thousands_mark_unless_the_decimals_say_otherwise():
    assert typed(["1,234", "2,500", "12,000"])[1] == [1234, 2500, 12000]
    assert typed(["1,234", "2,5", "12,75"])[1] == [1.234, 2.5, 12.75]


def test_sections_of_an_ini_file_with_a_yes_or_no_setting(tmp_path):
    chance = random.Random(6)
    services = [(f"svc-{n}", chance.choice(["true", "false"]), chance.choice(["ops", "web"]))
                for n in range(20)]  # fmt: skip
    path = tmp_path / "services.ini"
    path.write_text(
        "\n".join(f"[{n}]\nenabled = {on}\nowner = {who}\n" for n, on, who in services),
        encoding="utf-8",
    )
    [table] = find_tables(path.read_text(encoding="utf-8"), path.name)
    assert [c.name for c in table.columns] == ["name", "enabled", "owner"]
    assert table.values == [list(column) for column in zip(*services, strict=True)]
    enabled = sum(on == "true" for _, on, _ in services)
    assert enabled not in (0, len(services))
    said = ask(
        path,
        "How many services are enabled?",
        tmp_path,
        "SELECT count(*) FROM services WHERE enabled = 'true'",
    )
    assert said == str(enabled), said


def test_bibtex_entries_keep_their_type(tmp_path):
    kinds = ["article", "book", "article", "inproceedings", "book", "article"] * 3
    path = tmp_path / "refs.bib"
    path.write_text(
        "\n".join(
            f"@{kind}{{key{n},\n  author = {{Author {n % 4}}},\n  year = {{{1990 + n}}},\n}}\n"
            for n, kind in enumerate(kinds)
        ),
        encoding="utf-8",
    )
    said = ask(
        path,
        "How many entries are books?",
        tmp_path,
        "SELECT count(*) FROM refs WHERE type = 'book'",
    )
    assert said == str(kinds.count("book")), said


def test_turns_stamped_with_a_time_say_who_spoke(tmp_path):
    chance = random.Random(3)
    names = [chance.choice(["Alice", "Bob", "Chen", "Dana"]) for _ in range(40)]
    path = tmp_path / "meeting.txt"
    path.write_text(
        "\n".join(
            f"[00:{n // 60:02}:{n % 60:02}] {who}: point {n}." for n, who in enumerate(names)
        ),
        encoding="utf-8",
    )
    (top, n), second = Counter(names).most_common(2)
    assert n > second[1]
    said = ask(
        path,
        "Who spoke the most?",
        tmp_path,
        "SELECT field, count(*) FROM point GROUP BY field ORDER BY count(*) DESC LIMIT 1",
    )
    assert said == top, said


def test_the_lines_signing_a_changelog_s_entries_are_records_of_who_uploaded(tmp_path):
    chance = random.Random(5)
    uploaders = [chance.choice(["Ines Duarte", "Ana Lima", "Rui Sousa"]) for _ in range(12)]
    notes = ["LP", "Closes"]  # (a line's capitalized word, said again and again: not who uploaded)
    entries = [
        f"widget (1.{n}-1) unstable; urgency=medium\n\n  * Fix number {n}.\n"
        + f"    {notes[n // 2 % 2]}: #{1000 + n}\n"
        + f"\n -- {who} <{who.split()[0].lower()}@example.org>  "
        + f"Sat, 0{1 + n % 9} Jun 2025 14:44:33 +0200\n"
        for n, who in enumerate(uploaders)
    ]
    path = tmp_path / "changelog"
    path.write_text("\n".join(entries), encoding="utf-8")
    (top, n), second = Counter(uploaders).most_common(2)
    assert n > second[1]
    tables = find_tables(path.read_text(encoding="utf-8"), path.name)
    [signed] = [t for t in tables if [c.name for c in t.columns][:2] == ["name", "email"]]
    assert signed.values[0] == uploaders  # (not the notes' `LP:` and `Closes:`)
    said = ask(
        path,
        "Who made the most uploads?",
        tmp_path,
        "SELECT name, count(*) FROM records_4 GROUP BY name ORDER BY count(*) DESC LIMIT 1",
    )
    assert said == top, said
