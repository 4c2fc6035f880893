"""Two-document questions over corpora of real man pages (this machine's /usr/share/man/man1,
rendered to plain text by dropping roff requests and font escapes): 200 and 2,000 pages, with
two halves of a made-up fact put into two different pages for each question. Four shapes of
question: the captain of the ship that carried a cargo (200 and 2,000 pages), the birthplace of
whoever repaired a landmark, the town of the firm that makes a lamp, and what the ship a captain
commanded carried (200 pages). Writes the corpora and a task file, runs `longread eval` on it
with the default model and prints its table.

    python bench/man_hops.py [--out DIR] [--model SPEC] [--mode M]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import subprocess
import sys
from pathlib import Path

MAN = Path("/usr/share/man/man1")
_REQUEST = re.compile(r"^[.'].*$", re.MULTILINE)
_ESCAPE = re.compile(r"\\f[BIRP1-4]|\\f\(..|\\[&e]|\\\(..")
SHIPS = "Morning Lark|Silver Crane|Grey Heron|Red Kestrel|Sea Thistle|Iron Gull|North Wren"
SHIPS += "|Pale Osprey|Amber Swift|Storm Petrel"
CARGO = "bolts of silk|casks of wine|bales of wool|sacks of salt|crates of tin|chests of tea"
CARGO += "|barrels of tar|loads of timber|jars of honey|coils of rope"
PLACES = "Dunmore|Calloway|Brixham|Tarrow|Ellisford|Penhallow|Corrin|Wexmoor|Ashby|Lindqvist"
PEOPLE = "Tomas Reed|Ilse Varga|Odo Brant|Mara Quell|Piet Harlan|Nell Ashgrove|Ruan Vesey"
PEOPLE += "|Greta Lund|Caspar Moll|Yara Fenn"
THINGS = (
    "clock tower|old mill|stone bridge|chapel roof|harbour wall|town well|grain store|east gate"
)
FIXERS = "Anselm Roe|Bria Tolland|Emric Hale|Sanne Dorsey|Vito Carrow|Wren Ames|Hugo Stell"
FIXERS += "|Tilda Marsh"
TOWNS = "Halden|Riven|Ostley|Fenwick|Garron|Isling|Kestwick|Nolan"
CITIES = "Marlow|Quarry|Selby|Thornbury|Upton|Varley|Wickham|Yardley"
LAMPS = "Zephyr|Orion|Kestrel|Marlin|Vesper|Talon|Quill|Ember"
FIRMS = "Halden Works|Brightwater Lamps|Corvid Foundry|Alder & Sons|Pike Brothers"
FIRMS += "|Northgate Forge|Wick & Wire|Lumen Hall"
LISTS = [SHIPS, CARGO, PLACES, PEOPLE, THINGS, FIXERS, TOWNS, CITIES, LAMPS, FIRMS]
SHIPS, CARGO, PLACES, PEOPLE, THINGS, FIXERS, TOWNS, CITIES, LAMPS, FIRMS = (
    joined.split("|") for joined in LISTS
)


def page_text(path: Path) -> str:
    """A man page as plain text: section headings kept, other requests and font escapes gone."""
    with gzip.open(path, "rt", errors="replace") as page:
        raw = page.read()
    raw = re.sub(r"^\.SH\s+\"?([^\"\n]*)\"?$", r"\n\1\n", raw, flags=re.MULTILINE)
    return _ESCAPE.sub("", _REQUEST.sub("", raw)).replace("\\-", "-")


def insert(text: str, sentence: str, depth: float) -> str:
    at = text.find("\n\n", int(len(text) * depth))
    at = len(text) if at < 0 else at
    return f"{text[:at]}\n\n{sentence}{text[at:]}"


def corpus(pages: list[Path], n: int) -> dict[str, str]:
    files: dict[str, str] = {}
    for page in pages:
        if len(files) == n:
            break
        text = page_text(page)
        if len(text) > 1_500:
            files[page.name.removesuffix(".gz") + ".txt"] = text
    return files


def build(out: Path, rng: random.Random) -> list[dict[str, str]]:
    """The corpora under `out` and their tasks."""
    pages = sorted(MAN.glob("*.gz"))
    rng.shuffle(pages)
    tasks = []
    for n in (200, 2000):
        files = corpus(pages, n)
        names = sorted(files)

        def plant(sentence: str, files: dict[str, str] = files, names: list[str] = names) -> None:
            name = rng.choice(names)
            files[name] = insert(files[name], sentence, rng.random())

        def ask(question: str, gold: str, family: str, n: int = n) -> None:
            where = str(out / f"pages-{n}")
            tasks.append({"path": where, "question": question, "answer": gold, "family": family})

        for ship, cargo, place, person in zip(SHIPS, CARGO, PLACES, PEOPLE, strict=True):
            plant(f"The {ship} carried the {cargo} to {place}.")
            plant(f"The captain of the {ship} was {person}.")
            q = f"Who was the captain of the ship that carried the {cargo} to {place}?"
            ask(q, person, f"captain, {n} pages")
        if n == 200:
            for i in range(8):
                fixer, town, city = FIXERS[i], TOWNS[i], CITIES[i]
                plant(f"The {THINGS[i]} was repaired by {fixer}.")
                plant(f"{fixer} was born in {town}.")
                ask(
                    f"In which town was the person who repaired the {THINGS[i]} born?", town, "born"
                )
                plant(f"The {LAMPS[i]} lamp is made by {FIRMS[i]}.")
                plant(f"{FIRMS[i]} is based in {city}.")
                ask(f"Where is the company that makes the {LAMPS[i]} lamp based?", city, "firm")
                q = f"What did the ship captained by {PEOPLE[i]} carry?"
                ask(q, CARGO[i], "reverse")
        folder = out / f"pages-{n}"
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (folder / name).write_text(text, encoding="utf-8")
    return tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("/tmp/longread-man-hops"))
    parser.add_argument("--model", default=None)
    parser.add_argument("--mode", default="auto")
    args = parser.parse_args()
    if not MAN.is_dir():
        sys.exit(f"{MAN} is not on this machine")
    tasks = build(args.out, random.Random(11))
    task_file = args.out / "tasks.jsonl"
    task_file.write_text("".join(json.dumps(t) + "\n" for t in tasks), encoding="utf-8")
    command = [str(Path(sys.executable).with_name("longread")), "eval", str(task_file)]
    command += ["--mode", args.mode] + (["--model", args.model] if args.model else [])
    subprocess.run(command, check=True)


if __name__ == "__main__":
    main()
