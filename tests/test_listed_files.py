"""Files that list things a line or a block each, as systems ship them: a certificate bundle whose
fields are comments, subtitles, a pronouncing dictionary, locales parted by spaces, a package
tool's history whose runs leave fields out, a family tree of leveled lines. The statements are
the test's, written by a scripted stand-in for the code model (see statements); gold answers are
computed by the test's own code (`re`, `str.split`)."""

from __future__ import annotations

import random
import re
import time

from counted import ask
from longread.index.first_need import ensure_records
from longread.index.single import SingleDocIndex
from longread.ingest.records import find_tables
from longread.ingest.records.cells import typed
from longread.query.core.catalog import document_catalog
from longread.store.docstore import DocStore

ISSUERS = ["Acme Trust Ltd", "Globe Sign Inc", "Nordic CA AB", "Acme Trust Ltd"]


def write_bundle(path, count: int = 24) -> list[tuple[str, int]]:
    """A bundle of certificates, each opened by `# Key: value` comment lines, as certifi
    writes it; (issuer, serial) of each."""
    chance = random.Random(5)
    made, blocks = [], []
    for n in range(count):
        issuer = chance.choice(ISSUERS)
        serial = chance.randrange(10**30, 10**38)  # (far past what SQLite stores as an integer)
        made.append((issuer, serial))
        body = "\n".join("".join(chance.choices("ABCDEFGHabcdefgh0123+/", k=64)) for _ in range(3))
        blocks.append(
            f"# Issuer: CN=Root {n} O={issuer}\n# Subject: CN=Root {n} O={issuer}\n"
            f'# Label: "Root {n}"\n# Serial: {serial}\n'
            f"-----BEGIN CERTIFICATE-----\n{body}\n-----END CERTIFICATE-----\n"
        )
    path.write_text("\n".join(blocks), encoding="utf-8")
    return made


def test_fields_written_as_comments_are_a_block_s_columns(tmp_path):
    path = tmp_path / "cacert.pem"
    made = write_bundle(path)
    sql = "SELECT count(*) FROM cacert"
    assert ask(path, "How many certificates are in the bundle?", tmp_path, sql) == str(len(made))
    nordic = sum(issuer == "Nordic CA AB" for issuer, _ in made)
    question = "How many certificates were issued by Nordic CA AB?"
    sql = "SELECT count(*) FROM cacert WHERE issuer LIKE '%O=Nordic CA AB'"
    assert ask(path, question, tmp_path, sql) == str(nordic)
    top = max(serial for _, serial in made)  # (a serial too long for an integer: its digits kept)
    sql = "SELECT serial FROM cacert ORDER BY length(serial) DESC, serial DESC LIMIT 1"
    assert ask(path, "What is the largest serial?", tmp_path, sql) == str(top)


def test_digits_too_many_for_a_quantity_are_codes_and_a_huge_number_is_stored(tmp_path):
    serials = [str(random.Random(n).randrange(10**30, 10**38)) for n in range(12)]
    assert typed(serials) == ("text", serials)
    huge = ["3", "14", str(2**70), *[str(n) for n in range(20)]]
    kind, values = typed(huge)
    assert kind == "number" and values[2] == float(2**70) and values[1] == 14
    path = tmp_path / "sizes.csv"
    path.write_text("name,size\n" + "".join(f"f{n},{v}\n" for n, v in enumerate(huge)), "utf-8")
    store = DocStore(tmp_path / "sizes.sqlite")
    index = SingleDocIndex.build(path, store)
    ensure_records(store, index.store_id, path.name)  # (an integer past 2**63 raised here)
    assert sum(rows for _, rows in store.records.tables([index.store_id])) >= len(huge)
    store.close()


def test_a_subtitle_line_opening_with_a_number_opens_no_subtitle(tmp_path):
    chance = random.Random(2)
    said = ["Where is Ron?", "Run, Ron!", "Stay classy.", "I love lamp.", "You're so wise."]
    texts = [chance.choice(said) for _ in range(60)]
    texts[20], texts[41] = "1001 nights, he said.", "9 o'clock sharp."  # (a few, as in films)
    blocks = [
        f"{n}\n00:{n // 60:02}:{n % 60:02},000 --> 00:{n // 60:02}:{n % 60:02},900\n{text}\n"
        for n, text in enumerate(texts, 1)
    ]
    path = tmp_path / "film.srt"
    path.write_text("\n".join(blocks), encoding="utf-8")
    sql = "SELECT count(*) FROM records"
    assert ask(path, "How many subtitles are there?", tmp_path, sql) == str(len(blocks))
    ron = sum(bool(re.search(r"\bRon\b", text)) for text in texts)
    sql = "SELECT count(*) FROM records WHERE mentions(text, 'Ron') > 0"
    assert ask(path, "How many subtitles mention Ron?", tmp_path, sql) == str(ron)
    [table] = find_tables(path.read_text(encoding="utf-8"), path.name)
    assert table.values[[c.name for c in table.columns].index("text")] == texts


