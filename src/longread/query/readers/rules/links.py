"""Where a question names what a source holds: a record table by what its rows are called
(`emails`, `speeches`), a column by its name or header words (`balance`, `life expectancy` for
`lifeExp`), a value a column holds (`ERROR`, `Banquo`, `Act 3` for `ACT III`, `2007`), a
document by its file or title. Everything matched comes from the source's own tables."""

from __future__ import annotations

import datetime
import math
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

from longread.index.records import numeral
from longread.ingest.records.cells import MONTHS, WEEKDAYS
from longread.query.core.catalog import Catalog, CatalogTable
from longread.query.core.plan import Part, Test
from longread.query.readers.rules.cues import COUNTING
from longread.query.readers.rules.named_documents import PLACE_WORD, named_documents
from longread.query.readers.rules.section_names import numbered_names, section_places
from longread.query.readers.rules.spans import key, ngrams, verb_form, words, written_mark
from longread.text.rank import stem, terms

MAX_VALUE_CHARS = 80  # longer values (sentences) are not matched as names
_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])")
STRUCTURAL = ("sections", "documents")
EXACT, STEM, PART = 1.0, 0.8, 0.5  # how closely a question's words match a value
JOINED = 0.6  # a part of a value written without spaces (`udp` of `21/udp`, `video` of `video/mp4`)
UNIT_CHARS = 3  # a column name's last word this short is a unit a question may leave out
SHORT_NAME = (3, 5)  # letters of a table name written short (`fam`), that a word may start with


@dataclass(frozen=True)
class Link:
    """A span of the question [start, end) naming something of a table: its rows (`noun`), a
    `column`, a `value` of a column, or a `document`."""

    what: str
    table: str
    column: str | None
    value: Any
    start: int
    end: int
    weight: float
    test: Test = Test.IN  # how the value is held: as it is, or as a date's start (PREFIX)
    part: Part | None = None  # (a date's month: `in March`)

    def overlaps(self, other: Link) -> bool:
        return self.start < other.end and other.start < self.end


def name_tokens(name: str) -> list[str]:
    """A column name's words (`bill_length_mm`, `lifeExp` → life, exp)."""
    return [t.lower() for t in _SPLIT.split(name) if t]


def link(question: str, catalog: Catalog) -> list[Link]:
    """Every place the question names a table's rows, a column, a value or a document."""
    found: list[Link] = []
    stems = [(stem(w.lower()), s, e, w) for w, s, e in words(question)]
    stems += [  # (each part of a hyphenated or joined word too: `Installed-Size`, `net_pay`)
        (stem(part.lower()), s, e, part) for w, s, e in words(question) if "-" in w or "_" in w
        for part in re.split(r"[-_]", w) if part
    ]  # fmt: skip
    for table in catalog.tables.values():
        columns = _columns(table, stems, catalog)
        found += _nouns(table, stems)
        found += columns
        found += _values(question, table, catalog)
        found += _named_after(question, table, columns, catalog)
    found += [
        Link("document", "", "document", held, start, end, weight)
        for held, start, end, weight in named_documents(question, catalog)
    ]
    return _longest(found)


def _longest(found: list[Link]) -> list[Link]:
    """Without a link inside a longer name's (`Macbeth` in `Lady Macbeth`, the word `act` in
    `Act III`), whichever table either is in."""
    named = [lk for lk in found if lk.what in ("value", "document")]
    return [
        lk
        for lk in found
        if not any(
            other.start <= lk.start
            and lk.end <= other.end
            and other.end - other.start > lk.end - lk.start
            for other in named
        )
    ]


def _nouns(table: CatalogTable, stems: list[tuple[str, int, int, str]]) -> list[Link]:
    """The words naming what one row of the table is (`emails`, `log lines`), or the table
    (`orders` for a table named so)."""
    found = []
    named = name_tokens(table.name)
    worded = " ".join(t for t in named if not t.isdigit())  # (`expenses_2024`: expenses)
    for noun in dict.fromkeys((*table.nouns, " ".join(named), *([worded] if worded else []))):
        said = noun.lower().split()
        parts = [stem(p) for p in said]
        for at in range(len(stems) - len(parts) + 1):
            run = stems[at : at + len(parts)]
            if [s for s, *_ in run] == parts and not any(
                verb_form(word.lower(), part) for (*_, word), part in zip(run, said, strict=True)
            ):
                start, end = stems[at][1], stems[at + len(parts) - 1][2]
                found.append(Link("noun", table.name, None, noun, start, end, 2.0 + len(parts)))
    short = named[0] if len(named) == 1 and SHORT_NAME[0] <= len(named[0]) <= SHORT_NAME[1] else ""
    for w, start, end in ((s[3].lower(), s[1], s[2]) for s in stems if short.isalpha()):
        if w.startswith(short) and len(w) > len(short) + 1 and not verb_form(w, short):
            found.append(Link("noun", table.name, None, short, start, end, 3.0))  # (`fam`)
    return found


