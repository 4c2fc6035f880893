"""Counting tasks over real records of five genres besides plays: a table of measurements written as
CSV, as a Markdown table and as an HTML table; service logs; mail; a package list (key-value
stanzas); and, held out of development with no finder registered for it, Debian changelogs. Each
gold answer is computed here by parsers written for the generator (the csv module, patterns of
their own), never by the system's finders. Each question comes in three phrasings: a plain one,
one as users write (a parenthetical, `Answer with a number.`, `exactly as written`), and a third
kept as the blind split (family `…-blind`), scored but never tuned on."""

from __future__ import annotations

import csv
import html
import random
import re
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from longread.evals.plant import write
from longread.evals.records_data import fetch
from longread.evals.tasks import Task

Phrasings = tuple[str, str, str]  # plain, as users write, blind
Asked = tuple[Phrasings, str, str]  # (phrasings, gold, scorer)


def record_tasks(cache: Path, out: Path, rng: random.Random) -> list[Task]:
    """The tasks of every genre whose source could be fetched."""
    sources = fetch(cache)
    makers: dict[str, Callable[[Path, Path, random.Random], list[Task]]] = {
        "penguins": table_tasks,
        "logs": log_tasks,
        "howto": mail_tasks,
        "status": stanza_tasks,
        "changelogs": changelog_tasks,
    }
    tasks = []
    for source, make in makers.items():
        if source in sources:
            tasks += make(sources[source], out, rng)
    return tasks


def _leader(counts: Counter[str], phrasings: Phrasings) -> list[Asked]:
    """The question of which counts most, where one does (not a tie)."""
    (top, most), (_, second) = counts.most_common(2)
    return [(phrasings, top, "contains")] if most > second else []


def _tasks(path: str, asked: list[Asked], family: str) -> list[Task]:
    """Each question in its three phrasings; the third in the family's blind split."""
    tasks = []
    for phrasings, gold, scorer in asked:
        for n, question in enumerate(phrasings):
            tasks.append(
                Task(str(path), question, gold, scorer, family + ("-blind" if n == 2 else ""))
            )
    return tasks


# -- a table of measurements ------------------------------------------------------------------
def table_tasks(source: Path, out: Path, rng: random.Random) -> list[Task]:
    """Questions on the penguins' table, each asked of the table as CSV, Markdown or HTML."""
    with source.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    header = list(rows[0])
    csv_path = write(out / "table" / "penguins.csv", source.read_text(encoding="utf-8"))
    markdown = write(out / "table" / "penguins.md", _markdown(header, rows))
    page = write(out / "table" / "penguins.html", _html(header, rows))
    islands = Counter(r["island"] for r in rows)
    island = rng.choice(sorted(islands))
    species = rng.choice(sorted({r["species"] for r in rows}))
    females = sum(1 for r in rows if r["species"] == species and r["sex"] == "female")
    masses = [int(r["body_mass_g"]) for r in rows if r["body_mass_g"].isdigit()]
    year = rng.choice(sorted({r["year"] for r in rows}))
    in_year = sum(1 for r in rows if r["year"] == year)
    kinds = len({r["species"] for r in rows})
    asked: list[tuple[str, Asked]] = [
        (csv_path, ((
            f"How many penguins were recorded on {island} island?",
            f"How many penguins are on {island}? (Answer with a number.)",
            f"Count the rows whose island is {island}, exactly as written in the table.",
        ), str(islands[island]), "number")),
        (markdown, ((
            f"How many female {species} penguins are there?",
            f"How many {species} penguins are female? Answer with a number.",
            f"What is the number of female penguins of the species {species}?",
        ), str(females), "number")),
        (page, ((
            "What is the largest body mass recorded?",
            "What is the maximum body mass in grams? (Answer with a number.)",
            "Give the highest body mass value in the table.",
        ), str(max(masses)), "number")),
        (csv_path, ((
            f"How many penguins were measured in {year}?",
            f"How many rows have the year {year}? Reply with the number only.",
            f"In {year}, how many penguins were recorded?",
        ), str(in_year), "number")),
        (markdown, ((
            "How many different species are in the table?",
            "How many distinct penguin species are there? (Give a number.)",
            "Count the unique species.",
        ), str(kinds), "number")),
    ]  # fmt: skip
    asked += [(page, one) for one in _leader(islands, (
        "Which island has the most penguins?",
        "On which island were the most penguins measured? Give the island's name only.",
        "Name the island with the largest number of penguins.",
    ))]  # fmt: skip
    return [t for path, one in asked for t in _tasks(path, [one], "table")]


