"""Section summaries (by the sub-model, in parallel, each saved as it arrives so a killed build
resumes without paying twice) and keywords (distinctive terms by TF-IDF, no model call)."""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import partial

from longread.events import Event, EventKind, EventSink, ignore
from longread.index.single import SingleDocIndex
from longread.ingest.doctype import doc_noun
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.usage import Purpose
from longread.store.rows import SectionRow
from longread.text.rank import terms

PROMPT = """Summarize this section of a {doc_type} in 2-3 sentences: its main topic, key points and
important terms.

Section: {title}
\"\"\"
{text}
\"\"\""""


_RUN = re.compile(r"(\S)\1{7,}")
LEAD_CHARS = 300


def derailed(summary: str) -> bool:
    """True for what a small model writes when it loses its way: nothing, a run of one character,
    or a phrase of four words said three times."""
    words = summary.lower().split()
    grams = Counter(zip(words, words[1:], words[2:], words[3:], strict=False))
    return not words or bool(_RUN.search(summary)) or max(grams.values(), default=0) >= 3


def clean_summary(reply: str, source: str, limit: int = 600) -> str:
    """A model's summary on one line, or the opening of `source` if the model derailed."""
    summary = " ".join(reply.split())[:limit]
    if not derailed(summary):
        return summary
    lead = " ".join(source.split())[:LEAD_CHARS]
    end = lead.rfind(". ")
    return lead[: end + 1] if end > LEAD_CHARS // 3 else lead


def section_keywords(texts: list[str], k: int = 6) -> list[list[str]]:
    """For each text, its `k` most distinctive terms (TF-IDF against the other texts)."""
    counts = [Counter(terms(t)) for t in texts]
    having = Counter(term for c in counts for term in c)
    total = len(texts)
    return [
        [
            term
            for term, _ in sorted(
                c.items(), key=lambda kv: -kv[1] * math.log((1 + total) / having[kv[0]])
            )[:k]
        ]
        for c in counts
    ]


def summarize_sections(
    index: SingleDocIndex, sub: LM, gateway: Gateway, *, on_event: EventSink = ignore
) -> int:
    """Summarize every section that has no summary yet; returns how many were made now."""
    todo = index.store.summaries.missing(index.store_id)
    if not todo:
        return 0
    excerpt = (
        10_000 if sub.writes_code else 2_000
    )  # small models: shorter excerpts, faster and better
    sections = [index.read_range(row.start, min(row.end, row.start + 50_000)) for row in todo]
    texts = [section[:excerpt] for section in sections]
    keywords = section_keywords(sections)
    done = 0
    work = list(zip(todo, texts, keywords, strict=True))
    for (row, _, words), summary in gateway.as_done(
        partial(_summarize, gateway, sub, index.doc_type), work
    ):
        index.store.summaries.put(row.id, summary, words, sub.name)  # saved at once
        done += 1
        on_event(
            Event(
                EventKind.PROGRESS,
                {"task": "summaries", "done": done, "total": len(todo), "section": row.title},
            )
        )
    return done


def _summarize(
    gateway: Gateway, sub: LM, doc_type: str, item: tuple[SectionRow, str, list[str]]
) -> str:
    row, text, _ = item
    prompt = PROMPT.format(doc_type=doc_noun(doc_type), title=row.title, text=text)
    reply = gateway.complete(
        sub, prompt, purpose=Purpose.SUMMARIZE_SECTION, max_tokens=100, label=row.title
    )
    return clean_summary(reply.text, text)
