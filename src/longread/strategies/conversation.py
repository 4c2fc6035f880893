"""Questions asked one after another about one source. A follow-up that the passages earlier
answers cited already answer costs one call, accepted only when every one of its claims is held by
them; otherwise it is answered as usual, its question joined to the one before when it refers
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
from longread.strategies.retrieval import renumber
from longread.strategies.verify import judge
from longread.text.claims import check_claims, split_claims
from longread.text.grounding import says_nothing
from longread.text.rank import terms

if TYPE_CHECKING:
    from longread.repl.sandbox import Sandbox

HISTORY_CHARS = 3_000  # of earlier questions and answers shown to the root model
WHOLE_TURNS = 2  # the newest turns shown whole; older ones by their question and first claim
EVIDENCE_CHARS = 6_000  # of earlier answers' cited passages a follow-up is first tried on
NOT_THERE = "NOT IN THE PASSAGES"
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
_MARK = re.compile(r"\s*\[\d+\]")


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
        seen: set[tuple[str, int, int]] = set()
        kept: list[Citation] = []
        used = 0
        for turn in reversed(self.turns):
            for citation in turn.answer.citations:
                key = (citation.doc_id, citation.start, citation.end)
                if key in seen or not citation.text.strip():
                    continue
                if kept and used + len(citation.text) > limit:
                    return kept
                seen.add(key)
                kept.append(citation)
                used += len(citation.text)
        return kept

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


def recalled(question: str, conversation: Conversation, run: Run) -> Answer | None:
    """The answer from the passages earlier answers cited, in one call to the root model; None
    when there are none, the question shares no word with them, the model says they do not
    answer it, or a claim of its answer is not held by the passage it rests on."""
    evidence = conversation.evidence()
    known = " ".join([c.text for c in evidence] + [t.question for t in conversation.turns])
    if not evidence or not set(terms(question)) & set(terms(known)):
        return None
    passages = "\n\n".join(f"[{n}] {' '.join(c.text.split())}" for n, c in enumerate(evidence, 1))
    prompt = RECALL.format(
        history=conversation.history(),
        passages=passages,
        question=question,
        not_there=NOT_THERE,
    )
    reply = run.gateway.complete(run.root, prompt, purpose=Purpose.RECALL, max_tokens=300)
    text, used = renumber(reply.text.strip(), len(evidence))
    if not run.root.writes_code:  # (a small model's marks are noise: each claim finds its own)
        text, used = _MARK.sub("", text).strip(), []
    elif len(used) < len(set(CITATION_MARK.findall(reply.text))):
        _missed(run, "it cited a passage it was not given")
        return None
    if NOT_THERE.lower() in text.lower() or says_nothing(text):
        _missed(run, "the model found no answer in them")
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
    run.emit(EventKind.PHASE, name="RECALL", answered=True, passages=len(cited))
    return Answer(
        text=text,
        mode="recall",
        citations=cited,
        usage=run.gateway.usage.to_dict(),
        reason="a follow-up the passages of earlier answers hold: answered from them",
        claims=claims,
    )


def _missed(run: Run, why: str) -> None:
    """No answer from the earlier passages (the question is read afresh), and why."""
    run.emit(EventKind.PHASE, name="RECALL", answered=False, why=why)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def converse(
    question: str, source: Source, run: Run, conversation: Conversation, mode: str = "auto"
) -> Answer:
    """The answer to the conversation's next question, recorded in it: from the passages earlier
    answers cited when they hold it, else by `mode` (its question made to stand alone)."""
    run.conversation = conversation
    result = recalled(question, conversation, run) if conversation.turns else None
    if result is None:
        result = answer(conversation.standalone(question), source, run, mode)
    elif run.options.verify:
        judge(result.claims, [c.text for c in result.citations], question, run)
        result.usage = run.gateway.usage.to_dict()
    conversation.turns.append(Turn(question, result))
    return result