def _numbered(text: str) -> bool:
    """Whether a run of words holds a number (`act 3`, `part iv`, `the second act`)."""
    return any(numeral(word) is not None for word in text.split())


def _columns(
    table: CatalogTable, stems: list[tuple[str, int, int, str]], catalog: Catalog
) -> list[Link]:
    """The words naming a column: its name's words or an alias's, each word as a question word
    or the start of one (`pop` in `population`), all of them (a unit left out: `mm`); or the
    word its values share (`worker` for `worker-1`, `worker-2`)."""
    found = []
    for column in table.columns:
        worded = column.type == "text" and column.role != "section"  # (a section by its kind)
        shared = _shared_word(catalog, table, column.name) if worded else None
        for name in (column.name, *column.aliases, *([shared] if shared else [])):
            tokens = [t for t in name_tokens(name) if t.isalpha() or len(name_tokens(name)) == 1]
            tokens = [t for t in tokens if terms(t) or len(tokens) == 1]
            if not tokens:
                continue
            if len(tokens) == 2 and len(tokens[1]) <= UNIT_CHARS:
                tokens = tokens[:1]  # (a unit after the name: `balance_eur`, `weight_kg`)
            hits = _hits(tokens, stems)
            needed = len(tokens) if len(tokens) < 3 else len(tokens) - 1
            if len(hits) >= needed:
                start, end = min(s for s, _ in hits), max(e for _, e in hits)
                if end - start <= 40:
                    found.append(
                        Link("column", table.name, column.name, name, start, end, 1.0 + len(hits))
                    )
    return found


SHARED = 0.6  # of a column's distinct values that must open with one word to be called by it
_OPENING_WORD = re.compile(r"[^\W\d_]+")


def _shared_word(catalog: Catalog, table: CatalogTable, column: str) -> str | None:
    """The word SHARED of a text column's distinct values open with, each value more than the
    word (`worker` for `worker-1`, `worker-2`, `main`), if any."""
    values = [str(v) for v, _ in catalog.values(table.name, column)]
    opening = Counter(
        m.group().lower()
        for v in values
        if (m := _OPENING_WORD.match(v)) is not None and v[m.end() : m.end() + 1] not in ("", "/")
    )  # (`tests/a.py` is a path in a folder, not one of the `tests`)
    if not opening:
        return None
    word, n = opening.most_common(1)[0]
    wanted = n >= 2 and n >= SHARED * len(values) and len(word) >= 3
    return word if wanted and terms(word) else None


_NAME_AFTER = re.compile(
    r"[ \t]*[:=]?[ \t]*(?:(?P<name>[A-Z][\w'’.&-]*(?:[ \t]+[A-Z][\w'’.&-]*){0,3})"
    r"|[\"“](?P<quoted>[^\"”\n]{1,60})[\"”])"
)
AFTER_NAME = 1.0  # weight a name gains from following its column's name


def _named_after(
    question: str, table: CatalogTable, columns: list[Link], catalog: Catalog
) -> list[Link]:
    """A name written right after a text column's name (`sent to Chen Wei`, `subject "Budget"`,
    `the character Siward`): that column's value, or else one its text mentions (a list of
    recipients holds it among others). A document's title or a section's is named by `_values`
    and `_documents` alone."""
    if table.name in STRUCTURAL:
        return []
    found = []
    for named in columns:
        column = table.column(named.column or "")
        if column is None or column.type != "text" or column.role == "body":
            continue
        after = _NAME_AFTER.match(question, named.end)
        if after is None:
            continue
        group = "name" if after.group("name") else "quoted"
        start, end = after.span(group)
        name = after.group(group)
        values = catalog.values(table.name, column.name)
        held = next((v for v, _ in values if key(v) == key(name)), None)
        if not terms(name) and held is None:
            continue  # (a letter held as a value is one: `type E`)
        listed = held is None and catalog.listed(table.name, column.name)
        if listed and not any(key(name) in key(str(v)) for v, _ in values):
            continue  # (`client IP`: a word about the column, in none of its values)
        weight = 1.0 + 2.0 * EXACT + 0.5 * len(name.split()) + AFTER_NAME
        test = Test.IN if held is not None else Test.MENTIONS
        value = held if held is not None else name
        found.append(Link("value", table.name, column.name, (value,), start, end, weight, test))
    return found


