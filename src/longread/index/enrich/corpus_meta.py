"""Document metadata read by the sub-model on a cluster: the documents whose metadata is still the
rules' are handed out in batches, each a job of the executor (a Ray task, run again if its worker
dies) that makes the sub-model from its spec (keys from the worker's environment, never from the
job) and saves each document's metadata as it arrives. All jobs share one rate limit and one
budget. A document whose calls fail keeps the rules' metadata, is reported, and is read on the
next run; a job run again skips what was saved, and a reply that came back but was not saved yet
is answered from the response cache: no call is paid twice."""

from __future__ import annotations

from contextlib import closing
from dataclasses import dataclass, field, replace
from pathlib import Path

from longread.errors import ModelError
from longread.events import Event, EventKind, EventSink, ignore
from longread.executor import Executor, Shared
from longread.index.corpus_files import index_terms
from longread.index.corpus_json import content_meta
from longread.index.enrich.llm_metadata import MODEL_SAMPLE_CHARS, llm_meta
from longread.ingest.metadata import ContentMeta, headings_in
from longread.llm.gateway import Gateway
from longread.llm.limits import CallLimits, Limits
from longread.llm.specs import ClientOptions, resolve_model
from longread.store.cache import ResponseCache
from longread.store.corpus_catalog import StoredDoc
from longread.store.corpus_store import CorpusStore
from longread.store.open_corpus import CorpusStores
from longread.store.sharded_store import ShardedCorpusStore

BATCH = 256  # documents a job reads
RETRIES = 2  # runs of a job after the first (a worker that dies is Ray's to retry as well)


@dataclass(frozen=True)
class MetaJob:
    """Read the documents at `rows` of the shard `database` with the model `model`."""

    database: str
    rows: tuple[int, ...]
    model: str
    options: ClientOptions  # (without an API key: a worker reads its own environment's)
    cache: str | None  # the response cache's database, on storage every node reaches
    limits: Shared
    sample_chars: int
    concurrency: int


@dataclass
class MetaReport:
    """Documents read, and those whose calls failed (id: why), to read on the next run."""

    read: int = 0
    failed: dict[str, str] = field(default_factory=dict)

    def take_in(self, other: MetaReport) -> None:
        self.read += other.read
        self.failed.update(other.failed)


def read_meta(job: MetaJob) -> MetaReport:
    """Run one job (on whichever worker the executor chose)."""
    lm = resolve_model(job.model, job.options)
    cache = ResponseCache(Path(job.cache)) if job.cache else None
    gateway = Gateway(cache=cache, limits=job.limits, concurrency=job.concurrency)
    report = MetaReport()
    with closing(CorpusStore(job.database)) as store:
        docs = [d for d in store.catalog.docs(list(job.rows)) if d.meta["source"] == "rules"]
        samples = {
            d.row: store.documents.read_range(d.store_id, 0, MODEL_SAMPLE_CHARS) for d in docs
        }

        def read(doc: StoredDoc) -> ContentMeta | ModelError:
            sample, rules = samples[doc.row], content_meta(doc.meta)
            try:
                return llm_meta(
                    sample, headings_in(sample), doc.doc_id, rules, lm, gateway, job.sample_chars
                )
            except ModelError as error:
                return error

        for doc, meta in gateway.as_done(read, docs):
            if isinstance(meta, ModelError):
                report.failed[doc.doc_id] = str(meta)
                continue
            store.replace_meta([(doc, meta.to_dict(), index_terms(doc.doc_id, meta))])
            report.read += 1
    if cache is not None:
        cache.close()
    return report


def read_meta_on(
    executor: Executor,
    store: CorpusStores,
    model: str,
    *,
    options: ClientOptions = ClientOptions(),
    cache: Path | None = None,
    limits: Limits = Limits(),
    sample_chars: int = MODEL_SAMPLE_CHARS,
    concurrency: int = 4,
    on_event: EventSink = ignore,
) -> MetaReport:
    """Have `model` read every document whose metadata is the rules' alone, in jobs of
    `executor`, with `metadata` progress events as jobs finish."""
    shared = executor.shared(CallLimits, limits)
    keyless = replace(options, api_key=None)
    jobs = [
        MetaJob(
            str(shard.path),
            tuple(rows[at : at + BATCH]),
            model,
            keyless,
            str(cache) if cache else None,
            shared,
            sample_chars,
            concurrency,
        )
        for shard in (store.shards if isinstance(store, ShardedCorpusStore) else [store])
        for rows in [shard.catalog.rows_with_meta_source("rules")]
        for at in range(0, len(rows), BATCH)
    ]
    report, total, done = MetaReport(), sum(len(j.rows) for j in jobs), 0
    for job, part in executor.each(read_meta, jobs, retries=RETRIES):
        report.take_in(part)
        done += len(job.rows)
        on_event(Event(EventKind.PROGRESS, {"task": "metadata", "done": done, "total": total}))
    return report
