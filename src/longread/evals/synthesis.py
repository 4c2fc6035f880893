"""The fourth generated family, **synthesis**: questions over a folder of several long documents
(three plays, ten or sixteen of their acts, or twenty-four of their longest scenes: ~250–550K
characters) whose answer
combines records spread over many of them: the highest and the lowest of a put-in figure, their
total, and everyone a put-in record puts in one group. The records go to different documents
(while there are enough), each worded one of several ways: no passage, and no one phrasing,
holds the answer."""

from __future__ import annotations

import random
from pathlib import Path

from longread.evals.plant import insert, write
from longread.evals.tasks import Task

TOWNS = [
    ["Ardmore", "Belcross", "Carrick", "Dunholm", "Eskdale"],
    ["Farleigh", "Glenrow", "Harwood", "Inchmere", "Jedburn"],
    ["Kelloe", "Lamberhurst", "Marwick", "Netherby", "Ormesby", "Pelham"],
    ["Quenby", "Rushden", "Selwick", "Thornaby", "Upwell", "Varley"],
]
MEMBERS = [
    ["Alda Brook", "Bram Colley", "Cora Dunn", "Dag Ellery", "Esme Ford", "Finn Gale"],
    ["Gus Harker", "Hild Irons", "Ivo Jessop", "Juna Kemp", "Kit Lowry", "Lena Mayne"],
    ["Milo Nash", "Nora Oakes", "Otto Pryce", "Pia Quarles", "Quin Rudd", "Rhea Soper"],
    ["Sven Tully", "Tova Upton", "Ugo Vance", "Vera Wilde", "Wim Yardley", "Xena Zell"],
]
GUILDS = ("weavers", "chandlers")
TOLLS = (
    "The ferry toll at {town} was {n} pence.",
    "At {town} the ferry toll came to {n} pence.",
    "Travellers crossing at {town} paid a ferry toll of {n} pence.",
)
JOINED = (
    "{person} joined the guild of {guild}.",
    "In the spring {person} was admitted to the guild of {guild}.",
    "The guild of {guild} took {person} as a member.",
)


def synthesis(
    plays: dict[str, str],
    acts: dict[str, str],
    scenes: dict[str, str],
    out: Path,
    rng: random.Random,
) -> list[Task]:
    """Sixteen questions over four folders (three plays; ten acts; sixteen acts; twenty-four of
    the forty-eight longest scenes), four a folder: the town with the highest and with the
    lowest ferry toll, the tolls' total, and the members of one guild."""
    longer = sorted(sorted(scenes, key=lambda name: -len(scenes[name]))[:48])
    folders = [
        {name: plays[name] for name in rng.sample(sorted(plays), 3)},
        *({name: acts[name] for name in rng.sample(sorted(acts), n)} for n in (10, 16)),
        {name: scenes[name] for name in rng.sample(longer, 24)},
    ]
    tasks = []
    for number, (docs, towns, people) in enumerate(zip(folders, TOWNS, MEMBERS, strict=True)):
        folder, files = out / f"folder-{number + 1}", sorted(docs)
        tolls = dict(zip(towns, rng.sample(range(3, 60), len(towns)), strict=True))
        guild = dict(zip(people, [GUILDS[i % 2] for i in range(len(people))], strict=True))
        records = [rng.choice(TOLLS).format(town=t, n=n) for t, n in tolls.items()] + [
            rng.choice(JOINED).format(person=p, guild=g) for p, g in guild.items()
        ]
        for record, file in zip(records, _spread(files, len(records), rng), strict=True):
            docs[file] = insert(docs[file], record, rng.uniform(0.05, 0.95))
        for file, text in docs.items():
            write(folder / file, text)
        asked = GUILDS[number % 2]
        highest, lowest = max(tolls, key=tolls.__getitem__), min(tolls, key=tolls.__getitem__)
        members = "; ".join(p for p, g in guild.items() if g == asked)
        for question, gold, scorer in (
            ("Which town had the highest ferry toll?", highest, "contains"),
            ("Which town had the lowest ferry toll?", lowest, "contains"),
            (
                "What do the ferry tolls of all the towns add up to, in pence?",
                str(sum(tolls.values())),
                "number",
            ),
            (f"Who joined the guild of {asked}?", members, "set-f1"),
        ):
            tasks.append(Task(str(folder), question, gold, scorer, "synthesis"))
    return tasks


def _spread(files: list[str], count: int, rng: random.Random) -> list[str]:
    """`count` files for `count` records, each a different file while there are enough."""
    order = rng.sample(files, len(files))
    return [order[i % len(order)] for i in range(count)]
