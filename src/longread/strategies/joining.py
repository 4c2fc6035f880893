"""How the findings read from passages become the answer's text: the root model joins them where
it can; else a stronger model states a short answer from their passages (`stated`), checked by
code; else, or when the budget is spent, the best finding leads and the others follow."""

from __future__ import annotations

from typing import TYPE_CHECKING

from longread.answer import CITATION_MARK, Citation
from longread.errors import LongreadError
from longread.events import EventKind
from longread.llm.usage import Purpose
from longread.strategies.common import Run
from longread.strategies.query_writer import answer_writer
from longread.strategies.stated import state_answer

if TYPE_CHECKING:
    from longread.strategies.reading import Finding, Readable

REWRITE = """Question: {question}

Draft answer:
{draft}

Rewrite the draft to be clear and well organized. Keep every fact and every citation mark such
as [2] exactly as it is; add nothing that the draft does not say."""
JOIN = """Question: {question}

Findings from the document, each with its citation number:
{findings}

Answer the question using only these findings. Begin with the answer itself in one short
sentence; then give its support. Put the citation number, e.g. [2], after each claim it supports.
If the findings do not fully answer the question, say what is missing."""
LEAD_QUOTE = 220  # characters of the first finding's sentence shown under it
NOT_STATED = "(No short answer could be stated from the passages found.)"


def joined(
    question: str, findings: list[Finding], run: Run, source: Readable, spent: bool
) -> tuple[str, list[Citation]]:
    """The answer's text and its citations (numbered as its [n] marks): joined by the root model,
    or led by a short answer a stronger model states, or led by the best finding (always so when
    the budget is `spent`)."""
    citations = [f.citation for f in findings]
    if spent:
        return led(findings), citations
    if run.root.writes_code:
        return join_findings(question, findings, run), citations
    try:
        writer = answer_writer(run)
    except LongreadError:  # (not fetched, and cannot be: the findings lead, as they did)
        writer = None
    if writer is None:
        return led(findings), citations
    run.emit(EventKind.PHASE, name="STATE")
    stated = state_answer(question, findings, run, source, writer)
    if stated is None:
        return f"{led(findings)}\n\n{NOT_STATED}", citations
    others = [f for f in findings if f.citation != stated.citation]  # (its quote said once)
    text = stated.lead() + (f"\n\n{listed(others, 2, 'Findings')}" if others else "")
    return text, [stated.citation, *(f.citation for f in others)]


def join_findings(question: str, findings: list[Finding], run: Run) -> str:
    """The answer: the root model joins the findings keeping their [n] numbers, a direct answer
    first."""
    run.emit(EventKind.PHASE, name="AGGREGATE")
    reply = run.gateway.complete(
        run.root,
        JOIN.format(question=question, findings=listed(findings, 1)),
        purpose=Purpose.JOIN,
        max_tokens=700,
    ).text.strip()
    cited = {int(n) for n in CITATION_MARK.findall(reply)}
    answer = (
        reply if cited & set(range(1, len(findings) + 1)) else f"{reply}\n\n{listed(findings, 1)}"
    )
    return rewrite(question, answer, run) if run.options.rewrite else answer


def listed(findings: list[Finding], first: int, title: str = "") -> str:
    """The findings one a line, numbered from `first`, under `title` if given."""
    lines = [f"[{n}] ({f.chunk.section}) {f.text}" for n, f in enumerate(findings, first)]
    return "\n".join([f"{title}:", *lines] if title else lines)


def led(findings: list[Finding]) -> str:
    """Findings as an answer without a model to join them: the first as the answer, then the
    sentence it rests on, then the others."""
    first, others = findings[0], findings[1:]
    quote = " ".join(first.citation.text.split())
    if quote == " ".join(first.text.split()):
        quote = ""  # (the finding is its sentence: said once)
    if len(quote) > LEAD_QUOTE:
        quote = quote[: LEAD_QUOTE - 1].rsplit(" ", 1)[0] + "…"
    text = f"{first.text} [1]" + (f"\n“{quote}” ({first.chunk.section})" if quote else "")
    return text + (f"\n\n{listed(others, 2, 'Other findings')}" if others else "")


def rewrite(question: str, draft: str, run: Run) -> str:
    """The optional rewrite pass: the root model restates the answer more clearly; the draft is
    kept if the rewrite loses its citation marks."""
    run.emit(EventKind.PHASE, name="REWRITE")
    reply = run.gateway.complete(
        run.root,
        REWRITE.format(question=question, draft=draft),
        purpose=Purpose.REWRITE,
        max_tokens=700,
    ).text.strip()
    return (
        reply
        if set(CITATION_MARK.findall(reply)) >= set(CITATION_MARK.findall(draft)) and reply
        else draft
    )
