"""How a question names a numbered section (`Act 3`, `act iii`, `the third act`, `the last
scene`), as keys to the section titles a column holds."""

from __future__ import annotations

from typing import Any

from longread.index.records import numeral
from longread.query.core.catalog import Catalog, CatalogTable
from longread.store.record_tables import quoted


def section_places(
    catalog: Catalog, table: CatalogTable, column: str, values: list[tuple[Any, int]]
) -> dict[str, tuple[Any, ...]]:
    """Numbered sections by their place in each document (`the first scene`, `the last act`,
    `the second act`): keys to the values at that place, of a column of section titles."""
    numbered = [v for v, _ in values if isinstance(v, str) and numbered_names(v)]
    if not values or len(numbered) < 0.5 * len(values):
        return {}
    found = catalog.query.execute(
        f"SELECT document, {quoted(column)} AS v, min(_start) AS s FROM {quoted(table.name)} "
        "WHERE v IS NOT NULL GROUP BY document, v ORDER BY document, s",
        max_rows=20_000,
    ).rows
    order: dict[tuple[str, str], list[Any]] = {}
    for document, value, _ in found:
        kinds = numbered_names(str(value))
        if kinds:
            order.setdefault((str(document), kinds[0].split()[0]), []).append(value)
    keys: dict[str, list[Any]] = {}
    for (_, kind), held in order.items():
        for n, value in enumerate(held, 1):
            keys.setdefault(f"{ORDINAL_WORDS.get(n, n)} {kind}", []).append(value)
        for last in ("last", "final"):
            keys.setdefault(f"{last} {kind}", []).append(held[-1])
    return {k: tuple(v) for k, v in keys.items()}


def numbered_names(title: str) -> list[str]:
    """How a question names a numbered section: `act 3`, `act iii`, `third act`, and with the
    sections holding it (`act 3 scene 2`, for `ACT III, SCENE II. A room.`)."""
    parts = [p.strip() for p in title.split(",")]
    named = []
    for part in parts:
        tokens = part.split()
        if len(tokens) >= 2 and tokens[0].isalpha() and (n := numeral(tokens[1])) is not None:
            named.append((tokens[0].lower().rstrip(".:"), n))
    if not named:
        return []
    kind, n = named[-1]
    keys = [f"{kind} {n}", f"{kind} the {ORDINAL_WORDS.get(n, n)}"]
    keys += [f"{kind} {CARDINAL_WORDS[n]}"] if n in CARDINAL_WORDS else []
    if len(named) > 1:
        outer = " ".join(f"{k} {m}" for k, m in named[:-1])
        keys += [f"{outer} {kind} {n}", f"{kind} {n} of {outer}"]
    return keys


CARDINAL_WORDS = dict(
    enumerate("one two three four five six seven eight nine ten eleven twelve".split(), 1)
)
ORDINAL_WORDS = dict(
    enumerate("first second third fourth fifth sixth seventh eighth ninth tenth".split(), 1)
)
