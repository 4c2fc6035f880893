"""What answering will cost, before any model call. A fixed strategy (base, retrieval, map, tree,
refine, aggregate) is run for real against stand-ins for the models (`DryRunLM`), twice: once
with sub-models that find something in every passage, once with ones that find nothing; its
searches, chunks and prompts are the real run's, and its input tokens are counted with the
model's own counter, so a real run's calls fall between the two (a run that finds nothing makes
no joining call). `rlm`, whose steps depend on the model, is a range: from a first step and an
answer to its turn and budget caps."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, replace

from longread import deadline
from longread.errors import BudgetExceededError, InputError
from longread.llm.base import LM
from longread.llm.dry_run import REPLY_SHARE, DryRunLM
from longread.llm.gateway import Gateway
from longread.llm.pricing import cost_usd
from longread.llm.usage import Purpose, Usage, counts_as_subcall
from longread.store.cache import ResponseCache
from longread.strategies.common import Run
from longread.strategies.modes import Source, answer, counted, gate
from longread.strategies.rlm import RLMLoop, reply_tokens
from longread.strategies.texts import InMemory, TextDocs

Range = tuple[float, float | None]  # (least, most); most None: no cap


@dataclass
class Estimate:
    """One mode's expected cost. Each figure is a (least, most) range, equal ends for a fixed
    strategy; cost and seconds are None where a model has no price or was never timed here."""

    mode: str
    calls: Range
    subcalls: Range
    input_tokens: Range
    output_tokens: Range
    cost_usd: Range | None
    seconds: Range | None
    cached_calls: int = 0
    note: str = ""

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


class _ReadOnly:
    """The response cache as the dry run sees it: what it holds is reused, nothing is stored."""

    def __init__(self, cache: ResponseCache):
        self.get = cache.get

    def put(self, *args: object) -> None:
        return None

    def record_call(self, *args: object) -> None:
        return None


def dry_gateway(run: Run, cache: ResponseCache | None) -> Gateway:
    """A gateway for stand-in models: the run's budget but its clock, the cache read-only."""
    return Gateway(
        budget=replace(run.gateway.budget, max_seconds=None),
        cache=_ReadOnly(cache) if cache is not None else None,  # type: ignore[arg-type]
        concurrency=run.options.concurrency,
    )


SourceMaker = Callable[[LM, Gateway], Source]  # the source, its tools calling this sub-model


def estimate(
    question: str,
    make_source: SourceMaker,
    run: Run,
    mode: str,
    cache: ResponseCache | None = None,
) -> Estimate:
    """The cost of answering `question` with `mode` (`auto`: the mode the gate would choose,
    named in the note) about the source `make_source` gives for a sub-model and gateway (the
    tools of an indexed source call the sub-model themselves: here they get the stand-ins):
    from a run whose sub-models find nothing to one where they find something everywhere."""
    finding = _estimate(question, make_source, run, mode, cache, finds=True)
    if finding.mode == "rlm":
        return finding
    return _between(finding, _estimate(question, make_source, run, mode, cache, finds=False))


def _between(one: Estimate, other: Estimate) -> Estimate:
    """The ranges that hold both estimates (of one mode)."""

    def both(a: Range | None, b: Range | None) -> Range | None:
        if a is None or b is None:
            return None
        high = None if a[1] is None or b[1] is None else max(a[1], b[1])
        return (min(a[0], b[0]), high)

    return replace(
        one,
        calls=both(one.calls, other.calls) or one.calls,
        subcalls=both(one.subcalls, other.subcalls) or one.subcalls,
        input_tokens=both(one.input_tokens, other.input_tokens) or one.input_tokens,
        output_tokens=both(one.output_tokens, other.output_tokens) or one.output_tokens,
        cost_usd=both(one.cost_usd, other.cost_usd),
        seconds=both(one.seconds, other.seconds),
    )


def _estimate(
    question: str,
    make_source: SourceMaker,
    run: Run,
    mode: str,
    cache: ResponseCache | None,
    finds: bool,
) -> Estimate:
    """One stand-in run's estimate: its sub-models find something (`finds`) or nothing."""

    def stand_in(model: LM) -> DryRunLM:
        return DryRunLM(model, question, cache.history(model.name) if cache else None, finds)

    root = stand_in(run.root)
    sub = root if run.sub is run.root else stand_in(run.sub)
    gateway = dry_gateway(run, cache)
    source = make_source(sub, gateway)
    dry = Run(root, sub, gateway, run.options)
    dry.plan = run.plan  # (the question is read once for every mode's estimate)
    note = ""
    try:
        if mode == "auto" and counted(question, source, dry) is not None:
            return from_usage("aggregate", gateway.usage, run, cache, "auto: counted by code")
        if mode == "auto":
            mode, reason = gate(question, source, dry)
            note = f"auto: {reason}"
        if mode == "rlm":
            return _rlm_range(question, source, run, cache, note)
        answer(question, source, dry, mode)
    except BudgetExceededError as error:
        note = f"{note}; stops at the budget ({error.limit})".lstrip("; ")
    except deadline.DeadlineExceeded:  # (work of the host's for it, such as finding records)
        note = f"{note}; stops at the budget (max_seconds)".lstrip("; ")
    except InputError as error:  # e.g. `aggregate` for a question that counts nothing
        note = f"does not answer this: {error}"
    finally:
        run.plan = dry.plan
    found = from_usage(mode, gateway.usage, run, cache, note)
    # each JSON reply may be asked for once more (one stand-in when root and sub are one model)
    extra = sum({id(m): m.json_replies for m in (root, sub)}.values())
    if extra == 0:
        return found
    return replace(
        found,
        calls=(found.calls[0], _plus(found.calls[1], extra)),
        subcalls=(found.subcalls[0], _plus(found.subcalls[1], sub.json_replies)),
    )


