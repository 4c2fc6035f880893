"""Model and document text made safe for a terminal: no escape sequences, no control characters,
no bidirectional overrides that would make a line read otherwise than it is stored."""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and the bidi embedding/override/isolate marks.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# What shows nothing yet changes how a line reads or is copied: soft hyphen, direction marks,
# zero-width characters, invisible operators, the byte order mark, tag characters.
_INVISIBLE = re.compile(
    "[\u00ad\u061c\u180e\u200b-\u200f\u2060-\u2064\u206a-\u206f\ufeff\ufff9-\ufffb"
    "\U000e0000-\U000e007f]"
)
_SEPARATOR = re.compile("[\u2028\u2029]")  # a line or paragraph break in all but name


def for_terminal(text: str) -> str:
    """`text` without the characters a terminal would act on (ESC starts every escape sequence)
    or that show nothing; line and paragraph separators become line breaks."""
    return _SEPARATOR.sub("\n", _INVISIBLE.sub("", _UNSAFE.sub("", text)))


def escaped_name(name: str) -> str:
    """A file name as one visible line: every character that does not print (a line break, a
    tab, a direction mark) written as its escape (`\\n`, `\\u200e`)."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in name)


def json_for_terminal(json_text: str) -> str:
    """JSON text with those characters written as \\u escapes (still the same JSON)."""
    return _HIDDEN.sub(_json_escape, json_text)


_HIDDEN = re.compile(f"{_UNSAFE.pattern}|{_INVISIBLE.pattern}|{_SEPARATOR.pattern}")


def _json_escape(match: re.Match[str]) -> str:
    """A character as JSON's escapes of its UTF-16 code units (two beyond the first plane)."""
    data = match[0].encode("utf-16-be")
    return "".join(
        f"\\u{int.from_bytes(data[i : i + 2], 'big'):04x}" for i in range(0, len(data), 2)
    )
