"""Each claim of an answer checked against the spans it cites: by their words (always), and with
`verify` by the sub-model judging entailment, all claims in one call inside the run's budget."""

from __future__ import annotations

from longread.answer import Answer, Claim
from longread.errors import BudgetExceededError, ModelError
from longread.events import EventKind
from longread.llm.jsonio import complete_json
from longread.llm.usage import Purpose
from longread.strategies.common import Run
from longread.text.claims import check_claims, holds, missing_facts, numbers, statement

SPAN_CHARS = 1_500  # of each cited span shown to the judge
COMPUTED = "stated by what code counted over the whole text (its records cited as examples)"
COUNTED = "not what code counted over the whole text:"

PROMPT = """Below are claims from an answer to the question "{question}", each with the source \
text it cites. For each claim, decide whether its source text states or directly implies it. \
A claim whose source says something different, or says nothing about it, is not supported.

{claims}"""
SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "properties": {
            "claim": {"type": "integer"},
            "supported": {"type": "boolean"},
            "reason": {"type": "string"},
        },
        "required": ["claim", "supported"],
    },
}


def checked_claims(answer: Answer, question: str, run: Run) -> list[Claim]:
    """The answer's claims, each marked supported or not, with the reason: one its citations do
    not hold is supported where what code computed over the whole source (a count) states it."""
    cited = [c.text for c in answer.citations]
    claims = check_claims(answer.text, cited, question)
    computed = answer.computed
    flat = " ".join(computed.split())
    for claim in claims:
        said = statement(claim)
        if computed and " ".join(said.split()) in flat:  # (the computation's own words)
            claim.supported, claim.reason = True, COMPUTED
        elif computed and numbers(said):  # (a computed value: the count states it, not a row)
            held, reason = holds(said, computed, question)
            claim.supported, claim.reason = held, COMPUTED if held else f"{COUNTED} {reason}"
        elif computed and not claim.supported and holds(said, computed, question)[0]:
            claim.supported, claim.reason = True, COMPUTED
    if run.options.verify:
        judge(claims, cited, question, run)
    return claims


def judge(claims: list[Claim], cited: list[str], question: str, run: Run) -> None:
    """The sub-model's verdict on each claim that cites a span stating its numbers and names (the
    others stay unsupported). If the budget runs out or the reply is unreadable, the check by
    words stands, and a warning says so."""
    sources = {id(c): "\n".join(cited[n - 1] for n in c.citations) for c in claims}
    judged = [
        c
        for c in claims
        if c.citations and not missing_facts(statement(c), sources[id(c)], question)
    ]
    if not judged:
        return
    if not run.sub.writes_code:  # (measured: the local 135M model fails the schema for minutes)
        run.emit(
            EventKind.WARNING,
            text=f"claims checked by their words only: --verify needs a sub-model able to judge "
            f"them, and {run.sub.name} is not (give --sub-model a larger one)",
        )
        return
    listed = "\n\n".join(
        f"Claim {n}: {statement(c)}\nSource {n}: {' '.join(sources[id(c)].split())[:SPAN_CHARS]}"
        for n, c in enumerate(judged, 1)
    )
    run.emit(EventKind.PHASE, name="VERIFY", claims=len(judged))
    try:
        verdicts = complete_json(
            run.gateway,
            run.sub,
            PROMPT.format(question=question, claims=listed),
            SCHEMA,
            purpose=Purpose.VERIFY,
            max_tokens=60 + 60 * len(judged),
        )
    except (BudgetExceededError, ModelError) as error:
        run.emit(EventKind.WARNING, text=f"claims checked by their words only: {error}")
        return
    for verdict in verdicts:
        if 0 < verdict["claim"] <= len(judged):
            claim = judged[verdict["claim"] - 1]
            claim.supported = verdict["supported"]
            claim.reason = verdict.get("reason", "") or (
                "" if claim.supported else f"{run.sub.name} judged the cited text does not hold it"
            )
