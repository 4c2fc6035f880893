"""Building a document's summary tree on top of its index: level 0 is either the smart
chunker's chunks (always for a document without headings, whose sections they become) or the
document's sections; the levels above come from build_tree. Everything is resumable."""

from __future__ import annotations

from dataclasses import dataclass

from longread.events import EventSink, ignore
from longread.index.enrich.smart_chunks import ChunkingReport, SmartChunker
from longread.index.enrich.summaries import section_keywords, summarize_sections
from longread.index.enrich.summary_tree import build_tree, leaves_from_sections
from longread.index.single import SingleDocIndex
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.store.summaries import NodeRow


@dataclass(frozen=True)
class TreeOptions:
    """How to build the tree: smart chunks even where there are headings, the chunker's buffer
    (None: chosen by the model's strength) and how many nodes each summary groups."""

    smart_chunks: bool = False
    target_chunk_tokens: int | None = None
    group_size: int = 5


@dataclass
class TreeBuild:
    index: SingleDocIndex
    root: NodeRow | None
    chunking: ChunkingReport | None = None


def build_summaries(
    index: SingleDocIndex,
    sub: LM,
    gateway: Gateway,
    options: TreeOptions = TreeOptions(),
    on_event: EventSink = ignore,
) -> TreeBuild:
    """Summaries for `index` and the tree over them. A document without headings, any document
    with `smart_chunks`, and one whose smart chunking has begun, is cut by the smart chunker (whose
    summaries are level 0); otherwise each section is summarized and the sections are level 0."""
    store, store_id = index.store, index.store_id
    chunking = None
    if (
        options.smart_chunks or not index.structured or store.summaries.chunks(store_id)
    ):  # a started cut goes on
        if any(n.level == 0 and n.chunk_id is None for n in store.summaries.nodes(store_id)):
            store.summaries.drop_tree(store_id)  # a tree over sections gives way to one over chunks
        chunking = SmartChunker(
            store,
            store_id,
            sub,
            gateway,
            doc_type=index.doc_type,
            target_chunk_tokens=options.target_chunk_tokens,
            on_event=on_event,
        ).run()
        if not index.structured:
            index = adopt_chunks(index)
    else:
        summarize_sections(index, sub, gateway, on_event=on_event)
        leaves_from_sections(store, store_id, sub.name)
    root = build_tree(
        store,
        store_id,
        sub,
        gateway,
        doc_type=index.doc_type,
        group_size=options.group_size,
        on_event=on_event,
    )
    return TreeBuild(index, root, chunking)


def adopt_chunks(index: SingleDocIndex) -> SingleDocIndex:
    """Make a document's chunks its sections ("Part k", each up to where the next chunk starts,
    so they do not overlap), with the chunks' summaries; unchanged if they are already."""
    store, store_id = index.store, index.store_id
    chunks = store.summaries.chunks(store_id)
    starts = [chunk.start for chunk in chunks]
    spans = list(zip(starts, [*starts[1:], index.total_chars], strict=True))
    if [(row.start, row.end) for row in index.rows] == spans:
        return index
    entries = [(None, f"Part {k}", 1, start, end) for k, (start, end) in enumerate(spans, 1)]
    ids = store.sections.save(store_id, entries)
    level0 = {
        node.chunk_id: node.summary for node in store.summaries.nodes(store_id) if node.level == 0
    }
    keywords = section_keywords(
        [
            store.documents.read_range(store_id, start, min(end, start + 50_000))
            for start, end in spans
        ]
    )
    for section_id, chunk, words in zip(ids, chunks, keywords, strict=True):
        store.summaries.put(section_id, level0[chunk.id], words, "chunker")
    return SingleDocIndex.open(store, store_id)
