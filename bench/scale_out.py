"""Scale-out: one corpus (default 200,000 articles of ~2 KB cut from real text, see corpus.py)
indexed as one database by the default build, then as N shards built by this machine's processes
and by Ray tasks (a local Ray started by the run, its start counted; or the cluster RAY_ADDRESS
names). For each: build docs/s (files read, stored and full-text indexed), rank_documents top 10
(median of the queries, the index opened afresh) and grep_corpus of a rare literal. Checks that
every layout ranks the queries alike. The table goes to docs/bench-scale-out.md.

    python bench/scale_out.py [--docs 200000] [--chars 2000] [--shards 4] [--dir bench/data]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import time
from pathlib import Path

import corpus as corpus_bench
from corpus import RANK_QUERIES, write_corpus
from pages import write_page
from single_doc import peak_mb, remove, timed

from longread.executor import Executor, LocalExecutor, make_executor
from longread.index.corpus import CorpusIndex
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.store.manifest import shards_folder
from longread.store.open_corpus import open_corpus_store
from longread.tools.corpus import CorpusTools

ROOT = Path(__file__).resolve().parents[1]


def build(folder: Path, db: Path, shards: int | None, executor: str | None) -> float:
    """Seconds to index the folder from nothing in this layout (Ray's start included)."""
    remove(db)
    shutil.rmtree(shards_folder(db), ignore_errors=True)
    started = time.perf_counter()
    runner: Executor = make_executor(executor) if executor else LocalExecutor()
    with runner:
        index = CorpusIndex(folder, open_corpus_store(db, shards))
        index.update(executor=runner)
        index.index_full_text()
    index.store.close()
    return time.perf_counter() - started


def queries(folder: Path, db: Path) -> tuple[list[float], float, list[list[str]]]:
    """(rank seconds per query, grep seconds, the ranked ids) on the index opened afresh."""
    tools = CorpusTools(CorpusIndex(folder, open_corpus_store(db)), ScriptedLM([]), Gateway())
    tools.rank_documents("warm up", top_k=10)
    ranks, ranked = [], []
    for query in RANK_QUERIES:
        seconds, hits = timed(tools._rank_words, query, 10)  # (uncached)
        ranks.append(seconds)
        ranked.append([doc_id for doc_id, _ in hits])
    grep, _ = timed(tools.grep_corpus, "quokka-zeppelin")
    tools.index.store.close()
    return ranks, grep, ranked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=200_000)
    parser.add_argument("--chars", type=int, default=2_000, help="characters an article has")
    parser.add_argument("--shards", type=int, default=4)
    parser.add_argument("--dir", type=Path, default=ROOT / "bench" / "data")
    args = parser.parse_args()
    corpus_bench.ARTICLE_CHARS = args.chars
    folder = args.dir / f"scale-{args.docs}-{args.chars}"
    if not folder.exists():
        written, size = timed(write_corpus, folder, args.docs)
        print(f"wrote {args.docs:,} articles ({size / 1e6:,.0f} MB) in {written:.0f} s")
    size = sum(p.stat().st_size for p in folder.glob("*/*.txt"))
    layouts = [(None, None), (args.shards, "local"), (args.shards, "ray")]
    rows, rankings = [], []
    for shards, executor in layouts:
        db = args.dir / f"scale-{shards or 1}-{executor or 'default'}.sqlite"
        seconds = build(folder, db, shards, executor)
        ranks, grep, ranked = queries(folder, db)
        rankings.append(ranked)
        rows.append((shards or 1, executor or "local (default build)", seconds, ranks, grep))
    report = [
        f"{args.docs:,} documents, {size / 1e6:,.0f} MB.",
        "",
        "| documents | shards | executor | build docs/s (s) | rank top 10 median ms (max) "
        "| grep s |",
        "|---|---|---|---|---|---|",
    ]
    for shards, executor, seconds, ranks, grep in rows:
        report.append(
            f"| {args.docs:,} | {shards} | {executor} | {args.docs / seconds:,.0f} ({seconds:.0f}) "
            f"| {statistics.median(ranks) * 1e3:.1f} ({max(ranks) * 1e3:.1f}) | {grep:.1f} |"
        )
    default, on_ray = rows[0][2], rows[-1][2]
    report += [
        "",
        f"{args.shards} shards on Ray build at {default / on_ray:.2f}x the default build's speed "
        f"(target ≥ 0.7); every layout ranks alike: {all(r == rankings[0] for r in rankings)}; "
        f"peak memory {peak_mb():,.0f} MB.",
    ]
    write_page("scale-out", "Scale-out: one database or shards, local or on Ray", "\n".join(report))


if __name__ == "__main__":
    main()
