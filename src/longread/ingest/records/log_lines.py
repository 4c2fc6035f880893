"""Log lines: one event a line, stamped with a time, in the layouts programs write most: syslog
(`Jun 21 16:47:48 host sshd[137]: text`), a stamp and a level (`2024-03-01 12:00:05,120 ERROR
[worker-2] db.pool: text`, a host between them, or the level first), and web servers' access
logs. A syslog line's level is the level word its text opens with (`error: …`), where it has
one. Python's logging writes a level and a logger, and no time, unless told otherwise."""

from __future__ import annotations

from longread.ingest.records.cells import ColumnType
from longread.ingest.records.kind import MIN_ROWS, LinePattern
from longread.ingest.records.table import Column, Role, Table, build

name = "log"
NOUNS = ("log line", "line", "entry", "event", "log entry", "record", "message")
WHOLE = ("log", "log file", "logfile")
LEVELS = (
    "TRACE|DEBUG|FINE|FINER|FINEST|INFO|NOTICE|WARN|WARNING|ERROR|ERR|SEVERE|CRITICAL|CRIT"
    "|FATAL|ALERT|EMERG|EMERGENCY|PANIC"
)
_STAMP = (
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?"
    r"|\d{4}/\d\d/\d\d \d\d:\d\d:\d\d(?:[.,]\d+)?"
)
_FORMATS = (
    (  # syslog
        LinePattern(
            r"(?P<time>[A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d) (?P<host>\S+) "
            r"(?P<source>[^\s\[:]+)(?:\[(?P<pid>\d+)\])?: "
            rf"(?P<message>(?:(?P<level>(?i:{LEVELS}))\b)?[^\n]*)",
        ),
        ("time", "host", "source", "pid", "level", "message"),
    ),
    (  # a stamp, a host, a level: `2024-03-01 12:00:05,120 [web1] ERROR [thread] logger: text`
        LinePattern(
            rf"\[?(?P<time>{_STAMP})\]?[ \t]+(?:\[?(?P<host>[\w.-]{{1,60}})\]?[ \t]+)??"
            rf"[\[<]?(?P<level>(?i:{LEVELS}))[\]>:]?[ \t]+"
            r"(?:\[(?P<thread>[^\]\n]{1,60})\][ \t]+)?(?:(?P<source>[\w.$/-]{1,80})(?::| -)[ \t]+)?"
            r"(?P<message>[^\n]*)",
        ),
        ("time", "host", "level", "thread", "source", "message"),
    ),
    (  # a level, then a stamp: `ERROR 2024-03-01 12:00:05 text`, `[WARN] [2024-…] text`
        LinePattern(
            rf"[\[<]?(?P<level>(?i:{LEVELS}))[\]>:]?[ \t]+\[?(?P<time>{_STAMP})\]?[ \t:-]+"
            r"(?:(?P<source>[\w.$/-]{1,80}):[ \t]+)?(?P<message>[^\n]*)",
        ),
        ("time", "level", "source", "message"),
    ),
    (  # Python's logging as it writes by default: `WARNING:app.db:text` (no time)
        LinePattern(rf"(?P<level>{LEVELS}):(?P<source>[\w.$-]{{1,80}}):(?P<message>[^\n]*)"),
        ("level", "source", "message"),
    ),
    (  # a web server's access log (common or combined)
        LinePattern(
            r"(?P<client>\S+) \S+ (?P<user>\S+) \[(?P<time>[^\]\n]+)\] "
            r'"(?P<method>[A-Z]+) (?P<path>\S+)[^"\n]*" (?P<status>\d{3}) (?P<bytes>\d+|-)'
            r'(?: "(?P<referrer>[^"\n]*)" "(?P<agent>[^"\n]*)")?[^\n]*',
        ),
        ("client", "user", "time", "method", "path", "status", "bytes", "referrer", "agent"),
    ),
)
_SERVED = ("request", "hit", "visit", "access")  # (what a web server's access log's lines are)
_ROLES = {"time": Role.WHEN, "message": Role.BODY}
_TYPES = {"time": ColumnType.DATE, "pid": ColumnType.NUMBER, "status": ColumnType.NUMBER}
_ALIASES = {
    "time": ("when", "timestamp", "date"),
    "source": ("component", "program", "service", "process", "logger", "module"),
    "level": ("severity", "priority"),
    "host": ("server", "machine", "node"),
    "message": ("text",),
    "client": ("ip", "address", "visitor"),
    "status": ("status code", "code"),
}


def detect(sample: str) -> bool:
    return any(form.count(sample, 0, 50_000) >= 3 for form, _ in _FORMATS)


def records(text: str, file_name: str) -> list[Table]:
    tables = []
    for form, fields in _FORMATS:
        if form.count(text, 0, 200_000) < 3:  # (a layout the text's start has none of)
            continue
        cells = [(at, m.end(), m.group(*fields)) for at, m in form.finditer(text)]
        nouns = (*NOUNS, *_SERVED) if "path" in fields else NOUNS
        if len(cells) >= MIN_ROWS:
            tables.append(build(name, name, [_column(f) for f in fields], cells, nouns))
    return tables


def _column(field: str) -> Column:
    kind = _TYPES.get(field, ColumnType.TEXT)
    return Column(field, kind, _ROLES.get(field, Role.NONE), _ALIASES.get(field, ()))
