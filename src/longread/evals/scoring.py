"""Scoring a reply against a gold answer, twice: in its **lead** (what a reader takes as the
answer: the text up to its first blank line or its second numbered finding, at most 300
characters) and **anywhere** in it; and whether a citation holds the gold."""

from __future__ import annotations

import re
import unicodedata

from longread.answer import Answer

LEAD_CHARS = 300
_SECOND_FINDING = re.compile(r"^\s*\[2\]", re.MULTILINE)
_NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")
_ITEM_BREAK = re.compile(r"[,;\n]|\band\b")


def lead(text: str) -> str:
    """What a reader takes as the answer."""
    text = text.strip()
    cut = min(
        (at for at in (text.find("\n\n"), _start(_SECOND_FINDING.search(text))) if at >= 0),
        default=len(text),
    )
    return text[: min(cut, LEAD_CHARS)]


def _start(match: re.Match[str] | None) -> int:
    return match.start() if match else -1


def normal(text: str) -> str:
    """Lower case, without accents, punctuation or extra spaces."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    return " ".join(re.sub(r"[^\w\s]", " ", text).split())


def score(scorer: str, gold: str, text: str) -> float:
    """1.0 for a reply that holds the gold answer, or (contains) one of its `|` alternatives
    (set-f1: the F1 of the gold items it holds)."""
    if scorer == "exact":
        return float(normal(text) == normal(gold))
    if scorer == "number":
        wanted = _value(gold)
        return float(wanted is not None and wanted in (_value(n) for n in _NUMBER.findall(text)))
    if scorer == "set-f1":  # gold items against the items the reply lists
        items = [i for i in (normal(g) for g in gold.split(";")) if i]
        listed = [p for p in (normal(x) for x in _ITEM_BREAK.split(text)) if p]
        found = sum(1 for i in items if _holds(normal(text), i))
        right = sum(1 for p in listed if any(_holds(p, i) for i in items))
        if not found or not right:
            return 0.0
        precision, recall = right / len(listed), found / len(items)
        return 2 * precision * recall / (precision + recall)
    return float(any(_holds(normal(text), normal(g)) for g in gold.split("|")))


def _holds(text: str, item: str) -> bool:
    return bool(item) and f" {item} " in f" {text} "


def _value(number: str) -> float | None:
    try:
        return float(number.replace(",", ""))
    except ValueError:
        return None


def cited(answer: Answer, gold: str) -> bool:
    """Whether a cited span holds the gold answer (one of its `|` alternatives)."""
    return any(_holds(normal(c.text), normal(g)) for c in answer.citations for g in gold.split("|"))
