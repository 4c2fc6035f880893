"""A play in the plain layouts it is printed in beside Markdown: Project Gutenberg's (`MACBETH.`
alone on a line over the speech, headings as plain lines), a screenplay's (the name indented in
capitals over the indented speech, `(V.O.)` after some) and a record of debates' (`Mr. MACBETH.`
before the words). The statements counting the speeches are the test's, written by a scripted
stand-in for the code model; gold answers are computed by the test's own reading of the
Markdown source (`**Name**` over each speech), never the system's."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from counted import ask
from longread.index.single import SingleDocIndex
from longread.query.core.catalog import document_catalog
from longread.store.docstore import DocStore

MACBETH = Path(__file__).resolve().parents[1] / "examples" / "macbeth.md"


def speeches() -> list[tuple[str, str]]:
    """(act, speaker in capitals) of each speech of the Markdown source."""
    act, found = "", []
    for line in MACBETH.read_text(encoding="utf-8").splitlines():
        if line.startswith("## ACT"):
            act = line[3:].strip()
        named = re.fullmatch(r"\*\*(.+?)\*\*\s*", line)
        if named:
            found.append((act, named[1].upper()))
    return found


def relaid(layout: str) -> str:
    """The Markdown source in a plain layout: headings as plain lines, directions in brackets,
    each speaker's name in capitals over the speech (a screenplay's, every third with a note in
    brackets; a record of debates', after a title, before the speech's first line)."""
    out, name, said = [], None, 0
    for line in MACBETH.read_text(encoding="utf-8").splitlines():
        line = line.rstrip()
        named = re.fullmatch(r"\*\*(.+?)\*\*", line)
        if named:
            name, said = named[1].upper(), said + 1
            if layout == "gutenberg":
                out.append(f"{name}.")
            elif layout == "screenplay":
                out.append(f"{' ' * 20}{name}{' (V.O.)' if said % 3 == 0 else ''}")
        elif layout == "debates" and name and line and not line.startswith(("#", "_")):
            out.append(f"  {'Mr.' if said % 2 else 'Ms.'} {name}. {line}")
            name = None
        elif line.startswith("#"):
            out.append(line.lstrip("# ").upper() if line.startswith("# ") else line.lstrip("# "))
        elif re.fullmatch(r"_.*_", line):
            out.append(f"  [{line.strip('_')}]")
        else:
            out.append(line if layout == "gutenberg" or not line else f"{' ' * 10}{line}")
    return "\n".join(out) + "\n"


def spoken(path: Path, tmp_path: Path) -> Counter[str]:
    """The speeches of each speaker, as the index's records hold them."""
    store = DocStore(tmp_path / "spoken.sqlite")
    catalog = document_catalog(SingleDocIndex.build(path, store), path.name)
    found = catalog.query.execute("SELECT speaker, count(*) FROM dialogue GROUP BY speaker")
    catalog.close()
    store.close()
    return Counter(dict(found.rows))


@pytest.mark.parametrize("layout", ["gutenberg", "screenplay", "debates"])
def test_a_play_printed_plain_is_read_speech_by_speech(tmp_path, layout):
    path = tmp_path / f"macbeth-{layout}.txt"
    path.write_text(relaid(layout), encoding="utf-8")
    said = speeches()
    assert spoken(path, tmp_path) == Counter(s for _, s in said)
    macbeth = sum(speaker == "MACBETH" for _, speaker in said)
    answer = ask(
        path,
        "How many speeches does Macbeth have?",
        tmp_path,
        "SELECT count(*) FROM dialogue WHERE speaker = 'MACBETH'",
    )
    assert answer == str(macbeth), answer
    second = sum(act == "ACT II" for act, _ in said)
    answer = ask(
        path,
        "How many speeches are there in Act 2?",
        tmp_path,
        "SELECT count(*) FROM dialogue WHERE act = 'ACT II'",
    )
    assert answer == str(second), answer


def test_a_heading_line_shaped_like_a_label_opens_no_speech(tmp_path):
    path = tmp_path / "macbeth-gutenberg.txt"
    text = relaid("gutenberg").replace("\nSCENE ", "\nSCENE. ")  # (`SCENE. II. A room.`)
    path.write_text(text, encoding="utf-8")
    said = Counter(s for _, s in speeches())
    assert spoken(path, tmp_path) == said  # (no speech of `SCENE`, none cut by it)
    answer = ask(
        path,
        "Who has the most speeches?",
        tmp_path,
        "SELECT speaker, count(*) FROM dialogue GROUP BY speaker ORDER BY count(*) DESC LIMIT 1",
    )
    assert answer == said.most_common(1)[0][0], answer
