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
    return [stem(w) for w in _WORD.findall(text.lower()) if len(w) > 1 and w not in _STOP]


def bm25_scores(query: str, texts: list[str], k1: float = 1.5, b: float = 0.75) -> list[float]:
    """One score per text; higher means more relevant to `query`."""
    docs = [Counter(terms(t)) for t in texts]
    lengths = [sum(d.values()) for d in docs]
    average = sum(lengths) / len(docs) if docs else 0.0
    scores = [0.0] * len(docs)
    for term in set(terms(query)):
        having = sum(1 for d in docs if term in d)
        if not having:
            continue
        idf = math.log(1 + (len(docs) - having + 0.5) / (having + 0.5))
        for i, doc in enumerate(docs):
            tf = doc.get(term, 0)
            if tf:
                scores[i] += idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * lengths[i] / (average or 1)))
    return scores
