"""A model's prose reply cleared of two failures of small models: a loop (a stretch said again
right after itself, until the token limit) is cut after its first copy, and an echo of the
prompt's own scaffolding (its `Question:` or `Text:` labels) is cut where it starts."""

from __future__ import annotations

import re

MIN_LOOP_CHARS = 16  # a stretch this long said twice in a row is a loop, not emphasis
SCANNED_CHARS = 20_000  # of a reply searched for a loop (the search is quadratic at worst)
_LOOP = re.compile(
    rf"(?<!\S)(?P<unit>(?=\W{{0,3}}\w)\S.{{{MIN_LOOP_CHARS - 1},400}}?)\s*(?P=unit)", re.DOTALL
)
_LABEL = re.compile(r"^[ \t]*([A-Z][\w ]{0,24}):", re.MULTILINE)


def cut_loop(reply: str) -> str:
    """The reply up to the end of the first copy of the first stretch it says twice in a row."""
    m = _LOOP.search(reply, 0, SCANNED_CHARS)
    return reply if m is None else reply[: m.end("unit")].rstrip()


def cut_echo(reply: str, prompt: str) -> str:
    """The reply without what echoes the prompt's labels: a label leading the reply is dropped,
    and the reply ends where one of them appears later."""
    labels = {m.group(1) for m in _LABEL.finditer(prompt)}
    if not labels:
        return reply
    echo = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(labels))) + r"):")
    lead = echo.match(reply.lstrip())
    if lead:
        reply = reply.lstrip()[lead.end() :].lstrip()
    later = echo.search(reply)
    return reply if later is None else reply[: later.start()].rstrip()
