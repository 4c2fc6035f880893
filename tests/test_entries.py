"""Entries of reference works, found by the general finder and counted: a dictionary whose
headwords stand in capitals, a glossary whose terms stand between marks, verses numbered chapter
and verse, speeches of a play, pieces parted by a mark, a manual's directives. The statements are
the test's, written by a scripted stand-in for the code model; gold answers are computed by the
test's own string code."""

from __future__ import annotations

import random
import re
from pathlib import Path

from counted import ask
from longread.ingest.records import find_tables

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
WORDS = (
    "abacus badger cactus dagger eagle fable gable habit icicle jacket kettle ladder magnet "
    "napkin oyster paddle quarry rabbit saddle tablet umbrella vessel waffle yonder zephyr "
    "anchor bishop candle dental ember falcon garden hollow island jungle kernel lantern dictionary"
).split()
SENSES = ("n.", "adj.", "v.t.", "v.i.", "n.")
PREFACE = (
    "PREFACE\n\nThis little book was begun in a weekly paper, and was continued in a desultory\n"
    "way at long intervals. Its definitions are its own, and the reader, being warned, will\n"
    "forgive them. A NOTE on the words: they are given in capitals, each with its sense.\n\n"
)


def write_dictionary(path: Path) -> list[str]:
    """A dictionary: a preface, then an entry a word (`WORD, n.  Its definition…`, sometimes
    over several lines, sometimes with a verse set in under it); the headwords it wrote."""
    chance = random.Random(5)
    heads = sorted(w.upper() for w in WORDS)
    entries = []
    for n, head in enumerate(heads):
        body = " ".join(chance.choice(WORDS) for _ in range(chance.randint(6, 30)))
        lines = re.findall(r".{1,60}(?:\s|$)", f"{head}, {SENSES[n % 5]}  {body.capitalize()}.")
        entry = "\n".join(line.rstrip() for line in lines)
        if n % 4 == 0:
            entry += "\n\n    So sang the poet of the " + head.lower() + ",\n        and was sorry."
        entries.append(entry)
    path.write_text(PREFACE + "\n\n".join(entries) + "\n", encoding="utf-8")
    return heads


def test_a_dictionary_is_an_entry_a_headword_with_no_column_of_its_definitions_words(tmp_path):
    book = tmp_path / "dictionary.txt"
    heads = write_dictionary(book)
    [table] = find_tables(book.read_text(encoding="utf-8"), book.name)
    names = [c.name for c in table.columns]
    assert names == ["term", "field", "text"]  # (the definition's words are its text)
    assert table.values[0] == heads
    named = book.rename(tmp_path / "bierce.txt")  # (not named for the dictionary it holds)
    defined = ask(
        named, "How many words does the book define?", tmp_path, "SELECT count(*) FROM records"
    )
    assert defined == str(len(heads)), defined


def test_terms_between_marks_are_a_glossary_however_rare_its_entries_lines(tmp_path):
    terms = [" ".join(WORDS[n : n + 1 + n % 3]) for n in range(len(WORDS) - 3)]
    paragraph = "\n".join(
        f"   Said of {' '.join(WORDS[k : k + 8])} that will not hold." for k in range(12)
    )
    text = "A glossary of the trade.\n\n" + "\n\n".join(
        f"   :{term}: n.\n\n" + "\n\n".join([paragraph] * 4) for term in terms
    )
    filled = sum(1 for line in text.splitlines() if line.strip())
    assert len(terms) < 0.03 * filled  # (a term's line is rare among the lines)
    [table] = [t for t in find_tables(text, "glossary.txt") if t.kind == "template"]
    assert table.values[0] == terms and table.columns[0].name == "term"
    kinds = (["storage", "network", "storage", "deploy"] * 9)[: len(terms)]
    glossary = tmp_path / "glossary.md"
    glossary.write_text(
        "# Glossary\n\n"
        + "\n".join(
            f"- **{t.title()}** ({k}): what it does." for t, k in zip(terms, kinds, strict=True)
        )
        + "\n",
        encoding="utf-8",
    )
    storage = sum(1 for _, k in zip(terms, kinds, strict=True) if k == "storage")
    said = ask(
        glossary,
        "How many terms are about storage?",
        tmp_path,
        "SELECT count(*) FROM records WHERE field = 'storage'",
    )
    assert said == str(storage), said


