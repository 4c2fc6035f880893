"""`MultiDocRLM`: questions about a folder of documents, its two-level index built and kept up to
date (metadata by rules, or read by a capable sub-model)."""

from __future__ import annotations

import code
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from longread.api.asker import SourceAsker
from longread.api.settings import AskSettings
from longread.config import index_path
from longread.errors import InputError, ModelError
from longread.events import EventSink, ignore
from longread.executor import Executor, LocalShared
from longread.index.corpus import BATCH_SIZE, CorpusIndex, MetaReader
from longread.index.corpus_files import UpdateReport
from longread.index.enrich.corpus_meta import read_meta_on
from longread.index.enrich.llm_metadata import MODEL_SAMPLE_CHARS, llm_meta
from longread.ingest.metadata import ContentMeta, headings_in
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.limits import CallLimits, Limits
from longread.repl.protocol import decoded
from longread.store.corpus_catalog import StoredDoc
from longread.store.open_corpus import open_corpus_store
from longread.strategies.catalog import check_mode
from longread.strategies.common import Run
from longread.strategies.estimate import Estimate
from longread.tools.bounds import fit_chars
from longread.tools.corpus import CorpusTools


class MultiDocRLM(SourceAsker):
    """Answer questions about a folder of documents through its two-level index
    (document metadata, then per-document detail on demand).

    >>> rlm = MultiDocRLM(
    ...     "/path/to/documents/", root_model="openai:gpt-4o", sub_model="openai:gpt-4o-mini"
    ... )
    >>> rlm.build_index(parallel=True, batch_size=100, save_path="corpus.index.json")
    >>> rlm.ask("Find all merger announcements from 2024").citations
    """

    def __init__(
        self,
        corpus_path: str | Path,
        root_model: str | LM | None = None,
        sub_model: str | LM | None = None,
        *,
        settings: AskSettings | None = None,
        store_path: str | Path | None = None,
        shards: int | None = None,
        **changes: Any,
    ):
        """`changes`: any `AskSettings` field, over `settings`; `store_path`: the index's
        database (by default one in the cache for the folder); `shards`: split the index into
        that many databases (by default as it is: one for a new index)."""
        changed = (settings or AskSettings()).changed(
            root_model=root_model, sub_model=sub_model, **changes
        )
        super().__init__(changed)
        check_mode(self.mode, "corpus")
        self.corpus_path = Path(corpus_path)
        if not self.corpus_path.is_dir():
            raise InputError(f"{corpus_path} is not a folder")
        self.index = CorpusIndex(
            self.corpus_path,
            open_corpus_store(Path(store_path or index_path(self.corpus_path)), shards),
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
        executor: Executor | None = None,
        limits: Limits | None = None,
    ) -> UpdateReport:
        """Index the folder, or bring its index up to date: new files are read (in parallel, by
        this machine's worker processes or `executor`'s), changed ones re-read, deleted ones
        dropped; untouched ones cost nothing. With `llm_meta` (by default: when the sub-model
        writes code, as capable models do), the sub-model reads each new document's opening for
        its metadata (checked against the text; the rules fill in): on a Ray `executor`, in Ray
        tasks sharing `limits` (one rate limit and budget for all; by default the run's budget).
        A document it could not read is reported (`unread`) and read on the next build. Then the
        full-text index takes in the new documents. `on_event` receives `progress` events (task
        "documents", "metadata" or "full text")."""
        sink, executor = on_event or ignore, executor or self.executor
        gateway = gateway or Gateway(cache=self.cache)
        wanted = self.sub.writes_code if llm_meta is None else llm_meta
        on_ray = wanted and executor is not None and executor.name == "ray"
        on_cluster = self.sub_spec() if on_ray else None
        if limits is not None and not on_cluster and gateway.limits is None:
            gateway.limits = LocalShared(CallLimits(limits))
        unread: dict[str, str] = {}
        reader = self._meta_reader(gateway, wanted and not on_cluster, unread)
        report = self.index.update(
            parallel=parallel,
            batch_size=batch_size,
            meta_reader=reader,
            on_event=sink,
            executor=executor,
        )
        if on_cluster and executor is not None:
            report.unread = read_meta_on(
                executor,
                self.index.store,
                on_cluster,
                options=self.settings.client_options,
                cache=self.cache.path if self.cache else None,
                limits=limits
                or Limits(
                    max_calls=self.budget.max_subcalls, max_cost_usd=self.budget.max_cost_usd
                ),
                sample_chars=self._sample_chars(),
                concurrency=gateway.concurrency,
                on_event=sink,
            ).failed
        else:
            report.unread = unread
        self.index.index_full_text(sink)
        if save_path is not None:
            self.save_index(save_path)
        return report

    def _sample_chars(self) -> int:
        """How much of a document's opening the sub-model reads for its metadata."""
        return min(
            fit_chars(self.sub, 1_200), MODEL_SAMPLE_CHARS if self.sub.writes_code else 1_500
        )

    def _meta_reader(
        self, gateway: Gateway, llm: bool, unread: dict[str, str]
    ) -> MetaReader | None:
        """Metadata for new documents: a saved index's (same content), else the sub-model's (if
        `llm`; a document it could not read is noted in `unread` and keeps the rules'), else the
        rules'."""
        if not (llm or self._saved):
            return None

        def one(item: tuple[StoredDoc, str, ContentMeta]) -> ContentMeta:
            doc, sample, rules = item
            if doc.content_hash in self._saved:
                return self._saved[doc.content_hash]
            if not llm:
                return rules
            try:
                return llm_meta(
                    sample,
                    headings_in(sample),
                    doc.doc_id,
                    rules,
                    self.sub,
                    gateway,
                    self._sample_chars(),
                )
            except ModelError as error:
                unread[doc.doc_id] = str(error)
                return rules

        return lambda batch: gateway.map(one, batch)

    def load_index(self, path: str | Path) -> UpdateReport:
        """Read an index saved by `save_index`: documents whose text is unchanged take their saved
        metadata (no model call); the rest is indexed as by `build_index(llm_meta=False)`."""
        self._saved = CorpusIndex.saved_meta(path)
        self._save_path = Path(path)
        return self.build_index(llm_meta=False)

    def save_index(self, path: str | Path | None = None) -> None:
        """Write the index in its portable JSON form (to the path last loaded or saved if none is
        given)."""
        target = Path(path) if path is not None else self._save_path
        if target is None:
            raise InputError("save_index needs a path (none was loaded or saved before)")
        self.index.save(target)
        self._save_path = target

    def add_document(self, path: str | Path, llm_meta: bool | None = None) -> str:
        """Index one file of the corpus folder (again, if it changed); returns its id."""
        wanted = self.sub.writes_code if llm_meta is None else llm_meta
        return self.index.add_document(
            path, self._meta_reader(Gateway(cache=self.cache), wanted, {})
        )

    def remove_document(self, doc_id: str) -> bool:
        """Forget one document; False if it was not indexed."""
        return self.index.remove_document(doc_id)

    def source(self) -> tuple[Path, str]:
        return self.corpus_path, "corpus"

    def tools(self, run: Run) -> CorpusTools:
        return CorpusTools(self.index, run.sub, run.gateway)

    def close(self) -> None:
        self.index.store.close()
        super().close()

    def estimate(self, question: str, modes: Sequence[str] | None = None) -> list[Estimate]:
        """What answering would cost with each of `modes` (default: `auto`, then every mode for a
        corpus), without a model call (the folder is indexed first if it never was)."""
        self.ready()
        index = self.index
        return self._estimates(
            question, "corpus", lambda sub, gateway: CorpusTools(index, sub, gateway), modes
        )

    def ready(self) -> None:
        """Index the folder if it never was."""
        if self.index.totals()[0] == 0:
            self.build_index(llm_meta=False)

    def repl(self) -> None:
        """An interactive Python prompt with the corpus functions bound (for a person)."""
        with self._run("(an interactive prompt)") as run:
            tools = self.tools(run)
            total_docs, total_chars = self.index.totals()
            banner = (
                f"{self.corpus_path}: {total_docs:,} documents, {total_chars:,} characters.\n"
                f"Functions: {', '.join(tools.functions())}"
            )
            code.interact(
                banner=banner,
                local={**decoded(tools.brief("").variables), **tools.functions()},
                exitmsg="",
            )
