"""An answer split into claims (sentences, list items and quote lines), each checked against the
text it cites: a claim is supported when its cited text holds every number it states and its new
words together with what it is about; a quote line when its cited text holds the quote."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from longread.answer import CITATION_MARK, Claim
from longread.text.grounding import new_terms, says_nothing
from longread.text.rank import not_after_abbreviation, terms

_MARKS = r"(?:\s*\[\d+\])*"
_SENTENCE = re.compile(  # up to a full stop before a word not in lower case (or the line's end);
    # a note in brackets is one piece: "(Part V. Terms of sale.)" is not cut at its full stops
    rf"(?:\([^()\n]*\)|[^\n])+?"
    rf"(?:{not_after_abbreviation()}[.!?]+[\"”’)]*{_MARKS}(?=\s+[^a-z0-9\s]|\s*$)|$)",
    re.MULTILINE,
)

_LISTED = re.compile(r"^\s*(?:[-*•]|\d+[.)]|\[\d+\])\s+")
_LABEL = re.compile(r"^\([^)]*\)\s*")  # a listed finding's "(section)"
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_ALONE = re.compile(r"(?<!\w)\d+(?:[.,]\d+)*(?!\w)")  # a number not part of a word (`web27`)
_NAME = re.compile(r"(?<=\S)\s+[\"“(]?([A-Z][\w-]*)")  # a capitalized word, not the first
_QUOTE_LINE = re.compile(  # “the quote” (its label)  — the reading's own line under a finding
    r"^\s*[“\"](?P<quote>[^”\"\n]+?)…?[”\"](?:\s*\([^()\n]*\))?(?:\s*\[\d+\])*\s*$"
)
_QUOTED = re.compile(r"“[^”]*”")  # the source's words, quoted in a claim
_COPULA = re.compile(r"\s(?:is|are|was|were)\s", re.IGNORECASE)
_WORD = re.compile(r"\w+")
SHARE = 0.5  # of a claim's new words its cited text must hold
WINDOW = 250  # characters each side of a claim's new word where what it is about must stand
ANSWER_WORDS = frozenset({"yes", "no"})  # what a yes/no answer adds to its question
_ASKING = frozenset({"who", "whom", "whose", "what", "which", "when", "where", "why", "how"})

CHECKED_CHARS = 50_000  # of an answer whose claims are checked


def split_claims(answer: str) -> list[Claim]:
    """The answer's statements: each list item whole, other lines cut into sentences (a `[n]` mark
    after a sentence's full stop stays with it). Headings, notes in brackets and "not found"
    lines are not claims."""
    claims = []
    offset = 0
    for line in answer.splitlines(keepends=True):
        whole = _LISTED.match(line) or _QUOTE_LINE.match(line)
        pieces = [re.match(r"[^\n]*", line)] if whole else _SENTENCE.finditer(line)
        for piece in pieces:
            if piece is None:
                continue
            raw = piece.group(0)
            text = raw.strip()
            if _is_claim(text):
                start = offset + piece.start() + len(raw) - len(raw.lstrip())
                claims.append(Claim(text, start, start + len(text), _marks(text)))
        offset += len(line)
    return claims


def _is_claim(text: str) -> bool:
    bare = CITATION_MARK.sub("", text).strip()
    return bool(
        terms(bare)
        and not bare.endswith(":")
        and not (bare.startswith("(") and bare.endswith(")"))
        and not says_nothing(bare)
    )


def _marks(text: str) -> list[int]:
    return list(dict.fromkeys(int(n) for n in CITATION_MARK.findall(text)))


def statement(claim: Claim) -> str:
    """The claim without its citation marks, list bullet and section label."""
    return CITATION_MARK.sub("", _LABEL.sub("", _LISTED.sub("", claim.text))).strip()


def numbers(text: str) -> set[str]:
    """The numbers `text` states, without thousands separators ("4,500" and "4500" are one)."""
    return {n.replace(",", "").rstrip(".") for n in _NUMBER.findall(text)}


def names(text: str) -> list[str]:
    """The capitalized words of `text` after its first (names, mostly), stop words and a yes or
    no left out."""
    return [
        word
        for word in dict.fromkeys(_NAME.findall(text))
        if terms(word) and word.casefold() not in ANSWER_WORDS
    ]


def missing_facts(claim: str, source: str, question: str) -> str:
    """What of the claim's numbers and names `source` (or the question) lacks, as a reason; ""
    when it has them all. A number must stand in a line or sentence of the source that also
    names what the claim or the question says it is of (`14` in `14,bilge pump,20` is no
    quantity of deck paint). No judge overrules this."""
    missing = numbers(claim) - numbers(source)
    if missing:
        return f"the cited text does not state {', '.join(sorted(missing))}"
    unbound = _unbound(claim, source, question)
    if unbound:
        return f"the cited text states {', '.join(unbound)} of something else"
    known = set(terms(source)) | set(terms(question))
    absent = [word for word in names(claim) if not set(terms(word)) <= known]
    return f"the cited text does not name {', '.join(absent)}" if absent else ""


_UNIT = re.compile(rf"[^\n]+?(?:{not_after_abbreviation()}[.!?](?=\s)|$)", re.MULTILINE)


def _unbound(claim: str, source: str, question: str) -> list[str]:
    """The claim's numbers that stand in no line or sentence of the source holding a word of
    what the claim or the question is about (the claim's and the question's other words)."""
    about = (set(terms(_ALONE.sub(" ", claim))) | set(terms(question))) - ANSWER_WORDS
    if not about:
        return []
    units = [(numbers(u.group()), set(terms(u.group()))) for u in _UNIT.finditer(source)]
    return sorted(
        n for n in numbers(claim) if not any(n in held and said & about for held, said in units)
    )


def holds(claim: str, source: str, question: str) -> tuple[bool, str]:
    """Whether `source` holds the claim: every number and name it states, and at least half of
    its words that the question does not already contain, standing together with what it is
    about (all its words, for a claim that only restates a yes/no question); with the reason
    when it does not. A claim that only restates another question, or says X is X, holds
    nothing."""
    lacking = missing_facts(claim, source, question)
    if lacking:
        return False, lacking
    if _says_x_is_x(claim, question):
        return False, "it says a thing is itself"
    present = set(terms(source))
    fresh = new_terms(claim, question) - ANSWER_WORDS
    if not fresh:  # it restates the question ("Yes, the keeper is paid in salt")
        if not _asks_yes_or_no(question):
            return False, "it restates the question"
        unsaid = [t for t in dict.fromkeys(terms(claim)) if t not in present | ANSWER_WORDS]
        return not unsaid, f"the cited text does not say {', '.join(unsaid)}" if unsaid else ""
    share = sum(t in present for t in fresh) / len(fresh)
    if share < SHARE:
        return False, f"the cited text holds {share:.0%} of its words"
    about = set(terms(claim)) - fresh - ANSWER_WORDS
    if not _together(fresh, about, source):
        return False, "the cited text has its words, but not together with what it is about"
    return True, ""


def _asks_yes_or_no(question: str) -> bool:
    """Whether the question asks yes or no: it opens with no question word."""
    first = _WORD.search(question)
    return first is None or first.group().casefold() not in _ASKING


def _says_x_is_x(claim: str, question: str) -> bool:
    """Whether a word the question asks about stands on both sides of the claim's "is" (outside
    the source's words it quotes)."""
    sides = _COPULA.split(_QUOTED.sub(" ", claim), maxsplit=1)
    if len(sides) < 2:
        return False
    return bool(set(terms(sides[0])) & set(terms(sides[1])) & set(terms(question)))


