"""`longread index FILE`, `longread toc FILE` and `longread tree FILE`."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from longread.cli.app import app
from longread.cli.corpus import EXECUTOR, LLM_META, RATE, SHARDS, update_corpus
from longread.cli.display import console, err_console, print_estimates, progress_bars
from longread.cli.run_options import VISION_MODEL
from longread.errors import InputError
from longread.text.terminal import escaped_name


@app.command()
def index(
    file: Path = typer.Argument(
        ..., help="A PDF, DOCX, HTML, markdown or text file, or a folder of them."
    ),
    sub_model: str | None = typer.Option(None, help="Model that writes the section summaries."),
    vision_model: str | None = VISION_MODEL,
    rebuild: bool = typer.Option(
        False, "--rebuild", help="Drop the stored index and build it again."
    ),
    summaries: bool | None = typer.Option(
        None,
        "--summaries/--no-summaries",
        help="Summarize sections and build the summary tree (default: yes, unless the sub-model "
        "is a small local one, whose summaries take minutes and are not reliable).",
    ),
    smart_chunks: bool = typer.Option(
        False,
        "--smart-chunks",
        help="Build the tree over LLM-cut chunks even where there are headings.",
    ),
    chunk_tokens: int | None = typer.Option(
        None,
        help="Smart chunker's buffer in tokens (default 1,000 for a small model, 3,000 otherwise).",
    ),
    group_size: int = typer.Option(5, help="Summaries grouped under each node of the tree."),
    llm_meta: bool | None = LLM_META,
    executor: str | None = EXECUTOR,
    shards: int | None = SHARDS,
    rate: float | None = RATE,
    dry_run: bool = typer.Option(
        False,
        "--dry-run",
        help="Make no model call: build the structure, then print what the summaries and the "
        "tree would cost (calls, tokens, dollars, seconds).",
    ),
) -> None:
    """Index FILE: structure, sections, full-text search, summaries and the summary tree
    (resumable). A document without headings is cut into sections by the smart chunker. Index a
    folder: every document's text, metadata, full-text search, inverted indexes and links."""
    if file.is_dir():
        if dry_run:
            raise InputError("--dry-run estimates one file's summaries; not a folder's metadata")
        return update_corpus(file, sub_model, llm_meta, executor, shards, rate, rebuild)
    from longread.api import SingleDocRLM, TreeOptions
    from longread.llm.gateway import Gateway

    rlm = SingleDocRLM(file, sub_model=sub_model, vision_model=vision_model)
    if rebuild:
        rlm.drop_index()
    options = TreeOptions(smart_chunks, chunk_tokens, group_size)
    if dry_run:
        return print_estimates([rlm.estimate_index(options)], as_json=False)
    skipped = summaries is None and rlm.sub.on_cpu  # (a small local model's are not reliable)
    summaries = summaries if summaries is not None else not skipped
    gateway = Gateway(cache=rlm.cache)
    with progress_bars() as advance:
        built = rlm.build_index(summaries, on_event=advance, gateway=gateway, tree=options)
    console.print(
        f"{escaped_name(file.name)}: {built.doc_type}, {built.total_chars:,} characters, "
        f"{len(built.rows):,} sections → {built.store.path}",
        highlight=False,
    )
    if skipped:
        err_console.print(
            f"summaries: not built ({escape(rlm.sub.name)} runs on this CPU: its summaries take "
            "minutes and are not reliable; --summaries builds them)",
            highlight=False,
        )
    if summaries:
        nodes = built.store.summaries.nodes(built.store_id)
        chunks = built.store.summaries.chunks(built.store_id)
        cut_by_model = sum(c.cut_by == "model" for c in chunks)
        console.print(
            f"summaries: {len(built.summaries)} of {len(built.rows)} sections"
            + (f" · {len(chunks)} smart chunks ({cut_by_model} cut by the model)" if chunks else "")
            + f" · tree: {len(nodes)} nodes, {max((n.level for n in nodes), default=-1) + 1} levels"
            f" · {gateway.usage.summary()}",
            highlight=False,
        )


@app.command()
def toc(file: Path = typer.Argument(..., help="The document.")) -> None:
    """Print FILE's table of contents (building its index without summaries if needed)."""
    from longread.api import SingleDocRLM

    built = SingleDocRLM(file).index  # models are resolved only when used: none is here
    summaries = built.summaries
    for row in built.rows:
        name = row.name
        line = f"{'  ' * (row.level - 1)}{name}  [dim][{row.start:,}:{row.end:,})[/]"
        console.print(line, highlight=False)
        if name in summaries:
            console.print(f"{'  ' * row.level}[dim]{summaries[name][:160]}[/]", highlight=False)


@app.command()
def tree(
    file: Path = typer.Argument(..., help="The document."),
    depth: int | None = typer.Option(None, help="Levels to show below the root (default: all)."),
) -> None:
    """Print FILE's summary tree, root first, each node indented under its parent."""
    from longread.api import SingleDocRLM
    from longread.index.summary_tree import SummaryTree
    from longread.tools.tree_nav import NO_TREE

    built = SingleDocRLM(file).index
    summary_tree = SummaryTree.load(built.store, built.store_id)
    if summary_tree is None:
        raise InputError(NO_TREE.replace("FILE", str(file)))
    stack = [(summary_tree.root, 0)]
    while stack:
        node, below = stack.pop()
        line = " ".join(node.summary.split())
        console.print(
            f"{'  ' * below}level {node.level} [{node.start:,}:{node.end:,})  "
            f"[dim]{escape(line[:200])}[/]",
            highlight=False,
            soft_wrap=True,
        )
        if depth is None or below < depth:
            stack.extend((child, below + 1) for child in reversed(summary_tree.children[node.id]))
