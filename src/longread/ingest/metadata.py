"""A document's metadata for the corpus index: title, summary, keywords, entities, dates, type and
author, by rules that read the document's opening and headings (fast, no model). A capable
sub-model may then improve it (`index.enrich.llm_metadata`)."""

from __future__ import annotations

import datetime
import re
from collections import Counter
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import Any

from longread.text.fold import tokens
from longread.text.rank import stem, terms

SAMPLE_CHARS = 2_000  # the opening the rules read (plus the headings)
MAX_KEYWORDS = 8
MAX_ENTITIES = 10
MAX_DATES = 10

_NOT_LETTERS = str.maketrans({c: " " for c in map(chr, range(128)) if not c.isalpha() and c != "'"})
_TOKEN = re.compile(r"[^\W_]+")
# A capital not after a letter or digit, checked after it is read (so the scan looks for capitals
# alone); its word is read whole, without backtracking (most capitals start a sentence, not a name)
_ENTITY = re.compile(
    r"[A-Z](?<!\w[A-Z])(?:[\w&'-]*+(?<=[a-z0-9])|[A-Z]{1,5}+)"
    r"(?:[ \t]+(?:of|de|von|van|the|and|&)?[ \t]*"
    r"(?:[A-Z][\w&'-]*[a-z0-9]|[A-Z]{2,6}))+"
)
_LEADING = re.compile(
    r"^(?:The|A|An|In|On|At|By|For|From|To|Of|And|But|This|That|When|After|Before)\s+"
)
_MONTHS = (
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
)
_MONTH = r"(january|february|march|april|may|june|july|august|september|october|november|december)"
# Every date form holds a year: found first, as it is fast (a year inside a word is skipped after)
_YEAR = re.compile(r"(?:1[5-9]|2\d)\d\d\b")
_ISO_REST = re.compile(r"-(\d\d)(?:-(\d\d))?\b")
_BEFORE_YEAR = re.compile(
    rf"(?:{_MONTH}\s+(\d{{1,2}}),?|(\d{{1,2}})\s+{_MONTH}|{_MONTH})\s+$", re.IGNORECASE
)
_AUTHOR = re.compile(
    r"^[ \t]*(?:By|Author|From|Written by)[: \t]+([A-Z][\w.'-]*(?:[ \t]+[A-Z][\w.'-]*){0,3})",
    re.MULTILINE,
)
_EMAIL = re.compile(r"(?:(?:From|To|Subject|Date|Cc):[^\n]*\n){2,}")
_HEADING_LINE = re.compile(
    r"^[ \t]{0,3}#{1,6}[ \t]+(.+?)[ \t#]*$|^(\S.{0,118}+)\n(?:=+|-+)[ \t]*$", re.MULTILINE
)


@dataclass
class ContentMeta:
    """What a document is about, from its text: the fields the corpus indexes."""

    title: str
    summary: str = ""
    keywords: list[str] = field(default_factory=list)
    entities: list[str] = field(default_factory=list)
    dates: list[str] = field(
        default_factory=list
    )  # ISO (YYYY-MM-DD or YYYY-MM), in order of appearance
    doc_type: str = "other"
    author: str = ""
    source: str = "rules"  # "rules", or the model whose reading (checked) filled some fields

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@lru_cache(maxsize=1 << 16)  # keywords recur from document to document
def keyword_key(keyword: str) -> str:
    """The inverted-index key of a keyword: its words lower-cased and stemmed."""
    return " ".join(stem(w) for w in _TOKEN.findall(keyword.lower()))


@lru_cache(maxsize=1 << 16)  # so do names
def entity_key(entity: str) -> str:
    return " ".join(tokens(entity))


def parse_date(text: str) -> str:
    """The first date in `text` as ISO `YYYY-MM-DD` (or `YYYY-MM`), '' if none is valid."""
    return next(iter(find_dates(text, 1)), "")


