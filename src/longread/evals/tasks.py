"""A quality task: a question about a file or folder, its gold answer and how to score a reply;
read from and written to JSON Lines, one task a line."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from longread.errors import InputError

SCORERS = ("exact", "number", "contains", "set-f1")


@dataclass(frozen=True)
class Task:
    """`path`: a file or a folder (relative paths are read from the task file's folder);
    `scorer`: exact, number, contains (alternatives separated by `|`) or set-f1 (gold items
    separated by `;`)."""

    path: str
    question: str
    answer: str
    scorer: str = "contains"
    family: str = "yours"


def read_tasks(path: str | Path) -> list[Task]:
    """The tasks of a JSON Lines file; InputError naming the line of a task that is not one."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise InputError(f"cannot read tasks from {path}: {error}") from None
    tasks = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            fields = json.loads(line)
            task = Task(**{k: str(v) for k, v in fields.items()})
        except (ValueError, TypeError, AttributeError) as error:
            raise InputError(f"{path}:{number}: not a task ({error})") from None
        if task.scorer not in SCORERS:
            raise InputError(f"{path}:{number}: unknown scorer {task.scorer!r}; use {SCORERS}")
        where = Path(task.path)
        tasks.append(
            Task(
                **{
                    **asdict(task),
                    "path": str(where if where.is_absolute() else path.parent / where),
                }
            )
        )
    return tasks


def select(tasks: list[Task], families: list[str], limit: int | None) -> list[Task]:
    """The tasks of these families (all for none), at most `limit` of each, in order."""
    taken: Counter[str] = Counter()
    chosen = []
    for task in tasks:
        if families and task.family not in families:
            continue
        taken[task.family] += 1
        if limit is None or taken[task.family] <= limit:
            chosen.append(task)
    return chosen


def write_tasks(tasks: list[Task], path: str | Path) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for task in tasks:
            out.write(json.dumps(asdict(task), ensure_ascii=False) + "\n")
