"""What a question asks, read by rules: one fact, or an aggregate over the whole text (a count, the
most or the least of something, a list of every case); and for an aggregate, what it counts, and
what it groups by. Names in the question (a speaker, an act, a document) are matched later,
against those the text holds."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, replace

from longread.text.rank import keywords, stem, terms
from longread.text.records import phrase_pattern

_MOST = re.compile(r"\b(most|more\s+than\s+any|greatest|largest|highest|maximum|longest)\b", re.I)
_LEAST = re.compile(r"\b(least|fewest|smallest|lowest|minimum|shortest)\b", re.I)
_MORE = re.compile(
    r"\b(more|longer)\b.*\bor\b|\bor\b.*\b(more|longer)\b", re.I
)  # (`Who speaks more, A or B?`)
_LESS = re.compile(r"\b(less|fewer|shorter)\b.*\bor\b|\bor\b.*\b(less|fewer|shorter)\b", re.I)
_HOW_MANY_SPEAK = re.compile(
    r"\bhow\s+many\s+(?:different\s+|distinct\s+|separate\s+)?(?:speaking\s+)?"
    r"(?:characters|speakers|people|persons|roles)\b",
    re.I,
)
_CAST = re.compile(
    r"\b(?:characters|speakers|(?:speaking\s+)?(?:roles|parts)|people\s+(?:who\s+)?speak)\b", re.I
)
_LENGTH = re.compile(r"\b(?:longest|shortest|longer|shorter)\b", re.I)
_COUNT = re.compile(r"\b(how\s+many|how\s+often|number\s+of|count|total)\b", re.I)
_LIST = re.compile(r"\b(list\s+(all|every)|name\s+(all|every)|which\s+\w+\s+all|every\s+)", re.I)
_QUOTED = re.compile(r"[\"“‘']([^\"”’']{2,60})[\"”’']")
_WORD_NAMED = re.compile(
    r"\b(?:the\s+(?:word|term|name|phrase)|word|term|phrase)\s+(\w[\w-]*)", re.I
)
_SAID = re.compile(  # (`does Macbeth say blood?`, `is blood mentioned`)
    r"\b(?:says?|said|mentions?|uses?|utters?)\s+(?:the\s+(?:word\s+)?)?[\"“‘']?([\w-]+)[\"”’']?"
    r"(?:\s+(?:the\s+)?(?:most|least|more|less)(?:\s+\w+)?|\s+in\s+[\w' ]+?)?(?:,[^?]*)?\s*\??\s*$"
    r"|\b(?:is|are|was|were)\s+(?:the\s+(?:word\s+)?)?[\"“‘']?([\w-]+)[\"”’']?\s+"
    r"(?:mentioned|said|used|spoken|named|written|uttered)\b",
    re.I,
)
_PROPER = re.compile(r"(?<=\w\s)([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)*)")
_SPEECH = re.compile(
    r"\b(speech|speeches|speaks?|speaking|spoke|says?|said|lines?|talks?)\b"
    r"|\b(?:frequent|common|prolific|talkative)\s+speakers?\b",
    re.I,
)
ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
_PLACE = re.compile(
    rf"\b({'|'.join(ORDINALS[1:])}|[2-8](?:nd|rd|th))[\s-]+(?:most|least|fewest|largest|greatest"
    r"|highest|smallest|lowest|longest|shortest)\b",
    re.I,
)
_LINES = re.compile(r"\blines\b", re.I)
_MENTION = re.compile(
    r"\b(times|mentioned|mentions?|appears?|occurs?|occurrences?|used|uses)\b", re.I
)
_APPEAR = re.compile(r"\b(appears?|appearing|present|on\s+stage)\b", re.I)
SECTION_KINDS = ("scene", "act", "chapter", "section", "part", "book", "canto", "article")
DOCUMENT_NOUNS = ("play", "document", "file", "article", "text")
_ACROSS = re.compile(
    rf"\bin\s+(?:the\s+)?(?:most|fewest|least|more|fewer|how\s+many|the\s+greatest\s+number\s+of)"
    rf"\s+(?:different\s+|of\s+the\s+)?({'|'.join(SECTION_KINDS + DOCUMENT_NOUNS)})s\b",
    re.I,
)
_ACROSS_AFTER = re.compile(  # (`How many scenes does Banquo appear in?`, `How many plays mention`)
    rf"\bhow\s+many\s+(?:different\s+|of\s+the\s+)?({'|'.join(SECTION_KINDS + DOCUMENT_NOUNS)})s"
    r"\s+(?:(?:does|do|did)\b.*\b(?:appear|speak|show\s+up)"
    r"|(?:is|was|are|were)\s+(?!there\b|in\b)\w.*\b(?:in|present|on\s+stage)\s*\??\s*$"
    r"|(?:feature|include|mention|name|contain)s?\b)",
    re.I,
)
ONE_RECORD = ("first", "last", "longest", "shortest")  # operations answered by one record
_HOW_MANY_DOCUMENTS = re.compile(
    rf"\bhow\s+many\s+(?:different\s+)?(?:{'|'.join((*DOCUMENT_NOUNS, 'book'))})s\s+"
    r"(?:are\s+there|(?:are|is)\s+(?:in|here)|does|do)\b",
    re.I,
)  # (`How many plays are there?`; not `How many plays mention Rome?`)
_BOUND = re.compile(
    r"\b(?:than|over|under|at\s+least|at\s+most)\s+\d|\bonly\s+once\b|\bexactly\b"
    r"|\bmore\s+than\s+(?:once|one|two|three)\b",
    re.I,
)
_ONE_SPEECH = re.compile(r"\b(longest|shortest)\s+(?:single\s+)?speech\b", re.I)
_WORDS = re.compile(r"\bwords\b", re.I)
_TURN = re.compile(
    r"\bwho\s+(?:speaks|says|has|delivers|gives)\s+(?:the\s+)?(first|last|final|opening|closing)"
    r"\s+(?:line|lines|speech|words)\b|\b(?:who|which\s+\w+)\s+(?:speaks|talks)\s+(first|last)\b"
    r"|\b(?:who|which\s+\w+)\s+(?:is|was)\s+the\s+(first|last|final)\s+(?:\w+\s+)?to\s+speak\b",
    re.I,
)
_COUNTED = ("number", "total", "count", "speeche", "line", "mention", "time")
_GROUPS = {
    "speaker": ("who", "character", "speaker", "person", "role"),
    "document": (*DOCUMENT_NOUNS, "book"),
}

_WHICH_HOLD = re.compile(  # (`Which plays mention Rome?`, `In which play does 'X' appear?`)
    rf"\b(?:which|what)\s+(?:of\s+the\s+)?(?:{'|'.join((*SECTION_KINDS, *_GROUPS['document']))})s?"
    r"\s+(?:mentions?|contains?|names?|includes?|uses?|refers?\s+to|talks?\s+about)\b"
    r"|\bin\s+which\s+\w+\s+(?:does|do|is|are)\b.*\b(?:appears?|mentioned|occurs?|used)\b",
    re.I,
)
_WHICH_IN = re.compile(  # (`Which play is Banquo in?`)
    r"\bwhich\s+\w+\s+(?:is|was|are|were)\s+(\w[\w' -]{0,40}?)\s+in\s*\??\s*$", re.I
)


@dataclass(frozen=True)
class Aggregate:
    """An aggregate question: `operation` (count, most, least, list, distinct: how many
    groups, or first, last, longest or shortest: the one record that is so) over `unit`
    (speeches, lines spoken, words spoken, mentions of `term`, sections of kind `term`, the
    speakers heard or the words written), grouped by `group` (speaker, document, or a kind of
    section such as act; None: one total); `across` a kind of section or document for `in how
    many scenes` (those the records fall in); `rank` the place a ranking asks for."""

    operation: str
    unit: str
    group: str | None = None
    term: str | None = None
    across: str | None = None  # count the sections of this kind the records fall in, not them
    rank: int = 1  # for most or least: the place asked for (2: `the second most`)


def aggregate_question(question: str) -> Aggregate | None:
    """The aggregate a question asks for; None for a question about one fact (or one this reading
    does not understand)."""
    plan = _aggregate(question)
    place = _PLACE.search(question)
    if plan is None or place is None or plan.operation not in ("most", "least"):
        return plan
    word = place.group(1).lower()
    return replace(plan, rank=ORDINALS.index(word) + 1 if word in ORDINALS else int(word[0]))


def _aggregate(question: str) -> Aggregate | None:
    if _BOUND.search(question):
        return None  # (`speeches longer than 10 lines`: a bound this reading does not apply)
    if _HOW_MANY_SPEAK.search(question):
        return Aggregate("distinct", "speeches", "speaker")
    turn = _TURN.search(question)
    if turn:  # (`Who speaks the last line?`: the first or the last speech, in order)
        first = next(word for word in turn.groups() if word).lower() in ("first", "opening")
        return Aggregate("first" if first else "last", "speeches")
    single = _ONE_SPEECH.search(question)
    if single:  # (`Who has the longest speech?`: one speech, by its lines)
        return Aggregate(single.group(1).lower(), "lines")
    operation = (
        "most"
        if _MOST.search(question) or _MORE.search(question)
        else "least"
        if _LEAST.search(question) or _LESS.search(question)
        else "count"
        if _COUNT.search(question)
        else "list"
        if _LIST.search(question) or _WHICH_HOLD.search(question) or _WHICH_IN.search(question)
        else None
    )
    if operation is None:
        return None
    group = _group(question)
    if group is None and operation in ("most", "least"):  # (`more in Act I or Act V?`)
        group = next((k for k in SECTION_KINDS if len(sections_named(question, k)) > 1), None)
    after = _ACROSS_AFTER.search(question)
    found = _ACROSS.search(question) or after
    across = found.group(1).lower() if found else None  # (`in how many scenes`, `in most plays`)
    term = _term(question)
    if term and (
        _MENTION.search(question) or _SPEECH.search(question) or _WHICH_IN.search(question)
    ):
        return Aggregate(operation, "mentions", group, term, across)
    if across and (_SPEECH.search(question) or _APPEAR.search(question) or group == "speaker"):
        return Aggregate(operation, "speeches", group, across=across)
    proper = _PROPER.search(question)
    if across and proper and after and not _MENTION.search(question):
        return Aggregate(operation, "speeches", group, across=across)  # (`acts is Banquo in`)
    if operation in ("most", "least") and group not in (None, "speaker"):
        if _CAST.search(question):  # (`Which play has the most characters?`)
            return Aggregate(operation, "speakers", group)
        if _LENGTH.search(question) and not _SPEECH.search(question):
            return Aggregate(operation, "words", group)  # (`Which play is the longest?`)
    if _SPEECH.search(question):
        unit = "lines" if _LINES.search(question) else "speeches"
        return Aggregate(operation, "words spoken" if _WORDS.search(question) else unit, group)
    if proper and _MENTION.search(question):  # (`How many times is Banquo mentioned?`)
        return Aggregate(operation, "mentions", group, proper.group(1), across)
    if operation == "count" and _HOW_MANY_DOCUMENTS.search(question):
        return Aggregate("distinct", "words", "document")  # (the documents holding words)
    if operation == "count" and _WORDS.search(question):  # (`How many words are in Hamlet?`)
        return Aggregate("count", "words", group)
    kind = _counted_section(question)
    if kind is not None and (operation != "count" or group != kind):
        return Aggregate(operation, "sections", None if group == kind else group, kind)
    return None


def _term(question: str) -> str | None:
    """The word whose mentions a question counts: quoted, called a word (`the word blood`), or
    said or mentioned (`does Macbeth say blood`, `is blood mentioned`), not a word of asking."""
    named = _QUOTED.search(question) or _WORD_NAMED.search(question)
    if named:
        return named.group(1).strip()
    said = _SAID.search(question) or _WHICH_IN.search(question)
    word = said and next((g for g in said.groups() if g), None)
    return word if word and keywords(word) and stem(word.lower()) not in _ASKING else None


_DISTINCT = re.compile(
    r"\bhow\s+many\s+(?:different|distinct|separate|unique)\b"
    r"|\bhow\s+many\b.*\b(?:are|were|is|was)\s+(?:named|listed|mentioned)\b",
    re.I,
)
_LIST_ALL = re.compile(
    r"\b(?:list|name|enumerate|give)\s+(?:all|every|each)\b"
    r"|\b(?:all|every)\s+(?:the\s+)?\w+\s+(?:that\s+(?:are|is)\s+)?(?:named|mentioned|listed)\b",
    re.I,
)
_TIMES = re.compile(r"\bhow\s+many\s+times\b|\bhow\s+often\b|\bnumber\s+of\s+times\b", re.I)
_FREQUENT = re.compile(
    r"\b(?:most|least)\s+(?:often|frequently|common(?:ly)?|mentioned|named|cited)\b"
    r"|\b(?:mentioned|named|cited|appears?|occurs?)\s+(?:the\s+)?(?:most|least)\b",
    re.I,
)


def whole_text_operation(question: str) -> str | None:
    """For a question whose answer depends on every part of the text though no structure can
    be counted (`How many different ships are named?`, `List every treaty`, `Which city is
    mentioned most often?`), what to do with the records of it: count, distinct, list, most or
    least; None for a question that may ask for one fact (`How many men did Drake bring?`)."""
    if _LIST_ALL.search(question):
        return "list"
    if _FREQUENT.search(question):
        return "least" if re.search(r"\bleast\b", question, re.I) else "most"
    if _TIMES.search(question):
        return "count"
    if _DISTINCT.search(question):
        return "distinct"
    return None


_CHAIN = re.compile(
    r"\bthe\s+(?:\w+\s+){1,2}?(?:that|who|which|whose|where)\s+\w+|\bwhose\b",
    re.I,
)


_ASKING = frozenset(  # words that say how to count, not what: no chunk need hold them
    terms(
        "how many much times often number count total different distinct separate unique list "
        "every each all most least frequently common commonly mentioned named cited appears "
        "occurs text document passage book whole overall altogether throughout"
    )
)


def counted_words(question: str) -> list[str]:
    """The starts of the words naming what a question counts, as a chunk may spell them
    (`ship`, `countr` for `How many countries and ships are named?`): a part of the text holding
    none of them has nothing of it to count, by its words at least."""
    found = []
    for word in keywords(question).lower().split():
        root = stem(word)
        start = os.path.commonprefix([word, root])  # (`countries`, `country`: `countr`)
        if root not in _ASKING and len(start) >= 3:
            found.append(start)
    return list(dict.fromkeys(found))


def question_kind(question: str) -> str:
    """How much of the text a question needs: `aggregate` (a count over all of it), `chain` (a
    fact about something found by another: `the captain of the ship that carried the silk`) or
    `fact`."""
    if aggregate_question(question) or whole_text_operation(question):
        return "aggregate"
    return "chain" if _CHAIN.search(question) else "fact"


def _group(question: str) -> str | None:
    """What a `which …` / `who` / `in which …` question ranks: a kind of section, a speaker or
    a document, named within a few words of `which` or `what` (`What is the shortest scene`)."""
    for match in re.finditer(r"\b(?:which|what)((?:\s+[\w']+){1,4})", question, re.I):
        for word in match.group(1).lower().split():
            noun = word.rstrip("s")
            if noun in SECTION_KINDS:
                return noun
            group = next((g for g, nouns in _GROUPS.items() if noun in nouns), None)
            if group is not None:
                return group
            if noun in _COUNTED:  # (`What is the number of scenes`: what is counted, not ranked)
                break
    return "speaker" if re.search(r"\bwho\b", question, re.I) else None


def _counted_section(question: str) -> str | None:
    """The kind of section counted (`How many scenes …`, `the most scenes`)."""
    for kind in SECTION_KINDS:
        if re.search(rf"\b{kind}s\b", question, re.I):
            return kind
    return None


_ROMAN = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}


def numeral(word: str) -> int | None:
    """The value of an Arabic or Roman numeral (`3`, `III`), else None."""
    if word.isdigit():
        return int(word)
    word = word.lower()
    if not word or any(c not in _ROMAN for c in word):
        return None
    total = 0
    for at, c in enumerate(word):
        value = _ROMAN[c]
        total += -value if at + 1 < len(word) and _ROMAN[word[at + 1]] > value else value
    return total


def sections_named(question: str, kind: str) -> set[int]:
    """The places of the sections of this kind (`act`) the question names, from 1 (-1: the
    last): `Act 3`, `act III`, `the third act`, `Act the Third`, `the final act`."""
    ordinals = "|".join((*ORDINALS, "last", "final"))
    found = set()
    for match in re.finditer(
        rf"\b{kind}\s+(?:the\s+)?(\d+|[ivxlc]+|{ordinals})\b|\b({ordinals})\s+{kind}\b",
        question,
        re.I,
    ):
        word = (match.group(1) or match.group(2)).lower()
        value = (
            -1
            if word in ("last", "final")
            else ORDINALS.index(word) + 1
            if word in ORDINALS
            else numeral(word)
        )
        if value is not None:
            found.add(value)
    return found


def names_any_section(question: str) -> bool:
    """Whether the question names a section by its kind and place (`Act 3`, `scene ii`, `the
    second act`, `the last scene`)."""
    return any(sections_named(question, kind) for kind in SECTION_KINDS)


def names(question: str, name: str, case: bool = False) -> bool:
    """Whether the question names `name` (a speaker, a document's title) as whole words, in any
    case (in its own, with `case`)."""
    return bool(name.split()) and bool(phrase_pattern(name, case).search(question))


def without(question: str, name: str) -> str:
    """The question with each place it names `name` blanked out."""
    return phrase_pattern(name).sub(" ", question) if name.split() else question
