"""What both full-text searches (a document's sections, a corpus's documents) make their queries
of: the words worth searching for, the FTS5 query matching any of them, and the rows holding the
rarest of a few terms."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping, Sequence

from longread.text.patterns import IndexTerm

MAX_QUERY_WORDS = 64  # distinct words of one full-text query


def distinctive(
    words: list[str],
    held: Mapping[str, int],
    total: int,
    common: float = 0.1,
    postings: int = 10_000,
) -> list[str]:
    """Of `words` (`held`: how many of the `total` rows hold each), those that at most `common`
    of the rows hold (BM25 weighs the others near zero, and each makes a search of a large index
    read a long list), or the two rarest if all are that common; of those, the rarest while the
    rows holding them number at most `postings` in all, and the rarest one always."""
    limit = common * total
    kept = [w for w in words if held.get(w, 0) <= limit] or sorted(
        words, key=lambda w: held.get(w, 0)
    )[:2]
    chosen: set[str] = set()
    count = 0
    for word in sorted(kept, key=lambda w: held.get(w, 0)):
        count += held.get(word, 0)
        if chosen and count > postings:
            break
        chosen.add(word)
    return [w for w in kept if w in chosen]


def rows_holding(
    db: sqlite3.Connection,
    tables: Sequence[tuple[str, str]],
    terms: Sequence[IndexTerm],
    total: int,
) -> list[int] | None:
    """The rows of a full-text index (`tables`: its parts, each with its fts5vocab table; `total`:
    its rows) holding the rarest of `terms`, in order; None when there are no terms, or the rarest
    is in over a tenth of the rows (reading them all is then about as fast as reading around
    each)."""
    if not terms:
        return None
    held = {term: sum(_rows_with(db, vocab, term) for _, vocab in tables) for term in terms}
    rarest = min(terms, key=held.__getitem__)
    if held[rarest] > 0.1 * total:
        return None
    match = f'"{rarest.word}"' + ("" if rarest.whole else " *")
    return sorted(
        row
        for table, _ in tables
        for (row,) in db.execute(f"SELECT rowid FROM {table} WHERE {table} MATCH ?", (match,))
    )


def _rows_with(db: sqlite3.Connection, vocab: str, term: IndexTerm) -> int:
    """How many rows hold the term: exactly for a whole word, at most for the start of one (the
    rows holding each word it starts, summed)."""
    if term.whole:
        found = db.execute(f"SELECT doc FROM {vocab} WHERE term = ?", (term.word,)).fetchone()
    else:
        after = term.word[:-1] + chr(ord(term.word[-1]) + 1)  # the first word it does not start
        found = db.execute(
            f"SELECT sum(doc) FROM {vocab} WHERE term >= ? AND term < ?", (term.word, after)
        ).fetchone()
    return int(found[0] or 0) if found else 0


def fts_query(words: Iterable[str]) -> str:
    """An FTS5 query matching any of `words` (each quoted, so no word is read as an operator): the
    first MAX_QUERY_WORDS distinct ones (an FTS5 query costs about the square of its words)."""
    distinct = dict.fromkeys(w for w in (w.replace('"', " ").strip() for w in words) if w)
    return " OR ".join(f'"{w}"' for w in list(distinct)[:MAX_QUERY_WORDS])
