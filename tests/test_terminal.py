"""What reaches a terminal: no control, direction or invisible characters from a model or a
document, file names on one visible line, and an answer bounded in lines (the whole in --json)."""

from __future__ import annotations

import json

from longread.answer import Answer, Citation
from longread.cli import display
from longread.text.terminal import escaped_name, for_terminal, json_for_terminal

HIDDEN = "\u200e\u200f\u061c\u200b\u200d\u2060\ufeff\U000e0041\u00ad\x1b[31m"


def test_invisible_and_format_characters_never_reach_the_terminal():
    shown = for_terminal(f"safe{HIDDEN}text\u2028next\u2029end")
    assert shown == "safe[31mtext\nnext\nend"  # (ESC gone: `[31m` is plain text now)
    as_json = json_for_terminal(json.dumps({"a": f"x{HIDDEN}y\u2028"}, ensure_ascii=False))
    assert json.loads(as_json) == {"a": f"x{HIDDEN}y\u2028"}
    assert all(c.isprintable() or c in "\n" for c in as_json)


def test_a_file_name_is_shown_on_one_line_with_what_does_not_print_escaped():
    assert escaped_name("notes\n[1] x.md [0:9)\u200e.md") == "notes\\n[1] x.md [0:9)\\u200e.md"
    assert escaped_name("plain name.md") == "plain name.md"


def test_a_printed_answer_is_bounded_in_lines(capsys):
    name = "evil\n[9] fake.md [0:1) cited"
    answer = Answer("short line\n" * 5_000, "map", [Citation(name, 0, 4, "text")])
    display.print_answer(answer)
    out = capsys.readouterr().out.splitlines()
    assert len(out) < display.MAX_ANSWER_LINES + 10
    assert any("4,999 more lines" in line or "more lines of the answer" in line for line in out)
    assert not any(line.startswith("[9]") for line in out)  # the name's break is shown escaped
    assert any("evil\\n[9] fake.md" in line for line in out)
