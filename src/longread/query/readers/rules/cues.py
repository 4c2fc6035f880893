"""What a question's own words say about computing its answer, whatever the source: the
operation (how many, the most, the total, the average, the first, every), the place asked for
(`the second most`), bounds (`more than 10`), the word whose mentions are counted, and which
noun is counted or grouped by. These are English words about counting, never about a genre;
what the nouns name is found in the source's own tables (see links)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass

from longread.index.records import numeral
from longread.query.core.plan import Operation, Test
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
_LAST = re.compile(r"\b(?:last|latest|final|closing)\b", re.I)
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
_PLACE = re.compile(
    rf"\b({'|'.join(ORDINALS[1:])}|[2-8](?:nd|rd|th))[\s-]+(?:most|least|fewest|largest|"
    r"greatest|highest|smallest|lowest|longest|shortest|biggest)\b",
    re.I,
)
_BOUND = re.compile(
    r"\b(?P<op>more\s+than|over|greater\s+than|above|at\s+least|longer\s+than|larger\s+than|"
    r"bigger\s+than|heavier\s+than|higher\s+than|less\s+than|under|fewer\s+than|below|at\s+most|"
    r"shorter\s+than|smaller\s+than|lighter\s+than|lower\s+than|exactly|before|after|"
    r"earlier\s+than|later\s+than|prior\s+to|since)\s+"
    r"(?P<n>-?\d[\d,]*(?:\.\d+)?)",
    re.I,
)
_BOUND_TESTS = {
    "more than": Test.GT, "over": Test.GT, "greater than": Test.GT, "above": Test.GT,
    "longer than": Test.GT, "larger than": Test.GT, "bigger than": Test.GT,
    "heavier than": Test.GT, "higher than": Test.GT, "at least": Test.GE, "less than": Test.LT,
    "under": Test.LT, "fewer than": Test.LT, "below": Test.LT, "shorter than": Test.LT,
    "smaller than": Test.LT, "lighter than": Test.LT, "lower than": Test.LT,
    "at most": Test.LE, "exactly": Test.IN, "before": Test.LT, "after": Test.GT,
    "earlier than": Test.LT, "later than": Test.GT, "prior to": Test.LT, "since": Test.GE,
}  # fmt: skip
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
_IDENTIFIER = re.compile(r"(?<![\w.])[a-z]\w*_\w+", re.I)  # (`msgid_plural`: no English word)
_APPEARS = re.compile(  # (a word that appears, unless the tables name it: `does Banquo appear`)
    r"\b(?:is|are|was|were|does|do|did)\s+([\w][\w'’-]*(?:\s+[A-Z][\w'’-]*)?)\s+"
    r"(?:appears?|occurs?|comes?\s+up|shows?\s+up)\b",
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
_PHRASE_ENDS = frozenset(
    "by per in of on at to for from with has have had does do did is are was were who whom that "
    "which than and or with".split()
)
_TRIGGER = re.compile(
    r"\b(?:(which|what|whose|(?:name|identify|give|find|tell\s+me|show)\s+the)"
    r"|(per|each|by|for\s+(?:each|every)))\s+",
    re.I,
)
_MODIFIED = re.compile(  # (`the play with the most scenes`, `the act in which Banquo…`)
    r"\bthe\s+([\w'’-]+(?:\s+[\w'’-]+)?)\s+(?=(?:with|that|which|who|whose|having|in\s+which)\b)",
    re.I,
)
_TOKEN = re.compile(r"[\w'’-]+")
_WHO = re.compile(r"\b(?:who|whom|whose)\b", re.I)
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
_AMONG = re.compile(r"\b(?:of|among)\s+(?:all\s+)?(?:the|these|those)\s+([\w'’-]+)", re.I)
_TIMES_SAID = {"once": 1, "twice": 2, "thrice": 3}
_EXACTLY = re.compile(
    r"\b(?:only|just|exactly)\s+(?:(once|twice|thrice)\b|(?:a\s+single|(\w+))\s+[a-z][\w'’-]*)",
    re.I,
)


@dataclass(frozen=True)
class Bound:
    test: Test
    number: float
    start: int
    end: int


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


def compares(question: str) -> Operation | None:
    """ARGMAX or ARGMIN for a question comparing named things (`Who speaks more, A or B?`)."""
    if " or " not in question:
        return None
    if _MORE.search(question) or re.search(r"\bmost\b", question, re.I):
        return Operation.ARGMAX
    if _LESS.search(question) or re.search(r"\b(?:least|fewest)\b", question, re.I):
        return Operation.ARGMIN
    return None


def place(question: str) -> int:
    """The place a ranking asks for (2: `the second most`)."""
    found = _PLACE.search(question)
    if found is None:
        return 1
    word = found.group(1).lower()
    return ORDINALS.index(word) + 1 if word in ORDINALS else int(word[0])


def last(question: str) -> bool:
    return bool(_LAST.search(question))


def bounds(question: str) -> list[Bound]:
    found = []
    for match in _BOUND.finditer(question):
        op = " ".join(match["op"].lower().split())
        value = float(match["n"].replace(",", ""))
        found.append(Bound(_BOUND_TESTS[op], value, match.start(), match.end()))
    return found


def exactly(question: str) -> int | None:
    """How many times, or how many of a thing, the question asks for exactly (`speak only
    once`, `have exactly one speech`, `just two scenes`), if it asks so."""
    for match in _EXACTLY.finditer(question):
        said, count = match.group(1), match.group(2)
        if said:
            return _TIMES_SAID[said.lower()]
        if count is None:
            return 1  # (`a single speech`)
        number = numeral(count) if count.isalpha() and count.islower() or count.isdigit() else None
        if number is not None:  # (`one`, `2`; not the roman `I` of `only I speak`)
            return number
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


def identifier(question: str) -> tuple[str, int, int] | None:
    """A word written as code writes names (`msgid_plural`), and where: a literal the rows say,
    unless the tables name it."""
    match = _IDENTIFIER.search(question)
    return None if match is None else (match.group(), match.start(), match.end())


def appears(question: str) -> tuple[str, int, int] | None:
    """A word the question asks where it appears (`does the word crown appear`, `does Banquo
    appear`): a counted word unless the source's tables hold it as a value."""
    match = _APPEARS.search(question)
    if match is None or match.group(1).lower() in _NOT_TERMS:
        return None
    return match.group(1), match.start(1), match.end(1)