def write_pronouncing(path) -> list[str]:
    """A pronouncing dictionary: a word (a second pronunciation numbered) and its sounds."""
    chance = random.Random(8)
    sounds = ["AH0", "B", "AE1", "N", "D", "T", "OW2", "M", "EY1", "S", "K", "IH0"]
    letters = "abcdefghijklmnoprstuvw"
    words = sorted({"".join(chance.choices(letters, k=chance.randint(3, 9))) for _ in range(300)})
    words = ["'bout", *words[:150], "tomato", "tomato(2)", *words[150:]]
    lines = [f"{w} {' '.join(chance.choices(sounds, k=chance.randint(2, 7)))}" for w in words]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return words


def test_lines_each_opening_with_its_own_word_are_keyed_entries(tmp_path):
    path = tmp_path / "pronouncing.dict"
    words = write_pronouncing(path)
    [table] = find_tables(path.read_text(encoding="utf-8"), path.name)
    assert len(table.starts) == len(words)  # (`'bout` too: a key is the line's first word)
    sql = "SELECT count(*) FROM records"
    said = ask(path, "How many entries does the dictionary have?", tmp_path, sql)
    assert said == str(len(words)), said
    tomato = sum(w.split("(")[0] == "tomato" for w in words)
    question = "How many pronunciations does the word tomato have?"
    sql = "SELECT count(*) FROM records WHERE field = 'tomato' OR field LIKE 'tomato(%'"
    assert ask(path, question, tmp_path, sql) == str(tomato)


def test_lines_parted_by_spaces_into_as_many_fields_are_a_table(tmp_path):
    chance = random.Random(11)
    rows = []
    for n in range(60):
        locale = f"{chr(97 + n % 26)}{chr(97 + n // 26)}_{chr(65 + n % 7)}{chr(65 + n % 5)}"
        charset = chance.choice(["UTF-8", "ISO-8859-1", "ISO-8859-15"])
        rows.append((f"{locale}.UTF-8" if charset == "UTF-8" else locale, charset))
    path = tmp_path / "SUPPORTED"
    path.write_text("".join(f"{a} {b}\n" for a, b in rows), encoding="utf-8")
    sql = "SELECT count(*) FROM supported"
    assert ask(path, "How many locales are listed?", tmp_path, sql) == str(len(rows))
    utf8 = sum(charset == "UTF-8" for _, charset in rows)
    sql = "SELECT count(*) FROM supported WHERE category = 'UTF-8'"
    assert ask(path, "How many locales use the UTF-8 charset?", tmp_path, sql) == str(utf8)


def test_rows_that_have_a_field_some_rows_leave_out_are_counted(tmp_path):
    chance = random.Random(13)
    runs = []
    for n in range(20):
        fields = [f"Start-Date: 2025-06-{n + 1:02}  10:00:00", f"Commandline: apt-get run {n}"]
        if chance.random() < 0.6:
            fields.append(f"Install: pkg{n}:amd64 (1.{n})")
        if chance.random() < 0.4:
            fields.append(f"Upgrade: lib{n}:amd64 (2.{n}, 2.{n + 1})")
        fields.append(f"End-Date: 2025-06-{n + 1:02}  10:01:00")
        runs.append(fields)
    path = tmp_path / "history.log"
    path.write_text("\n\n".join("\n".join(run) for run in runs) + "\n", encoding="utf-8")
    installed = sum(any(f.startswith("Install:") for f in run) for run in runs)
    sql = "SELECT count(*) FROM history WHERE install IS NOT NULL"
    assert ask(path, "How many runs have an Install line?", tmp_path, sql) == str(installed)
    sql = "SELECT count(*) FROM history WHERE install IS NULL"
    said = ask(path, "How many runs have no Install line?", tmp_path, sql)
    assert said == str(len(runs) - installed), said
    upgraded = sum(any(f.startswith("Upgrade:") for f in run) for run in runs)
    sql = "SELECT count(*) FROM history WHERE upgrade IS NOT NULL"
    assert ask(path, "How many runs have an Upgrade line?", tmp_path, sql) == str(upgraded)
    sql = "SELECT count(*) FROM history WHERE strftime('%m', end_date) = '06'"
    said = ask(path, "How many runs ended in June?", tmp_path, sql)  # (End-Date: a date)
    assert said == str(len(runs)), said


