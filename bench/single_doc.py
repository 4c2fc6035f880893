"""Single-document index at scale: builds a large document from copies of a real public-domain text
(Macbeth, each copy under its own `# Copy N` heading, one rare sentence at 60%), then measures
structure detection + index build (no summaries) and, in a fresh query process that opens the built
index, grep_all of the rare literal, read_range of 10 KB, the full-text index built by the first
search, search latency afterwards, and the peak memory of both processes. The table goes to
docs/bench-single-doc.md.

    python bench/single_doc.py [--mb 400] [--dir /tmp/longread-bench] [--keep]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time
from collections.abc import Callable
from multiprocessing import get_context
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from pages import write_page

from longread.index.single import SingleDocIndex
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.store.docstore import DocStore
from longread.tools.single_doc import SingleDocTools

ROOT = Path(__file__).resolve().parents[1]
NEEDLE = "The zanzibar-quokka clause applies to every third harvest."
SEARCHES = [
    "dagger before me",
    "Birnam wood Dunsinane",
    "witches thunder lightning",
    "sleep no more",
    "zanzibar quokka harvest",
]


def write_document(path: Path, megabytes: int, needle: str = NEEDLE) -> int:
    """Write about `megabytes` MB: copies of the play as `# Copy N` parts, `needle` at 60%."""
    play = (
        (ROOT / "examples" / "macbeth.md")
        .read_text(encoding="utf-8")
        .replace("# Macbeth", "## Macbeth", 1)
    )
    copies = max(1, megabytes * 1_000_000 // len(play))
    with path.open("w", encoding="utf-8") as out:
        for n in range(copies):
            out.write(f"# Copy {n + 1}\n\n{play}\n")
            if n == int(copies * 0.6):
                out.write(f"\n{needle}\n\n")
    return path.stat().st_size


def peak_mb() -> float:
    """This process's peak resident memory in MB (ru_maxrss is in KB on Linux)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(call: Callable[..., Any], *args: Any) -> tuple[float, Any]:
    """(seconds, result) of one call."""
    started = time.perf_counter()
    result = call(*args)
    return time.perf_counter() - started, result


def query_process(db: Path, doc_id: int) -> dict[str, Any]:
    """Run in a fresh process: open the built index as a query would, time the tools, and report
    this process's peak memory."""
    opened, tools = timed(
        lambda: SingleDocTools(SingleDocIndex.open(DocStore(db), doc_id), ScriptedLM([]), Gateway())
    )
    grep, hits = timed(tools.grep_all, "zanzibar-quokka")
    chance = random.Random(0)
    starts = [chance.randrange(tools.index.total_chars - 10_000) for _ in range(200)]
    reads = [timed(tools.read_range, start, start + 10_000)[0] for start in starts]
    first_search, _ = timed(tools.search, SEARCHES[0])
    searches = [timed(tools.search, query)[0] for query in SEARCHES]
    return {
        "open": opened,
        "grep": grep,
        "hits": sum(map(len, hits.values())),
        "read": statistics.median(reads),
        "first_search": first_search,
        "search": statistics.median(searches),
        "search_max": max(searches),
        "peak_mb": peak_mb(),
    }


def remove(*paths: Path) -> None:
    """Delete the files, with a database's -wal and -shm companions."""
    for path in paths:
        for companion in path.parent.glob(path.name + "*"):
            companion.unlink()


def serve_query(pipe: Connection) -> None:
    """In the query process: answer one (index, document) sent down `pipe` with its figures."""
    pipe.send(query_process(*pipe.recv()))


def main() -> None:

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=400)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/longread-bench"))
    parser.add_argument("--keep", action="store_true", help="keep the document and index files")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    doc, db = args.dir / f"macbeth-x{args.mb}MB.md", args.dir / f"index-{args.mb}.sqlite"
    remove(db)
    size = write_document(doc, args.mb)
    # The query process starts before the build (a child's peak memory counts the parent's at the
    # fork), and waits on a pipe: no thread runs beside the build, which may then fork.
    context = get_context("spawn")
    ours, theirs = context.Pipe()
    querier = context.Process(target=serve_query, args=(theirs,))
    querier.start()
    try:
        build, index = timed(SingleDocIndex.build, doc, DocStore(db))
        build_peak, sections, doc_id = peak_mb(), len(index.rows), index.store_id
        built_fts = "yes" if index.store.search.built(doc_id) else "no"
        index.store.close()
        ours.send((db, doc_id))
        q = ours.recv()
    finally:
        querier.kill()
        querier.join()
        if not args.keep:
            remove(doc, db)

    report = [
        f"{size / 1e6:,.0f} MB document, {sections:,} sections; the query process opened the index "
        f"in {q['open']:.2f} s.",
        "",
        "| measure | result | target |",
        "|---|---|---|",
        "| structure + index build, no summaries | "
        f"{size / 1e6 / build:,.0f} MB/s ({build:.1f} s) | ≥ 50 MB/s |",
        f"| first search (the full-text index was built with the rest: {built_fts}) | "
        f"{q['first_search']:.2f} s | — |",
        f"| grep_all, rare literal ({q['hits']} hit) | {q['grep']:.2f} s | ≤ 2 s |",
        f"| read_range 10 KB, median of 200 | {q['read'] * 1e3:.2f} ms | ≤ 5 ms |",
        f"| search() top 5 after that, median of {len(SEARCHES)} (slowest) | "
        f"{q['search'] * 1e3:.0f} ms ({q['search_max'] * 1e3:.0f} ms) | — |",
        f"| peak memory of the query process | {q['peak_mb']:,.0f} MB | ≤ 1.5 GB |",
        f"| peak memory of the build process | {build_peak:,.0f} MB | — |",
    ]
    write_page("single-doc", "Single-document index at scale", "\n".join(report))


if __name__ == "__main__":
    main()
