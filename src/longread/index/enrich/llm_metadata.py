"""A document's metadata as a capable sub-model reads its opening and headings, in JSON checked
against the text field by field: a keyword, entity or author must occur in it, a title or
summary must use its words, a date must parse. The rules' metadata fills whatever fails."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from longread.ingest.metadata import (
    MAX_DATES,
    MAX_ENTITIES,
    MAX_KEYWORDS,
    ContentMeta,
    entity_key,
    keyword_key,
    parse_date,
)
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.jsonio import MalformedJSONError, complete_json
from longread.llm.usage import Purpose
from longread.text.fold import fold
from longread.text.grounding import is_grounded

MODEL_SAMPLE_CHARS = 8_000  # the opening a capable sub-model reads
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
        reply = complete_json(
            gateway, lm, prompt, SCHEMA, purpose=Purpose.DOCUMENT_META, label=name
        )
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
