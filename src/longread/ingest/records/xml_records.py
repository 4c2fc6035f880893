"""XML records: the elements a document repeats (a data dump's `<row …/>`, a feed's `<item>`, a
standard's `<iso_639_3_entry …/>`), read by expat. An element name repeated MIN_ROWS times or
more whose elements hold attributes or elements of their own is a table, a row an element: its
attributes, its leaf elements' texts (one said several times, joined; one in another language,
`xml:lang`, left out) and the attributes of the elements around it are the columns. An element
holding other records (a country holding its subdivisions) spans its opening tag alone. Expat
expands no external entity, reads no outside DTD and bounds the growth of internal entities."""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from xml.parsers import expat

from longread.ingest.records.kind import MIN_ROWS
from longread.ingest.records.table import Column, Role, Table, build, identifier, keyed_columns

name = "xml"
NOUNS = ("element", "record", "entry", "item")
WHOLE = ("feed", "dump", "export")
TAKES_ALL = True  # (records found, the other lines are markup: no template is looked for)
_OPENS = re.compile(r"\A\ufeff?\s*<(?:\?xml\b|!--|[A-Za-z_][\w:.-]*[\s>/])")
_HTML = re.compile(r"<(?:!doctype\s+html|html)\b", re.I)
_LANG = "xml:lang"
_BARE_AMPERSAND = re.compile(rb"&(?!#?\w+;)")
_OWN_NOT = ("xml:", "xmlns")  # (attributes XML itself gives: a language, a namespace)
MAX_DEPTH = 32  # elements whose attributes the elements inside them are given
MAX_AROUND = 200  # attributes of outer elements an element is given at most


@dataclass
class _Element:
    name: str
    start: int  # (a byte offset, until the rows are made)
    attributes: dict[str, str]
    around: dict[str, str]  # the attributes of the elements it is in, `outer.key`
    fields: dict[str, list[str]] = field(default_factory=dict)
    text: list[str] = field(default_factory=list)
    leaf: bool = True
    end: int = 0


def detect(sample: str) -> bool:
    return _OPENS.match(sample) is not None and _HTML.search(sample[:1000]) is None


def records(text: str, file_name: str) -> list[Table]:
    data = text.encode("utf-8")
    found = _elements(data)
    counts = Counter(element.name for element in found)
    names = [n for n, c in counts.most_common() if c >= MIN_ROWS]  # (the commonest first)
    rows = sorted((e for e in found if counts[e.name] >= MIN_ROWS), key=lambda e: e.start)
    by_name: dict[str, list[_Element]] = {n: [] for n in names}
    for element, after in itertools.zip_longest(rows, rows[1:]):
        if after is not None and after.start < element.end:  # (it holds records: its opening tag)
            element.end = data.index(b">", element.start) + 1
        by_name[element.name].append(element)
    offsets = _char_offsets(data, text, rows)
    return [_table(n, by_name[n], offsets) for n in names]


def _elements(data: bytes) -> list[_Element]:
    """Every element of the document that holds attributes or elements, in the order they end
    (those read before a syntax error, if any; an `&` written bare, as in `Bikini & Kili`, is
    read as itself)."""
    found, whole = _parsed(data)
    bare = [m.start() for m in _BARE_AMPERSAND.finditer(data)] if not whole else []
    if not bare:
        return found
    found, _ = _parsed(_BARE_AMPERSAND.sub(b"&amp;", data))
    moved = [at + len(b"amp;") * n for n, at in enumerate(bare)]  # (where each now stands)
    for element in found:
        element.start -= len(b"amp;") * bisect.bisect_left(moved, element.start)
        element.end -= len(b"amp;") * bisect.bisect_left(moved, element.end)
    return found


