"""The summary tree as the REPL sees it: get_root_summary, get_tree, get_children, get_node and
read_node. A node is a dict with id, level, summary, start, end and its number of children;
read_node gives the raw text it spans."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from typing import Any

from longread.errors import LongreadError
from longread.index.summary_tree import SummaryTree
from longread.store.summaries import NodeRow

MAX_NODE_CHARS = 1_000_000  # read_node's cap: a root over a 400 MB document is read with read_range
NO_TREE = (
    "this document has no summary tree yet: build it with `longread index FILE` (or --smart-chunks)"
)


class TreeNavigation:
    """The tree tools, mixed into SingleDocTools (which provides `index` and `read_range`)."""

    TREE_TOOLS = ("get_root_summary", "get_tree", "get_children", "get_node", "read_node")
    index: Any
    read_range: Callable[[int, int], str]

    @cached_property
    def summary_tree(self) -> SummaryTree | None:
        return SummaryTree.load(self.index.store, self.index.store_id)

    def _tree(self) -> SummaryTree:
        if self.summary_tree is None:
            raise LongreadError(NO_TREE)
        return self.summary_tree

    def get_root_summary(self) -> str:
        """The summary of the whole document (the tree's root)."""
        tree = self._tree()
        return tree.root.summary

    def get_tree(self, depth: int = 2) -> dict:
        """The root node with its descendants `depth` levels down, each under "children" as a
        list."""
        tree = self._tree()

        def expand(node: NodeRow, left: int) -> dict[str, Any]:
            shown = tree.as_dict(node)
            if left > 0:
                shown["children"] = [expand(child, left - 1) for child in tree.children[node.id]]
            return shown

        return expand(tree.root, depth)

    def get_children(self, node_id: int) -> list[dict]:
        """The nodes directly under a node, in document order ([] for a leaf)."""
        tree = self._tree()
        return [tree.as_dict(child) for child in tree.children[tree.node(node_id).id]]

    def get_node(self, node_id: int) -> dict:
        """One node: id, level, summary, start, end and how many children it has."""
        tree = self._tree()
        return tree.as_dict(tree.node(node_id))

    def read_node(self, node_id: int) -> str:
        """The raw text a node spans (its first MAX_NODE_CHARS characters for a huge node)."""
        node = self._tree().node(node_id)
        return self.read_range(node.start, min(node.end, node.start + MAX_NODE_CHARS))
