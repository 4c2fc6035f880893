"""Questions asked one after another about one source. A follow-up that the passages earlier
answers cited already answer costs one call (a small root model: its sub-model reads the best few
of them again, a line each), accepted only when every one of its claims is held by them;
otherwise it is answered as usual, its question joined to the one before when it refers
back. The rlm loop keeps its REPL (and the variables it made) open from question to question,
and sees earlier questions and answers, condensed when long."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from longread.answer import CITATION_MARK, Answer, Citation
from longread.events import EventKind
from longread.llm.usage import Purpose
from longread.strategies.common import Run
from longread.strategies.modes import Source, answer
from longread.strategies.reading import ChunkReader, best_chunks, chunk_plan, cut_chunks
from longread.strategies.retrieval import renumber
from longread.strategies.texts import TextDocs
from longread.strategies.verify import judge
from longread.text.claims import ANSWER_WORDS, check_claims, split_claims, statement
from longread.text.grounding import says_nothing
from longread.text.rank import terms
from longread.tools.single_doc import SingleDocTools

if TYPE_CHECKING:
    from longread.repl.sandbox import Sandbox

HISTORY_CHARS = 3_000  # of earlier questions and answers shown to the root model
WHOLE_TURNS = 2  # the newest turns shown whole; older ones by their question and first claim
EVIDENCE_CHARS = 6_000  # of earlier answers' cited passages a follow-up is first tried on
RECALL_SHARE = 0.5  # of a follow-up's new words the passages must hold for it to be tried on them
AROUND = 400  # characters read on each side of a cited span, cut back to whole sentences
REREAD_CHUNKS = 3  # of the earlier passages a small root's sub-model reads again for a follow-up
_BOUNDARY = re.compile(r"[.!?][\"”’)]*\s+|\n")
NOT_THERE = "NOT IN THE PASSAGES"
ANSWERED = "a follow-up the passages of earlier answers hold: answered from them"
REREAD = "a follow-up the passages of earlier answers hold: they were read again"
RECALL = """Earlier in this conversation:
{history}

Passages those answers rest on, each with its number:
{passages}

New question: {question}
If these passages answer the new question, answer it in one to three sentences, each followed by \
the number of the passage it rests on, like [2]. If they do not, reply only: {not_there}"""
_REFERS_BACK = re.compile(
    r"\b(it|its|that|this|those|these|they|them|their|he|him|his|she|her|there|then|same|"
    r"above|else|also|instead)\b|^\s*(and|but|what about|how about)\b",
    re.IGNORECASE,
)
ByOffsets = SingleDocTools | TextDocs  # the sources whose citations can be read around


@dataclass
class Turn:
    """One question of the conversation and the answer it got."""

    question: str
    answer: Answer


@dataclass
class Conversation:
    """The questions so far, and the rlm loop's REPL, kept open between them (closed by `close`)."""

    turns: list[Turn] = field(default_factory=list)
    repl: Sandbox | None = None

    def history(self, limit: int = HISTORY_CHARS) -> str:
        """Earlier questions and answers, oldest first: the newest whole (each answer cut at a
        third of `limit`), older ones by their first claim, as many as fit in `limit`."""
        lines: list[str] = []
        used = 0
        for age, turn in enumerate(reversed(self.turns)):
            said = turn.answer.text.strip()
            if age >= WHOLE_TURNS:
                claims = split_claims(said)
                said = claims[0].text if claims else said
            entry = f"Q: {turn.question}\nA: {_cut(said, limit // 3)}"
            if lines and used + len(entry) > limit:
                break
            lines.insert(0, entry)
            used += len(entry)
        return "\n\n".join(lines)

    def evidence(self, limit: int = EVIDENCE_CHARS) -> list[Citation]:
        """The passages earlier answers cited, newest answer first, each once, within `limit`."""
        return _bounded([c for t in reversed(self.turns) for c in t.answer.citations], limit)

    def standalone(self, question: str) -> str:
        """`question`, joined to the one before when it refers back to it ("and its term?")."""
        if not self.turns or not (_REFERS_BACK.search(question) or len(terms(question)) < 2):
            return question
        return f"{question} (follow-up to: {self.turns[-1].question})"

    def close(self) -> None:
        """Stop the REPL, if one was kept."""
        if self.repl is not None:
            self.repl.close()
            self.repl = None


