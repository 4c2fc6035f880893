"""Public Python API. `RLM_REPL` keeps the name and call shape of seed 002."""

from __future__ import annotations

import code
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import Any

from longread.answer import Answer
from longread.config import cache_dir, default_model, default_sub_model, index_path
from longread.events import Event, EventSink, JsonlTrace, fan_out, ignore
from longread.index.single import SingleDocIndex
from longread.index.tree import TreeOptions, build_summaries
from longread.ingest.doctype import UNSURE, ask_doc_type, detect_doc_type
from longread.ingest.document import load_document
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.specs import ClientOptions, resolve_model
from longread.llm.usage import Budget
from longread.store.cache import ResponseCache
from longread.store.docstore import DocStore, content_hash
from longread.strategies.common import Run, RunOptions
from longread.strategies.select import DOCUMENT_MODES, answer_document, answer_question, check_mode
from longread.tools.single_doc import SingleDocTools


def as_lm(model: str | LM | None, fallback: str, options: ClientOptions = ClientOptions()) -> LM:
    if isinstance(model, LM):
        return model
    return resolve_model(model or fallback, options)


DOC_TYPE_SAMPLE = 200_000  # characters from the start that the document type is judged on


class _Asker:
    """What both entry points share: the models, budget, options, response cache and event sinks."""

    def __init__(self, model: str | LM | None, sub_model: str | LM | None, *, mode: str,
                 enable_logging: bool, trace_path: str | None, budget: Budget,
                 options: RunOptions | None, cache: bool, on_event: EventSink | None,
                 client_options: ClientOptions):
        self._specs = (model, sub_model, client_options)
        self.mode = mode
        self.enable_logging = enable_logging
        self.trace_path = trace_path
        self.budget = budget
        self.options = options or RunOptions()
        self.cache = ResponseCache(cache_dir() / "responses.sqlite") if cache else None
        self.on_event = on_event
        self.last_answer: Answer | None = None

    @cached_property
    def root(self) -> LM:
        """The root model (resolved on first use, so indexing alone needs no model or key)."""
        model, _, client_options = self._specs
        return as_lm(model, default_model(), client_options)

    @cached_property
    def sub(self) -> LM:
        _, sub_model, client_options = self._specs
        spec = sub_model if sub_model is not None else default_sub_model(self.root.name)
        return self.root if spec == self.root.name else as_lm(spec, "", client_options)

    @contextmanager
    def _run(self, options: RunOptions | None = None) -> Iterator[Run]:
        """One question's run: a fresh gateway (so a fresh budget) and the trace, closed after."""
        trace = JsonlTrace(self.trace_path) if self.trace_path else None
        sink = fan_out(self.on_event, trace, _print_event if self.enable_logging else None)
        gateway = Gateway(budget=self.budget, cache=self.cache, on_event=sink)
        try:
            yield Run(self.root, self.sub, gateway, options or self.options, sink)
        finally:
            if trace:
                trace.close()


class RLM_REPL(_Asker):  # noqa: N801 - the seed's name, which users expect
    """Answer questions about a `str`, `dict` or `list` context with a Recursive Language Model.

    >>> rlm = RLM_REPL(model="openai:gpt-4o", recursive_model="openai:gpt-4o-mini")
    >>> rlm.completion({"paper_1": "...", "paper_2": "..."}, "What themes do they share?")
    """

    def __init__(self, model: str | LM | None = None, recursive_model: str | LM | None = None, *,
                 mode: str = "auto", enable_logging: bool = False, trace_path: str | None = None,
                 budget: Budget = Budget(), options: RunOptions | None = None,
                 cache: bool = True, on_event: EventSink | None = None,
                 client_options: ClientOptions = ClientOptions()):
        super().__init__(model, recursive_model, mode=mode, enable_logging=enable_logging,
                         trace_path=trace_path, budget=budget, options=options, cache=cache,
                         on_event=on_event, client_options=client_options)

    def answer(self, context: Any, query: str, *, enable_slicing: bool = True,
               doc_id: str = "context") -> Answer:
        """The full `Answer` (text, citations, usage, mode and why it was chosen)."""
        with self._run(replace(self.options, enable_slicing=enable_slicing)) as run:
            self.last_answer = answer_question(query, context, run, self.mode, doc_id=doc_id)
        return self.last_answer

    def completion(self, context: Any, query: str, enable_slicing: bool = True) -> str:
        """The answer text (seed 002's call shape); the whole Answer is kept in `last_answer`."""
        return self.answer(context, query, enable_slicing=enable_slicing).text


