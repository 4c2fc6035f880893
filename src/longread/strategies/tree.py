"""The `tree` strategy. Over a summary tree (seed 003) it walks like MemWalker: from the root, the
root model picks the child whose summary most likely holds the answer (search's best-scoring child
is put first for a model too small to weigh summaries); at a leaf the sub-model reads the leaf's
best passages; a branch whose leaves say nothing is abandoned for the next child that the model or
search points to (backtracking).
The walk stops at the first leaf that answers, or after `max_leaves`. A document without a tree
is walked through its table of contents instead (sections.walk_toc)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from longread.answer import Answer
from longread.errors import BudgetExceededError
from longread.store.tree_tables import NodeRow
from longread.strategies.common import Run
from longread.strategies.mapreduce import ChunkReader, best_chunks, cut_chunks
from longread.strategies.sections import chunk_plan, search_ranks, span_score, walk_toc
from longread.tools.single_doc import SingleDocTools
from longread.tools.tree_nav import SummaryTree

CHOOSE = """Question: {question}

The document's parts, in order, each with a summary:
{menu}

Which part most likely contains the answer? Reply with part numbers, best first, for example: 2, 1"""
_NUMBER = re.compile(r"\d+")


@dataclass
class Walk:
    """What the walk did: the nodes it entered, the leaves it read, the branches it gave up."""

    path: list[str] = field(default_factory=list)
    leaves_read: int = 0
    backtracks: int = 0
    chunks_total: int = 0

    def stats(self, tree: SummaryTree) -> dict[str, object]:
        return {
            "path": self.path,
            "leaves_read": self.leaves_read,
            "backtracks": self.backtracks,
            "tree_levels": tree.root.level + 1,
        }


def run_tree(question: str, tools: SingleDocTools, run: Run) -> Answer:
    """Walk the summary tree if the document has one, else its table of contents."""
    tree = tools.summary_tree
    if tree is None:
        run.emit(
            "notice",
            text="no summary tree (build it with `longread index`): walking the table of contents",
        )
        return walk_toc(question, tools, run)
    return walk_tree(question, tools, run, tree)


def walk_tree(
    question: str, tools: SingleDocTools, run: Run, tree: SummaryTree, max_leaves: int | None = None
) -> Answer:
    """Descend from the root to the leaves most likely to answer, backtracking from empty branches."""
    weak = not run.root.writes_code
    max_leaves = max_leaves or (3 if weak else 6)
    chunk_chars, limit = chunk_plan(run)
    per_leaf = max(2, limit // max_leaves)
    ranks = search_ranks(question, tools)
    reader = ChunkReader(question, run, tools)
    walk = Walk()

    def label(node: NodeRow) -> str:
        return f"level {node.level} [{node.start:,}:{node.end:,}) {tools.section_at(node.start)}"

    def visit(node: NodeRow) -> bool:
        """True once a leaf under `node` has answered."""
        walk.path.append(label(node))
        children = tree.children[node.id]
        if not children:
            return read_leaf(node)
        for number, child in enumerate(_order(question, children, run, ranks, weak)):
            if walk.leaves_read >= max_leaves:
                return False
            if number:
                walk.backtracks += 1
                run.emit("route", picked=[label(child)], backtrack=True)
            else:
                run.emit("route", picked=[label(child)])
            if visit(child):
                return True
        return False

    def read_leaf(node: NodeRow) -> bool:
        chunks = cut_chunks(tools, [(node.start, node.end)], chunk_chars)
        walk.chunks_total += len(chunks)
        walk.leaves_read += 1
        before = len(reader.findings)
        reader.read_all(best_chunks(question, chunks, per_leaf))
        return len(reader.findings) > before

    try:
        visit(tree.root)
    except BudgetExceededError as error:
        error.partial = reader.answer(
            "tree", walk.chunks_total, walk.stats(tree), stopped_by=error.limit
        )
        raise
    return reader.answer("tree", walk.chunks_total, walk.stats(tree))


def _order(
    question: str, children: list[NodeRow], run: Run, ranks: list[tuple[int, float]], weak: bool
) -> list[NodeRow]:
    """The children worth trying, in order: the root model's two best picks and the child search
    scores best (search leads for a weak root), then every other child search found something in.
    A child neither the model nor search points to is not entered."""
    scored = sorted(
        (n for n in children if span_score(n.start, n.end, ranks) > 0),
        key=lambda n: span_score(n.start, n.end, ranks),
        reverse=True,
    )
    if len(children) == 1:
        return children
    menu = "\n".join(
        f"{k}. {' '.join(child.summary.split())[:300]}" for k, child in enumerate(children, 1)
    )
    reply = run.gateway.complete(
        run.root, CHOOSE.format(question=question, menu=menu), purpose="route", max_tokens=16
    ).text
    picked = [children[int(n) - 1] for n in _NUMBER.findall(reply) if 1 <= int(n) <= len(children)]
    first = scored[:1] + picked[:1] if weak else picked[:2] + scored[:1]
    return list({node.id: node for node in first + scored}.values())