def _parsed(data: bytes) -> tuple[list[_Element], bool]:
    """`_elements` of the data as it is, and whether it was read to its end."""
    parser = expat.ParserCreate(encoding="utf-8")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    stack: list[_Element] = []
    done: list[_Element] = []

    def opened(tag: str, attributes: dict[str, str]) -> None:
        around = stack[-1].around if stack else {}
        if stack:
            stack[-1].leaf = False
            outer = stack[-1]
            if len(stack) <= MAX_DEPTH and len(around) < MAX_AROUND:  # (deeper: theirs, shared)
                own = itertools.islice(_own(outer.attributes).items(), MAX_AROUND - len(around))
                around = {**around, **{f"{outer.name}.{k}": v for k, v in own}}
        stack.append(_Element(tag, parser.CurrentByteIndex, attributes, around))

    def closed(tag: str) -> None:
        element = stack.pop()
        at = parser.CurrentByteIndex
        stop = data.find(b">", at) if at >= 0 else -1
        element.end = stop + 1 if stop >= 0 else len(data)
        text = "".join(element.text).strip()
        if stack and element.leaf and _LANG not in element.attributes:
            said = text or (next(iter(element.attributes.values())) if element.attributes else "")
            if said:
                stack[-1].fields.setdefault(tag, []).append(said)
        if not element.leaf or _own(element.attributes):
            done.append(element)

    def said(text: str) -> None:
        if stack:
            stack[-1].text.append(text)

    parser.StartElementHandler = opened
    parser.EndElementHandler = closed
    parser.CharacterDataHandler = said
    try:
        parser.Parse(data, True)
    except expat.ExpatError:
        return done, False  # (what was read before the error stands)
    return done, True


def _own(attributes: dict[str, str]) -> dict[str, str]:
    """The attributes the document gives (not XML's own: a language, a namespace)."""
    return {k: v for k, v in attributes.items() if not k.startswith(_OWN_NOT)}


def _char_offsets(data: bytes, text: str, rows: list[_Element]) -> dict[int, int]:
    """The character offset in `text` of each byte offset a row starts or ends at."""
    wanted = sorted({at for e in rows for at in (e.start, e.end)})
    if len(data) == len(text):
        return {at: at for at in wanted}
    offsets, chars, last = {}, 0, 0
    for at in wanted:
        chars += len(data[last:at].decode("utf-8", errors="replace"))
        offsets[at], last = chars, at
    return offsets


def _table(element_name: str, rows: list[_Element], offsets: dict[int, int]) -> Table:
    held = [
        {**_own(e.attributes), **{k: ", ".join(v) for k, v in e.fields.items()}, **e.around}
        for e in rows
    ]
    keys, columns = keyed_columns(held, [])
    columns = [_called_by_outer(key, column) for key, column in zip(keys, columns, strict=True)]
    texts = [" ".join("".join(e.text).split()) if e.leaf else "" for e in rows]
    has_text = any(texts)
    if has_text:
        columns.append(Column(identifier("text", [c.name for c in columns]), role=Role.BODY))
    cells = [
        (
            offsets[e.start],
            offsets[e.end],
            [*(h.get(k) for k in keys), *([t or None] if has_text else [])],
        )
        for e, h, t in zip(rows, held, texts, strict=True)
    ]
    words = _words(element_name)
    nouns = (" ".join(words), words[-1], *NOUNS) if words else NOUNS
    return build(identifier(element_name), name, columns, cells, tuple(dict.fromkeys(nouns)))


def _called_by_outer(key: str, column: Column) -> Column:
    """A column of an outer element's attribute (`iso_3166_country.code`), called also by the
    outer element's last word, with the attribute's and without (`country code`, `country`)."""
    outer, _, attribute = key.rpartition(".")
    words = _words(outer)
    if not words:
        return column
    called = (f"{words[-1]} {' '.join(_words(attribute))}", words[-1])
    return replace(column, aliases=(*column.aliases, *called))


def _words(element_name: str) -> list[str]:
    """An element's name as words (`iso_3166_country` → iso, 3166, country), its prefix left."""
    return [w for w in re.split(r"[\W_]+", element_name.split(":")[-1].lower()) if w]