def _plus(most: float | None, more: int) -> float | None:
    return None if most is None else most + more


def from_usage(
    mode: str, usage: Usage, run: Run, cache: ResponseCache | None, note: str
) -> Estimate:
    """The estimate a stand-in run's ledger makes (its seconds at the models' measured speed)."""
    totals = usage.to_dict()

    def exact(value: float) -> Range:
        return (value, value)

    cost = totals["cost_usd"]
    seconds = _seconds(usage, run, cache)
    return Estimate(
        mode,
        exact(totals["calls"]),
        exact(totals["subcalls"]),
        exact(totals["input_tokens"]),
        exact(totals["output_tokens"]),
        None if cost is None else exact(cost),
        None if seconds is None else exact(round(seconds, 1)),
        totals["cached_calls"],
        note,
    )


def _seconds(usage: Usage, run: Run, cache: ResponseCache | None) -> float | None:
    """The run's seconds at each model's measured speed: root turns one after another, other
    calls `concurrency` at once (one at a time on a local model); None for a model never timed."""
    models = {run.root.name: run.root, run.sub.name: run.sub}
    histories = {name: cache.history(name) if cache else None for name in models}  # (fitted once)
    total = 0.0
    for (model, purpose, depth), line in usage.lines.items():
        if line.calls == line.cached:
            continue
        if model not in histories:  # (another model's: the one writing the queries)
            histories[model] = cache.history(model) if cache else None
        known = histories[model]
        calls = line.calls - line.cached
        seconds = (
            known.seconds(calls, line.input_tokens, line.output_tokens, purpose) if known else None
        )
        if seconds is None:
            return None
        local = models[model].on_cpu if model in models else model.startswith("local:")
        parallel = counts_as_subcall(purpose, depth) and not local
        total += seconds / min(run.options.concurrency, line.calls) if parallel else seconds
    return total


def _rlm_range(
    question: str, source: Source, run: Run, cache: ResponseCache | None, note: str
) -> Estimate:
    """From a first step and FINAL (two root turns, no sub-call) to every turn used with a full
    window and the sub-call budget spent (no upper end without --max-subcalls)."""
    root, sub = run.root, run.sub
    if isinstance(source, TextDocs | InMemory):
        loop = RLMLoop(run, source.value if isinstance(source, InMemory) else source.text)
    else:
        loop = RLMLoop(run, tools=source)
    system = root.count_tokens(loop.system_prompt(loop.tools.brief(question)))
    reply = reply_tokens(root)
    turns, subcalls = run.options.max_iterations + 1, run.gateway.budget.max_subcalls
    least = (2 * (system + root.count_tokens(question)), 2 * reply // REPLY_SHARE)
    turns_most = (turns * (root.context_window - reply), turns * reply)
    subs_most = None if subcalls is None else (subcalls * sub.context_window // 2, subcalls * 128)
    most = None if subs_most is None else tuple(map(sum, zip(turns_most, subs_most, strict=True)))
    cost_least = cost_usd(root.name, *least)
    cost_most = None
    if subs_most is not None:
        parts = (cost_usd(root.name, *turns_most), cost_usd(sub.name, *subs_most))
        cost_most = None if None in parts else sum(p or 0.0 for p in parts)
    known = cache.history(root.name) if cache is not None else None

    def seconds(tokens: tuple[int, ...] | None, calls: int) -> float | None:
        if known is None or tokens is None:
            return None
        found = known.seconds(calls, tokens[0], tokens[1], Purpose.ROOT)
        return None if found is None else round(found, 1)

    least_seconds = seconds(least, 2)
    return Estimate(
        "rlm",
        (2, None if subcalls is None else turns + subcalls),
        (0, subcalls),
        (least[0], None if most is None else most[0]),
        (least[1], None if most is None else most[1]),
        None if cost_least is None else (cost_least, cost_most),
        None if least_seconds is None else (least_seconds, seconds(most, turns + (subcalls or 0))),
        note=(note + "; " if note else "")
        + "open-ended: the root model decides its steps"
        + ("" if subcalls is not None else " (set --max-subcalls for an upper end)"),
    )
