"""One analysis: its request, documents and models, a run with its own gateway (so its own budget
and cancellation), and the answer in the API's shape."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Annotated, Any

from pydantic import BaseModel, Field

from longread import deadline
from longread.answer import CITATION_MARK, Answer, Citation, Counts
from longread.errors import BudgetExceededError, InputError
from longread.events import EventKind, EventSink, fan_out, ignore
from longread.llm.gateway import Gateway
from longread.llm.remote import RemoteLM
from longread.llm.usage import Budget
from longread.repl.isolation import is_isolated
from longread.repl.sandbox import probe
from longread.report import page
from longread.store.cache import ResponseCache
from longread.strategies.catalog import check_mode, cites_by_number
from longread.strategies.common import Run, RunOptions
from longread.strategies.conversation import converse
from longread.strategies.estimate import Estimate, SourceMaker, estimate
from longread.strategies.texts import TextDocs
from longread.tools.corpus import CorpusTools
from longread.tools.single_doc import SingleDocTools
from longread.web.conversations import Conversations
from longread.web.documents import DocumentStore
from longread.web.indexed import Indexed, IndexedCorpus, IndexedDocument, find_indexed
from longread.web.models import ModelPool
from longread.web.progress import Progress, Send
from longread.web.runs import RunLog
from longread.web.settings import Settings


class AnalyzeRequest(BaseModel):
    """The body of /api/analyze and /api/analyze-stream (camelCase names, as the web page sends)."""

    question: str = Field(min_length=1, max_length=4_000)
    mode: str = Field("auto", max_length=40)
    document_ids: list[Annotated[str, Field(max_length=300)]] = Field(min_length=1, max_length=50)
    chunkSize: int = Field(1_800, ge=200, le=20_000)
    topK: int = Field(8, ge=1, le=50)
    maxSubcalls: int = Field(24, ge=1, le=500)
    concurrency: int = Field(6, ge=1, le=16)
    rewrite: bool = False
    verify: bool = False
    model: str | None = Field(None, max_length=300)
    subModel: str | None = Field(None, max_length=300)
    conversation: str | None = Field(None, max_length=64)  # a follow-up: its conversation's id


@dataclass
class Services:
    """What analyses share: settings, documents, models and the response cache."""

    settings: Settings
    documents: DocumentStore
    models: ModelPool
    cache: ResponseCache | None
    conversations: Conversations = field(default_factory=Conversations)
    runs: RunLog = field(default_factory=RunLog)


class Analysis:
    """Validated up front (unknown documents, modes or models fail before any call); `run` does the
    work on the calling thread, `cancel` stops it from issuing further model calls."""

    def __init__(self, request: AnalyzeRequest, services: Services):
        self.request = request
        settings = services.settings
        self.root = services.models.get(request.model, settings.model)
        self.sub = services.models.get(request.subModel, settings.default_sub)
        if settings.executor is not None and settings.executor.name == "ray":
            self.sub = RemoteLM(self.sub, settings.executor)
        self.target = _documents(request.document_ids, services, request.chunkSize)
        self.conversations = services.conversations
        self.conversations.check(request.conversation, request.document_ids)
        check_mode(request.mode, _kind(self.target))
        if request.mode == "rlm" and not self.root.writes_code:
            raise InputError(
                f"rlm needs a root model that writes code; {self.root.name} does not "
                "(choose map, or a code-writing model such as local:qwen2.5-coder-1.5b)"
            )
        allow_code = settings.allow_unisolated_code or is_isolated(probe())
        if request.mode == "rlm" and not allow_code:
            raise InputError(
                "rlm runs model-written code, and this server cannot isolate it from the "
                "system (see `longread doctor`); it was started without --allow-unisolated-code"
            )
        budget = Budget(
            max_subcalls=min(settings.max_subcalls, request.maxSubcalls + 8),
            max_cost_usd=settings.max_cost_usd,
            max_seconds=settings.max_seconds,
        )
        self.options = RunOptions(
            refine_slice_chars=request.chunkSize,
            max_slices=request.maxSubcalls,
            top_k=request.topK,
            rewrite=request.rewrite,
            allow_code=allow_code,
            verify=request.verify,
        )
        self.cache = services.cache
        self.runs = services.runs
        self.progress: Progress | None = None
        self.record: EventSink = ignore
        self.gateway = Gateway(
            budget=budget,
            cache=services.cache,
            concurrency=request.concurrency,
            on_event=self._event,
        )

    def _event(self, event: Any) -> None:
        if self.progress is not None:
            self.progress(event)
        self.record(event)

    def cancel(self) -> None:
        self.gateway.cancel()

    @contextmanager
    def _opened(self) -> Iterator[tuple[SourceMaker, str]]:
        """The target as a source whose tools call a given sub-model (open while in the block),
        and a line saying what it is."""
        target = self.target
        if isinstance(target, IndexedCorpus):
            with target.opened() as corpus:
                yield (
                    lambda sub, gateway: CorpusTools(corpus, sub, gateway),
                    f"indexed corpus, {target.documents:,} documents, {target.chars:,} characters",
                )
        elif isinstance(target, IndexedDocument):
            with target.opened() as index:
                yield (
                    lambda sub, gateway: SingleDocTools(index, sub, gateway),
                    f"indexed document, {index.section_count:,} sections, "
                    f"{index.total_chars:,} characters",
                )
        else:
            yield (
                lambda sub, gateway: target,
                f"{len(target.chunks)} chunk(s) of up to {target.chunk_chars:,} characters "
                f"from {target.total_chars:,}",
            )

    def _estimate(self, make_source: SourceMaker) -> Estimate:
        run = Run(self.root, self.sub, Gateway(budget=self.gateway.budget), self.options)
        return estimate(self.request.question, make_source, run, self.request.mode, self.cache)

    def estimate(self) -> dict[str, Any]:
        """What the analysis would cost, without a model call."""
        with self._opened() as (make_source, _):
            return self._estimate(make_source).to_dict()

    def run(self, send: Send = lambda kind, data: None) -> dict[str, Any]:
        """Answer the question (the next of its conversation), sending progress through `send`;
        returns the API's answer JSON, with the estimate made before the first call and the
        conversation's id (for a follow-up)."""
        self.record = self.runs.start(self.request.question)
        progress = self.progress = Progress(send)
        run = Run(self.root, self.sub, self.gateway, self.options, fan_out(progress, self.record))
        run.emit(EventKind.RUN, question=self.request.question)
        target = self.target
        names = (
            ", ".join(d.name for d in target.docs) if isinstance(target, TextDocs) else target.name
        )
        progress.phase(
            "INIT", f"{self.request.mode} · {names} · root {self.root.name}, sub {self.sub.name}"
        )
        request = self.request
        conversation_id = request.conversation
        try:
            with (
                deadline.answering(self.gateway.deadline),
                self._opened() as (make_source, described),
                self.conversations.using(conversation_id, request.document_ids) as (
                    conversation_id,
                    conversation,
                ),
            ):
                progress.phase("CHUNK", described)
                expected = self._estimate(make_source)
                source = make_source(self.sub, self.gateway)
                result = converse(request.question, source, run, conversation, request.mode)
        except BudgetExceededError as error:
            if error.partial is None:
                raise
            result = error.partial
            progress.log(f"stopped: {error}")
        progress.phase("RESPOND")
        return {
            **self._result(result),
            "estimate": expected.to_dict(),
            "conversation": conversation_id,
        }

    def _result(self, answer: Answer) -> dict[str, Any]:
        citations = [self._citation(c) for c in answer.citations]
        ids = [c["id"] for c in citations]

        def shown(text: str) -> str:
            """`text` with each `[n]` as its citation's id (in the modes where `[n]` cites)."""
            if not cites_by_number(answer.mode):
                return text
            return CITATION_MARK.sub(
                lambda m: f"[{ids[int(m[1]) - 1]}]" if 0 < int(m[1]) <= len(ids) else m[0], text
            )

        text = shown(answer.text)
        claims = [
            {
                "text": shown(claim.text),
                "start": len(shown(answer.text[: claim.start])),
                "end": len(shown(answer.text[: claim.end])),
                "citations": [ids[n - 1] for n in claim.citations],
                "supported": claim.supported,
                "reason": claim.reason,
            }
            for claim in answer.claims
        ]
        usage = answer.usage
        total = len(self.target.chunks) if isinstance(self.target, TextDocs) else None
        return {
            "answer": text,
            "mode": answer.mode,
            "reason": answer.reason,
            "stopped_by": answer.stopped_by,
            "citations": citations,
            "claims": claims,
            "usage": {
                key: usage.get(key)
                for key in (
                    "calls",
                    "subcalls",
                    "cached_calls",
                    "input_tokens",
                    "output_tokens",
                    "cost_usd",
                    "seconds",
                )
            },
            "chunks_total": answer.stats.get("chunks_total", total),
            "chunks_read": answer.stats.get("chunks_read"),
            "counts": self._counts(answer.counts),
            "report": page(self.request.question, answer),
        }

    def _counts(self, counts: Counts | None) -> dict[str, Any] | None:
        """What a count rests on: its groups (a bar chart's) and its rows, each a citation."""
        if counts is None:
            return None
        rows = zip(counts.rows, counts.labels, strict=True)
        return {
            "label": counts.label,
            "group": counts.group,
            "figure": counts.figure,
            "groups": [[group, figure] for group, figure in counts.groups],
            "rows": [{**self._citation(row), "label": label} for row, label in rows],
        }

    def _citation(self, citation: Citation) -> dict[str, Any]:
        """The API's citation; one into a corpus names the corpus and, as `path`, its document."""
        path = section = None
        target = self.target
        if isinstance(target, IndexedCorpus):
            document_id, path, cite_id = (
                target.id,
                citation.doc_id,
                f"{citation.doc_id}@{citation.start}",
            )
        elif isinstance(target, IndexedDocument):
            document_id, cite_id, section = (
                target.id,
                f"{target.id}@{citation.start}",
                citation.span_id,
            )
        else:
            document_id, cite_id = (
                citation.doc_id,
                citation.span_id or f"{citation.doc_id}@{citation.start}",
            )
        return {
            "id": cite_id,
            "document_id": document_id,
            "path": path,
            "start": citation.start,
            "end": citation.end,
            "text": citation.text,
            "page": citation.page,
            "section": section,
        }


def _kind(target: Indexed | TextDocs) -> str:
    """What the modes registry calls this kind of source."""
    if isinstance(target, IndexedCorpus):
        return "corpus"
    return "document" if isinstance(target, IndexedDocument) else "texts"


def _documents(ids: list[str], services: Services, chunk_chars: int) -> Indexed | TextDocs:
    """The uploaded documents asked for, or the one indexed document or corpus; UnknownDocumentError
    for an id the server does not hold, InputError for an indexed one asked for with others."""
    uploaded = [services.documents.get(i) for i in ids]
    missing = [i for i, doc in zip(ids, uploaded, strict=True) if doc is None]
    if not missing:
        return TextDocs([doc.as_text_doc() for doc in uploaded if doc is not None], chunk_chars)
    indexed = find_indexed(services.settings.index_dir, missing[0])
    if indexed is None:
        raise UnknownDocumentError(f"no document {missing[0]!r} on this server")
    if len(ids) > 1:
        raise InputError(f"{indexed.id} is an indexed {_kind(indexed)}: it is analyzed alone")
    return indexed


class UnknownDocumentError(InputError):
    """A document id the server does not hold (404)."""
