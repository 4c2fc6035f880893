"""What a cell says: a number (`1,234.50`, `$12`, `-206,21` where commas mark decimals) or a date
or time (ISO, syslog, mail, `May 16, 2022`, `16.05.2022`, as ISO 8601 text), and a column's type
from its cells: a number or a date when nearly all of them read as one."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import datetime
from email.utils import parsedate_to_datetime
from enum import StrEnum
from typing import Any

TYPED_SHARE = 0.9  # of a column's non-empty values that must read as numbers (dates) to type it
SAMPLE = 400  # values a column's type is decided on


class ColumnType(StrEnum):
    TEXT = "text"
    NUMBER = "number"
    DATE = (
        "date"  # ISO 8601 text: `2024-03-01`, `2024-03-01 12:00:05`, `--06-21 16:47:48` (no year)
    )


_NUMBER = re.compile(
    r"\s*+(?P<sign>[-+−]?)\s*+[$€£¥]?\s*+(?P<digits>\d{1,3}(?:,\d{3})+|\d+)(?P<fraction>\.\d+)?"
    r"(?P<exponent>[eE][-+]?\d+)?\s*+%?\s*+"
)


def number(text: str) -> float | int | None:
    """The number a cell states (`1,234.50`, `$12`, `-3`, `45%`), else None."""
    match = _NUMBER.fullmatch(text)
    if match is None:
        return None
    sign = -1 if match["sign"] in ("-", "−") else 1
    digits = match["digits"].replace(",", "")
    if match["fraction"] is None and match["exponent"] is None:
        return sign * int(digits)
    return sign * float(digits + (match["fraction"] or "") + (match["exponent"] or ""))


_DECIMAL_COMMA = re.compile(r"(?P<sign>[-+−])?(?P<whole>\d{1,3}(?:\.\d{3})+|\d+),(?P<fraction>\d+)")


def _comma_number(text: str) -> float | None:
    """A number whose decimals a comma marks (`-1.234,5` is -1234.5), else None."""
    match = _DECIMAL_COMMA.fullmatch(text.strip())
    if match is None:
        return None
    value = float(f"{match['whole'].replace('.', '')}.{match['fraction']}")
    return -value if match["sign"] in ("-", "−") else value


_ISO = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d)(?::(\d\d))?(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?)?"
)
_SLASHED = re.compile(r"(\d{4})/(\d\d)/(\d\d)(?:[ :](\d\d):(\d\d)(?::(\d\d))?)?")
MONTHS = tuple(
    "January February March April May June July August September October November December".split()
)
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_MONTHS = {m[:3].lower(): n for n, m in enumerate(MONTHS, 1)}  # (`jan`: 1, as stamps write it)
_SYSLOG = re.compile(r"([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d\d):(\d\d):(\d\d)")
_CTIME = re.compile(  # C's asctime, as git and mbox write it: `Mon Apr 14 17:03:00 2024 +0200`
    r"(?:[A-Z][a-z]{2}\s+)?([A-Z][a-z]{2})\s+(\d{1,2})\s+(\d\d):(\d\d):(\d\d)\s+(\d{4})"
    r"(?:\s*[+-]\d{4})?"
)
_CLF = re.compile(r"(\d\d)/([A-Z][a-z]{2})/(\d{4}):(\d\d):(\d\d):(\d\d)(?:\s*[+-]\d{4})?")
_DOTTED = re.compile(
    r"(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[ T](\d\d):(\d\d)(?::(\d\d))?)?"
)  # day first
_WRITTEN = re.compile(  # `May 16, 2022`, `March 3rd 2021`, `16 May 2022`, `21st May, 2022`
    r"(?:([A-Z][a-zA-Z]{2})[a-zA-Z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?"
    r"|(\d{1,2})(?:st|nd|rd|th)?\s+([A-Z][a-zA-Z]{2})[a-zA-Z]*\.?,?)"
    r"\s+(\d{4})"
)


def _from_iso(match: re.Match[str]) -> str | None:
    y, mo, d, h, mi, s = match.groups()
    return _iso(y, mo, d, h, mi, s)


def _from_clf(match: re.Match[str]) -> str | None:
    d, mon, y, h, mi, s = match.groups()
    month = _MONTHS.get(mon.lower())
    return None if month is None else _iso(y, f"{month:02}", d, h, mi, s)


def _from_ctime(match: re.Match[str]) -> str | None:
    mon, d, h, mi, sec, y = match.groups()
    month = _MONTHS.get(mon.lower())
    return None if month is None else _iso(y, f"{month:02}", d, h, mi, sec)


def _from_dotted(match: re.Match[str]) -> str | None:
    d, mo, y, h, mi, s = match.groups()
    return _iso(y, mo, d, h, mi, s)


def _from_written(match: re.Match[str]) -> str | None:
    mon, d, day, month_name, y = match.groups()
    month = _MONTHS.get((mon or month_name).lower())
    return None if month is None else _iso(y, f"{month:02}", d or day, None, None, None)


def _from_syslog(match: re.Match[str]) -> str | None:
    mon, d, h, mi, s = match.groups()
    month = _MONTHS.get(mon.lower())
    return None if month is None else f"--{month:02}-{int(d):02} {h}:{mi}:{s}"


_FORMATS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str | None]], ...] = (
    (_ISO, _from_iso),
    (_SLASHED, _from_iso),
    (_CLF, _from_clf),
    (_CTIME, _from_ctime),
    (_SYSLOG, _from_syslog),
    (_WRITTEN, _from_written),
    (_DOTTED, _from_dotted),
)


def date(text: str) -> str | None:
    """A date or time as ISO 8601 text (`2005-06-21 16:47:48`; `--06-21 16:47:48` for a yearless
    syslog stamp), else None. Reads ISO, `2024/03/01`, RFC 2822 (mail), C's asctime (git, mbox)
    and common log formats."""
    text = text.strip()
    if not text or len(text) > 64 or not any(c.isdigit() for c in text):
        return None
    for pattern, convert in _FORMATS:
        match = pattern.fullmatch(text)
        if match:
            return convert(match)
    if "," in text or text[:3].lower() in _MONTHS or text[:1].isdigit():
        try:
            stamp = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
        return _stamp(stamp)
    return None


def _date_reader(sample: Sequence[str]) -> Callable[[str], str | None]:
    """`date`, trying first the format most of the sample is written in; each distinct cell read
    once, and a stamp of the fixed-width formats (ISO, syslog) read as its day (read once) and
    its time as written."""
    votes = [sum(1 for v in sample if p.fullmatch(v.strip())) for p, _ in _FORMATS]
    best = max(range(len(_FORMATS)), key=votes.__getitem__)
    if not votes[best]:
        return _memo(date)
    pattern, convert = _FORMATS[best]
    slow = _memo(lambda text: convert(match) if (match := pattern.fullmatch(text)) else date(text))
    fixed = _FIXED.get(pattern)
    if fixed is None:
        return slow
    width, cut, read_day = fixed
    day = _memo(read_day)

    def read(text: str) -> str | None:
        if (len(text) == width or len(text) > width and not text[width].isdigit()) and text[
            cut - 1
        ] in " T":
            clock = text[cut : cut + 8]
            if clock[2:3] == clock[5:6] == ":" and clock.replace(":", "").isdigit():
                known = day(text[: cut - 1])
                return None if known is None else f"{known} {clock}"
        return slow(text)

    return read


def _syslog_day(text: str) -> str | None:
    """A syslog stamp's day (`Jun 21`) as `--06-21`."""
    month = _MONTHS.get(text[:3].lower())
    if month is None or not text[4:].strip().isdigit():
        return None
    return f"--{month:02}-{int(text[4:]):02}"


