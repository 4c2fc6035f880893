"""Messages: mail (an mbox, a saved .eml, messages pasted one after another: each a block of
header lines holding `From:` and a `Date:`, `Subject:` or `To:`, then its body) and chat exports
(`[12:01] <nick> text`, `12/01/2023, 10:15 - Name: text`). Headers are read by the standard
library's mail parser, encoded words decoded."""

from __future__ import annotations

import re
from email.header import decode_header, make_header
from email.parser import HeaderParser
from email.utils import getaddresses, parseaddr

from longread.ingest.records.cells import ColumnType, date
from longread.ingest.records.kind import MIN_ROWS
from longread.ingest.records.table import Column, Role, Table, build

name = "messages"
NOUNS = ("message", "email", "mail", "e-mail", "post", "letter", "note")
WHOLE = ("mailbox", "archive", "thread", "conversation", "chat", "inbox")
_HEADER = re.compile(  # a header block: lines `Name: value` (folded lines indented)
    r"^(?:From [^\n]*\n)?(?:[A-Za-z][\w-]{0,40}:[^\n]*\n(?:[ \t]+[^\n]*\n)*){2,}", re.MULTILINE
)
_FROM = re.compile(r"^From:", re.MULTILINE | re.IGNORECASE)
_ALSO = re.compile(r"^(?:Date|Subject|To):", re.MULTILINE | re.IGNORECASE)
_MAIL_COLUMNS = (
    Column("sender", role=Role.WHO, aliases=("from", "author", "writer", "person", "who")),
    Column("sender_address", aliases=("address", "email address")),
    Column("recipients", aliases=("to", "recipient", "received", "receiver")),
    Column("date", ColumnType.DATE, Role.WHEN, aliases=("when", "sent")),
    Column("subject", aliases=("title", "topic")),
    Column("body", role=Role.BODY, aliases=("text", "content")),
)
_CHATS = (
    re.compile(  # 12/01/2023, 10:15 - Name: text   (exports of phone messengers)
        r"^\[?(?P<time>\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4},? \d{1,2}:\d\d(?::\d\d)?(?: ?[AaPp][Mm])?)"
        r"\]?(?: -|:)? (?P<sender>[^:\n]{1,40}): (?P<text>[^\n]*)",
        re.MULTILINE,
    ),
    re.compile(  # [12:01] <nick> text   (IRC and its kin)
        r"^\[?(?P<time>(?:\d{4}-\d\d-\d\d[ T])?\d\d:\d\d(?::\d\d)?)\]? "
        r"<[@+%&~]?(?P<sender>[^>\s]+)> (?P<text>[^\n]*)",
        re.MULTILINE,
    ),
)
_CHAT_COLUMNS = (
    Column("time", ColumnType.DATE, Role.WHEN, aliases=("when",)),
    Column("sender", role=Role.WHO, aliases=("from", "author", "nick", "person", "who")),
    Column("text", role=Role.BODY, aliases=("message", "content")),
)


def detect(sample: str) -> bool:
    return (
        bool(_FROM.search(sample))
        and bool(_ALSO.search(sample))
        or any(len(chat.findall(sample, 0, 20_000)) >= 3 for chat in _CHATS)
    )


def records(text: str, file_name: str) -> list[Table]:
    tables = []
    mail = _mail(text)
    if len(mail) >= 1 and (len(mail) >= MIN_ROWS or _whole(text, mail)):
        tables.append(build("messages", name, _MAIL_COLUMNS, mail, NOUNS, marked=True))
    for chat in _CHATS:
        found = [
            (m.start(), m.end(), (m["time"], m["sender"].strip(), m["text"]))
            for m in chat.finditer(text)
        ]
        if len(found) >= MIN_ROWS:
            tables.append(build("chat", name, _CHAT_COLUMNS, found, NOUNS))
    return tables


def _whole(text: str, mail: list[tuple[int, int, tuple[str, ...]]]) -> bool:
    """Whether a few messages make up the whole text (a saved message or two)."""
    return mail[0][0] <= 64 and sum(end - start for start, end, _ in mail) >= 0.8 * len(text)


def _mail(text: str) -> list[tuple[int, int, tuple[str, ...]]]:
    """(start, end, cells) of each message: a header block naming its sender, to the next."""
    heads = [
        m for m in _HEADER.finditer(text) if _FROM.search(m.group()) and _ALSO.search(m.group())
    ]
    found: list[tuple[int, int, tuple[str, ...]]] = []
    for at, head in enumerate(heads):
        end = heads[at + 1].start() if at + 1 < len(heads) else len(text)
        headers = HeaderParser().parsestr(_unfrom(head.group()))
        sender_name, address = parseaddr(_decoded(headers.get("From", "")))
        to = [
            f"{n} <{a}>" if n else a
            for n, a in getaddresses([_decoded(headers.get(h, "")) for h in ("To", "Cc")])
            if a
        ]  # (each by name and address, as a question may name either)
        sent = _decoded(headers.get("Date", ""))
        body = text[head.end() : end].strip("\n")
        found.append(
            (
                head.start(),
                end,
                (
                    sender_name or address,
                    address,
                    ", ".join(to),
                    date(sent) or sent,
                    " ".join(_decoded(headers.get("Subject", "")).split()),
                    body,
                ),
            )
        )
    return found


def _unfrom(block: str) -> str:
    """A header block without mbox's `From ` separator line."""
    return block.split("\n", 1)[1] if block.startswith("From ") else block


def _decoded(value: str) -> str:
    """A header's value with its encoded words (`=?utf-8?q?…?=`) decoded."""
    try:
        return str(make_header(decode_header(value)))
    except (ValueError, LookupError, UnicodeDecodeError):
        return value
