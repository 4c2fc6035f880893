"""Model and document text made safe for a terminal: no escape sequences, no control characters,
no bidirectional overrides that would make a line read otherwise than it is stored."""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls, and the bidi embedding/override/isolate marks.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def for_terminal(text: str) -> str:
    """`text` without the characters a terminal would act on (ESC starts every escape sequence)."""
    return _UNSAFE.sub("", text)


def json_for_terminal(json_text: str) -> str:
    """JSON text with those characters written as \\u escapes (still the same JSON)."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m[0]):04x}", json_text)
