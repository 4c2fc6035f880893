"""The summary tree (phase 2, over the smart chunker's chunks or the sections): level-n summaries
are grouped `group_size` at a time in document order and each group is summarized into one
level-(n+1) node, until one root is left. Each node is saved with its children's links as soon as it
is written, so a stopped build resumes at the first group without a parent. A group of one is lifted
as it is, without a call."""

from __future__ import annotations

import math
from functools import partial

from longread.events import Event, EventKind, EventSink, ignore
from longread.index.enrich.summaries import clean_summary
from longread.ingest.doctype import doc_noun
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.usage import Purpose
from longread.store.docstore import DocStore
from longread.store.rows import own_spans
from longread.store.summaries import NodeRow

GROUP_PROMPT = """Below are summaries of {n} consecutive parts of a {doc_type}, in order. Write one
summary of them together in 2-4 sentences, keeping the names, events and terms that matter.

{listed}"""


def leaves_from_sections(store: DocStore, store_id: int, model: str) -> bool:
    """Level 0 over a structured document's sections (each section's own text with its summary);
    False if a level 0 exists already or a section has no summary yet."""
    if store.summaries.nodes(store_id):
        return False
    rows = store.sections.all(store_id)
    summaries = store.summaries.by_section(store_id)
    if not rows or any(row.id not in summaries for row in rows):
        return False
    store.summaries.add_leaves(
        store_id,
        [
            (start, end, f"{row.title}: {summaries[row.id][0]}")
            for row, (start, end) in zip(rows, own_spans(rows), strict=True)
        ],
        model,
    )
    return True


def tree_calls(leaves: int, group_size: int) -> int:
    """How many group summaries a tree over `leaves` level-0 nodes needs, at most."""
    calls = 0
    while leaves > 1:
        leaves = math.ceil(leaves / group_size)
        calls += leaves
    return calls


def build_tree(
    store: DocStore,
    store_id: int,
    lm: LM,
    gateway: Gateway,
    *,
    doc_type: str = "document",
    group_size: int = 5,
    on_event: EventSink = ignore,
) -> NodeRow | None:
    """Build the levels above level 0 that are missing; returns the root (None without level 0)."""
    if group_size < 2:
        raise ValueError("group_size must be at least 2")
    nodes = store.summaries.nodes(store_id)
    if not _grouped_by(nodes, group_size):  # built with another group size: regroup from level 0
        store.summaries.drop_upper_levels(store_id)
        nodes = store.summaries.nodes(store_id)
    total = tree_calls(sum(n.level == 0 for n in nodes), group_size)
    level, done = 0, 0
    while len(current := [n for n in nodes if n.level == level]) > 1:
        made = {n.ord for n in nodes if n.level == level + 1}
        groups = [
            (k, current[i : i + group_size])
            for k, i in enumerate(range(0, len(current), group_size))
            if k not in made
        ]
        for (k, group), summary in gateway.as_done(
            partial(_group_summary, lm=lm, gateway=gateway, doc_type=doc_type), groups
        ):  # each saved at once
            store.summaries.add_node(store_id, level + 1, k, group, summary, lm.name)
            done += 1
            on_event(
                Event(EventKind.PROGRESS, {"task": "tree", "done": done, "total": max(total, done)})
            )
        nodes = store.summaries.nodes(store_id)
        level += 1
    return current[0] if current else None


def _grouped_by(nodes: list[NodeRow], group_size: int) -> bool:
    """Whether every node above level 0 spans the `group_size` nodes below it that its place
    says."""
    by_level: dict[int, list[NodeRow]] = {}
    for node in nodes:
        by_level.setdefault(node.level, []).append(node)
    for level, above in by_level.items():
        below = by_level.get(level - 1, [])
        for node in above if level else ():
            group = below[node.ord * group_size : (node.ord + 1) * group_size]
            if not group or (node.start, node.end) != (group[0].start, max(n.end for n in group)):
                return False
    return True


def _group_summary(item: tuple[int, list[NodeRow]], lm: LM, gateway: Gateway, doc_type: str) -> str:
    """One summary of a numbered group's summaries (a group of one keeps its own, without a
    call)."""
    group = item[1]
    if len(group) == 1:
        return group[0].summary
    listed = "\n".join(f"{n}. {node.summary}" for n, node in enumerate(group, 1))
    prompt = GROUP_PROMPT.format(n=len(group), doc_type=doc_noun(doc_type), listed=listed)
    reply = gateway.complete(
        lm,
        prompt,
        purpose=Purpose.SUMMARIZE_TREE,
        max_tokens=160,
        label=f"{group[0].start}-{group[-1].end}",
    ).text
    return clean_summary(reply, " ".join(node.summary for node in group))
