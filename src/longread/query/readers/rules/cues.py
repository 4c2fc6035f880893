"""What a question's own words say about computing its answer, whatever the source: whether it
asks to count, rank, add up or list (how many, the most, the total, the average, the first,
every) or for a fact or a chain of two, the word whose mentions it counts, and the noun it
counts. English words about counting, never about a genre: what the question means of a
source's tables is read by a model (see readers.model)."""

from __future__ import annotations

import os
import re

from longread.query.core.plan import Operation
from longread.text.rank import keywords, stem, terms

_OPERATIONS = (  # tried in order; the first found decides
    (Operation.SHARE, r"\b(?:percentage|percent|proportion|share|fraction)\s+of\b|%\s+of\b"),
    (Operation.DISTINCT, r"\bhow\s+many\s+(?:different|distinct|unique|separate)\b"),
    (Operation.MEAN, r"\baverage\b|\b(?:the|a)\s+mean\b"),
    (Operation.MEDIAN, r"\bmedian\b"),
    (
        Operation.ARGMAX,
        r"\b(?:most|highest|largest|greatest|biggest|maximum|max|top|longest|heaviest|tallest"
        r"|widest|deepest|richest|busiest)\b",
    ),
    (
        Operation.ARGMIN,
        r"(?<!\bat\s)\bleast\b|\b(?:fewest|lowest|smallest|minimum|min|shortest|lightest"
        r"|narrowest|shallowest|poorest|quietest)\b",
    ),
    (Operation.COUNT, r"\bhow\s+many\b|\bhow\s+often\b|\bhow\s+frequently\b"),  # (in total too)
    (
        Operation.SUM,
        r"\btotal\b(?!\s+(?:number|count)\b)|\bsum\b|\baltogether\b|\bcombined\b"
        r"|\badd(?:s|ed)?\s+up\b|\bin\s+(?:all|total)\b",
    ),
    (
        Operation.COUNT,
        r"\bnumber\s+of\b|\bcount\b|\btotal\s+(?:number|count)\b",
    ),
    (Operation.NTH, r"\b(?:first|earliest|last|latest|final|opening|closing)\b"),
    (
        Operation.LIST,
        r"\blist\b|\bname\s+(?:all|every|each)\b|\benumerate\b|\bevery\b"
        r"|\b(?:which|what)\s+(?:of\s+the\s+)?(?!(?:does|is|was|has|this|these|those)\b)"
        r"[\w'’-]{2,}[^su\W]s\b(?!\s+(?:is|was|has|does)\b)",
    ),
    (
        Operation.LIST,
        r"\b(?:which|what)\s+(?:of\s+the\s+)?[\w'’-]+\s+(?:mentions?|contains?|includes?|names?"
        r"|refers?\s+to|talks?\s+about)\b|\bin\s+which\s+\w+\s+(?:does|do|is|are)\b"
        r".*\b(?:appears?|mentioned|occurs?|used)\b",
    ),
    (
        Operation.EXISTS,
        r"^\s*(?:is|are|was|were)\s+there\b"
        r"|^\s*(?:is|are|was|were|does|do|did|has|have)\b.*\b(?:any|ever)\b",
    ),
)
_OCCURRENCES = r"\bhow\s+many\s+times\b|\bhow\s+often\b|\bnumber\s+of\s+times\b"
_WHOLE = re.compile(  # words saying the answer needs the whole text, whatever it holds
    rf"{_OCCURRENCES}"
    r"|\bhow\s+many\s+(?:different|distinct|separate|unique)\b"
    r"|\bhow\s+many\b.*\b(?:are|were|is|was)\s+(?:named|listed|mentioned)\b"
    r"|\b(?:list|name|enumerate|give)\s+(?:all|every|each)\b"
    r"|\b(?:all|every)\s+(?:the\s+)?\w+\s+(?:that\s+(?:are|is)\s+)?(?:named|mentioned|listed)\b"
    r"|\b(?:most|least)\s+(?:often|frequently|common(?:ly)?|mentioned|named|cited)\b"
    r"|\b(?:mentioned|named|cited|appears?|occurs?)\s+(?:the\s+)?(?:most|least)\b",
    re.I,
)
_WHETHER = re.compile(r"\s*(?:does|do|did|is|are|was|were|has|have|had)\b", re.I)
_WHO_WHICH = re.compile(r"^\s*(?:who|which\s+(?!of\b)\w+)\b", re.I)
_MORE = re.compile(r"\b(?:more|longer|larger|higher|greater|bigger|heavier|oftener)\b", re.I)
_LESS = re.compile(r"\b(?:less|fewer|shorter|smaller|lower|lighter)\b", re.I)
_QUOTED = re.compile(r"[\"“‘']([^\"”’']{1,60}?)[\"”’'](?!\w)")
_WORD_NAMED = re.compile(r"\b(?:the\s+)?(?:word|term|phrase)\s+([\w][\w'’-]*)", re.I)
_SAID = re.compile(
    r"\b(?:says?|said|saying|utters?|uttered|mentions?|mentioned|uses?|used|writes?|wrote)\s+"
    r"(?:the\s+word\s+|the\s+|an?\s+)?([\w][\w'’-]*)"
    r"|\b(?:is|are|was|were|does|do|did)\s+([\w][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)\s+"
    r"(?:mentioned|said|used|spoken|named|written|uttered)\b"
    r"|\b(?:mentions?|mentioning|references?)\s+(?:of\s+)?([\w][\w'’-]*)",
    re.I,
)
_MARKED = re.compile(  # (a mark rows carry: `marked fuzzy`, `tagged [Alba]`)
    r"\b(?:marked|flagged|tagged|labell?ed)\s+(?:as\s+)?(?:an?\s+)?(\[[^\]\n]{1,40}\]|\w[\w'’-]*)",
    re.I,
)
_NOT_TERMS = frozenset(
    "the a an it this that most least more less first last all any every each one".split()
)
_SKIPPED = frozenset(
    "is are was were has had have the a an of one ones single most least more less fewest "
    "longest shortest largest highest greatest biggest smallest lowest top second third fourth "
    "busiest quietest "
    "fifth number count total average mean sum amount".split()
)
_CHAIN = re.compile(r"\bthe\s+(?:\w+\s+){1,2}?(?:that|who|which|whose|where)\s+\w+|\bwhose\b", re.I)
_PHRASE_WORD = r"(?!(?:is|are|was|were|be|been|do|does|did|has|have|had)\b)[\w'’-]+"
_COUNTED = re.compile(
    r"\b(?:how\s+many|(?:total\s+)?number\s+of|count(?:\s+the)?|most|fewest|least|more|fewer|total|longest|"
    r"(?:percentage|percent|proportion|share|fraction)\s+of|"
    r"shortest|largest|"
    r"highest|greatest|biggest|smallest|lowest|average|mean)\s+"
    rf"(?:(?:different|distinct|unique|separate|common|frequent|of\s+the|the)\s+)*"
    rf"(?!(?:common|frequent|often)\b)((?:{_PHRASE_WORD}\s+){{0,3}}"
    rf"{_PHRASE_WORD})",
    re.I,
)  # (what is counted ends where its verb starts: `emails` in `how many emails were sent to`)