def _iso_day(text: str) -> str | None:
    return date(text) if text[4:5] == text[7:8] == "-" else None


_FIXED = {  # a format's stamp width, where its time starts, and its day's reader
    _ISO: (19, 11, _iso_day),
    _SYSLOG: (15, 7, _syslog_day),
}


def _iso(y: str, mo: str, d: str, h: str | None, mi: str | None, s: str | None) -> str | None:
    try:
        stamp = datetime(int(y), int(mo), int(d), int(h or 0), int(mi or 0), int(s or 0))
    except ValueError:
        return None
    return stamp.strftime("%Y-%m-%d") if h is None else _stamp(stamp)


def _stamp(stamp: datetime) -> str:
    return stamp.strftime("%Y-%m-%d %H:%M:%S")


CODE_SHARE = 0.1  # of a column's digits that must read as codes for it to hold codes
_CODE = re.compile(r"0\d+|\d{19,}")  # (led by zeros, `008`; or longer than a quantity, a serial)
_WHOLE = 2**63  # (SQLite's integers are below this, and at least its negative)


def typed(values: Sequence[str | None]) -> tuple[ColumnType, list[Any]]:
    """A column's type from its values (a sample of SAMPLE, spread over them), and the values as
    that type (an empty cell, or one that does not read as the column's type, `n/a`, is None).
    Digits written with leading zeros, or too many to be a quantity, are codes, kept as written."""
    step = max(1, len(values) // (2 * SAMPLE))
    sample = [v for v in values[::step] if v and not v.isspace()][:SAMPLE]
    if not sample and step > 1:
        sample = [v for v in values if v and not v.isspace()][:SAMPLE]
    if not sample:
        return ColumnType.TEXT, [None] * len(values)
    codes = sum(1 for v in sample if _CODE.fullmatch(v.strip())) >= CODE_SHARE * len(sample)
    if not codes and sum(number(v) is not None for v in sample) >= TYPED_SHARE * len(sample):
        return ColumnType.NUMBER, _numbers(values)
    commas = [_DECIMAL_COMMA.fullmatch(v.strip()) for v in sample]
    if sum(1 for m in commas if m) >= TYPED_SHARE * len(sample) and any(
        m and len(m["fraction"]) != 3 for m in commas
    ):  # (`-206,21`, `1.234,5`: a comma marks the decimals; `1,234` alone could be a thousand)
        return ColumnType.NUMBER, [_comma_number(v) if v else None for v in values]
    if sum(date(v) is not None for v in sample) >= TYPED_SHARE * len(sample):
        read = _date_reader(sample)
        return ColumnType.DATE, [read(v) if v else None for v in values]
    return ColumnType.TEXT, [(v.strip() or None) if v else None for v in values]


def _numbers(values: Sequence[str | None]) -> list[float | int | None]:
    """The values as numbers: whole numbers all at once where they all are, else one by one;
    whole numbers too large to store as integers, as floats."""
    try:
        numbers: list[float | int | None] = [int(v) if v else None for v in values]
    except ValueError:
        numbers = [_number_fast(v) if v else None for v in values]
    present = list(filter(None, numbers))  # (zeros and empty cells overflow nothing)
    if present and (max(present) >= _WHOLE or min(present) < -_WHOLE):
        return [float(v) if isinstance(v, int) else v for v in numbers]
    return numbers


def _number_fast(text: str) -> float | int | None:
    """`number`, most cells read by int or float alone."""
    if text[:1].isdigit() or text[:1] == "-":
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                pass
    return number(text)


def _memo(read: Callable[[str], Any]) -> Callable[[str], Any]:
    """`read`, each distinct cell read once (log stamps and the like repeat)."""
    seen: dict[str, Any] = {}

    def cached(text: str) -> Any:
        found = seen.get(text, seen)
        if found is seen:
            found = seen[text] = read(text)
        return found

    return cached
