"""Okapi BM25 over a handful of in-memory texts (indexes on disk use SQLite FTS5 instead)."""

from __future__ import annotations

import math
import re
from collections import Counter

from longread import deadline

_WORD = re.compile(r"\w+", re.UNICODE)
MAX_QUERY_TERMS = 64  # distinct terms of one query scored (each costs a pass over the texts)
STOP_WORDS = frozenset(
    [
        "a",
        "about",
        "all",
        "also",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "been",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "for",
        "from",
        "had",
        "has",
        "have",
        "he",
        "her",
        "here",
        "him",
        "his",
        "how",
        "i",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "me",
        "my",
        "no",
        "not",
        "of",
        "on",
        "or",
        "our",
        "say",
        "says",
        "said",
        "she",
        "so",
        "some",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "to",
        "up",
        "us",
        "very",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "would",
        "you",
        "your",
    ]
)


def stem(word: str) -> str:
    """A light suffix stripper so that `witches` matches `witch` and `ordered` matches `order`."""
    if word.endswith("'s"):
        word = word[:-2]
    for suffix, keep in (
        ("ies", "y"),
        ("sses", "ss"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("xes", "x"),
        ("ing", ""),
        ("ed", ""),
        ("s", ""),
    ):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + keep
    return word


def terms(text: str) -> list[str]:
    """Lower-cased, stemmed words of `text`, without stop words."""
    return [
        stem(w)
        for w in _WORD.findall(text.lower())
        if (len(w) > 1 or w.isdigit()) and w not in STOP_WORDS
    ]


def keywords(text: str) -> str:
    """The words of `text` that are not stop words, as typed (for full-text queries)."""
    return " ".join(w for w in _WORD.findall(text) if w.lower() not in STOP_WORDS)


def search_words(question: str) -> str:
    """What to search for to answer `question`: its key words (the question itself if it has
    none)."""
    return keywords(question) or question


class BM25:
    """Term statistics of a list of texts, built once and queried many times."""

    def __init__(self, texts: list[str], k1: float = 1.5, b: float = 0.75):
        self.docs = []
        for number, text in enumerate(texts):
            if number % 256 == 0:
                deadline.check()
            self.docs.append(Counter(terms(text)))
        self.lengths = [sum(d.values()) for d in self.docs]
        self.average = (sum(self.lengths) / len(self.docs) if self.docs else 0.0) or 1.0
        self.having = Counter(term for doc in self.docs for term in doc)
        self.k1, self.b = k1, b

    def scores(self, query: str) -> list[float]:
        """One score per text; higher means more relevant to `query`."""
        scores = [0.0] * len(self.docs)
        for term in list(dict.fromkeys(terms(query)))[:MAX_QUERY_TERMS]:
            deadline.check()
            having = self.having.get(term, 0)
            if not having:
                continue
            idf = math.log(1 + (len(self.docs) - having + 0.5) / (having + 0.5))
            for i, doc in enumerate(self.docs):
                tf = doc.get(term, 0)
                if tf:
                    norm = 1 - self.b + self.b * self.lengths[i] / self.average
                    scores[i] += idf * tf * (self.k1 + 1) / (tf + self.k1 * norm)
        return scores


def bm25_scores(query: str, texts: list[str]) -> list[float]:
    """One score per text; higher means more relevant to `query`."""
    return BM25(texts).scores(query)


_PARAGRAPH = re.compile(r"\n\s*\n")
_UNDERLINE = re.compile(r"^[=\-~*_]{3,}$")
ABBREVIATIONS = (
    *("St", "Mr", "Mrs", "Ms", "Dr", "Jr", "Sr", "Mt", "Ft", "Lt", "Col", "Gen", "Capt", "Rev"),
    *("Prof", "No", "Nos", "vs", "cf", "e.g", "i.e", "approx", "Fig", "Vol", "pp"),
)


def not_after_abbreviation(stop: str = "") -> str:
    """Lookbehinds that fail just after an abbreviation or an initial (`St`, `Dr`, `J`) and then
    `stop` (a pattern: `\\.`), so that no sentence is ended there."""
    return "".join(rf"(?<!\b{re.escape(a)}{stop})" for a in ABBREVIATIONS) + rf"(?<!\b[A-Z]{stop})"


_SENTENCE_END = re.compile(r"(?<=[.!?;:])" + not_after_abbreviation(r"\.") + r"\s+(?=\S)")


def sentences(text: str, max_chars: int = 300) -> list[str]:
    """The text's sentences, hard-wrapped lines joined, each cut to `max_chars`. Headings (`#`
    lines, and lines underlined with `===` or `---`) are left out."""
    found = []
    for paragraph in _PARAGRAPH.split(text):
        lines = [line.strip() for line in paragraph.split("\n")]
        kept = [
            line
            for n, line in enumerate(lines)
            if line
            and not _UNDERLINE.match(line)
            and not line.startswith("#")
            and not (n + 1 < len(lines) and _UNDERLINE.match(lines[n + 1]))
        ]
        found += [s[:max_chars] for s in _SENTENCE_END.split(" ".join(kept)) if s.strip()]
    return found


def focus_lines(text: str, query: str, k: int = 3) -> str:
    """The `k` sentences of `text` most relevant to `query`, best first, leaving out those that
    share no word with it when some do: what a very small model can read reliably (it tends to
    repeat the first line it sees)."""
    found = sentences(text) or [text.strip()[:300]]
    scores = bm25_scores(query, found)
    ranked = sorted(range(len(found)), key=lambda i: scores[i], reverse=True)[:k]
    best = [i for i in ranked if scores[i] > 0] or ranked
    return "\n".join(found[i] for i in best)


_CLAUSE = re.compile(r"[^.!?\n]+")


def densest_window(text: str, query: str, size: int) -> int:
    """Where to start reading `size` characters of `text` for `query`: around its sentence or line
    holding the most distinct words of the query (the text's start when none holds any)."""
    asked = set(terms(query))
    best, at = 0, 0
    for match in _CLAUSE.finditer(text):
        held = len(asked & set(terms(match.group())))
        if held > best:
            best, at = held, match.start()
    return max(0, min(at - size // 2, len(text) - size))
