"""Records that carry a mark in their text: a gettext catalog's entries (some `#, fuzzy`, some
with a `msgid_plural`), a film's captions opened by their speaker's tag in brackets; each entry
or caption is one record whose text holds its mark, counted by the statement the test gives,
written by a scripted stand-in for the code model. Gold answers are computed by the test's own
code (`re`, `str.split`)."""

from __future__ import annotations

import random
import re
from pathlib import Path

from counted import ask
from longread.ingest.records import find_tables

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


def test_entries_of_a_catalog_are_records_holding_their_marks(tmp_path):
    path = tmp_path / "de.po"
    entries = write_catalog(path)
    fuzzy = sum("#, fuzzy" in block for block in entries)
    plural = sum("msgid_plural" in block for block in entries)
    assert 0 < fuzzy < len(entries) and 0 < plural < len(entries)
    [table] = find_tables(path.read_text(encoding="utf-8"), path.name)
    assert len(table) == len(entries)  # (an entry a message; the header's is none)
    said = ask(
        path,
        "How many entries are marked fuzzy?",
        tmp_path,
        "SELECT count(*) FROM records WHERE text LIKE '%#, fuzzy%'",
    )
    assert said == str(fuzzy), said
    said = ask(
        path,
        "How many messages have a plural form (msgid_plural)?",
        tmp_path,
        "SELECT count(*) FROM records WHERE text LIKE '%msgid_plural%'",
    )
    assert said == str(plural), said


def test_captions_tagged_with_a_speaker_in_brackets_are_records(tmp_path):
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
    [table] = find_tables(path.read_text(encoding="utf-8"), path.name)
    text = [c.name for c in table.columns].index("text")
    assert table.values[text] == [f"[{who}] {line}" for who, line in speeches]
    said = ask(
        path,
        "How many captions are tagged [LADY MACBETH]?",
        tmp_path,
        "SELECT count(*) FROM records WHERE text LIKE '[LADY MACBETH]%'",
    )
    assert said == str(lady), said
