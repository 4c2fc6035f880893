"""XML records as users are given them: a data dump's rows of attributes, a standard's entries
nested in countries (with an `&` written bare), a feed's items of elements; and XML as hostile
input: entities that grow without end, an external entity naming a file of this machine, a file
cut short. The statements counting the records are the test's, written by a scripted stand-in
for the code model; gold answers are computed by the test's own code (the standard library's
ElementTree, never the finder's expat reading)."""

from __future__ import annotations

import html
import random
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from counted import ask
from longread.ingest.records import find_tables

TAGS = ["bayesian", "regression", "python", "time-series", "sampling"]


def write_dump(path: Path, count: int = 120) -> list[dict[str, str]]:
    """Rows as a Q&A site's data dump writes them: one `<row …/>` a line, its HTML escaped."""
    chance = random.Random(8)
    rows = []
    for n in range(1, count + 1):
        body = f"<p>How do I fit a {chance.choice(TAGS)} model & check it?</p>"
        day = f"2021-0{chance.randint(1, 9)}-1{chance.randint(0, 9)}T08:00:00.000"
        rows.append(
            {"Id": str(n), "PostTypeId": str(chance.choice([1, 2])), "CreationDate": day,
             "Score": str(chance.randint(-3, 60)), "OwnerUserId": str(chance.randint(1, 12)),
             "Body": body}
        )  # fmt: skip
    lines = [" ".join(f'{k}="{html.escape(v)}"' for k, v in row.items()) for row in rows]
    text = '<?xml version="1.0" encoding="utf-8"?>\n<posts>\n'
    path.write_text(text + "".join(f"  <row {x} />\n" for x in lines) + "</posts>\n", "utf-8")
    return rows


def test_rows_of_a_data_dump_are_records_typed_by_their_attributes(tmp_path):
    path = tmp_path / "Posts.xml"
    rows = write_dump(path)
    [table] = find_tables(path.read_text(encoding="utf-8"), path.name)
    types = {c.name: c.type.value for c in table.columns}
    assert types["score"] == "number" and types["creationdate"] == "date"
    body = [c.name for c in table.columns].index("body")
    assert table.values[body][0] == rows[0]["Body"]  # (its entities read: `<p>…&…</p>`)
    questions = sum(row["PostTypeId"] == "1" for row in rows)
    said = ask(
        path,
        "How many posts are questions (PostTypeId 1)?",
        tmp_path,
        "SELECT count(*) FROM row WHERE posttypeid = 1",
    )
    assert said == str(questions), said
    top = max(int(row["Score"]) for row in rows)  # (as numbers: '9' is less than '60')
    said = ask(
        path, "What is the highest score of any post?", tmp_path, "SELECT max(score) FROM row"
    )
    assert said == str(top), said


def write_subdivisions(path: Path) -> Counter[str]:
    """Countries holding subdivisions, as iso-codes writes them, one name with a bare `&`."""
    chance = random.Random(2)
    parts = []
    for country in ("AD", "FR", "GB", "MH", "NO", "UG"):
        entries = "".join(
            f'\t\t<entry code="{country}-{n:02}" name="Place {n}" />\n'
            for n in range(chance.randint(3, 15))
        )
        parts.append(f'\t<country code="{country}">\n\t\t<subset type="Region">\n{entries}'
                     "\t\t</subset>\n\t</country>\n")  # fmt: skip
    text = "<?xml version='1.0'?>\n<codes>\n" + "".join(parts) + "</codes>\n"
    text = text.replace('name="Place 1"', 'name="Bikini & Kili"', 1)
    path.write_text(text, encoding="utf-8")
    root = ET.fromstring(text.replace(" & ", " &amp; "))
    return Counter(c.get("code") for c in root for s in c for _ in s)


def test_entries_nested_in_countries_carry_their_country(tmp_path):
    path = tmp_path / "subdivisions.xml"
    per_country = write_subdivisions(path)
    tables = {t.name: t for t in find_tables(path.read_text(encoding="utf-8"), path.name)}
    assert set(tables) == {"entry", "subset", "country"}  # (no template read from the markup)
    assert len(tables["entry"]) == sum(per_country.values())
    names = tables["entry"].values[[c.name for c in tables["entry"].columns].index("name")]
    assert "Bikini & Kili" in names
    (top, most), second = per_country.most_common(2)
    assert most > second[1]
    said = ask(
        path,
        "Which country has the most subdivisions?",
        tmp_path,
        "SELECT country_code, count(*) FROM entry GROUP BY country_code "
        "ORDER BY count(*) DESC LIMIT 1",
    )
    assert said == top, said
    said = ask(
        path,
        "How many subdivisions does FR have?",
        tmp_path,
        "SELECT count(*) FROM entry WHERE country_code = 'FR'",
    )
    assert said == str(per_country["FR"]), said


def test_items_of_a_feed_are_read_from_their_elements_in_one_language(tmp_path):
    chance = random.Random(5)
    items = [(f"Post {n}", chance.choice(["news", "release", "security"])) for n in range(25)]
    body = "".join(
        f"<item><title>{t}</title><title xml:lang='fr'>Billet</title><category>{c}</category>"
        f"<category>blog</category></item>\n"
        for t, c in items
    )
    path = tmp_path / "feed.rss"
    path.write_text(f"<rss version='2.0'><channel><title>Site</title>\n{body}</channel></rss>\n")
    [table] = find_tables(path.read_text(encoding="utf-8"), path.name)
    columns = [c.name for c in table.columns]
    assert table.values[columns.index("title")] == [t for t, _ in items]
    assert table.values[columns.index("category")][0] == f"{items[0][1]}, blog"
    security = sum(c == "security" for _, c in items)
    said = ask(
        path,
        "How many items mention security in their category?",
        tmp_path,
        "SELECT count(*) FROM item WHERE mentions(category, 'security') > 0",
    )
    assert said == str(security), said


def test_entities_that_grow_without_end_are_refused_quickly():
    laughs = "".join(f'<!ENTITY l{n} "{f"&l{n - 1};" * 10}">' for n in range(1, 12))
    rows = "".join(f"<row n='{n}' v='&l11;'/>\n" for n in range(10))
    text = f'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY l0 "ha">{laughs}]>\n<r>\n{rows}</r>\n'
    started = time.monotonic()
    tables = find_tables(text, "laughs.xml")
    assert time.monotonic() - started < 5
    assert all(len(str(v)) < 10_000 for t in tables for column in t.values for v in column)


def test_an_external_entity_is_not_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("the-secret-word", encoding="utf-8")
    rows = "".join(f"<row n='{n}'><v>&ext;</v></row>\n" for n in range(10))
    text = f'<?xml version="1.0"?>\n<!DOCTYPE r [<!ENTITY ext SYSTEM "file://{secret}">]>\n<r>\n{rows}</r>\n'
    tables = find_tables(text, "ext.xml")
    assert not any("the-secret-word" in str(v) for t in tables for c in t.values for v in c)


def test_a_file_cut_short_keeps_the_rows_read_before_the_cut(tmp_path):
    path = tmp_path / "Posts.xml"
    write_dump(path, 40)
    text = path.read_text(encoding="utf-8")
    cut = text[: text.index('<row Id="31"') + 20]
    [table] = find_tables(cut, path.name)
    assert len(table) == 30


def test_html_is_not_read_as_xml_records():
    page = "<!DOCTYPE html>\n<html><body>\n" + "<p class='x'>para</p>\n" * 10 + "</body></html>\n"
    assert not any(t.kind == "xml" for t in find_tables(page, "page.html"))