def widened(source: ByOffsets, citation: Citation) -> Citation:
    """The cited span with the whole sentences around it, up to AROUND characters each side and
    within its document, where the source holds that document; else as it is."""
    placed = _placed(source, citation)
    if placed is None:
        return citation
    base, limit = placed
    start, end = base + citation.start, base + citation.end
    lo, hi = max(base, start - AROUND), min(limit, end + AROUND)
    text = source.read_range(lo, hi)
    heads = [m.end() for m in _BOUNDARY.finditer(text, 0, start - lo)]
    tails = [m.end() for m in _BOUNDARY.finditer(text, end - lo)]
    first = 0 if lo == base else (heads[0] if heads else start - lo)
    last = len(text) if hi == limit else (tails[-1] if tails else end - lo)
    return source.citation(lo + first, lo + last)


def _placed(source: ByOffsets, citation: Citation) -> tuple[int, int] | None:
    """Where the cited document starts and ends in `source`; None when the source does not hold
    it."""
    if isinstance(source, SingleDocTools):
        held = citation.doc_id == source.doc_id
        return (0, source.index.total_chars) if held else None
    for doc, base in zip(source.docs, source.offsets.starts, strict=True):
        if doc.doc_id == citation.doc_id:
            return base, base + len(doc.text)
    return None


def recalled(
    question: str, conversation: Conversation, run: Run, source: Source | None = None
) -> Answer | None:
    """The answer from the passages earlier answers cited (with the sentences around them, read
    from `source`), in one call to the root model; None when there are none, the question
    shares no word with them, the model says they do not answer it, or a claim of its answer is
    not held by the passage it rests on."""
    evidence = conversation.evidence()
    readable = source if isinstance(source, SingleDocTools | TextDocs) else None
    if readable is not None:
        evidence = _bounded([widened(readable, c) for c in evidence])
    if not _may_hold(question, evidence, conversation):
        return None
    if not run.root.writes_code:  # (it cannot follow the prompt below)
        return reread(question, evidence, run, readable) if readable else None
    passages = "\n\n".join(f"[{n}] {' '.join(c.text.split())}" for n, c in enumerate(evidence, 1))
    prompt = RECALL.format(
        history=conversation.history(),
        passages=passages,
        question=question,
        not_there=NOT_THERE,
    )
    reply = run.gateway.complete(run.root, prompt, purpose=Purpose.RECALL, max_tokens=300)
    text, used = renumber(reply.text.strip(), len(evidence))
    if len(used) < len(set(CITATION_MARK.findall(reply.text))):
        _missed(run, "it cited a passage it was not given")
        return None
    if NOT_THERE.lower() in text.lower() or says_nothing(text):
        _missed(run, "the model found no answer in them")
        return None
    if not set(terms(question)) & set(terms(text)) or _repeats(text, conversation):
        _missed(run, "its answer is not about the question")
        return None
    cited = [evidence[n - 1] for n in used] or evidence
    claims = check_claims(text, [c.text for c in cited], question)
    if not claims or not all(c.supported for c in claims):
        _missed(run, "a claim of its answer is not in the passage it cites")
        return None
    if not used:  # only the passages the claims rest on are cited
        held = sorted({n for claim in claims for n in claim.citations})
        for claim in claims:
            claim.citations = [held.index(n) + 1 for n in claim.citations]
        cited = [evidence[n - 1] for n in held]
    _recalled(run, len(cited), ANSWERED)
    run.emit(EventKind.FINAL, answer=text)
    return Answer(
        text=text,
        mode="recall",
        citations=cited,
        usage=run.gateway.usage.to_dict(),
        reason=ANSWERED,
        claims=claims,
    )