def test_verses_are_records_whose_text_holds_a_name_s_mentions(tmp_path):
    path = EXAMPLES / "esther-kjv.txt"
    verses = re.findall(r"^Est\d+:\d+ .*$", path.read_text(encoding="utf-8"), re.MULTILINE)
    saying = sum(bool(re.search(r"\bHaman\b", v)) for v in verses)
    mentions = sum(len(re.findall(r"\bHaman\b", v)) for v in verses)
    assert saying != mentions  # (else the two counts could not be told apart)
    said = ask(
        path,
        "How many verses mention Haman?",
        tmp_path,
        "SELECT count(*) FROM est WHERE mentions(text, 'Haman') > 0",
    )
    assert said == str(saying), said
    said = ask(
        path,
        "How many times is Haman mentioned?",
        tmp_path,
        "SELECT sum(mentions(text, 'Haman')) FROM est",
    )
    assert said == str(mentions), said


def test_speeches_that_say_a_word_are_counted_by_speech(tmp_path):
    path = EXAMPLES / "macbeth.md"
    speeches = re.split(r"\n(?=\*\*[^*\n]+\*\*\s*\n)", path.read_text(encoding="utf-8"))[1:]
    saying = sum(bool(re.search(r"\bblood\b", s, re.IGNORECASE)) for s in speeches)
    first = ask(
        path,
        "How many speeches mention blood?",
        tmp_path,
        "SELECT count(*) FROM dialogue WHERE mentions(text, 'blood') > 0",
    )
    assert first == str(saying), first


def write_fortunes(path: Path) -> list[tuple[str, str | None]]:
    """A fortune file: pieces parted by `%` lines, many signed `-- Name` under them; (text, who)
    of each."""
    chance = random.Random(9)
    names = ["Mark Twain", "Anon", "Grace Hopper", "Alan Perlis"]
    pieces = []
    for n in range(60):
        text = "\n".join(
            " ".join(chance.choice(WORDS) for _ in range(chance.randint(3, 9)))
            for _ in range(chance.randint(1, 4))
        )
        pieces.append((text, chance.choice(names) if n % 3 else None))
    written = [t + (f"\n\t\t-- {who}" if who else "") for t, who in pieces]
    path.write_text("\n%\n".join(written) + "\n%\n", encoding="utf-8")
    return pieces


def test_pieces_parted_by_a_mark_are_records_signed_by_their_author(tmp_path):
    path = tmp_path / "fortunes.txt"
    pieces = write_fortunes(path)
    [table] = find_tables(path.read_text(encoding="utf-8"), path.name)
    assert len(table) == len(pieces) and table.values[1] == [who for _, who in pieces]
    said = ask(
        path, "How many fortunes are in the file?", tmp_path, "SELECT count(*) FROM fortunes"
    )
    assert said == str(len(pieces)), said
    twain = sum(who == "Mark Twain" for _, who in pieces)
    said = ask(
        path,
        "How many fortunes are by Mark Twain?",
        tmp_path,
        "SELECT count(*) FROM fortunes WHERE author = 'Mark Twain'",
    )
    assert said == str(twain), said


def test_a_headings_underline_parts_nothing():
    text = "\n\n".join(
        f"Section {n}\n{'=' * len(f'Section {n}')}\n\nIt says {WORDS[n]} and more."
        for n in range(9)
    )
    assert all(table.kind != "parted" for table in find_tables(text, "guide.rst"))


def test_directives_of_a_manual_are_its_entries(tmp_path):
    kinds = ["function", "function", "data", "function", "class", "data"] * 5
    blocks = [
        f".. {kind}:: {WORDS[n]}{'(path)' if kind == 'function' else ''}\n\n"
        f"   Return the {WORDS[n + 1]} of the {WORDS[n + 2]}.\n\n   .. versionadded:: 3.{n % 4}\n"
        for n, kind in enumerate(kinds)
    ]
    path = tmp_path / "module.rst"
    path.write_text("The module\n==========\n\nIt does things.\n\n" + "\n".join(blocks), "utf-8")
    said = ask(
        path,
        "How many functions are documented?",
        tmp_path,
        "SELECT count(*) FROM records WHERE field = 'function'",
    )
    assert said == str(kinds.count("function")), said