def test_an_export_reads_every_row_however_long_ago_a_bounded_statement_ran(tmp_path):
    path = tmp_path / "SUPPORTED"
    rows = [(f"l{n}_XX", "UTF-8" if n % 3 else "ISO-8859-1") for n in range(3_000)]
    path.write_text("".join(f"{a} {b}\n" for a, b in rows), encoding="utf-8")
    store = DocStore(tmp_path / "export.sqlite")
    catalog = document_catalog(SingleDocIndex.build(path, store), path.name)
    [table] = [name for name in catalog.tables if name not in ("sections", "documents")]
    catalog.query.execute("SELECT 1", seconds=0.001)  # (its time limit, long past by the export)
    time.sleep(0.01)
    header, *exported = list(catalog.query.rows(table))
    assert len(exported) == len(rows), len(exported)  # (the export was interrupted, cut short)
    assert header[3:5] == ("code", "category")  # (no header: named by what they hold)
    assert [row[header.index("code")] for row in exported] == [a for a, _ in rows]
    catalog.close()
    store.close()


def write_tree(path) -> list[dict[str, str]]:
    """A family tree as genealogy programs write it: leveled lines, a record at each depth 0."""
    chance = random.Random(21)
    people, lines = [], ["0 HEAD", "1 SOUR Test", "1 CHAR UTF-8"]
    for n in range(1, 31):
        person = {"surname": chance.choice(["Berg", "Holm", "Lind"]), "sex": chance.choice("MF"),
                  "place": chance.choice(["Oslo", "Bergen", "Tromsø"]),
                  "year": str(chance.randint(1850, 1990))}  # fmt: skip
        people.append(person)
        lines += [f"0 @I{n}@ INDI", f"1 NAME Kari{n} /{person['surname']}/",
                  f"2 SURN {person['surname']}", f"1 SEX {person['sex']}", "1 BIRT",
                  f"2 DATE {chance.randint(1, 28)} JAN {person['year']}",
                  f"2 PLAC {person['place']}"]  # fmt: skip
        if n % 4 == 0:
            lines += ["1 DEAT", f"2 DATE 1 MAR {int(person['year']) + 70}", "2 PLAC Oslo"]
    lines += [f"0 @F{n}@ FAM\n1 HUSB @I{2 * n}@\n1 WIFE @I{2 * n + 1}@" for n in range(1, 9)]
    path.write_text("\ufeff" + "\n".join([*lines, "0 TRLR"]) + "\n", encoding="utf-8")
    return people


def test_leveled_lines_are_records_a_table_to_each_kind_of_depth_0_line(tmp_path):
    path = tmp_path / "family.ged"
    people = write_tree(path)
    sql = "SELECT count(*) FROM indi"
    said = ask(path, "How many individuals are in the family tree?", tmp_path, sql)
    assert said == str(len(people)), said
    families = path.read_text(encoding="utf-8").count(" FAM\n")
    sql = "SELECT count(*) FROM fam"
    assert ask(path, "How many families are recorded?", tmp_path, sql) == str(families)
    bergen = sum(p["place"] == "Bergen" for p in people)
    sql = "SELECT count(*) FROM indi WHERE birt_plac = 'Bergen'"
    said = ask(path, "How many individuals were born in Bergen?", tmp_path, sql)
    assert said == str(bergen), said  # (the birth's place, a column apart from the death's)
    women = sum(p["sex"] == "F" for p in people)
    sql = "SELECT count(*) FROM indi WHERE sex = 'F'"
    assert ask(path, "How many individuals have SEX F?", tmp_path, sql) == str(women)
    tables = find_tables(path.read_text(encoding="utf-8"), path.name)
    [indi] = [t for t in tables if t.name == "indi"]
    born = next(n for n, c in enumerate(indi.columns) if c.name == "birt_date")
    assert indi.columns[born].type == "date"  # (`12 JAN 1901`: a month in capitals)
    assert [d[:4] for d in indi.values[born]] == [p["year"] for p in people]