def _hits(tokens: list[str], stems: list[tuple[str, int, int, str]]) -> list[tuple[int, int]]:
    hits = []
    for token in tokens:
        root = stem(token)
        for word_stem, start, end, word in stems:
            lowered = word.lower()
            if verb_form(lowered, token):
                continue  # (`ordered` names no column `order`)
            if word_stem == root or (len(token) >= 3 and lowered.startswith(token)):
                hits.append((start, end))
                break
    return hits


def _values(question: str, table: CatalogTable, catalog: Catalog) -> list[Link]:
    """The question's runs of words that are a value of one of the table's text or number
    columns (a section's title also by its kind and number: `Act 3` for `ACT III`). A link's
    value is a tuple: a numbered title may be several sections' (`Act 3` of each play)."""
    found = []
    spans = list(ngrams(question))
    for column in table.columns:
        if column.role == "body" or table.name == "documents" and column.name != "title":
            continue
        values = catalog.values(table.name, column.name)
        if column.type == "text" and not catalog.listed(table.name, column.name):
            found += _heads(spans, table, column.name, catalog.heads(table.name, column.name))
            asked = sorted({t.lower() for t, _, _ in spans if set(terms(t)) - COUNTING})
            values = catalog.holding(table.name, column.name, asked)
            if len({key(v) for v, _ in values}) > 1:
                continue  # (a dictionary's words: `pronunciations`, `word`; no key names one)
        if not values:
            continue
        if column.type == "date":
            found += _dates(question, table, column.name, values)
            continue
        index = _value_index(values, column.type)
        places = section_places(catalog, table, column.name, values)
        index.update({k: (held, EXACT) for k, held in places.items()})
        for text, start, end in spans:
            match = index.get(key(text))
            if match is None and " " not in text.strip():
                root = stem(key(text))  # (and its root's root: `warnings`, `warning`, `WARN`)
                match = index.get(root) or index.get(stem(root))
            elif match is None and len(text.split()) == 2:
                joined = index.get(key(text).replace(" ", ""))  # (`log in` for `login`)
                match = (joined[0], STEM) if joined is not None and joined[1] == EXACT else None
            if match is None:
                continue
            held, strength = match
            if mark := written_mark(question, start):  # (`.py files`: not `py.typed`)
                held = tuple(v for v in held if f"{mark}{text}".lower() in str(v).lower())
                if not held:
                    continue
            acronym = len(text) > 1 and text.isupper()  # (`IT`, `US`: a name, not a stop word)
            if not (terms(text) or acronym) or key(text) in (
                column.name,
                *map(key, column.aliases),
            ):
                continue  # (a stop word; `the host mail`: the column's name, then its value)
            if (strength < JOINED or not set(terms(text)) - COUNTING) and not text[:1].isupper():
                continue  # (part of a name is capitalized: `the same` is none, `the most` none)
            if column.role == "who" and strength < EXACT and not text[:1].isupper():
                continue  # (a name is capitalized in the question: `all` is no speaker ALL)
            weight = 1.0 + 2.0 * strength + 0.5 * len(text.split()) + _common(held, values)
            placed = PLACE_WORD.search(question[:start]) is not None
            where = column.role == "section" or table.name == "documents"  # (a title)
            if where and not (placed or _numbered(text) or text[:1].isupper()):
                continue  # (`how many built-in functions`: what is counted, not where)
            if column.role == "section" and placed:
                weight += 1.0  # (`in Ben`: the part of the source called Ben)
            found.append(Link("value", table.name, column.name, held, start, end, weight))
    return found


_MONTH_NAMES = tuple(m.lower() for m in MONTHS)
_MONTH = re.compile(rf"\b(?:{'|'.join(MONTHS)})\b")
_WEEKDAY = re.compile(rf"\b({'|'.join(WEEKDAYS)})s?\b")
_YEAR = re.compile(r"\b(?:(?P<month>[A-Za-z]{3,9})\.?\s+)?(?P<year>(?:1[6-9]|20)\d\d)\b")