def find_dates(text: str, limit: int = MAX_DATES) -> list[str]:
    """Distinct valid dates in `text` (2024-03-05, 2024-03, March 5, 2024, 5 March 2024,
    March 2024), ISO-formatted, in order of appearance."""
    found: dict[str, None] = {}
    for year in _YEAR.finditer(text):
        if year.start() and _word_char(text[year.start() - 1]):
            continue
        iso = _ISO_REST.match(text, year.end())
        if iso:
            month, day = int(iso.group(1)), iso.group(2)
        else:
            named = _BEFORE_YEAR.search(text, max(0, year.start() - 24), year.start())
            if not named:
                continue
            g = named.groups()
            month = _MONTHS.index((g[0] or g[3] or g[4]).lower()) + 1
            day = g[1] or g[2]
        try:
            datetime.date(int(year.group()), month, int(day or 1))
        except ValueError:
            continue
        found[f"{year.group()}-{month:02d}" + (f"-{int(day):02d}" if day else "")] = None
        if len(found) == limit:
            break
    return list(found)


def _word_char(char: str) -> bool:
    """Whether regular expressions' `\\w` matches the character."""
    return char.isalnum() or char == "_"


_COLUMN_GAP = re.compile(r"\S(?:[ ]*\t[ \t]*|[ ]{3,})\S")  # "GREP(1)   GREP(1)"


def headings_in(sample: str) -> list[str]:
    """Markdown (`#`) and setext headings in the sample, in order."""
    return [" ".join((m.group(1) or m.group(2)).split()) for m in _HEADING_LINE.finditer(sample)]


def rule_meta(
    sample: str, headings: list[str], fallback_title: str, kind: str = "text"
) -> ContentMeta:
    """Metadata by rules from a document's opening (`sample`) and its headings."""
    headings = headings or headings_in(sample)
    first_line = sample.lstrip().partition("\n")[0].rstrip()
    titled = 0 < len(first_line) <= 120 and not _COLUMN_GAP.search(first_line)
    title = headings[0] if headings else first_line if titled else fallback_title
    author = _AUTHOR.search(sample)
    return ContentMeta(
        title=title[:200],
        summary=opening(sample, title),
        keywords=rule_keywords(sample, [title, *headings]),
        entities=rule_entities(sample),
        dates=find_dates(sample),
        doc_type="email" if _EMAIL.match(sample) else kind,
        author=author.group(1) if author else "",
    )


def opening(sample: str, title: str, chars: int = 300) -> str:
    """The first sentences of the text after its title (up to about `chars`), as a rule's
    summary."""
    body = sample.split(title, 1)[1] if title and title in sample[:500] else sample
    paragraphs, size = [], 0
    for paragraph in body.split("\n\n"):  # prose paragraphs (six words or more), as far as needed
        words = paragraph.split()
        if len(words) >= 6:
            paragraphs.append(" ".join(words))
            size += len(paragraphs[-1]) + 1
            if size > chars + 200:
                break
    prose = " ".join(paragraphs)[: chars + 200] or " ".join(body.split())
    cut = max(prose.rfind(". ", 0, chars), prose.rfind("? ", 0, chars), prose.rfind("! ", 0, chars))
    return prose[: cut + 1] if cut > 40 else prose[:chars]


def rule_keywords(sample: str, headings: list[str], k: int = MAX_KEYWORDS) -> list[str]:
    """The `k` most frequent content words (one per stem), words of the title and headings first."""
    counts = Counter(sample.lower().translate(_NOT_LETTERS).split())
    counts.update(" ".join(headings).lower().translate(_NOT_LETTERS).split() * 3)
    chosen: dict[str, str] = {}
    for word, _ in counts.most_common():  # ties in order of first appearance
        key = _word_term(word) if len(word) >= 3 else ""
        if key and key not in chosen:
            chosen[key] = word
            if len(chosen) == k:
                break
    return list(chosen.values())


@lru_cache(maxsize=1 << 16)
def _word_term(word: str) -> str:
    """The stemmed term of one word ('' for a stop word)."""
    found = terms(word)
    return found[0] if found else ""


def rule_entities(sample: str, k: int = MAX_ENTITIES) -> list[str]:
    """Names of two or more capitalized words (people, organizations, places), most frequent
    first."""
    counts: Counter[str] = Counter()
    for match in _ENTITY.finditer(sample):
        name = _LEADING.sub("", match.group(0)).strip()
        if " " in name or name.isupper():
            counts[name] += 1
    return [name for name, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:k]]


# -- the sub-model's reading ----------------------------------------------------------------
