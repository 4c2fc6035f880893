"""Public Python API. `RLM_REPL` keeps the name and call shape of seed 002."""

from __future__ import annotations

import code
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import cached_property
from pathlib import Path
from typing import Any, Self

from longread.answer import Answer
from longread.config import cache_dir, default_model, default_sub_model, index_path
from longread.errors import InputError
from longread.events import Event, EventSink, JsonlTrace, fan_out, ignore
from longread.index.corpus import BATCH_SIZE, CorpusIndex, MetaReader, UpdateReport
from longread.index.enrich.doc_type import UNSURE, ask_doc_type
from longread.index.enrich.llm_metadata import MODEL_SAMPLE_CHARS, llm_meta
from longread.index.single import SingleDocIndex
from longread.index.tree import TreeOptions, build_summaries
from longread.ingest.doctype import detect_doc_type
from longread.ingest.document import load_document
from longread.ingest.metadata import ContentMeta, headings_in
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.specs import ClientOptions, resolve_model
from longread.llm.usage import Budget
from longread.store.cache import ResponseCache
from longread.store.corpus_store import CorpusStore, StoredDoc
from longread.store.docstore import DocStore, content_hash
from longread.strategies.common import Run, RunOptions
from longread.strategies.modes import answer, check_mode
from longread.strategies.texts import InMemory
from longread.tools.bounds import fit_chars
from longread.tools.corpus import CorpusTools
from longread.tools.single_doc import SingleDocTools


def as_lm(model: str | LM | None, fallback: str, options: ClientOptions = ClientOptions()) -> LM:
    if isinstance(model, LM):
        return model
    return resolve_model(model or fallback, options)


DOC_TYPE_SAMPLE = 200_000  # characters from the start that the document type is judged on


class _Asker:
    """What both entry points share: the models, budget, options, response cache and event sinks."""

    def __init__(
        self,
        model: str | LM | None,
        sub_model: str | LM | None,
        *,
        mode: str = "auto",
        enable_logging: bool = False,
        trace_path: str | None = None,
        budget: Budget = Budget(),
        options: RunOptions | None = None,
        cache: bool = True,
        on_event: EventSink | None = None,
        client_options: ClientOptions = ClientOptions(),
    ):
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

    def close(self) -> None:
        """Close the response cache and any index store (the object is done with after this)."""
        if self.cache is not None:
            self.cache.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def _run(self, options: RunOptions | None = None) -> Iterator[Run]:
        """One question's run: a fresh gateway (so a fresh budget) and the trace, closed after."""
        trace = JsonlTrace(self.trace_path) if self.trace_path else None
        sink = fan_out(self.on_event, trace, _print_event if self.enable_logging else None)
        options = options or self.options
        gateway = Gateway(
            budget=self.budget, cache=self.cache, on_event=sink, concurrency=options.concurrency
        )
        try:
            yield Run(self.root, self.sub, gateway, options, sink)
        finally:
            if trace:
                trace.close()