def groups(question: str, which: bool = True) -> list[tuple[str, int]]:
    """The noun phrases after `which`, `what`, `per`, `each` or `by`, and where they start: what
    a question may group by (`Which account`, `in which act`, `per island`); only those after
    `per`, `each` or `by` unless `which`."""
    found = []
    for trigger in _TRIGGER.finditer(question):
        if trigger.group(1) and not which:
            continue
        phrase: list[re.Match[str]] = []
        for token in _TOKEN.finditer(question, trigger.end()):
            word = token.group().lower()
            if not phrase and (word in _SKIPPED or re.fullmatch(r"\d+(?:st|nd|rd|th)", word)):
                continue
            if word in _PHRASE_ENDS or len(phrase) == 3:
                break
            phrase.append(token)
            if question[token.end() : token.end() + 1] in (",", "?", ".", ";"):
                break
        among = _AMONG.search(question)  # (`Of all the plays here, which one…`: the plays)
        if among and re.match(r"ones?\b", question[trigger.end() :], re.I):
            found.append((among.group(1), among.start(1)))
        elif phrase:
            found.append((question[phrase[0].start() : phrase[-1].end()], phrase[0].start()))
    if which:  # (the noun a superlative's clause qualifies comes first: `the play with…`)
        found = [(m.group(1), m.start(1)) for m in _MODIFIED.finditer(question)] + found
    return found


_CUE = re.compile(
    r"\b(?:number|count|amount|total\s+number)\s+of\b|\bhow\s+many\b"
    r"|^\s*(?:name|give|identify|tell\s+me|list|show|find|report|state)\b",  # (a request's verb)
    re.I,
)


def cue_spans(question: str) -> list[tuple[int, int]]:
    """Where the question's words say to count or what to do (`number of`, `Name the…`): they
    name no column."""
    return [(m.start(), m.end()) for m in _CUE.finditer(question)]


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


def occurrences(question: str) -> bool:
    """Whether the question counts each time a thing occurs (`how many times`, `how often`)."""
    return re.search(_OCCURRENCES, question, re.I) is not None


def share_of(question: str) -> int | None:
    """Where the words naming what a share is of start (`What percentage of requests…`)."""
    found = re.search(_OPERATIONS[0][1], question, re.I)
    return found.end() if found else None


def whether(question: str) -> bool:
    """Whether the question asks whether (`Does Banquo speak in Act 4?`, `Is there…`)."""
    return _WHETHER.match(question) is not None


def names_wanted(question: str) -> bool:
    """Whether the question asks who or which (names a relation gives may answer it)."""
    return bool(_WHO_WHICH.search(question))


_TOTAL = re.compile(next(p for op, p in _OPERATIONS if op is Operation.SUM), re.IGNORECASE)


def asks_total(question: str) -> bool:
    """Whether the question asks for a total (`the largest total quantity`: summed, then
    ranked)."""
    return bool(_TOTAL.search(question))


def asks_who(question: str) -> bool:
    return bool(_WHO.search(question))


def after_who(question: str) -> int | None:
    """Where the words after the question's `who` (`whom`, `whose`) start, if it has one."""
    found = _WHO.search(question)
    if found is None:
        return None
    return found.end() + len(question[found.end() :]) - len(question[found.end() :].lstrip())


def chain(question: str) -> bool:
    """A fact about something another fact names (`the captain of the ship that carried…`)."""
    return bool(_CHAIN.search(question))


def counted(question: str) -> tuple[str, int] | None:
    """The words naming what is counted (`how many scenes`, `the most emails`), and where."""
    match = _COUNTED.search(question)
    return (match.group(1), match.start(1)) if match else None
