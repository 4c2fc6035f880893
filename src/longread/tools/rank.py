"""Okapi BM25 over a handful of in-memory texts (indexes on disk use SQLite FTS5 instead)."""

from __future__ import annotations

import math
import re
from collections import Counter

_WORD = re.compile(r"\w+", re.UNICODE)
_STOP = frozenset(["a", "about", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been", "but", "by", "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "he", "her", "here", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "no", "not", "of", "on", "or", "our", "say", "says", "said", "she", "so", "some", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those", "to", "up", "us", "very", "was", "we", "were", "what", "when", "where", "which", "who", "whom", "why", "will", "with", "would", "you", "your"])


def stem(word: str) -> str:
    """A light suffix stripper so that `witches` matches `witch` and `ordered` matches `order`."""
    if word.endswith("'s"):
        word = word[:-2]
    for suffix, keep in (("ies", "y"), ("sses", "ss"), ("ches", "ch"), ("shes", "sh"), ("xes", "x"),
                         ("ing", ""), ("ed", ""), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + keep
    return word


def terms(text: str) -> list[str]:
    """Lower-cased, stemmed words of `text`, without stop words."""
    return [stem(w) for w in _WORD.findall(text.lower()) if (len(w) > 1 or w.isdigit()) and w not in _STOP]


class BM25:
    """Term statistics of a list of texts, built once and queried many times."""

    def __init__(self, texts: list[str], k1: float = 1.5, b: float = 0.75):
        self.docs = [Counter(terms(t)) for t in texts]
        self.lengths = [sum(d.values()) for d in self.docs]
        self.average = (sum(self.lengths) / len(self.docs) if self.docs else 0.0) or 1.0
        self.having = Counter(term for doc in self.docs for term in doc)
        self.k1, self.b = k1, b

    def scores(self, query: str) -> list[float]:
        """One score per text; higher means more relevant to `query`."""
        scores = [0.0] * len(self.docs)
        for term in set(terms(query)):
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


def focus_lines(text: str, query: str, k: int = 3, line_chars: int = 300) -> str:
    """The `k` lines of `text` most relevant to `query` (each cut to `line_chars`), in their
    original order, leaving out lines that share no word with it when some do: what a very small
    model can read reliably."""
    lines = [line.strip()[:line_chars] for line in text.split("\n") if line.strip()]
    scores = bm25_scores(query, lines)
    ranked = sorted(range(len(lines)), key=lambda i: scores[i], reverse=True)[:k]
    best = sorted(i for i in ranked if scores[i] > 0) or sorted(ranked)
    return "\n".join(lines[i] for i in best)
