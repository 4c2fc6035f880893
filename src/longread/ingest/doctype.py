"""Rule-based document-type detection: which kind of document (research paper, legal, manual,
book, report, markdown, other) a text is, with a confidence, from a bounded sample so it stays fast
on very large texts."""

from __future__ import annotations

import re

DOC_TYPES = ("research_paper", "legal", "manual", "book", "report", "markdown", "other")

_IM = re.IGNORECASE | re.MULTILINE
_HEAD_SAMPLE = 200_000
_WINDOWS = 8
_WINDOW_CHARS = 12_500
_MIN_EVIDENCE = 1.5

_HEADINGISH = r"^[ \t]*(?:#{1,6}[ \t]*)?(?:\\section\*?\{)?(?:(?:\d+|[IVX]+)\.?[ \t]+)?"
_PAPER_NAMES = re.compile(
    _HEADINGISH + r"(abstract|introduction|related work|background|methods?|methodology"
    r"|experiments?|results|discussion|conclusions?|references|bibliography|acknowledge?ments)"
    r"\b[^\n]{0,30}$",
    _IM,
)
_LATEX_MARKS = re.compile(r"\\documentclass|\\begin\{abstract\}|\\cite[pt]?\{|\\section\*?\{")
_REPORT_NAMES = re.compile(
    _HEADINGISH + r"(executive summary|(?:key )?findings|recommendations|appendix|next steps"
    r"|objectives)\b[^\n]{0,30}$",
    _IM,
)
_LEGAL_PHRASES = re.compile(
    r"\b(whereas|now,? therefore|in witness whereof|hereinafter|hereby|herein|hereto|the parties"
    r"|this agreement|governing law|indemnif\w*|notwithstanding)\b",
    re.IGNORECASE,
)
_ARTICLE_LINES = re.compile(r"^[ \t]*(?:Article|ARTICLE)[ \t]+(?:[IVXLCDM]+|\d+)\b", re.MULTILINE)
_SHALL = re.compile(r"\bshall\b")
_STEP_LINES = re.compile(r"^[ \t]*(?:Step|STEP)[ \t]+\d+", re.MULTILINE)
_MANUAL_WORDS = re.compile(
    r"\b(procedure|troubleshooting|installation|configuration|maintenance|warning|caution"
    r"|specifications?|press the|click|user guide|manual)\b",
    re.IGNORECASE,
)
_SUBNUMBERED = re.compile(r"^\d+(?:\.\d+)+\.?[ \t]+[A-Z][^\n.]{0,80}$", re.MULTILINE)
_BOOK_LINES = re.compile(
    r"^[ \t]*(?:Chapter|CHAPTER|Chapitre|CHAPITRE|Kapitel|KAPITEL|Part|PART|Book|BOOK)[ \t]+"
    r"(?:\d+|[IVXLCDM]+\b|(?i:one|two|three|four|five|six|seven|eight|nine|ten)\b)",
    re.MULTILINE,
)
_STAGE_LINES = re.compile(r"^[ \t]*(?:Act|ACT|Scene|SCENE)[ \t]+(?:\d+|[IVX]+)\b", re.MULTILINE)
_SPEECH = re.compile(r"\b(said|asked|replied|cried|whispered|answered)\b")
_ATX_LINES = re.compile(r"^#{1,6}[ \t]+\S", re.MULTILINE)
_FENCES = re.compile(r"^(?:```|~~~)", re.MULTILINE)
_MD_LINKS = re.compile(r"\[[^\[\]\n]+\]\([^()\n]+\)")  # (no bracket inside: linear on `[[[…`)


def doc_noun(doc_type: str) -> str:
    """How prompts name a document of this type ("research paper", "document" for other)."""
    return "document" if doc_type == "other" else doc_type.replace("_", " ")


def _capped(pattern: re.Pattern[str], sample: str, cap: float) -> float:
    """How often `pattern` occurs in `sample`, at most `cap`."""
    return min(len(pattern.findall(sample)), cap)


def _distinct(pattern: re.Pattern[str], sample: str) -> int:
    """How many different (case-folded) words `pattern` finds in `sample`."""
    return len({m.group(1).casefold() for m in pattern.finditer(sample)})


def _per_10k(pattern: re.Pattern[str], sample: str) -> float:
    """Occurrences of `pattern` per 10,000 characters of `sample`."""
    return len(pattern.findall(sample)) * 10_000 / max(len(sample), 1)


def _type_scores(sample: str) -> dict[str, float]:
    """Weighted rule evidence for each document type."""
    chapters = _capped(_BOOK_LINES, sample, 10)
    return {
        "research_paper": 1.5 * _distinct(_PAPER_NAMES, sample)
        + (2.0 if _LATEX_MARKS.search(sample) else 0.0),
        "legal": 1.0 * _distinct(_LEGAL_PHRASES, sample)
        + 0.8 * _capped(_ARTICLE_LINES, sample, 5)
        + 0.5 * min(sample.count("§"), 5)
        + 0.2 * min(_per_10k(_SHALL, sample), 5),
        "manual": 0.5 * _capped(_STEP_LINES, sample, 10)
        + 0.7 * _distinct(_MANUAL_WORDS, sample)
        + 0.4 * _capped(_SUBNUMBERED, sample, 5)
        + 0.25 * min(chapters, 4),
        "book": 0.5 * chapters
        + 0.5 * _capped(_STAGE_LINES, sample, 10)
        + 0.3 * min(_per_10k(_SPEECH, sample), 5),
        "report": 1.5 * _distinct(_REPORT_NAMES, sample)
        + (2.0 if re.search(r"executive summary", sample, re.IGNORECASE) else 0.0),
        "markdown": 0.3 * _capped(_ATX_LINES, sample, 10)
        + 0.5 * _capped(_FENCES, sample, 4)
        + 0.2 * _capped(_MD_LINKS, sample, 5),
    }


def _sample(text: str) -> str:
    """The first 200 KB plus a few evenly spread windows: enough to judge the type quickly."""
    if len(text) <= _HEAD_SAMPLE + _WINDOWS * _WINDOW_CHARS:
        return text
    step = (len(text) - _HEAD_SAMPLE) // _WINDOWS
    starts = (_HEAD_SAMPLE + i * step + (step - _WINDOW_CHARS) // 2 for i in range(_WINDOWS))
    return "\n\n".join([text[:_HEAD_SAMPLE], *(text[s : s + _WINDOW_CHARS] for s in starts)])


def detect_doc_type(text: str) -> tuple[str, float]:
    """The most likely document type (one of DOC_TYPES) and a 0..1 confidence, from rules."""
    ranked = sorted(_type_scores(_sample(text)).items(), key=lambda kv: kv[1], reverse=True)
    (kind, best), (_, second) = ranked[0], ranked[1]
    if best < _MIN_EVIDENCE:
        return "other", round(0.6 - best / 5, 2)
    return kind, round(best / (best + second + 1), 2)
