"""Lines named by their first word, several kinds in one file (a font's metrics: its characters
as `;`-parted keyed fields, its kern pairs as fields parted by spaces): a table per word, with
the values the test wrote; prose whose lines open with one word is none."""

from __future__ import annotations

import random

from longread.ingest.records import find_tables

GLYPHS = [f"glyph{n}" for n in range(40)]


def metrics() -> tuple[str, list[tuple[int, int, str]], list[tuple[str, str, int]]]:
    rng = random.Random(7)
    chars = [(32 + n, rng.randrange(200, 900), g) for n, g in enumerate(GLYPHS)]
    pairs = [(rng.choice(GLYPHS), rng.choice(GLYPHS), rng.randrange(-120, 40)) for _ in range(60)]
    text = "StartFontMetrics 3.0\nFontName Test-Regular\nStartCharMetrics 40\n"
    text += "".join(f"C {c} ; WX {w} ; N {g} ; B 0 -10 {w} 700 ;\n" for c, w, g in chars)
    text += "EndCharMetrics\nStartKernPairs 60\n"
    text += "".join(f"KPX {a} {b} {k}\n" for a, b, k in pairs)
    return text + "EndKernPairs\nEndFontMetrics\n", chars, pairs


def test_each_word_s_lines_are_a_table_of_their_fields():
    text, chars, pairs = metrics()
    tables = {t.name: t for t in find_tables(text, "test.afm")}
    kern = tables["kpx"]
    assert len(kern.starts) == len(pairs)
    columns = [list(values) for values in kern.values]
    assert [tuple(row) for row in zip(*columns, strict=True)] == [(a, b, k) for a, b, k in pairs]
    glyphs = tables["c"]
    names = [c.name for c in glyphs.columns]
    assert names[:3] == ["c", "wx", "n"], names
    assert list(glyphs.values[1]) == [w for _, w, _ in chars]
    assert list(glyphs.values[2]) == [g for _, _, g in chars]


def test_prose_whose_lines_open_with_one_word_is_no_table():
    rng = random.Random(3)
    words = "the cat sat on a mat and then it went away to see what was there".split()
    text = "".join(
        "The " + " ".join(rng.choice(words) for _ in range(rng.randrange(3, 14))) + ".\n"
        for _ in range(60)
    )
    assert not [t for t in find_tables(text, "story.txt") if t.name == "the"]


def test_a_word_whose_lines_stand_apart_opens_records_of_several_lines():
    rng = random.Random(5)
    people = [("Ada Brant", "ada@example.org"), ("Eli Moss", "eli@example.org")]
    uploads = []
    for n in range(30, 0, -1):
        who, mail = rng.choice(people)
        urgency = rng.choice(["low", "medium"])
        uploads.append((f"2.{n}-1", urgency, who, mail))
    words = "fix the crash when a file is empty and update docs for new option".split()

    def items() -> str:
        said = (" ".join(rng.choice(words) for _ in range(rng.randrange(3, 9))) for _ in range(3))
        return "".join(f"  * {line.capitalize()}.\n" for line in said)

    text = "".join(
        f"tool ({version}) unstable; urgency={urgency}\n\n{items()}\n"
        f" -- {who} <{mail}>  Mon, {n % 28 + 1:02} Jan 2018 10:00:00 +0000\n\n"
        for n, (version, urgency, who, mail) in enumerate(uploads)
    )
    tables = find_tables(text, "tool.changelog")
    assert not [t for t in tables if t.kind == "worded"]
    entries = next(t for t in tables if len(t) == len(uploads))
    assert entries.name != "tool"  # (not named by the document's own name)
    held = {c.name: list(v) for c, v in zip(entries.columns, entries.values, strict=True)}
    assert held["version"] == [v for v, _, _, _ in uploads]
    assert held["urgency"] == [u for _, u, _, _ in uploads]
    assert held["name"] == [w for _, _, w, _ in uploads]
