"""Rows kept by a mark they carry, as the question names it: `marked fuzzy`, `tagged [Ana]`, an
identifier written as code writes it (`msgid_plural`); an identifier that names a column is that
column. Gold answers are computed by the test's own code (`re`, `str.split`)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from counted import ask

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

MESSAGES = [
    "Invalid field name.", "Field must be equal to other.", "Field must be longer.",
    "Invalid email address.", "Invalid IP address.", "Passwords do not match.",
    "Not a valid choice.", "This field is required.", "Invalid input.", "Invalid URL.",
    "Not a valid integer.", "Not a valid date.", "File type not allowed.", "Too many files.",
]  # fmt: skip


def write_catalog(path) -> list[str]:
    """A gettext catalog: a header entry, then an entry per message, some fuzzy, some with a
    plural; each entry's block as written."""
    chance = random.Random(3)
    blocks = ['msgid ""\nmsgstr ""\n"Language: de\\n"\n']
    for n, message in enumerate(MESSAGES):
        lines = [f"#: src/forms/validators.py:{40 + 7 * n}"]
        if chance.random() < 0.3:
            lines.append("#, fuzzy")
        lines.append(f'msgid "{message}"')
        if chance.random() < 0.3:
            lines += [f'msgid_plural "{message} (many)"', 'msgstr[0] "X"', 'msgstr[1] "Y"']
        else:
            lines.append(f'msgstr "Übersetzt {n}"')
        blocks.append("\n".join(lines) + "\n")
    path.write_text("\n".join(blocks), encoding="utf-8")
    return blocks[1:]


def test_entries_marked_or_holding_an_identifier_are_counted(tmp_path):
    path = tmp_path / "de.po"
    entries = write_catalog(path)
    fuzzy = sum("#, fuzzy" in block for block in entries)
    plural = sum("msgid_plural" in block for block in entries)
    assert 0 < fuzzy < len(entries) and 0 < plural < len(entries)
    said = ask(path, "How many entries are marked fuzzy?", tmp_path)
    assert said.startswith(f"{fuzzy} entries"), said
    said = ask(path, "How many messages have a plural form (msgid_plural)?", tmp_path)
    assert said.startswith(f"{plural} messages"), said


def test_captions_tagged_with_a_speaker_in_brackets_are_counted(tmp_path):
    """Macbeth's speeches as a film's captions, each opened by its speaker's tag in brackets."""
    play = (EXAMPLES / "macbeth.md").read_text(encoding="utf-8")
    speeches = re.findall(r"^\*\*([^*]+)\*\*\s*\n([^\n]+?)\s*$", play, re.M)[:400]
    cues = []
    for n, (who, line) in enumerate(speeches, 1):
        at = 5 + 3 * n
        stamp = f"00:{at // 60:02}:{at % 60:02}.000 --> 00:{at // 60:02}:{at % 60:02}.900"
        cues.append(f"{n}\n{stamp}\n[{who}] {line}")
    path = tmp_path / "film.vtt"
    path.write_text("WEBVTT\n\n" + "\n\n".join(cues) + "\n", encoding="utf-8")
    lady = sum(who == "LADY MACBETH" for who, _ in speeches)
    assert 0 < lady < len(speeches)
    said = ask(path, "How many captions are tagged [LADY MACBETH]?", tmp_path)
    assert said.startswith(f"{lady} captions"), said


def test_an_identifier_that_names_a_column_is_the_column(tmp_path):
    chance = random.Random(4)
    rows = [(f"acct-{n:03}", chance.randrange(-500, 90_000)) for n in range(30)]
    path = tmp_path / "balances.csv"
    body = "\n".join(f"{name},{balance}" for name, balance in rows)
    path.write_text(f"account_name,closing_balance\n{body}\n", encoding="utf-8")
    top = max(rows, key=lambda row: row[1])[0]
    said = ask(path, "Which account has the largest closing_balance?", tmp_path)
    assert re.match(rf"{top}\b", said), said
