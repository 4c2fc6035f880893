"""`SingleDocRLM`: questions about one file, indexed on first use (structure, full-text search,
summaries and the summary tree, all resumable)."""

from __future__ import annotations

import code
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from longread.api.asker import SourceAsker
from longread.api.settings import AskSettings
from longread.config import index_path
from longread.events import Event, EventKind, EventSink, ignore
from longread.index.enrich.doc_type import UNSURE, ask_doc_type
from longread.index.figures import FigureReader
from longread.index.single import SingleDocIndex
from longread.index.tree import TreeOptions, build_summaries
from longread.ingest.doctype import detect_doc_type
from longread.ingest.document import load_document
from longread.llm.base import LM
from longread.llm.dry_run import DryRunLM
from longread.llm.gateway import Gateway
from longread.repl.protocol import decoded
from longread.store.docstore import DocStore
from longread.store.text_hash import content_hash
from longread.strategies.catalog import check_mode
from longread.strategies.common import Run
from longread.strategies.estimate import Estimate, dry_gateway, from_usage
from longread.tools.single_doc import SingleDocTools

DOC_TYPE_SAMPLE = 200_000  # characters from the start that the document type is judged on


def _summarized(
    index: SingleDocIndex, sub: LM, gateway: Gateway, tree: TreeOptions | None, sink: EventSink
) -> SingleDocIndex:
    """`index` with summaries and the summary tree (and its document type asked of the
    sub-model first, when the rules are unsure)."""
    head = index.read_range(0, DOC_TYPE_SAMPLE)
    guess, confidence = detect_doc_type(head)
    if confidence < UNSURE:
        index.store.documents.set_type(index.store_id, ask_doc_type(head, guess, sub, gateway))
        index = SingleDocIndex.open(index.store, index.store_id)
    return build_summaries(index, sub, gateway, tree or TreeOptions(), sink).index


class SingleDocRLM(SourceAsker):
    """Answer questions about one long document (PDF, DOCX, HTML, markdown or text) through its
    index: table of contents, sections, full-text search and section summaries.

    >>> rlm = SingleDocRLM(
    ...     "contract.pdf", root_model="openai:gpt-4o", sub_model="openai:gpt-4o-mini"
    ... )
    >>> rlm.build_index()
    >>> rlm.ask("What are the termination clauses?").citations
    """

    def __init__(
        self,
        doc_path: str | Path,
        root_model: str | LM | None = None,
        sub_model: str | LM | None = None,
        *,
        settings: AskSettings | None = None,
        store_path: str | Path | None = None,
        **changes: Any,
    ):
        """`changes`: any `AskSettings` field, over `settings`; `store_path`: the index's
        database (by default one in the cache for the file)."""
        changed = (settings or AskSettings()).changed(
            root_model=root_model, sub_model=sub_model, **changes
        )
        super().__init__(changed)
        check_mode(self.mode, "document")
        self.doc_path = Path(doc_path)
        self.store = DocStore(store_path or index_path(self.doc_path))
        self._index: SingleDocIndex | None = None

    @property
    def index(self) -> SingleDocIndex:
        """The document's index: built (without summaries) on first use, reused while unchanged."""
        if self._index is None:
            self._index = SingleDocIndex.build(self.doc_path, self.store, self._figures())
        return self._index

    def _figures(self, gateway: Gateway | None = None) -> FigureReader | None:
        """What describes the document's figures as it is indexed (None: no vision model)."""
        if self.vision is None:
            return None
        return FigureReader(self.vision, gateway or Gateway(cache=self.cache))

    def build_index(
        self,
        summaries: bool = True,
        on_event: EventSink | None = None,
        gateway: Gateway | None = None,
        tree: TreeOptions | None = None,
    ) -> SingleDocIndex:
        """Index the document: structure, full-text search and, with `summaries`, the sub-model's
        reading of the document type when the rules are unsure, summaries and the summary tree
        (`tree` says how: smart chunks, chunk size, group size). A document without headings is cut
        into sections by the smart chunker. Resumable: a stopped build keeps what it paid for.
        `on_event` receives `progress` events (task `search`, `summaries`, `chunks` or `tree`; done,
        total)."""
        sink = on_event or ignore
        figures = self._figures(gateway)
        index = self._index = SingleDocIndex.build(self.doc_path, self.store, figures)
        if summaries:
            gateway = gateway or Gateway(cache=self.cache)
            index = self._index = _summarized(index, self.sub, gateway, tree, sink)
        index.store.search.build(
            index.store_id,
            lambda done, total: sink(
                Event(EventKind.PROGRESS, {"task": "search", "done": done, "total": total})
            ),
        )
        return index

    def estimate_index(self, tree: TreeOptions | None = None) -> Estimate:
        """What `build_index()` would cost in summaries and the tree, without a model call: the
        build runs on a scratch copy of the index against a stand-in for the sub-model."""
        index = self.index
        run = Run(self.sub, self.sub, Gateway(), self.options)
        with tempfile.TemporaryDirectory(prefix="longread-estimate-") as scratch:
            copy = DocStore(Path(scratch) / "index.sqlite")
            try:
                self.store.db.backup(copy.db)
                scratch_index = SingleDocIndex.open(copy, index.store_id)
                sub = DryRunLM(
                    self.sub, "", self.cache.history(self.sub.name) if self.cache else None
                )
                gateway = dry_gateway(run, self.cache)
                _summarized(scratch_index, sub, gateway, tree, ignore)
            finally:
                copy.close()
        return from_usage("index", gateway.usage, run, self.cache, "summaries and the tree")

    def drop_index(self) -> None:
        """Forget the stored index of the document's current content (the next use rebuilds it)."""
        existing = self.store.documents.find(content_hash(load_document(self.doc_path).text))
        if existing is not None:
            self.store.remove_document(existing)
        self._index = None

    def save_index(self, path: str | Path) -> None:
        """Write the index in its portable JSON form."""
        self.index.save(path)

    def load_index(self, path: str | Path) -> SingleDocIndex:
        """Read an index saved by `save_index` (a changed document is re-indexed instead)."""
        self._index = SingleDocIndex.load(path, self.store)
        return self._index

    def source(self) -> tuple[Path, str]:
        return self.doc_path, "document"

    def ready(self) -> None:
        """Index the document if it has changed since its index (or has none)."""
        _ = self.index

    def tools(self, run: Run) -> SingleDocTools:
        return SingleDocTools(self.index, run.sub, run.gateway)

    def close(self) -> None:
        self.store.close()
        super().close()

    def estimate(self, question: str, modes: Sequence[str] | None = None) -> list[Estimate]:
        """What answering would cost with each of `modes` (default: `auto`, then every mode for a
        document): calls, tokens, dollars and seconds, without a model call."""
        index = self.index
        return self._estimates(
            question, "document", lambda sub, gateway: SingleDocTools(index, sub, gateway), modes
        )

    def repl(self) -> None:
        """An interactive Python prompt with the document's functions bound (for a person)."""
        with self._run("(an interactive prompt)") as run:
            tools = self.tools(run)
            names = ", ".join(tools.functions())
            banner = (
                f"{self.doc_path.name}: {self.index.doc_type}, "
                f"{self.index.total_chars:,} characters, "
                f"{self.index.section_count} sections.\nFunctions: {names}"
            )
            code.interact(
                banner=banner, local={**decoded(tools.variables()), **tools.functions()}, exitmsg=""
            )
