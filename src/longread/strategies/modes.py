"""The one dispatch of the modes (each declared in its own file under `strategies/declared/`),
for the CLI, the API and the web app alike. `answer` is the decision gate (`auto`): a document
that fits the root model's window goes to `base`; otherwise `rlm` for a root model that writes
code (where its code may run), else the fixed strategy for that source (`refine` for an
in-memory context, `map` for the rest)."""

from __future__ import annotations

from longread import deadline
from longread.answer import Answer
from longread.errors import BudgetExceededError, InputError
from longread.events import EventKind
from longread.llm.base import LM
from longread.query.core.plan import Plan
from longread.strategies.catalog import check_mode, mode_named
from longread.strategies.common import Run
from longread.strategies.competence import measured_mode
from longread.strategies.extracted import NothingToCount, run_aggregate
from longread.strategies.planning import plan_for
from longread.strategies.texts import InMemory, TextDocs
from longread.strategies.verify import checked_claims
from longread.tools.corpus import CorpusTools
from longread.tools.single_doc import SingleDocTools

Source = InMemory | TextDocs | SingleDocTools | CorpusTools
KINDS: dict[type, str] = {
    InMemory: "context",
    TextDocs: "texts",
    SingleDocTools: "document",
    CorpusTools: "corpus",
}
FALLBACK = {"context": "refine", "texts": "map", "document": "map", "corpus": "map"}


def choose_mode(
    context_chars: int | None,
    root: LM,
    fallback: str = "refine",
    allow_code: bool = True,
    plan: Plan | None = None,
) -> tuple[str, str]:
    """`base` when the context fits the root model's window (a corpus never does: `None`), unless
    the root cannot write code and `longread eval` measured another mode answering this kind of
    question best with it (a tiny model reading a whole text at once loses what `map` finds);
    else that measured mode; for a model not measured, `rlm` if it is declared to write code and
    its code may run here, else `fallback`. Returns (mode, reason)."""
    what = (
        "the corpus" if context_chars is None else f"the context (~{context_chars // 3:,} tokens)"
    )
    measured = measured_mode(plan or Plan(""), root.name)
    fits = context_chars is not None and context_chars // 3 + 1_500 <= root.context_window
    if fits and not root.writes_code and measured is not None and measured[0] != "base":
        return measured[0], f"{what} fits in {root.name}'s window, but {measured[1]}"
    if fits:
        return "base", f"{what} fits in {root.name}'s window"
    if measured is not None and measured[0] != "base" and (measured[0] != "rlm" or allow_code):
        return measured[0], f"{what} exceeds the window; {measured[1]}"
    if root.writes_code and allow_code:
        return "rlm", f"{what} exceeds {root.name}'s window and it writes code (not measured)"
    if root.writes_code:
        return fallback, (
            f"{what} exceeds {root.name}'s window, and model-written code is not run "
            "here without operating-system isolation"
        )
    return (
        fallback,
        f"{what} exceeds {root.name}'s window, which cannot drive the code-writing loop",
    )


def answer(question: str, source: Source, run: Run, mode: str = "auto") -> Answer:
    """Answer about `source` with `mode` (`auto`: the decision gate); the answer says which mode
    answered and why, and which of its claims its citations hold."""
    try:
        result = _answered(question, source, run, mode)
    except BudgetExceededError as error:
        if error.partial is not None:
            error.partial.claims = checked_claims(error.partial, question, run)
        raise
    except deadline.DeadlineExceeded as error:  # (host work, such as records found, took it)
        raise deadline.as_spent(error, run.gateway.budget.max_seconds) from None
    result.claims = checked_claims(result, question, run)
    result.usage = run.gateway.usage.to_dict()  # (the judge's call included)
    return result


def _answered(question: str, source: Source, run: Run, mode: str) -> Answer:
    kind = KINDS[type(source)]
    check_mode(mode, kind)
    if isinstance(source, CorpusTools) and source.index.totals()[0] == 0:
        raise InputError(f"{source.index.root} has no readable documents")
    plan_for(question, source, run)  # (read once: every strategy reads run.plan)
    if mode == "auto":
        by_counting = counted(question, source, run)
        if by_counting is not None:
            return by_counting
        mode, reason = gate(question, source, run)
        reason = "; ".join((*_plan_notes(run), reason))  # (why it was not counted, if asked to)
    else:
        reason = f"{mode} was asked for"
    run.emit(EventKind.MODE, mode=mode, reason=reason)
    try:
        result = mode_named(mode).runner(kind)(question, source, run)
    except BudgetExceededError as error:
        if error.partial is not None:
            error.partial.reason = reason
        raise
    result.reason = reason
    return result


def _plan_notes(run: Run) -> tuple[str, ...]:
    return run.plan.notes if run.plan is not None else ()


def gate(question: str, source: Source, run: Run) -> tuple[str, str]:
    """The mode `auto` answers with when it does not count: `choose_mode` for this source."""
    kind = KINDS[type(source)]
    plan = plan_for(question, source, run)
    mode, reason = choose_mode(
        _size(source), run.root, FALLBACK[kind], run.options.allow_code, plan
    )
    if kind not in mode_named(mode).runners:  # (a mode measured on files, for a context in memory)
        return FALLBACK[kind], f"{reason}, which does not read {kind}s: {FALLBACK[kind]}"
    return mode, reason


def counted(question: str, source: Source, run: Run) -> Answer | None:
    """A question whose answer depends on the whole text (how many, the most, every case, the
    highest or the total of figures stated across it, everyone a relation names), answered from
    all of it by `aggregate`: its plan run over the source's records, else figures or names
    stated found by rules, else (for a question whose words say it needs every part of the text)
    listed by the sub-model from every chunk; None when it asks for one fact, or nothing of what
    it counts was found without reading every chunk (the other modes' turn). Where every chunk
    was read and nothing it counts found, the answer says so: the passages the other modes read
    first would count it no better."""
    plan = plan_for(question, source, run)
    if not plan.counts and plan.operation is None and not plan.names_wanted:
        return None
    reason = "the question counts over the whole text: counted by code, every part read"
    if plan.counts:  # (figures and names say so themselves, when they find them)
        run.emit(EventKind.MODE, mode="aggregate", reason=reason)
    try:
        result = run_aggregate(question, source, run, by_model=plan.whole_text)
    except NothingToCount as nothing:
        if plan.counts and plan.whole_text:  # (every chunk was read: the top passages count less)
            said = f"Not counted: {str(nothing).rstrip('.')}."
            return Answer(said, "aggregate", reason=reason, computed=said)  # (what code found)
        return None
    result.reason = result.reason or reason
    return result


def _size(source: Source) -> int | None:
    """The source's length in characters (None for a corpus, which is never read whole)."""
    if isinstance(source, InMemory):
        return len(source.text)
    if isinstance(source, TextDocs):
        return source.total_chars
    if isinstance(source, SingleDocTools):
        return source.index.total_chars
    return None
