"""The word a question counts in the text, not a value of a table: quoted, said or mentioned, a
mark the rows carry, an identifier (see `cues.term`), or a word asked where it appears; none where
the tables hold it as a value of rows with no text to say it in (`services use udp`)."""

from __future__ import annotations

from longread.query.core.catalog import Catalog
from longread.query.readers.rules import cues
from longread.query.readers.rules.links import Link
from longread.query.readers.rules.reading import role


def counted_word(asked: str, links: list[Link], catalog: Catalog) -> tuple[str, int, int] | None:
    """The word and where the question says it, if any."""
    said = cues.term(asked) or _appearing(asked, links) or _unlinked(cues.identifier(asked), links)
    if said is not None and _held_as_value(said, links, catalog):
        return None
    return said


def _appearing(asked: str, links: list[Link]) -> tuple[str, int, int] | None:
    """The word a question asks where it appears, unless a table holds it as a value."""
    found = cues.appears(asked)
    if found is None or any(lk.what == "value" and lk.start <= found[1] < lk.end for lk in links):
        return None
    return found


def _unlinked(found: tuple[str, int, int] | None, links: list[Link]) -> tuple[str, int, int] | None:
    """The word found, unless it is whole the name of a column or a value of a table (not a
    part of it: `msgid` of `msgid_plural`)."""
    if found is None:
        return None
    for lk in (lk for lk in links if lk.start < found[2] and found[1] < lk.end):
        named = lk.value if lk.what == "value" else (lk.value,)
        if any(str(name).lower() == found[0].lower() for name in named):
            return None
    return found


def _held_as_value(said: tuple[str, int, int], links: list[Link], catalog: Catalog) -> bool:
    """Whether the word a question says is used (`services use udp`) is a value of tables with
    no text to say it in: their rows are what it names."""
    held = [lk for lk in links if lk.what == "value" and lk.start < said[2] and said[1] < lk.end]
    return bool(held) and all(role(catalog.tables[lk.table], "body") is None for lk in held)