def _markdown(header: list[str], rows: list[dict[str, str]]) -> str:
    lines = ["# Palmer penguins", "", "| " + " | ".join(header) + " |"]
    lines.append("|" + "---|" * len(header))
    lines += ["| " + " | ".join(r[h] for h in header) + " |" for r in rows]
    return "\n".join(lines) + "\n"


def _html(header: list[str], rows: list[dict[str, str]]) -> str:
    cells = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(r[h])}</td>" for h in header) + "</tr>\n" for r in rows
    )
    return (
        "<html><head><title>Palmer penguins</title></head><body><h1>Palmer penguins</h1>\n"
        f"<table>\n<tr>{cells}</tr>\n{body}</table></body></html>\n"
    )


# -- service logs -----------------------------------------------------------------------------
_SYSLOG = re.compile(
    r"^([A-Z][a-z]{2}) +(\d+) (\d\d:\d\d:\d\d) (\S+) ([^\s\[:]+)(?:\[\d+\])?: (.*)$"
)


def log_tasks(source: Path, out: Path, rng: random.Random) -> list[Task]:
    """Questions on the syslog lines of the samples, joined into one log."""
    lines = []
    for sample in sorted(p for p in source.iterdir() if p.is_file()):
        lines += [
            line
            for line in sample.read_text(encoding="utf-8", errors="replace").splitlines()
            if _SYSLOG.match(line)
        ]
    path = write(out / "log" / "auth.log", "\n".join(lines) + "\n")
    parsed = [_SYSLOG.match(line).groups() for line in lines]  # type: ignore[union-attr]
    hosts = Counter(p[3] for p in parsed)
    programs = Counter(p[4] for p in parsed)
    errors = sum(1 for p in parsed if p[5].lower().startswith("error"))
    host = rng.choice([h for h, n in hosts.items() if n >= 3])
    program = rng.choice([g for g, n in programs.items() if n >= 3])
    asked: list[Asked] = [
        ((
            f"How many log lines come from the host {host}?",
            f"How many lines did host {host} log? (Answer with a number.)",
            f"Count the log entries whose host is {host}.",
        ), str(hosts[host]), "number"),
        ((
            f"How many lines were logged by {program}?",
            f"How many log lines are from the program {program}? Answer with a number.",
            f"What is the number of entries written by {program}?",
        ), str(programs[program]), "number"),
        ((
            "How many log lines are errors?",
            "How many error lines are in the log? (Answer with a number.)",
            "Count the lines that report an error.",
        ), str(errors), "number"),
    ]  # fmt: skip
    asked += _leader(hosts, (
        "Which host has the most log lines?",
            "Which host logged the most? Give the host name exactly as written.",
            "Name the host with the largest number of log entries.",
    ))  # fmt: skip
    return _tasks(path, asked, "log")


# -- mail -------------------------------------------------------------------------------------
_FROM = re.compile(r"^From: *(.+?)\s*(?:<[^>]+>)?\s*$", re.MULTILINE)


def mail_tasks(source: Path, out: Path, rng: random.Random) -> list[Task]:
    """Questions on the how-tos that are mail, joined into an mbox."""
    messages = []
    for howto in sorted(source.glob("*.txt")):
        text = howto.read_text(encoding="utf-8", errors="replace")
        head = text.split("\n\n", 1)[0]
        author = re.search(r"^From: (.*)$", head, re.MULTILINE)
        if (
            author
            and author.group(1).count("@") == 1  # (one author: who sent it is not in doubt)
            and re.search(r"^(?:Date|Subject): ", head, re.M)
        ):
            messages.append(text.rstrip("\n"))
    mbox = "".join(f"From nobody Mon Jan  1 00:00:00 2001\n{m}\n\n" for m in messages)
    path = write(out / "mail" / "howto.mbox", mbox)
    senders = Counter(
        _FROM.search(m.split("\n\n", 1)[0]).group(1).strip('"')  # type: ignore[union-attr]
        for m in messages
    )
    years = Counter(
        y.group(1)
        for m in messages
        if (y := re.search(r"^Date: .*?\b((?:19|20)\d\d)\b", m.split("\n\n", 1)[0], re.M))
    )
    sender = rng.choice(sorted(senders))
    year = rng.choice(sorted(years))
    asked: list[Asked] = [
        ((
            f"How many emails did {sender} send?",
            f"How many messages are from {sender}? (Answer with a number.)",
            f"Count the emails whose sender is {sender}.",
        ), str(senders[sender]), "number"),
        ((
            "How many emails are in the mailbox?",
            "How many messages does this archive hold? Answer with a number.",
            "What is the total number of emails?",
        ), str(len(messages)), "number"),
        ((
            f"How many emails were sent in {year}?",
            f"How many messages date from {year}? (Answer with a number.)",
            f"Count the emails sent in the year {year}.",
        ), str(years[year]), "number"),
    ]  # fmt: skip
    asked += _leader(senders, (
            "Who sent the most emails?",
            "Who wrote the most messages? Give the name exactly as written.",
            "Which sender has the largest number of emails?",
    ))  # fmt: skip
    return _tasks(path, asked, "mail")


