"""Records written in other conventions, asked as a user would: a bank export with semicolons,
decimal commas and day-first dates; an INI file's sections with yes-or-no settings; a BibTeX
file's entries of several types; a transcript whose turns carry a time. Every gold answer is
computed by the test's own code."""

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
    assert table.values[1] == [a for _, a, _ in rows]
    march = sum(1 for d, _, _ in rows if d.month == 3)
    assert ask(path, "How many payments were made in March?", tmp_path).startswith(f"{march} ")
    totals = Counter()
    for _, amount, category in rows:
        totals[category] += amount
    top = max(totals, key=totals.__getitem__)
    said = ask(path, "Which category has the highest total?", tmp_path)
    assert said.startswith(f"{top}: {totals[top]:,.2f}"), said


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
    assert table.values[0] == [n for n, _, _ in services]
    enabled = sum(on == "true" for _, on, _ in services)
    assert enabled not in (0, len(services))
    assert ask(path, "How many services are enabled?", tmp_path).startswith(f"{enabled} ")
    off = len(services) - enabled
    assert ask(path, "How many services are not enabled?", tmp_path).startswith(f"{off} ")


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
    said = ask(path, "How many entries are books?", tmp_path)
    assert said.startswith(f"{kinds.count('book')} "), said


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
    assert ask(path, "Who spoke the most?", tmp_path).startswith(f"{top}: {n} ")


def test_who_did_the_most_is_read_in_the_records_spanning_the_text(tmp_path):
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
    assert ask(path, "Who made the most uploads?", tmp_path).startswith(f"{top}: {n} ")


def test_a_word_put_in_a_column_keeps_the_rows_whose_column_holds_it(tmp_path):
    subjects = ["[HOWTO] Revert", "Question", "[HOWTO] Use hooks", "Re: Question", "[HOWTO] Pack"]
    path = tmp_path / "howto.mbox"  # (named for what its subjects say too)
    path.write_text(
        "".join(
            f"From a{n}@example.org Mon Apr 14 17:0{n}:00 2024\nFrom: Ann <a{n}@example.org>\n"
            f"Subject: {subject}\nDate: Mon, 14 Apr 2024 17:0{n}:00 +0000\n\nHow to do it.\n\n"
            for n, subject in enumerate(subjects * 2)
        ),
        encoding="utf-8",
    )
    howto = 2 * sum(1 for s in subjects if "HOWTO" in s)
    said = ask(path, "How many emails have HOWTO in the subject?", tmp_path)
    assert said.startswith(f"{howto} emails"), said