def operation(question: str) -> Operation | None:
    """The operation a question asks for; None for one asking for a fact."""
    for found, pattern in _OPERATIONS:
        if re.search(pattern, question, re.I):
            return found
    if _MORE.search(question) and " or " in question:
        return Operation.ARGMAX
    if _LESS.search(question) and " or " in question:
        return Operation.ARGMIN
    return None


def term(question: str) -> tuple[str, int, int] | None:
    """The word whose mentions are counted, and where the question says it: quoted, called a
    word (`the word blood`), said or mentioned (`does Macbeth say blood`, `is Rome mentioned`), a
    mark (`marked fuzzy`, `tagged [Alba]`)."""
    for pattern in (_QUOTED, _WORD_NAMED, _SAID, _MARKED):
        unwanted = (
            _NOT_TERMS if pattern is _QUOTED else _NOT_TERMS | _SKIPPED
        )  # (`wrote the fewest`)
        for match in pattern.finditer(question):
            group = next((g for g in range(1, (match.lastindex or 0) + 1) if match.group(g)), 0)
            if group and match.group(group).strip().lower() not in unwanted:
                return match.group(group).strip(), match.start(group), match.end(group)
    return None


COUNTING = frozenset(  # words that say how to count: no value of a column, written small
    terms("how many much times often number count total most least every each all")
)
ASKING = COUNTING | frozenset(  # and words that say where or which: no chunk need hold them
    terms(
        "different distinct separate unique list frequently common commonly mentioned named "
        "cited appears occurs text document passage book whole overall altogether throughout"
    )
)


def counted_starts(question: str) -> tuple[str, ...]:
    """The starts of the words naming what a question counts, as a chunk may spell them
    (`ship`, `countr` for `How many countries and ships are named?`): a part of the text holding
    none of them has nothing of it to count, by its words at least."""
    found = []
    for word in keywords(question).lower().split():
        root = stem(word)
        start = os.path.commonprefix([word, root])  # (`countries`, `country`: `countr`)
        if root not in ASKING and len(start) >= 3:
            found.append(start)
    return tuple(dict.fromkeys(found))


def whole_text(question: str) -> bool:
    """Whether the question's own words say its answer needs every part of the text (`how
    many times`, `how many different`, `list every`, `most often`), whatever the text holds."""
    return bool(_WHOLE.search(question))


def whether(question: str) -> bool:
    """Whether the question asks whether (`Does Banquo speak in Act 4?`, `Is there…`)."""
    return _WHETHER.match(question) is not None


def names_wanted(question: str) -> bool:
    """Whether the question asks who or which (names a relation gives may answer it)."""
    return bool(_WHO_WHICH.search(question))


def chain(question: str) -> bool:
    """A fact about something another fact names (`the captain of the ship that carried…`)."""
    return bool(_CHAIN.search(question))


def counted(question: str) -> tuple[str, int] | None:
    """The words naming what is counted (`how many scenes`, `the most emails`), and where."""
    match = _COUNTED.search(question)
    return (match.group(1), match.start(1)) if match else None