def reread(question: str, evidence: list[Citation], run: Run, source: ByOffsets) -> Answer | None:
    """For a root model that cannot follow the recall prompt (a small local one): its sub-model
    reads again the REREAD_CHUNKS passages of the earlier answers that match the follow-up best,
    a line each, as `map` reads; their findings answer it. None when none does."""
    spans = [
        (base + c.start, base + c.end)
        for c in evidence
        if (placed := _placed(source, c)) is not None
        for base in (placed[0],)
    ]
    if not spans:
        return None
    chunks = cut_chunks(source, spans, chunk_plan(run)[0])
    reader = ChunkReader(question, run, source)
    reader.read_all(best_chunks(question, chunks, REREAD_CHUNKS))
    if not reader.findings:
        _missed(run, "the passages read again do not answer it")
        return None
    _recalled(run, len(reader.findings), REREAD)
    result = reader.answer("recall", len(chunks), {})
    result.reason = REREAD
    result.claims = check_claims(result.text, [c.text for c in result.citations], question)
    return result


def _recalled(run: Run, passages: int, reason: str) -> None:
    """The follow-up is answered from the earlier passages: the mode, and why."""
    run.emit(EventKind.PHASE, name="RECALL", answered=True, passages=passages)
    run.emit(EventKind.MODE, mode="recall", reason=reason)


def _missed(run: Run, why: str) -> None:
    """No answer from the earlier passages (the question is read afresh), and why."""
    run.emit(EventKind.PHASE, name="RECALL", answered=False, why=why)


def _may_hold(question: str, evidence: list[Citation], conversation: Conversation) -> bool:
    """Whether the passages may answer the follow-up: they hold at least RECALL_SHARE of its
    words that the earlier questions did not ask about (and some word of it at all)."""
    asked = set(terms(question))
    held = set(terms(" ".join(c.text for c in evidence)))
    fresh = asked - set(terms(" ".join(t.question for t in conversation.turns)))
    if not asked & held:
        return False
    return not fresh or len(fresh & held) / len(fresh) >= RECALL_SHARE


def _repeats(text: str, conversation: Conversation) -> bool:
    """Whether `text` says again what an earlier answer led with (a model echoing it)."""
    said = " ".join(terms(text))
    leads = (split_claims(t.answer.text) for t in conversation.turns)
    words = (
        " ".join(w for w in terms(statement(claims[0])) if w not in ANSWER_WORDS)
        for claims in leads
        if claims
    )
    return any(lead and lead in said for lead in words)


def _bounded(citations: list[Citation], limit: int = EVIDENCE_CHARS) -> list[Citation]:
    """The citations in order, each span once (and none empty), as many as fit in `limit`."""
    seen: set[tuple[str, int, int]] = set()
    kept: list[Citation] = []
    used = 0
    for citation in citations:
        key = (citation.doc_id, citation.start, citation.end)
        if key in seen or not citation.text.strip():
            continue
        if kept and used + len(citation.text) > limit:
            break
        seen.add(key)
        kept.append(citation)
        used += len(citation.text)
    return kept


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def converse(
    question: str, source: Source, run: Run, conversation: Conversation, mode: str = "auto"
) -> Answer:
    """The answer to the conversation's next question, recorded in it: from the passages earlier
    answers cited when they hold it, else by `mode` (its question made to stand alone)."""
    run.conversation = conversation
    result = recalled(question, conversation, run, source) if conversation.turns else None
    if result is None:
        result = answer(conversation.standalone(question), source, run, mode)
    elif run.options.verify:
        judge(result.claims, [c.text for c in result.citations], question, run)
        result.usage = run.gateway.usage.to_dict()
    conversation.turns.append(Turn(question, result))
    return result
