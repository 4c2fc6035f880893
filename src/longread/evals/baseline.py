"""The no-model baseline every `longread eval` table shows beside the modes: the one sentence of
the whole source (a file, or every readable file of a folder) that shares the most IDF-weighted
words with the question. No index, no model: what a plain scan finds. A mode whose lead falls
below it lost what grep would have found."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

from longread.errors import LongreadError
from longread.ingest.document import load_document
from longread.text.rank import sentences, terms

MODE = "baseline"
MODEL = "no model"


def source_sentences(path: Path) -> list[str]:
    """The sentences of a file, or of every file a folder holds that loads (others skipped)."""
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    found: list[str] = []
    for file in files:
        try:
            found += sentences(load_document(file).text)
        except (LongreadError, OSError):
            continue
    return found


def best_sentence(question: str, candidates: list[str]) -> str:
    """The sentence holding the question's words of most weight (each word's IDF over these
    sentences, counted once); "" when none holds any."""
    asked = set(terms(question))
    held = [asked.intersection(terms(s)) for s in candidates]
    df = Counter(word for words in held for word in words)
    n = len(candidates)
    weights = [sum(math.log((n + 1) / df[w]) for w in words) for words in held]
    best = max(range(n), key=lambda i: weights[i], default=None)
    return "" if best is None or weights[best] <= 0 else candidates[best]