# -- a package list ---------------------------------------------------------------------------
STANZAS = 400  # packages kept


def stanza_tasks(source: Path, out: Path, rng: random.Random) -> list[Task]:
    """Questions on the first STANZAS packages of a dpkg status file."""
    blocks = [
        b for b in source.read_text(encoding="utf-8", errors="replace").split("\n\n") if b.strip()
    ]
    blocks = blocks[:STANZAS]
    path = write(out / "stanzas" / "status.txt", "\n\n".join(blocks) + "\n")
    fields = [dict(re.findall(r"^([\w-]+): *(.*)$", b, re.MULTILINE)) for b in blocks]
    priorities = Counter(f.get("Priority", "") for f in fields if f.get("Priority"))
    sections = Counter(f.get("Section", "") for f in fields if f.get("Section"))
    sizes = {
        f["Package"]: int(f["Installed-Size"])
        for f in fields
        if f.get("Installed-Size", "").isdigit()
    }
    priority = rng.choice(sorted(priorities))
    section = rng.choice(sorted(s for s, n in sections.items() if n >= 2))
    biggest = max(sizes, key=sizes.__getitem__)
    asked: list[Asked] = [
        ((
            f"How many packages have priority {priority}?",
            f"How many packages are of priority {priority}? (Answer with a number.)",
            f"Count the entries whose Priority is {priority}, exactly as written.",
        ), str(priorities[priority]), "number"),
        ((
            f"How many packages are in the section {section}?",
            f"How many packages belong to section {section}? Answer with a number.",
            f"What is the number of packages in {section}?",
        ), str(sections[section]), "number"),
        ((
            "Which package has the largest installed size?",
            "Which package is the biggest by installed size? Give the package name only.",
            "Name the package with the highest Installed-Size.",
        ), biggest, "contains"),
    ]  # fmt: skip
    return _tasks(path, asked, "stanzas")


# -- changelogs (no finder is registered for them) --------------------------------------------
_HEADER = re.compile(r"^(\S+) \(([^)\s]+)\) ([^;]+); urgency=(\w+)", re.MULTILINE)
_TRAILER = re.compile(r"^ -- (.+?) <[^>]+>  \w{3}, \d+ \w{3} (\d{4})", re.MULTILINE)


def changelog_tasks(source: Path, out: Path, rng: random.Random) -> list[Task]:
    """Questions on each Debian changelog: who uploaded most, an uploader's uploads, entries of
    an urgency, entries in a year."""
    tasks = []
    for changelog in sorted(source.iterdir()):
        text = changelog.read_text(encoding="utf-8", errors="replace")
        path = write(out / "changelog" / changelog.name, text)
        headers, trailers = _HEADER.findall(text), _TRAILER.findall(text)
        if len(headers) != len(trailers) or len(headers) < 10:
            continue
        uploaders = Counter(name for name, _ in trailers)
        urgencies = Counter(u for *_, u in headers)
        years = Counter(y for _, y in trailers)
        who = rng.choice(sorted(uploaders))
        urgency = rng.choice(sorted(urgencies))
        year = rng.choice(sorted(years))
        asked: list[Asked] = [
            ((
                f"How many uploads did {who} make?",
                f"How many changelog entries were uploaded by {who}? (Answer with a number.)",
                f"Count the entries signed by {who}.",
            ), str(uploaders[who]), "number"),
            ((
                f"How many entries have urgency {urgency}?",
                f"How many uploads were of urgency {urgency}? Answer with a number.",
                f"What is the number of changelog entries with urgency={urgency}?",
            ), str(urgencies[urgency]), "number"),
            ((
                "How many entries are in the changelog?",
                "How many versions does this changelog list? (Answer with a number.)",
                "Count the changelog's entries.",
            ), str(len(headers)), "number"),
            ((
                f"How many uploads were made in {year}?",
                f"How many changelog entries are dated {year}? (Answer with a number.)",
                f"Count the entries from the year {year}.",
            ), str(years[year]), "number"),
        ]  # fmt: skip
        asked += _leader(uploaders, (
                "Who made the most uploads?",
                "Who signed the most changelog entries? Give the name exactly as written.",
                "Which uploader has the largest number of entries?",
        ))  # fmt: skip
        tasks += _tasks(path, asked, "changelog")
    return tasks
