"""The answer, stated: where the root model cannot join the findings (the bundled small one), one
call to a stronger model (`answer_writer`: the local code model beside a local root) reads the
passages around the best few findings and names, under a JSON schema, the passage that answers
and the answer (`{passage, answer}`). Code keeps the answer only where a sentence of a passage
shown holds each word of it the question lacks: that sentence is its quote and its citation; else
the findings lead as before, and the answer says that no short answer could be stated."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from longread.answer import Citation
from longread.errors import LongreadError
from longread.llm.base import LM
from longread.llm.jsonio import MalformedJSONError, complete_json
from longread.llm.usage import Purpose
from longread.strategies.common import Run
from longread.text.fold import tokens
from longread.text.lexical import sentence_spans
from longread.text.rank import STOP_WORDS, terms

if TYPE_CHECKING:
    from longread.strategies.reading import Finding, Readable

PASSAGES = 4  # findings whose passages the model reads
WINDOW = 480  # characters of a passage shown around its finding's cited sentence
ANSWER_TOKENS = 160
STATE = """You answer a question from numbered passages alone. "passage": the number of the \
passage that answers the question. "answer": the answer alone, in a few of that passage's words, \
not a sentence: the option, name, number or date asked for; yes or no where the question asks \
whether something is so; "" where no passage answers. For example: {"passage": 2, "answer": \
"1994"}"""
ASKED = """{passages}

Question: {question}"""
STATE_SCHEMA = {
    "type": "object",
    "properties": {
        "passage": {"type": "integer"},
        "answer": {"type": "string", "maxLength": 160},
    },
    "required": ["passage", "answer"],
}
YES_NO = {"yes", "no"}
_EDGE_QUOTES = "\"'“”‘’` "


@dataclass(frozen=True)
class Passage:
    """What the model is shown of a finding: text around its citation, from `start` on in
    `source`."""

    start: int
    text: str
    section: str
    source: Readable
    opens: bool = False  # whether it starts where its section (a corpus's: document) starts


@dataclass(frozen=True)
class Stated:
    """A short answer, the passage's words it rests on and where they stand."""

    answer: str
    quote: str
    citation: Citation
    passage: Passage

    @property
    def section(self) -> str:
        """Where the quote stands (its passage's section, a corpus's document)."""
        return self.passage.section

    def lead(self) -> str:
        """The answer's first lines: the short answer, then its quote and where it is."""
        return f"{self.answer} [1]\n“{self.quote}” ({self.section})"


def state_answer(
    question: str, findings: list[Finding], run: Run, source: Readable, writer: LM
) -> Stated | None:
    """The short answer `writer` (an LM) states from the best findings' passages, if a sentence
    of one (the passage it names first) bears it out (`resting`); None if not."""
    return state_from(question, [_passage(f, source) for f in findings[:PASSAGES]], run, writer)


def state_from(question: str, passages: list[Passage], run: Run, writer: LM) -> Stated | None:
    """The short answer `writer` states from `passages`, if a sentence of one (the passage it
    names first) bears it out; None if not."""
    said = answer_from(question, passages, run, writer)
    if said is None:
        return None
    answer, named = said
    for passage in [named, *(p for p in passages if p is not named)]:
        span = resting(answer, passage.text, question)
        if span is not None:
            break
    else:
        return None
    quote = " ".join(passage.text[span[0] : span[1]].split())
    start = passage.start
    citation = passage.source.citation(start + span[0], start + span[1])
    return Stated(answer, quote, citation, passage)


def answer_from(
    question: str, passages: list[Passage], run: Run, writer: LM
) -> tuple[str, Passage] | None:
    """The answer `writer` gives from `passages` (yes or no where it says so) and the passage it
    names; None where it gives none, or the call fails."""
    shown = "\n\n".join(f"[{n}] ({p.section}) {p.text}" for n, p in enumerate(passages, 1))
    try:
        reply = complete_json(
            run.gateway,
            writer,
            ASKED.format(passages=shown, question=question),
            STATE_SCHEMA,
            purpose=Purpose.STATE,
            system=STATE,
            max_tokens=ANSWER_TOKENS,
            keep_prefix=True,
        )
    except (MalformedJSONError, LongreadError):  # (a model error, the budget spent)
        return None
    answer = " ".join(str(reply.get("answer", "")).split()).strip(_EDGE_QUOTES + ".")
    number = reply.get("passage")
    if not answer or not isinstance(number, int) or not 1 <= number <= len(passages):
        return None
    said = tokens(answer)
    if said and said[0] in YES_NO:
        answer = said[0].capitalize()  # (the form asked: yes or no, not a reason)
    return answer, passages[number - 1]  # (a small model may misnumber the one it read)


def _passage(finding: Finding, source: Readable) -> Passage:
    """The text around a finding's citation inside its section (a corpus's: its document), cut
    at words, WINDOW characters at most."""
    start, end = finding.span
    margin = max(0, WINDOW - (end - start)) // 2
    section = source.section_at(start)
    low, high = max(0, start - margin), end + margin
    first, last = _bound(source, section, low, start), _bound(source, section, high, end)
    text = source.read_range(first, last)
    if first == low > 0:  # (a word the window cuts at either edge is dropped)
        cut = text.find(" ")
        first, text = (first + cut + 1, text[cut + 1 :]) if 0 <= cut < margin else (first, text)
    cut = text.rfind(" ")
    if last == high and len(text) == last - first and cut > end - first:  # (not the end)
        text = text[:cut]
    return Passage(first, text, section, source, opens=first < low or low == 0)


def _bound(source: Readable, section: str, far: int, near: int) -> int:
    """How far from `near` (inside `section`) towards `far` the section goes: the first offset
    inside it going left, the end of its last character going right (a binary search: a section
    lies in one piece)."""
    right = far > near

    def inside(offset: int) -> bool:
        return source.section_at(offset - 1 if right else offset) == section

    if inside(far):
        return far
    held, out = near, far
    while abs(out - held) > 1:
        middle = (held + out) // 2
        held, out = (middle, out) if inside(middle) else (held, middle)
    return held


def resting(answer: str, text: str, question: str) -> tuple[int, int] | None:
    """The sentence of `text` the answer rests on: of those holding each word of the answer the
    question lacks (each word, where the question holds them all; none, for yes or no), the one
    sharing most words with the question and the answer; None where no sentence does."""
    said, asked = set(tokens(answer)), set(tokens(question))
    if not said:
        return None
    needed = set() if said <= YES_NO else (said - asked - STOP_WORDS or said)
    weighed = set(terms(f"{question} {answer}"))
    best, most = None, 0
    for start, end in sentence_spans(text):
        sentence = text[start:end]
        shared = len(weighed & set(terms(sentence)))
        if needed <= set(tokens(sentence)) and shared > most:
            best, most = (start, end), shared
    return best