class RLM_REPL(_Asker):  # noqa: N801 - the seed's name, which users expect
    """Answer questions about a `str`, `dict` or `list` context with a Recursive Language Model.

    >>> rlm = RLM_REPL(model="openai:gpt-4o", recursive_model="openai:gpt-4o-mini")
    >>> rlm.completion({"paper_1": "...", "paper_2": "..."}, "What themes do they share?")
    """

    def __init__(
        self,
        model: str | LM | None = None,
        recursive_model: str | LM | None = None,
        *,
        mode: str = "auto",
        enable_logging: bool = False,
        trace_path: str | None = None,
        budget: Budget = Budget(),
        options: RunOptions | None = None,
        cache: bool = True,
        on_event: EventSink | None = None,
        client_options: ClientOptions = ClientOptions(),
    ):
        super().__init__(
            model,
            recursive_model,
            mode=mode,
            enable_logging=enable_logging,
            trace_path=trace_path,
            budget=budget,
            options=options,
            cache=cache,
            on_event=on_event,
            client_options=client_options,
        )

    def answer(
        self, context: Any, query: str, *, enable_slicing: bool = True, doc_id: str = "context"
    ) -> Answer:
        """The full `Answer` (text, citations, usage, mode and why it was chosen)."""
        with self._run(replace(self.options, enable_slicing=enable_slicing)) as run:
            self.last_answer = answer(query, InMemory(context, doc_id), run, self.mode)
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

    def __init__(
        self,
        doc_path: str | Path,
        root_model: str | LM | None = None,
        sub_model: str | LM | None = None,
        *,
        mode: str = "auto",
        enable_logging: bool = False,
        trace_path: str | None = None,
        budget: Budget = Budget(),
        options: RunOptions | None = None,
        cache: bool = True,
        on_event: EventSink | None = None,
        client_options: ClientOptions = ClientOptions(),
        store_path: str | Path | None = None,
    ):
        super().__init__(
            root_model,
            sub_model,
            mode=mode,
            enable_logging=enable_logging,
            trace_path=trace_path,
            budget=budget,
            options=options,
            cache=cache,
            on_event=on_event,
            client_options=client_options,
        )
        check_mode(mode, "document")
        self.doc_path = Path(doc_path)
        self.store = DocStore(store_path or index_path(self.doc_path))
        self._index: SingleDocIndex | None = None

    @property
    def index(self) -> SingleDocIndex:
        """The document's index: built (without summaries) on first use, reused while unchanged."""
        if self._index is None:
            self._index = SingleDocIndex.build(self.doc_path, self.store)
        return self._index

    def build_index(
        self,
        summaries: bool = True,
        on_event: EventSink | None = None,
        gateway: Gateway | None = None,
        tree: TreeOptions | None = None,
    ) -> SingleDocIndex:
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
                index.store.set_doc_type(
                    index.store_id, ask_doc_type(head, guess, self.sub, gateway)
                )
                index = SingleDocIndex.open(self.store, index.store_id)
            index = self._index = build_summaries(
                index, self.sub, gateway, tree or TreeOptions(), sink
            ).index
        index.store.ensure_fts(
            index.store_id,
            lambda done, total: sink(
                Event("progress", {"task": "search", "done": done, "total": total})
            ),
        )
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

    def close(self) -> None:
        self.store.close()
        super().close()

    def query(self, question: str, mode: str | None = None) -> Answer:
        """The answer with its citations (section, offsets, page where known), usage and mode."""
        with self._run() as run:
            self.last_answer = answer(question, self.tools(run), run, mode or self.mode)
        return self.last_answer

    def repl(self) -> None:
        """An interactive Python prompt with the document's functions bound (for a person)."""
        with self._run() as run:
            tools = self.tools(run)
            names = ", ".join(tools.functions())
            banner = (
                f"{self.doc_path.name}: {self.index.doc_type}, {self.index.total_chars:,} characters, "
                f"{len(self.index.rows)} sections.\nFunctions: {names}"
            )
            code.interact(
                banner=banner, local={**tools.variables(), **tools.functions()}, exitmsg=""
            )


def _print_event(event: Any) -> None:
    print(f"[{event.kind}] " + ", ".join(f"{k}={str(v)[:120]!r}" for k, v in event.data.items()))


