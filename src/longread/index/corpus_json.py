"""A corpus index in the JSON form callers save and load: its documents' metadata, the inverted
indexes, clusters, topics and links; and the metadata of a saved index, reused by content hash
instead of asking a model again."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path
from typing import Any, Protocol

from longread.index.corpus_files import index_terms
from longread.ingest.metadata import ContentMeta
from longread.store.open_corpus import CorpusStores


class Indexed(Protocol):
    """What the JSON form reads from a corpus index."""

    root: Path
    store: CorpusStores

    def totals(self) -> tuple[int, int]: ...

    def meta(self, doc_id: str) -> Any: ...

    def all_links(self) -> list[tuple[str, str]]: ...

    def clusters(self) -> dict[str, list[str]]: ...

    def topics(self) -> dict[str, list[str]]: ...


def corpus_dict(index: Indexed) -> dict[str, Any]:
    """Documents, inverted indexes, clusters, topics and links."""
    total_docs, total_chars = index.totals()
    documents = {d: asdict(index.meta(d)) for d in index.store.catalog.doc_ids()}
    inverted: dict[str, dict[str, list[str]]] = {
        kind: defaultdict(list) for kind in ("keyword", "entity", "date")
    }
    for doc_id, meta in documents.items():
        for kind, keys in index_terms(doc_id, content_meta(meta)).items():
            for key in keys if kind in inverted else ():
                inverted[kind][key].append(doc_id)
    links: dict[str, list[str]] = defaultdict(list)
    for src, dst in index.all_links():
        links[src].append(dst)
    return {
        "corpus_path": str(index.root),
        "total_docs": total_docs,
        "total_chars": total_chars,
        "documents": documents,
        "keyword_index": inverted["keyword"],
        "entity_index": inverted["entity"],
        "date_index": inverted["date"],
        "clusters": index.clusters(),
        "topics": index.topics(),
        "links": dict(links),
    }


def saved_meta(path: str | Path) -> dict[str, ContentMeta]:
    """The metadata of a saved index by content hash, to reuse instead of asking a model again."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    return {m["content_hash"]: content_meta(m) for m in data.get("documents", {}).values()}


def content_meta(meta: dict[str, Any]) -> ContentMeta:
    return ContentMeta(
        meta["title"],
        meta["summary"],
        meta["keywords"],
        meta["entities"],
        meta["dates"],
        meta["doc_type"],
        meta["author"],
        meta.get("meta_source") or meta["source"],
    )
