"""What every REPL offers, whatever it explores (an in-memory context, a document, a corpus): the
RLM core (sub-model calls single and batched, child RLMs single and batched, the hypothesis), how
the REPL's `context` is read, how the tools are introduced to the root model, and how to cite."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from longread.answer import Citation
from longread.deadline import DeadlineExceeded
from longread.errors import BudgetExceededError, CancelledError
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.usage import Purpose
from longread.query.core.catalog import Catalog
from longread.query.core.sql_guard import checked_select
from longread.text.cut import truncate_middle
from longread.tools.bounds import READ_LIMIT, bounded_batch, fit_chars, short_name, short_text
from longread.tools.extract import asking, chunk_room, extract, tally_values
from longread.tools.hypothesis import HypothesisTracker

Recurse = Callable[[str, Any], str]  # (prompt, text) -> a child RLM's answer
CHUNK_CHARS = 8_000  # what map_chunks hands the sub-model at once (small models list best)
MAX_RECORDS = 1_000_000  # records one tally counts
SQL_ROWS = 200  # rows one sql() call returns
SQL_SECONDS = 5.0
FATAL = (  # end a batch (and the run or the cell), not just one item
    BudgetExceededError,
    CancelledError,
    DeadlineExceeded,
)
CORE_DOC = (
    "llm_query(prompt) -> str  # ask the sub-model; it sees only the prompt\n"
    "llm_query_batched(prompts) -> list[str]  # several at once, answers in order "
    "(a failed one: its error)\n"
    "rlm_query(prompt, text_or_ref) -> str  # a child RLM over a text or {refs} "
    "(a plain sub-call at the last depth)\n"
    "rlm_query_batched(prompts, texts_or_refs) -> list[str]  # several children at once\n"
    "map_chunks(instruction, must_contain=None) -> list[dict]  # the sub-model lists what "
    "`instruction` asks for in EVERY chunk of the source (only chunks holding a word of "
    "must_contain, if given): records {{item, start, end}} the text holds word for word\n"
    "tally(records, key='item') -> list[(value, count)]  # counts, the most frequent first\n"
    "records() -> str  # the record tables found in the source (messages, log lines, table "
    "rows, speeches, repeated entries): their columns and sample rows\n"
    "sql(query) -> list[dict]  # one read-only SELECT over those tables; each row also has "
    "document, _start, _end (its span, to cite); mentions(text, word) counts a word\n"
    "FINAL(answer)  # ends the run with your answer; call it inside a ```repl block\n"
    "FINAL_VAR(name)  # ends the run with the variable called `name`\n"
    "SHOW_VARS()  # the names and types of the variables you made\n"
    "context  # {context}"
)


@dataclass
class Brief:
    """How a toolset presents itself: the system prompt's opening (what is being explored) and
    closing (how to go about it), the first step (code searching for the question's key words,
    run before the first turn; `first_step_reads` when its output quotes the source, so a FINAL
    right after it rests on text), and variables preset in the REPL. `context` is the REPL's
    `context` value; or, with `context_length`, it is a lazy view of that many characters that
    `read_context` serves."""

    intro: str
    guide: str
    first_step: str
    context: Any = None
    variables: dict[str, Any] = field(default_factory=dict)
    context_length: int | None = None
    first_step_reads: bool = False  # does the first step's output show the source's own text?


class Toolset:
    """Base of the REPL toolsets: the RLM core, the shared hypothesis, a flag telling whether any
    tool has served the source's text, and notices for the root model. A subclass lists its own
    tools in TOOL_NAMES, says what `rlm_query` may name (`resolve`) and reads its `context`."""

    CORE_NAMES = (
        "llm_query",
        "llm_query_batched",
        "rlm_query",
        "rlm_query_batched",
        "map_chunks",
        "tally",
        "records",
        "sql",
    )
    TOOL_NAMES: tuple[str, ...] = ()
    LOOKING: frozenset[str] = frozenset()  # tools whose every call serves the source's content
    HYPOTHESIS_NAMES = ("update_hypothesis", "get_hypothesis", "get_hypothesis_history")
    REFS = (
        "the name of a part of the source"  # what rlm_query accepts besides a text (for the prompt)
    )
    CONTEXT_DOC = "the whole text, read-only: len(context), context[a:b]"
    LAZY_CONTEXT = True  # `context` is read through `read_context` (not held in the REPL)

    def __init__(self, sub: LM, gateway: Gateway, hypothesis: HypothesisTracker | None = None):
        self.sub = sub
        self.gateway = gateway
        self.hypothesis = hypothesis or HypothesisTracker()
        self.recurse: Recurse | None = None  # set by the RLM loop while children may be started
        self.notices: list[
            str
        ] = []  # advice for the root model, shown after the cell that caused it
        self.touched = False  # has any tool served text or structure of the source?
        self._catalog: Catalog | None = None

    def take_notices(self) -> list[str]:
        notices, self.notices = list(dict.fromkeys(self.notices)), []
        return notices

    def functions(self) -> dict[str, Callable[..., Any]]:
        """The functions by name, as the REPL sees them (with `context_read` behind a lazy
        context)."""
        names = self.CORE_NAMES + self.TOOL_NAMES + self.HYPOTHESIS_NAMES
        tools = {name: getattr(self, name) for name in dict.fromkeys(names)}
        looking = self.LOOKING | {"rlm_query", "rlm_query_batched", "map_chunks"}  # (these too)
        tools = {name: self._looking(f) if name in looking else f for name, f in tools.items()}
        if self.LAZY_CONTEXT:
            tools["context_read"] = self._looking(self.read_context)
        return tools

    def core_doc(self) -> str:
        """The RLM core as the system prompt lists it (the same in every REPL)."""
        return CORE_DOC.format(refs=self.REFS, context=self.CONTEXT_DOC)

    def _looking(self, tool: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(tool)
        def call(*args: Any, **kwargs: Any) -> Any:
            self.touched = True
            return tool(*args, **kwargs)

        return call

    def brief(self, question: str) -> Brief:
        """How to present the tools to a root model about to answer `question`."""
        raise NotImplementedError

    def cite(self, answer: str, question: str, limit: int = 3) -> list[Citation]:
        """Spans of the source the answer rests on (none for an answer it does not support)."""
        raise NotImplementedError

    def resolve(self, text_or_ref: Any) -> Any:
        """What a child RLM explores for `rlm_query`: the part of the source `text_or_ref` names,
        else the value itself."""
        if text_or_ref is None:
            raise ValueError(f"rlm_query needs a text, {self.REFS}")
        return text_or_ref

    def read_context(self, start: int, end: int) -> str:
        """Characters [start, end) of the source (what `context[start:end]` reads)."""
        raise NotImplementedError

    def context_length(self) -> int:
        """The source's length in characters, as `read_context` reads it."""
        raise NotImplementedError

    # -- the RLM core ---------------------------------------------------------------------------
    def llm_query(self, prompt: str) -> str:
        """Ask the sub-model; it sees only the prompt."""
        text = truncate_middle(str(prompt), fit_chars(self.sub))
        return self.gateway.complete(self.sub, text, purpose=Purpose.SUBCALL).text

    def llm_query_batched(self, prompts: list[str]) -> list[str]:
        """Several llm_query calls at once; the answers in order, a failed call's error in its
        place."""
        return self._each(self.llm_query, [(p,) for p in bounded_batch(prompts, "prompts")])

    def rlm_query(self, prompt: str, text_or_ref: Any = None) -> str:
        """A child RLM answers `prompt` about a text (or a part of the source named by it), one
        level deeper; at the last level, a plain sub-call with the text in the prompt."""
        source = self.resolve(text_or_ref)
        if self.recurse is None:
            return self.llm_query(
                f"{short_text(prompt)}\n\nText:\n{truncate_middle(str(source), READ_LIMIT)}"
            )
        return self.recurse(str(prompt), source)

    def rlm_query_batched(self, prompts: list[str], texts_or_refs: list[Any]) -> list[str]:
        """Several rlm_query calls at once; the answers in order, a failed call's error in its
        place."""
        prompts, sources = bounded_batch(prompts, "prompts"), bounded_batch(texts_or_refs, "texts")
        if len(prompts) != len(sources):
            raise ValueError("give one text or reference per prompt")
        return self._each(self.rlm_query, list(zip(prompts, sources, strict=True)))

    def map_chunks(self, instruction: str, must_contain: Any = None) -> list[dict]:
        """The sub-model lists what `instruction` asks for in every chunk of the source (those
        holding none of the words of `must_contain`, a word or a list, are passed over by code);
        the lines each chunk holds word for word come back as records {item, start, end}."""
        if isinstance(must_contain, str):
            must_contain = [must_contain]
        words = [short_name(w) for w in bounded_batch(must_contain or [], "words")]
        instruction = short_text(instruction)
        plain_call = functools.partial(Toolset.llm_query, self)  # (the chunk is in the prompt)
        result = extract(
            self.context_length(),
            self.read_context,
            instruction,
            asking(self.gateway.map, plain_call),
            chunk_chars=chunk_room(fit_chars(self.sub), instruction, CHUNK_CHARS),
            must_contain=words,
        )
        self.notices.append(f"map_chunks read {result.summary()}")
        return [{"item": f.item, "start": f.start, "end": f.end} for f in result.found]

    def tally(self, records: Any, key: str = "item") -> list[tuple[str, int]]:
        """How often each value of `key` occurs in `records` (dicts, or plain values), the most
        frequent first."""
        items = list(itertools.islice(records, MAX_RECORDS + 1))
        if len(items) > MAX_RECORDS:
            raise ValueError(f"more than {MAX_RECORDS:,} records in one tally")
        return tally_values([r.get(key, "") if isinstance(r, dict) else r for r in items])

    def _each(self, call: Callable[..., str], argument_lists: list[tuple]) -> list[str]:
        def one(arguments: tuple) -> str:
            try:
                return call(*arguments)
            except FATAL:
                raise
            except Exception as error:  # noqa: BLE001 - one failed item does not fail the batch
                return f"error: {type(error).__name__}: {error}"

        return self.gateway.map(one, argument_lists)

    # -- the record tables --------------------------------------------------------------------
    def catalog(self) -> Catalog:
        """The source's record tables (found on first use, then kept)."""
        if self._catalog is None:
            self._catalog = self.make_catalog()
        return self._catalog

    def make_catalog(self) -> Catalog:
        raise NotImplementedError

    def records(self) -> str:
        """The record tables found in the source: their columns, sizes and first rows."""
        self.touched = True
        return self.catalog().describe()

    def sql(self, query: str) -> list[dict]:
        """Rows of one read-only SELECT over the record tables (SQL_ROWS at most, within
        SQL_SECONDS), each a dict by column name."""
        self.touched = True
        checked = checked_select(str(query))
        result = self.catalog().query.execute(checked, max_rows=SQL_ROWS, seconds=SQL_SECONDS)
        if result.cut:
            self.notices.append(f"sql returned its first {SQL_ROWS} rows; more matched")
        return [dict(zip(result.columns, row, strict=True)) for row in result.rows]

    # -- the hypothesis -------------------------------------------------------------------------
    def update_hypothesis(self, new_hypothesis: str) -> str:
        """Replace the current hypothesis (the old one goes to the history)."""
        return self.hypothesis.update(new_hypothesis)

    def get_hypothesis(self) -> str:
        """The current hypothesis ('' before the first update)."""
        return self.hypothesis.current

    def get_hypothesis_history(self) -> list[str]:
        """Every earlier hypothesis, oldest first."""
        return list(self.hypothesis.history)