class MultiDocRLM(_Asker):
    """Answer questions about a folder of documents through its two-level index (seed 004).

    >>> rlm = MultiDocRLM("/path/to/documents/", root_model="openai:gpt-4o", sub_model="openai:gpt-4o-mini")
    >>> rlm.build_index(parallel=True, batch_size=100, save_path="corpus.index.json")
    >>> rlm.query("Find all merger announcements from 2024").citations
    """

    def __init__(
        self,
        corpus_path: str | Path,
        root_model: str | LM | None = None,
        sub_model: str | LM | None = None,
        *,
        store_path: str | Path | None = None,
        **settings: Any,
    ):
        """`settings` are SingleDocRLM's: mode (auto, retrieval, map or rlm), budget, options,
        trace_path, cache, on_event, enable_logging, client_options."""
        super().__init__(root_model, sub_model, **settings)
        check_mode(self.mode, "corpus")
        self.corpus_path = Path(corpus_path)
        if not self.corpus_path.is_dir():
            raise InputError(f"{corpus_path} is not a folder")
        self.index = CorpusIndex(
            self.corpus_path, CorpusStore(store_path or index_path(self.corpus_path))
        )
        self._saved: dict[str, ContentMeta] = {}
        self._save_path: Path | None = None

    def build_index(
        self,
        parallel: bool = True,
        batch_size: int = BATCH_SIZE,
        save_path: str | Path | None = None,
        *,
        llm_meta: bool | None = None,
        on_event: EventSink | None = None,
        gateway: Gateway | None = None,
    ) -> UpdateReport:
        """Index the folder, or bring its index up to date: new files are read (in parallel worker
        processes), changed ones re-read, deleted ones dropped; untouched ones cost nothing. With
        `llm_meta` (by default: when the sub-model writes code, as capable models do), the
        sub-model reads each new document's opening for its metadata (checked against the text;
        the rules fill in). Then the full-text index takes in the new documents. `on_event`
        receives `progress` events (task "documents", "metadata" or "full text")."""
        reader = self._meta_reader(gateway or Gateway(cache=self.cache), llm_meta)
        report = self.index.update(
            parallel=parallel,
            batch_size=batch_size,
            meta_reader=reader,
            on_event=on_event or ignore,
        )
        self.index.index_full_text(on_event or ignore)
        if save_path is not None:
            self.save_index(save_path)
        return report

    def _meta_reader(self, gateway: Gateway, llm: bool | None) -> MetaReader | None:
        """Metadata for new documents: a saved index's (same content), else the sub-model's, else the rules'."""
        if llm is None:
            llm = self.sub.writes_code
        if not (llm or self._saved):
            return None

        def one(item: tuple[StoredDoc, str, ContentMeta]) -> ContentMeta:
            doc, sample, rules = item
            if doc.content_hash in self._saved:
                return self._saved[doc.content_hash]
            if not llm:
                return rules
            chars = min(
                fit_chars(self.sub, 1_200), MODEL_SAMPLE_CHARS if self.sub.writes_code else 1_500
            )
            return llm_meta(
                sample, headings_in(sample), doc.doc_id, rules, self.sub, gateway, chars
            )

        return lambda batch: gateway.map(one, batch)

    def load_index(self, path: str | Path) -> UpdateReport:
        """Read an index saved by `save_index`: documents whose text is unchanged take their saved
        metadata (no model call); the rest is indexed as by `build_index(llm_meta=False)`."""
        self._saved = CorpusIndex.saved_meta(path)
        self._save_path = Path(path)
        return self.build_index(llm_meta=False)

    def save_index(self, path: str | Path | None = None) -> None:
        """Write the index in seed 004's JSON form (to the path last loaded or saved if none is given)."""
        target = Path(path) if path is not None else self._save_path
        if target is None:
            raise InputError("save_index needs a path (none was loaded or saved before)")
        self.index.save(target)
        self._save_path = target

    def add_document(self, path: str | Path, llm_meta: bool | None = None) -> str:
        """Index one file of the corpus folder (again, if it changed); returns its id."""
        return self.index.add_document(path, self._meta_reader(Gateway(cache=self.cache), llm_meta))

    def remove_document(self, doc_id: str) -> bool:
        """Forget one document; False if it was not indexed."""
        return self.index.remove_document(doc_id)

    def tools(self, run: Run) -> CorpusTools:
        return CorpusTools(self.index, run.sub, run.gateway)

    def close(self) -> None:
        self.index.store.close()
        super().close()

    def query(self, question: str, mode: str | None = None) -> Answer:
        """The answer with its citations (each names its document), usage and mode. The folder
        is indexed first if it never was."""
        if self.index.totals()[0] == 0:
            self.build_index(llm_meta=False)
        with self._run() as run:
            self.last_answer = answer(question, self.tools(run), run, mode or self.mode)
        return self.last_answer

    def repl(self) -> None:
        """An interactive Python prompt with the corpus functions bound (for a person)."""
        with self._run() as run:
            tools = self.tools(run)
            total_docs, total_chars = self.index.totals()
            banner = (
                f"{self.corpus_path}: {total_docs:,} documents, {total_chars:,} characters.\n"
                f"Functions: {', '.join(tools.functions())}"
            )
            code.interact(
                banner=banner, local={**tools.brief("").variables, **tools.functions()}, exitmsg=""
            )