class SingleDocRLM(_Asker):
    """Answer questions about one long document (PDF, DOCX, HTML, markdown or text) through its
    index: table of contents, sections, full-text search and section summaries (seed 000).

    >>> rlm = SingleDocRLM("contract.pdf", root_model="openai:gpt-4o", sub_model="openai:gpt-4o-mini")
    >>> rlm.build_index()
    >>> rlm.query("What are the termination clauses?").citations
    """

    def __init__(self, doc_path: str | Path, root_model: str | LM | None = None,
                 sub_model: str | LM | None = None, *, mode: str = "auto", enable_logging: bool = False,
                 trace_path: str | None = None, budget: Budget = Budget(),
                 options: RunOptions | None = None, cache: bool = True,
                 on_event: EventSink | None = None, client_options: ClientOptions = ClientOptions(),
                 store_path: str | Path | None = None):
        super().__init__(root_model, sub_model, mode=mode, enable_logging=enable_logging,
                         trace_path=trace_path, budget=budget, options=options, cache=cache,
                         on_event=on_event, client_options=client_options)
        check_mode(mode, DOCUMENT_MODES)
        self.doc_path = Path(doc_path)
        self.store = DocStore(store_path or index_path(self.doc_path))
        self._index: SingleDocIndex | None = None

    @property
    def index(self) -> SingleDocIndex:
        """The document's index: built (without summaries) on first use, reused while unchanged."""
        if self._index is None:
            self._index = SingleDocIndex.build(self.doc_path, self.store)
        return self._index

    def build_index(self, summaries: bool = True, on_event: EventSink | None = None,
                    gateway: Gateway | None = None, tree: TreeOptions | None = None) -> SingleDocIndex:
        """Index the document: structure, full-text search and, with `summaries`, the sub-model's
        reading of the document type when the rules are unsure, summaries and the summary tree
        (seed 003; `tree` says how: smart chunks, chunk size, group size). A document without
        headings is cut into sections by the smart chunker. Resumable: a stopped build keeps what
        it paid for. `on_event` receives `progress` events (task `search`, `summaries`, `chunks`
        or `tree`; done, total)."""
        sink = on_event or ignore
        index = self._index = SingleDocIndex.build(self.doc_path, self.store)
        if summaries:
            gateway = gateway or Gateway(cache=self.cache)
            head = index.read_range(0, DOC_TYPE_SAMPLE)
            guess, confidence = detect_doc_type(head)
            if confidence < UNSURE:
                index.store.set_doc_type(index.doc_id, ask_doc_type(head, guess, self.sub, gateway))
                index = SingleDocIndex.open(self.store, index.doc_id)
            index = self._index = build_summaries(index, self.sub, gateway, tree or TreeOptions(), sink).index
        index.store.ensure_fts(index.doc_id, lambda done, total: sink(
            Event("progress", {"task": "search", "done": done, "total": total})))
        return index

    def drop_index(self) -> None:
        """Forget the stored index of the document's current content (the next use rebuilds it)."""
        existing = self.store.find(content_hash(load_document(self.doc_path).text))
        if existing is not None:
            self.store.remove_document(existing)
        self._index = None

    def save_index(self, path: str | Path) -> None:
        """Write the index in the seed's JSON form."""
        self.index.save(path)

    def load_index(self, path: str | Path) -> SingleDocIndex:
        """Read an index saved by `save_index` (a changed document is re-indexed instead)."""
        self._index = SingleDocIndex.load(path, self.store)
        return self._index

    def tools(self, run: Run) -> SingleDocTools:
        return SingleDocTools(self.index, run.sub, run.gateway)

    def query(self, question: str, mode: str | None = None) -> Answer:
        """The answer with its citations (section, offsets, page where known), usage and mode."""
        with self._run() as run:
            self.last_answer = answer_document(question, self.tools(run), run, mode or self.mode)
        return self.last_answer

    def repl(self) -> None:
        """An interactive Python prompt with the document's functions bound (for a person)."""
        with self._run() as run:
            tools = self.tools(run)
            names = ", ".join(tools.functions())
            banner = (f"{self.doc_path.name}: {self.index.doc_type}, {self.index.total_chars:,} characters, "
                      f"{len(self.index.rows)} sections.\nFunctions: {names}")
            code.interact(banner=banner, local={**tools.variables(), **tools.functions()}, exitmsg="")


def _print_event(event: Any) -> None:
    print(f"[{event.kind}] " + ", ".join(f"{k}={str(v)[:120]!r}" for k, v in event.data.items()))
