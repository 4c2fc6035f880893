"""The `tree` strategy. Over a document's summary tree it walks like MemWalker: from the root, the
root model picks the child whose summary most likely holds the answer (search's best-scoring child
is put first for a model too small to weigh summaries); at a leaf the sub-model reads the leaf's
best passages; a branch whose leaves say nothing is abandoned for the next child that the model or
search points to (backtracking).
The walk stops at the first leaf that answers, or after `max_leaves`. A document without a tree
is walked through its table of contents instead: at each level the root model picks sections
from their titles and summaries (`walk_toc`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from longread.answer import Answer
from longread.events import EventKind
from longread.index.summary_tree import SummaryTree
from longread.ingest.toc import Section
from longread.llm.usage import Purpose
from longread.store.summaries import NodeRow
from longread.strategies.common import Run, partial_on_budget
from longread.strategies.following import FollowingReader
from longread.strategies.reading import best_chunks, chunk_plan, cut_chunks, map_answer
from longread.tools.single_doc import SingleDocTools

CHOOSE = (
    "Question: {question}\n"
    "\n"
    "The document's parts, in order, each with a summary:\n"
    "{menu}\n"
    "\n"
    "Which part most likely contains the answer? "
    "Reply with part numbers, best first, for example: 2, 1"
)
_NUMBER = re.compile(r"\d+")
ROUTE = """Question: {question}

Sections of the document:
{menu}

Which sections most likely contain the answer? Reply with up to {width} section numbers from the
list, best first, for example: 3, 1"""
MENU_SIZE = 40  # a longer list of sibling sections is cut to the ones search ranks best


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
            EventKind.NOTICE,
            text="no summary tree (build it with `longread index`): walking the table of contents",
        )
        return walk_toc(question, tools, run)
    return walk_tree(question, tools, run, tree)


def walk_tree(
    question: str, tools: SingleDocTools, run: Run, tree: SummaryTree, max_leaves: int | None = None
) -> Answer:
    """Descend from the root to the leaves most likely to answer, backtracking from empty
    branches."""
    weak = not run.root.writes_code
    max_leaves = max_leaves or (3 if weak else 6)
    chunk_chars, limit = chunk_plan(run)
    per_leaf = max(2, limit // max_leaves)
    ranks = search_ranks(question, tools)
    reader = FollowingReader(question, run, tools)
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
                run.emit(EventKind.ROUTE, picked=[label(child)], backtrack=True)
            else:
                run.emit(EventKind.ROUTE, picked=[label(child)])
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

    with partial_on_budget(
        lambda limit: reader.answer("tree", walk.chunks_total, walk.stats(tree), stopped_by=limit)
    ):
        visit(tree.root)
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
        run.root, CHOOSE.format(question=question, menu=menu), purpose=Purpose.ROUTE, max_tokens=16
    ).text
    picked = [children[int(n) - 1] for n in _NUMBER.findall(reply) if 1 <= int(n) <= len(children)]
    first = scored[:1] + picked[:1] if weak else picked[:2] + scored[:1]
    return list({node.id: node for node in first + scored}.values())


def walk_toc(
    question: str, tools: SingleDocTools, run: Run, width: int = 2, max_sections: int = 6
) -> Answer:
    """Walk the TOC from the top: at each level the root model picks up to `width` sections from
    their titles and summaries (search's best pick is always added); their subsections form the
    next menu. The chosen sections' own text is then read like `map` reads."""
    chunk_chars, limit = chunk_plan(run)
    ranks = search_ranks(question, tools)
    chosen: list[Section] = []
    menu = tools.outline()
    while menu and len(chosen) < max_sections:
        picked = _pick(question, menu, tools, run, ranks, width)
        run.emit(EventKind.ROUTE, picked=[s.title for s in picked])
        chosen += picked
        menu = [child for section in picked for child in section.children]
    chunks = cut_chunks(tools, [tools.own_span(s.title) for s in chosen], chunk_chars)
    return map_answer(
        question,
        best_chunks(question, chunks, limit),
        run,
        tools,
        "tree",
        len(chunks),
        {"sections_chosen": [s.title for s in chosen]},
        reading=FollowingReader,
    )


def search_ranks(question: str, tools: SingleDocTools) -> list[tuple[int, float]]:
    """(offset, score) of the sections full-text search ranks best for the question."""
    return [
        (tools.section_start(section_id), score)
        for section_id, score in tools.search_ids(question, 50)
    ]


def span_score(start: int, end: int, ranks: list[tuple[int, float]]) -> float:
    """How much of what search found for the question lies in [start, end)."""
    return sum(score for offset, score in ranks if start <= offset < end)


def _pick(
    question: str,
    menu: list[Section],
    tools: SingleDocTools,
    run: Run,
    ranks: list[tuple[int, float]],
    width: int,
) -> list[Section]:
    by_search = sorted(
        menu, key=lambda s: span_score(s.start_char, s.end_char, ranks), reverse=True
    )
    kept = {s.title for s in by_search[:MENU_SIZE]}
    shown = [s for s in menu if s.title in kept]
    summaries = tools.index.summaries
    lines = [
        f"{n}. {s.title}" + (f" — {summaries[s.title][:160]}" if s.title in summaries else "")
        for n, s in enumerate(shown, 1)
    ]
    reply = run.gateway.complete(
        run.root,
        ROUTE.format(question=question, menu="\n".join(lines), width=width),
        purpose=Purpose.ROUTE,
        max_tokens=24,
    ).text
    picked = [shown[int(n) - 1] for n in _NUMBER.findall(reply) if 1 <= int(n) <= len(shown)]
    best = [s for s in by_search[:1] if span_score(s.start_char, s.end_char, ranks) > 0]
    return list({s.title: s for s in picked[:width] + best}.values())
