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
STATE = """{passages}

Question: {question}

Answer from the passages above alone. "passage": the number of the passage that answers the \
question. "answer": the answer alone, in a few of that passage's words, not a sentence: the \
option, name, number or date asked for; yes or no where the question asks whether something is \
so; "" where no passage answers. For example: {{"passage": 2, "answer": "1994"}}"""
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
    """What the model is shown of a finding: text around its citation, from `start` on."""

    start: int
    text: str
    section: str


@dataclass(frozen=True)
class Stated:
    """A short answer, the passage's words it rests on and where they stand."""

    answer: str
    quote: str
    citation: Citation
    section: str

    def lead(self) -> str:
        """The answer's first lines: the short answer, then its quote and where it is."""
        return f"{self.answer} [1]\n“{self.quote}” ({self.section})"


def state_answer(
    question: str, findings: list[Finding], run: Run, source: Readable, writer: LM
) -> Stated | None:
    """The short answer `writer` (an LM) states from the best findings' passages, if a sentence
    of one (the passage it names first) bears it out (`resting`); None if not."""
    passages = [_passage(f, source) for f in findings[:PASSAGES]]
    shown = "\n\n".join(f"[{n}] ({p.section}) {p.text}" for n, p in enumerate(passages, 1))
    try:
        reply = complete_json(
            run.gateway,
            writer,
            STATE.format(passages=shown, question=question),
            STATE_SCHEMA,
            purpose=Purpose.STATE,
            max_tokens=ANSWER_TOKENS,
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
    named = passages[number - 1]  # (first; a small model may misnumber the one it read)
    for passage in [named, *(p for p in passages if p is not named)]:
        span = resting(answer, passage.text, question)
        if span is not None:
            break
    else:
        return None
    quote = " ".join(passage.text[span[0] : span[1]].split())
    citation = source.citation(passage.start + span[0], passage.start + span[1])
    return Stated(answer, quote, citation, passage.section)


def _passage(finding: Finding, source: Readable) -> Passage:
    """The text around a finding's citation, cut at words, WINDOW characters at most."""
    start, end = finding.span
    margin = max(0, WINDOW - (end - start)) // 2
    first = max(0, start - margin)
    text = source.read_range(first, end + margin)
    if first > 0:  # (a cut word at either edge is dropped)
        cut = text.find(" ")
        first, text = (first + cut + 1, text[cut + 1 :]) if 0 <= cut < margin else (first, text)
    last = text.rfind(" ")
    if len(text) > end - first and last > end - first:
        text = text[:last]
    return Passage(first, text, source.section_at(start))


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
