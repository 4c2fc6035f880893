"""A document's summary tree as it is read back from the store: nodes by id, each node's children
in document order, and its root once the build has finished."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from longread.store.docstore import DocStore
from longread.store.summaries import NodeRow


class SummaryTree:
    """A document's finished summary tree: nodes by id, each node's children in document order."""

    def __init__(self, nodes: list[NodeRow], root: NodeRow):
        self.root = root
        self.by_id = {node.id: node for node in nodes}
        self.children: dict[int, list[NodeRow]] = defaultdict(list)
        for node in nodes:  # by level, then in document order
            if node.parent_id is not None:
                self.children[node.parent_id].append(node)

    @classmethod
    def load(cls, store: DocStore, store_id: int) -> SummaryTree | None:
        """The document's tree, or None if it has none or its build did not finish (then the
        nodes without a parent are not one root over the whole text)."""
        nodes = store.summaries.nodes(store_id)
        tops = [node for node in nodes if node.parent_id is None]
        whole = len(tops) == 1 and (tops[0].start, tops[0].end) == (
            0,
            store.documents.get(store_id)["chars"],
        )
        return cls(nodes, tops[0]) if whole else None

    def node(self, node_id: int) -> NodeRow:
        if node_id not in self.by_id:
            raise KeyError(f"no node {node_id!r}; node ids come from get_tree() or get_children()")
        return self.by_id[node_id]

    def as_dict(self, node: NodeRow) -> dict[str, Any]:
        return {
            "id": node.id,
            "level": node.level,
            "summary": node.summary,
            "start": node.start,
            "end": node.end,
            "children": len(self.children[node.id]),
        }