def _together(fresh: set[str], about: set[str], source: str) -> bool:
    """Whether some stretch of `source` (WINDOW characters each side of one of the claim's new
    words) holds at least SHARE of those words and more than half of the words the claim is
    about that the source has at all."""
    spots = [(m.start(), t) for m in _WORD.finditer(source) for t in terms(m.group())]
    about &= {t for _, t in spots}
    starts = [at for at, _ in spots]
    for at, word in spots:
        if word not in fresh:
            continue
        low, high = bisect_left(starts, at - WINDOW), bisect_right(starts, at + WINDOW)
        near = {t for _, t in spots[low:high]}
        if len(fresh & near) >= SHARE * len(fresh) and (
            not about or 2 * len(about & near) > len(about)
        ):
            return True
    return False


def quote_holds(line: str, source: str) -> bool | None:
    """For a quote line (“…” (label)), whether `source` holds the quote word for word (case and
    spacing aside); None for any other line."""
    m = _QUOTE_LINE.match(CITATION_MARK.sub("", line))
    if m is None:
        return None
    return " ".join(m["quote"].split()).casefold() in " ".join(source.split()).casefold()


def check_claims(answer: str, cited: Sequence[str], question: str) -> list[Claim]:
    """Every claim of `answer`'s first CHECKED_CHARS checked against `cited` (the citations'
    texts, in order). A claim marked `[n]` rests on those citations; an unmarked one on whichever
    of the answer's citations holds it. A claim that cites nothing, or whose citations do not hold
    it, is unsupported. (A longer answer's later claims are not checked: what checks them grows
    with the answer, and no reader reads that far.)"""
    claims = _once(split_claims(answer[:CHECKED_CHARS]))
    for claim in claims:
        said = statement(claim)
        marked = [n for n in claim.citations if 0 < n <= len(cited)]
        if claim.citations and not marked:
            claim.citations, claim.reason = [], "cites a passage the answer does not have"
            continue
        if marked:
            claim.supported, claim.reason = _verdict(
                claim.text, said, "\n".join(cited[n - 1] for n in marked), question
            )
            continue
        verdicts = [_verdict(claim.text, said, text, question) for text in cited]
        claim.citations = [n for n, (held, _) in enumerate(verdicts, 1) if held][:3]
        claim.supported = bool(claim.citations)
        if not claim.supported:
            claim.reason = _unheld(verdicts)
    return claims


def _verdict(line: str, said: str, source: str, question: str) -> tuple[bool, str]:
    """A quote line checked as a quote, any other claim by `holds`."""
    quoted = quote_holds(line, source)
    if quoted is None:
        return holds(said, source, question)
    return quoted, "" if quoted else "the cited text does not hold this quote"


def _once(claims: list[Claim]) -> list[Claim]:
    """The claims without repeats: a statement made again on the same citations (a loop) is one
    claim."""
    seen: set[tuple[str, tuple[int, ...]]] = set()
    kept = []
    for claim in claims:
        key = " ".join(statement(claim).casefold().split()), tuple(claim.citations)
        if key not in seen:
            seen.add(key)
            kept.append(claim)
    return kept


def _unheld(verdicts: list[tuple[bool, str]]) -> str:
    """Why an unmarked claim is unsupported, given what each of the answer's citations said."""
    if not verdicts:
        return "cites nothing"
    if len(verdicts) == 1:
        return f"marks no citation, and [1] does not hold it: {verdicts[0][1]}"
    return f"marks no citation, and none of the {len(verdicts)} citations holds it"
