"""Which reader turns a counting question into a plan best, and how fast: the rules, or a local
model filling the plan under the source's JSON schema (llama.cpp's grammar), asked first.

Six small documents of records written here from a seeded random source (a mailbox, a service
log, JSON Lines events, a CSV of orders, a git log, meeting minutes), twelve counting questions
in users' words, each gold answer computed here by string methods of this script (never the
project's finders). Every question is asked with `--mode aggregate` in-process, once per reader:
the rules (a scripted root model that must not be called), then each local model given (its
plans asked for first; a plan that does not hold falls back to the rules, and the table says how
many plans the model's own reading answered). Seconds are the median per question, this machine,
each question asked once before it is timed (the index built, the records found, the model
loaded). The table goes to docs/bench-plan-readers.md.

    python bench/plan_readers.py [--models smollm2-135m gemma3-270m …] [--dir DIR]

(The models not yet fetched are fetched once: 1.9 GB for the four.)
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections import Counter
from pathlib import Path

from longread.api import SingleDocRLM
from longread.llm.base import LM
from longread.llm.scripted import ScriptedLM
from longread.llm.specs import resolve_model

ROOT = Path(__file__).resolve().parents[1]
PEOPLE = ["Alice Moreau", "Bram Visser", "Chen Wei", "Dana Kowalski"]
Question = tuple[str, str, str]  # (file, question, gold: the answer's first words)


def documents(folder: Path, chance: random.Random) -> list[Question]:
    """The documents, written into `folder`, and the questions about them with their gold."""
    asked: list[Question] = []
    senders = [chance.choice(PEOPLE) for _ in range(30)]
    (folder / "team.mbox").write_text(
        "\n".join(
            f"From x@example.org Mon Mar  4 09:{n:02}:00 2024\nFrom: {who} <{who[0].lower()}@"
            f"example.org>\nTo: team@example.org\nSubject: item {n}\n"
            f"Date: Mon, 4 Mar 2024 09:{n:02}:00 +0000\n\nSee item {n}.\n"
            for n, who in enumerate(senders)
        ),
        encoding="utf-8",
    )
    most = Counter(senders).most_common(1)[0][0]
    asked += [
        ("team.mbox", "Who sent the most emails?", most),
        ("team.mbox", "How many emails did Chen Wei send?", str(senders.count("Chen Wei"))),
    ]
    levels = [chance.choice(["INFO", "INFO", "WARN", "ERROR"]) for _ in range(200)]
    parts = [chance.choice(["db.pool", "api", "auth"]) for _ in range(200)]
    (folder / "service.log").write_text(
        "".join(
            f"2024-05-02 10:{n // 60:02}:{n % 60:02},000 {lv} [main] {part}: request {n}\n"
            for n, (lv, part) in enumerate(zip(levels, parts, strict=True))
        ),
        encoding="utf-8",
    )
    erring = Counter(p for lv, p in zip(levels, parts, strict=True) if lv == "ERROR")
    asked += [
        ("service.log", "How many log lines are errors?", str(levels.count("ERROR"))),
        ("service.log", "Which component logged the most errors?", erring.most_common(1)[0][0]),
    ]
    events = [
        {"user": chance.choice(["ann", "ben", "cy"]), "action": chance.choice(["login", "upload"])}
        for _ in range(120)
    ]
    (folder / "events.jsonl").write_text(
        "".join(json.dumps({"n": n, **e}) + "\n" for n, e in enumerate(events)), encoding="utf-8"
    )
    uploads = Counter(e["user"] for e in events if e["action"] == "upload")
    asked += [
        (
            "events.jsonl",
            "How many events are logins?",
            str(sum(e["action"] == "login" for e in events)),
        ),
        ("events.jsonl", "Which user uploaded the most?", uploads.most_common(1)[0][0]),
    ]
    orders = [
        (chance.choice(PEOPLE), chance.choice(["rope", "paint", "pump"]), chance.randint(1, 9))
        for _ in range(40)
    ]
    (folder / "orders.csv").write_text(
        "customer,item,quantity\n" + "".join(f"{c},{i},{q}\n" for c, i, q in orders),
        encoding="utf-8",
    )
    asked += [
        (
            "orders.csv",
            "What is the total quantity of paint ordered?",
            str(sum(q for _, i, q in orders if i == "paint")),
        ),
        (
            "orders.csv",
            "How many orders did Dana Kowalski place?",
            str(sum(c == "Dana Kowalski" for c, _, _ in orders)),
        ),
    ]
    authors = [chance.choice(PEOPLE) for _ in range(25)]
    (folder / "git.log").write_text(
        "".join(
            f"commit {n:040x}\nAuthor: {who} <{who[0].lower()}@x.org>\n"
            f"Date:   Mon Apr {n % 28 + 1} 10:00:00 2024 +0200\n\n    Change {n}\n\n"
            for n, who in enumerate(authors)
        ),
        encoding="utf-8",
    )
    asked += [
        ("git.log", "Who made the most commits?", Counter(authors).most_common(1)[0][0]),
        ("git.log", "How many commits did Bram Visser make?", str(authors.count("Bram Visser"))),
    ]
    speakers = [chance.choice(PEOPLE) for _ in range(24)]
    (folder / "minutes.md").write_text(
        "# Board meeting\n\n"
        + "".join(f"{who}: Point {n} is noted.\n" for n, who in enumerate(speakers)),
        encoding="utf-8",
    )
    asked += [
        ("minutes.md", "Who spoke the most?", Counter(speakers).most_common(1)[0][0]),
        (
            "minutes.md",
            "How many times did Alice Moreau speak?",
            str(speakers.count("Alice Moreau")),
        ),
    ]
    return asked


def never_called(request: object) -> str:
    raise AssertionError("the rules read plans without a model")


def measured(root: LM, folder: Path, asked: list[Question]) -> tuple[int, int, float]:
    """(answers right, plans the model's own reading answered, median seconds a question)."""
    right = by_model = 0
    seconds = []
    for name, question, gold in asked:
        path = folder / name
        with SingleDocRLM(
            path, root, root, store_path=folder / f"{name}.sqlite", cache=False
        ) as doc:
            doc.ask(question, mode="aggregate")  # (indexed, records found, model loaded)
            started = time.perf_counter()
            answer = doc.ask(question, mode="aggregate")
            seconds.append(time.perf_counter() - started)
        right += answer.text.startswith(gold)
        by_model += "read by the model" in answer.text
    return right, by_model, statistics.median(seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--models",
        nargs="*",
        default=["smollm2-135m", "gemma3-270m", "qwen2.5-coder-0.5b", "qwen2.5-coder-1.5b"],
    )
    parser.add_argument("--dir", type=Path, default=Path("/tmp/longread-plan-readers"))
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    asked = documents(args.dir, random.Random(11))
    readers: list[tuple[str, LM]] = [("rules", ScriptedLM(never_called))]
    for key in args.models:
        model = resolve_model(f"local:{key}")
        model.reads_plans = True  # (asked first, as a model measured to read plans would be)
        readers.append((f"local:{key}", model))
    rows = []
    for label, root in readers:
        for old in args.dir.glob("*.sqlite*"):
            old.unlink()
        right, by_model, seconds = measured(root, args.dir, asked)
        own = "—" if label == "rules" else f"{by_model}/{len(asked)}"
        rows.append(f"| {label} | {right}/{len(asked)} | {own} | {seconds:.2f} s |")
        print(rows[-1], flush=True)
    table = "\n".join(
        [
            "| reader | answers right | plans the model's own reading answered "
            "| seconds a question (median) |",
            "|---|---|---|---|",
            *rows,
        ]
    )
    (ROOT / "docs" / "bench-plan-readers.md").write_text(
        "# Plan readers: the rules or a local model\n\nWritten by `python bench/plan_readers.py` "
        "(see its docstring for what is measured), on this machine (2 cores).\n\n" + table + "\n",
        encoding="utf-8",
    )
    print(table)


if __name__ == "__main__":
    main()
