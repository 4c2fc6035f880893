"""An indented outline's lines as records: a table per depth, each line's key and text with its
parent's and its top line's, named as the file's own comment lines lay the outline out (else by
depth); comment lines and code are no outline. Gold comes from the test's own tree."""

from __future__ import annotations

import textwrap

from longread.ingest.records import find_tables, outline

TREE = {  # (key, name) of a top line: its children, each with its children
    ("10de", "Lantern Works"): {
        ("0a01", "Beacon Mk I"): ["1043 0001  Beacon Mk I (marine)", "1043 0002  Beacon Mk I"],
        ("0a02", "Beacon Mk II"): [],
        ("0a03", "Flare"): ["17aa 0003  Flare Lite"],
    },
    ("1af4", "Harbour Tools"): {
        ("1000", "Winch"): [],
        ("1001", "Capstan"): ["8086 0101  Capstan S"],
    },
    ("8086", "Tidewater"): {(f"{n:04x}", f"Buoy {n}"): [] for n in range(1, 7)},
}
SYNTAX = "# Syntax:\n# maker  maker_name\n#\tmodel  model_name\n#\t\tsubmaker submodel  variant\n"


def write(syntax: str, indent: str = "\t") -> str:
    lines = [syntax, "# A list of makers and their models.", ""]
    for (key, name), models in TREE.items():
        lines.append(f"{key}  {name}")
        for (model, title), variants in models.items():
            lines.append(f"{indent}{model}  {title}")
            lines += [f"{indent * 2}{v}" for v in variants]
    return "\n".join(lines) + "\n"


def tables(text: str) -> dict[str, tuple[list[str], list[list]]]:
    found = find_tables(text, "makers.ids")
    return {t.name: ([c.name for c in t.columns], t.values) for t in found if t.kind == "outline"}


def test_each_depth_is_a_table_holding_its_parents_named_as_the_comments_lay_it_out():
    found = tables(write(SYNTAX))
    assert set(found) == {"maker", "model", "submaker_submodel"}
    columns, values = found["model"]
    assert columns[:4] == ["model", "model_name", "parent_maker", "parent_maker_name"]
    rows = list(zip(*values, strict=True))
    expected = [(m, t, k, n) for (k, n), models in TREE.items() for (m, t) in models]
    assert [row[:4] for row in rows] == expected
    columns, values = found["submaker_submodel"]
    assert columns == [
        "submaker_submodel", "variant", "parent_model", "parent_model_name", "top_maker",
        "top_maker_name",
    ]  # fmt: skip
    variants = list(zip(*values, strict=True))
    capstan = [v for v in variants if v[2] == "1001"]
    assert capstan == [("8086 0101", "Capstan S", "1001", "Capstan", "1af4", "Harbour Tools")]


def test_without_comments_the_depths_are_numbered_and_spaces_indent_too():
    found = tables(write("", indent="    "))
    assert set(found) == {"outline_0", "outline_1", "outline_2"}
    columns, values = found["outline_1"]
    assert columns == ["level_1", "level_1_text", "parent_level_0", "parent_level_0_text"]
    counts = {}
    for parent in values[3]:
        counts[parent] = counts.get(parent, 0) + 1
    assert counts == {name: len(models) for (_, name), models in TREE.items()}


def test_code_prose_and_lists_of_comments_are_no_outline():
    code = (
        textwrap.dedent(
            """
        def walk(tree):
            for key, value in tree.items():
                if isinstance(value, dict):
                    walk(value)
                else:
                    print(key, value)
        """
        )
        * 20
    )
    prose = ("A paragraph of prose that goes on.\n    An indented quotation of it.\n\n") * 20
    for text in (code, prose, SYNTAX * 10):
        assert not outline.detect(text) or not outline.records(text, "x.txt")


def test_a_text_declaring_itself_an_outline_has_its_starred_lines_as_headings():
    from longread.ingest.headings import detect_headings

    releases = [("3.8", "2022-09-02"), ("3.7", "2021-08-14"), ("3.6", "2020-11-08")]
    text = "Tool NEWS                                    -*- outline -*-\n\n" + "".join(
        f"* Noteworthy changes in release {v} ({d}) [stable]\n\n** Bug fixes\n\n"
        f"  A fix of {v}.\n\n** New features\n\n  A feature of {v}.\n\n"
        for v, d in releases
    )
    found = detect_headings(text)
    assert [h.level for h in found] == [1, 2, 2] * len(releases)
    assert found[0].title == "Noteworthy changes in release 3.8 (2022-09-02) [stable]"
    plain = text.replace("-*- outline -*-", "")  # (not declared: a star opens a list item)
    assert all(not h.title.startswith("Noteworthy") for h in detect_headings(plain))
