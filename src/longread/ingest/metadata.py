"""A document's metadata for the corpus index (seed 004's DocumentMeta content): title, summary,
keywords, entities, dates, type and author. Rules read the document's opening and headings
(fast, no model); a capable sub-model may read the same sample and answer in JSON, which is
checked against the text field by field, the rules filling in whatever fails the check."""

from __future__ import annotations

import datetime
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field, fields, replace
from functools import lru_cache
from typing import Any

from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.jsonio import MalformedJSONError, complete_json
from longread.tools.grounding import is_grounded
from longread.tools.rank import stem, terms

SAMPLE_CHARS = 2_000  # the opening the rules read (plus the headings)
MODEL_SAMPLE_CHARS = 8_000  # the opening a capable sub-model reads
MAX_KEYWORDS = 8
MAX_ENTITIES = 10
MAX_DATES = 10

_NOT_LETTERS = str.maketrans({c: " " for c in map(chr, range(128)) if not c.isalpha() and c != "'"})
_TOKEN = re.compile(r"[^\W_]+")
# A capital not after a letter or digit, checked after it is read (so the scan looks for capitals
# alone); its word is read whole, without backtracking (most capitals start a sentence, not a name)
_ENTITY = re.compile(
    r"[A-Z](?<!\w[A-Z])(?:[\w&'-]*+(?<=[a-z0-9])|[A-Z]{1,5}+)(?:[ \t]+(?:of|de|von|van|the|and|&)?[ \t]*"
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


def fold(text: str) -> str:
    """Lower case without diacritics, as the full-text index compares words."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def tokens(text: str) -> list[str]:
    """The words of `text` as the full-text index sees them (folded, split at punctuation)."""
    return _TOKEN.findall(fold(text))


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
    """Distinct valid dates in `text` (2024-03-05, 2024-03, March 5, 2024, 5 March 2024, March 2024),
    ISO-formatted, in order of appearance."""
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


def headings_in(sample: str) -> list[str]:
    """Markdown (`#`) and setext headings in the sample, in order."""
    return [" ".join((m.group(1) or m.group(2)).split()) for m in _HEADING_LINE.finditer(sample)]


def rule_meta(
    sample: str, headings: list[str], fallback_title: str, kind: str = "text"
) -> ContentMeta:
    """Metadata by rules from a document's opening (`sample`) and its headings."""
    headings = headings or headings_in(sample)
    first_line = sample.lstrip().partition("\n")[0].rstrip()
    title = (
        headings[0] if headings else first_line if 0 < len(first_line) <= 120 else fallback_title
    )
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
    """The first sentences of the text after its title (up to about `chars`), as a rule's summary."""
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
    """Names of two or more capitalized words (people, organizations, places), most frequent first."""
    counts: Counter[str] = Counter()
    for match in _ENTITY.finditer(sample):
        name = _LEADING.sub("", match.group(0)).strip()
        if " " in name or name.isupper():
            counts[name] += 1
    return [name for name, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:k]]


# -- the sub-model's reading ----------------------------------------------------------------
PROMPT = """Extract metadata from this document (its opening and its headings).

File: {name}
Headings: {headings}
\"\"\"
{sample}
\"\"\"
title: the document's title. summary: what it is about, in 2-3 sentences. keywords: 5-10 key
terms from the text. entities: people, organizations and places it names. doc_type: one word
(article, email, report, manual, code, ...). date and author: if the text states them, else ""."""
SCHEMA = {
    "type": "object",
    "properties": {
        "title": {"type": "string", "maxLength": 200},
        "summary": {"type": "string", "maxLength": 800},
        "keywords": {"type": "array", "items": {"type": "string", "maxLength": 60}, "maxItems": 10},
        "entities": {"type": "array", "items": {"type": "string", "maxLength": 80}, "maxItems": 10},
        "doc_type": {"type": "string", "maxLength": 30},
        "date": {"type": "string", "maxLength": 40},
        "author": {"type": "string", "maxLength": 80},
    },
    "required": ["title", "summary", "keywords", "entities", "doc_type"],
}
_DOC_TYPE = re.compile(r"^[a-z][a-z _-]{1,29}$")


def llm_meta(
    sample: str,
    headings: list[str],
    name: str,
    rules: ContentMeta,
    lm: LM,
    gateway: Gateway,
    sample_chars: int,
) -> ContentMeta:
    """The sub-model's metadata, each field kept only if the text bears it out (a keyword, entity
    or author must occur in the sample; a title or summary must use its words; a date must parse);
    `rules` fills the rest. A reply that is not valid JSON leaves the rules' metadata. Either way
    the result's `source` names the model, so it is not asked again."""
    prompt = PROMPT.format(
        name=name, headings="; ".join(headings[:20]) or "(none)", sample=sample[:sample_chars]
    )
    try:
        reply = complete_json(gateway, lm, prompt, SCHEMA, purpose="document_meta", label=name)
    except MalformedJSONError:
        return replace(rules, source=lm.name)
    folded = fold(sample)
    occurs = [x.strip() for x in reply["keywords"] if x.strip() and fold(x.strip()) in folded]
    named = [x.strip() for x in reply["entities"] if x.strip() and fold(x.strip()) in folded]
    title, summary = reply["title"].strip(), " ".join(reply["summary"].split())
    date, author = parse_date(str(reply.get("date", ""))), str(reply.get("author", "")).strip()
    doc_type = reply["doc_type"].strip().lower()
    return replace(
        rules,
        title=title if title and _uses_words(title, sample) else rules.title,
        summary=summary if len(summary) >= 20 and _uses_words(summary, sample) else rules.summary,
        keywords=_merged(occurs, rules.keywords, MAX_KEYWORDS, keyword_key),
        entities=_merged(named, rules.entities, MAX_ENTITIES, entity_key),
        dates=_merged([date] if date and date[:4] in sample else [], rules.dates, MAX_DATES, str),
        doc_type=doc_type if _DOC_TYPE.match(doc_type) else rules.doc_type,
        author=author if author and fold(author) in folded else rules.author,
        source=lm.name,
    )


def _uses_words(text: str, sample: str) -> bool:
    """Whether most of the words of `text` occur in the sample (a reading, not an invention)."""
    return is_grounded(text, sample, "", share=0.5)


def _merged(first: list[str], then: list[str], k: int, key: Any) -> list[str]:
    """`first` then `then`, one per key, at most k."""
    seen: dict[str, str] = {}
    for item in [*first, *then]:
        seen.setdefault(key(item), item)
    return list(seen.values())[:k]