def _dates(
    question: str, table: CatalogTable, column: str, values: list[tuple[Any, int]]
) -> list[Link]:
    """A year (`in 2007`) or a month and year (`March 2024`) the question names, as the start
    of a date column's values, where some value starts so."""
    held = {str(v)[:7] for v, _ in values} | {str(v)[:4] for v, _ in values}
    found = []
    for match in _YEAR.finditer(question):
        month = (match["month"] or "").lower()
        months = [n for n, m in enumerate(_MONTH_NAMES, 1) if m.startswith(month)] if month else []
        prefix = f"{match['year']}-{months[0]:02}" if len(month) >= 3 and months else match["year"]
        start = match.start() if prefix != match["year"] else match.start("year")
        if prefix in held:
            weight = 2.5 + (0.5 if "-" in prefix else 0.0)
            found.append(
                Link(
                    "value", table.name, column, (prefix,), start, match.end(), weight, Test.PREFIX
                )
            )
    days = {str(v)[5:7] if str(v)[:2] != "--" else str(v)[2:4] for v, _ in values}
    for match in _MONTH.finditer(question):  # (`in March`, no year: March of any year)
        number = _MONTH_NAMES.index(match.group().lower()) + 1
        if f"{number:02}" in days and not any(lk.start <= match.start() < lk.end for lk in found):
            month = match.group().capitalize()
            found.append(
                Link("value", table.name, column, (month,), *match.span(), 2.5, part=Part.MONTH)
            )
    weekdays = {_weekday(str(v)) for v, _ in values}
    for match in _WEEKDAY.finditer(question):  # (`on Monday`: every Monday)
        day = match.group(1).capitalize()
        if day in weekdays:
            found.append(
                Link("value", table.name, column, (day,), *match.span(1), 2.5, part=Part.WEEKDAY)
            )
    return found


def _weekday(day: str) -> str | None:
    """The name of a stored day's weekday (`2024-03-04` → `Monday`), if it has a year."""
    try:
        return WEEKDAYS[datetime.date.fromisoformat(day[:10]).weekday()]
    except ValueError:
        return None


def _heads(
    spans: list[tuple[str, int, int]], table: CatalogTable, column: str, heads: list[str]
) -> list[Link]:
    """A head of a varied column's values the question names (`video` types: `video/…`), as
    the start of the values it heads."""
    named = {key(head): head for head in heads}
    return [
        Link("value", table.name, column, (named[key(text)],), start, end, 2.5, Test.PREFIX)
        for text, start, end in spans
        if key(text) in named and terms(text)
    ]


def _common(held: tuple[Any, ...], values: list[tuple[Any, int]]) -> float:
    """A little weight for a value many rows hold (of two columns holding a name, the one
    where it is common: `ERROR` as a level, not as a program's name)."""
    counts = dict(values)
    return 0.1 * math.log10(1 + sum(counts.get(v, 0) for v in held))


def _value_index(
    values: list[tuple[Any, int]], kind: str
) -> dict[str, tuple[tuple[Any, ...], float]]:
    """How a question may write each value: as it is (exact); by a single word's stem; by a
    numbered section's kind and number (`act 3`, every section so numbered); by a part of it
    (`Lear` for `KING LEAR`; `Europe`, every value holding it; `udp` of `21/udp`, written
    small)."""
    index: dict[str, tuple[tuple[Any, ...], float]] = {}
    numbered: dict[str, list[Any]] = {}
    partial: dict[str, set[Any]] = {}
    joined: set[str] = set()
    for value, _ in values:
        if kind == "number":
            if isinstance(value, int | float) and float(value).is_integer():
                index.setdefault(str(int(value)), ((value,), EXACT))
            continue
        text = str(value)
        if len(text) > MAX_VALUE_CHARS:
            continue
        tokens = key(text).split()
        index.setdefault(key(text), ((value,), EXACT))
        if len(tokens) == 1:
            index.setdefault(stem(tokens[0]), ((value,), STEM))
        for part in numbered_names(text):
            numbered.setdefault(part, []).append(value)
        unspaced = not any(c.isspace() for c in text)
        codes = unspaced and text.isupper()  # (a list of codes: `US,CA`, each a part, `IN` too)
        for size in range(1, len(tokens)):
            for at in range(len(tokens) - size + 1):
                part = " ".join(tokens[at : at + size])
                if (terms(part) or codes) and numeral(tokens[at + size - 1]) is None:
                    partial.setdefault(part, set()).add(value)
                    if unspaced:
                        joined.add(part)
    for part, held_values in numbered.items():
        index.setdefault(part, (tuple(held_values), EXACT))
    for part, held in partial.items():
        if part not in index:  # (`Europe`: every value holding it, `Europe/Berlin`, `Europe/Oslo`…)
            index[part] = (tuple(sorted(held, key=str)), JOINED if part in joined else PART)
        elif part in joined and index[part][1] == EXACT:  # (`US` and a list holding it, `US,CA`)
            whole = tuple(v for v in sorted(held, key=str) if not any(c.isspace() for c in str(v)))
            index[part] = (index[part][0] + whole, EXACT)
    return index
