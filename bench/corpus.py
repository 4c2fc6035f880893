"""Corpus index at scale: writes a corpus of N articles (default 100,000 of ~10 KB, ≈1 GB) cut from
real text (Macbeth and this machine's man pages), each with a title, author, date and sometimes a
reference to another article, one of them holding a rare sentence. Then measures the build
(metadata by rules, no model), then the full-text index (which build_index builds next, and
the first search would otherwise), and in a fresh process that opens the stored index:
rank_documents top 10, search_by_keyword, grep_corpus of the rare literal, and `update` after
changing 10 files with a (scripted) sub-model reading metadata, counting its calls. The table goes
to docs/bench-corpus.md.

    python bench/corpus.py [--docs 100000] [--dir bench/data/corpus] [--fresh]
"""

from __future__ import annotations

import argparse
import gzip
import random
import re
import statistics
import time
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from pages import write_page
from single_doc import peak_mb, remove, timed

from longread.api import MultiDocRLM
from longread.index.corpus import CorpusIndex
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.store.corpus_store import CorpusStore
from longread.tools.corpus import CorpusTools

ROOT = Path(__file__).resolve().parents[1]
NEEDLE = "The quokka-zeppelin treaty was signed under a violet moon."
ARTICLE_CHARS = 10_000
RANK_QUERIES = [
    "dagger before me",
    "Birnam wood Dunsinane",
    "network interface configuration file",
    "compress archive directory recursively",
    "kernel module parameters",
    "terminal colors",
    "sleep no more",
    "password expiry shadow",
    "quokka zeppelin treaty",
    "print usage and exit",
]
_ROFF = re.compile(r"\\f[BIRP]|\\\(..|\\[-&e]|\\s[-+]?\d")


def text_pool(limit_chars: int = 60_000_000) -> list[str]:
    """Paragraphs of real text: Macbeth's and those of the man pages installed here."""
    play = (ROOT / "examples" / "macbeth.md").read_text(encoding="utf-8")
    paragraphs = [p.strip() for p in play.split("\n\n") if len(p.strip()) > 80]
    total = 0
    for page in sorted(Path("/usr/share/man").glob("man[1-8]/*.gz")):
        try:
            roff = gzip.decompress(page.read_bytes()).decode("utf-8", "replace")
        except (OSError, EOFError):
            continue
        lines = [_ROFF.sub("", line) for line in roff.splitlines() if line and line[0] not in ".'"]
        for paragraph in "\n".join(lines).split("\n\n"):
            if len(paragraph) > 120:
                paragraphs.append(paragraph.strip())
                total += len(paragraph)
        if total > limit_chars:
            break
    return paragraphs


def write_corpus(folder: Path, docs: int) -> int:
    """Write `docs` articles in folders of 1,000; returns the bytes written."""
    chance = random.Random(7)
    pool = text_pool()
    authors = [
        "Ingrid Vale",
        "Tomas Reyes",
        "Amara Okafor",
        "Lena Fischer",
        "Kenji Mori",
        "Sofia Rossi",
    ]
    needle_at = int(docs * 0.6)
    size = 0
    for n in range(docs):
        title = " ".join(chance.choice(pool).split()[:6]).strip(".,;:")
        parts = [
            f"# Article {n}: {title}",
            f"By {chance.choice(authors)}",
            f"{chance.randrange(2000, 2025)}-{chance.randrange(1, 13):02d}-"
            f"{chance.randrange(1, 29):02d}",
        ]
        if n % 10 == 0:
            parts.append(f"See article-{chance.randrange(docs):06d}.txt for background.")
        length = sum(map(len, parts))
        while length < ARTICLE_CHARS:
            parts.append(chance.choice(pool)[: ARTICLE_CHARS - length])
            length += len(parts[-1]) + 2
        if n == needle_at:
            parts.insert(len(parts) // 2, NEEDLE)
        path = folder / f"{n // 1000:03d}" / f"article-{n:06d}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        data = "\n\n".join(parts).encode("utf-8")
        path.write_bytes(data)
        size += len(data)
    return size


def query_process(folder: Path, db: Path) -> dict[str, Any]:
    """In a fresh process: open the stored index and time the searches."""
    opened, tools = timed(
        lambda: CorpusTools(CorpusIndex(folder, CorpusStore(db)), ScriptedLM([]), Gateway())
    )
    counts: dict[str, int] = {}
    for term, _ in tools.store.search.term_postings("keyword"):
        counts[term] = counts.get(term, 0) + 1
    chance = random.Random(1)
    keywords = chance.sample(sorted(counts), 50)
    tools.rank_documents("warm up", top_k=10)
    ranks = [timed(tools._rank_words, query, 10)[0] for query in RANK_QUERIES]  # uncached
    looks = [timed(tools.store.search.lookup, "keyword", k)[0] for k in keywords]
    found = [len(tools.store.search.lookup("keyword", k)) for k in keywords]
    grep, hits = timed(tools.grep_corpus, "quokka-zeppelin")
    links = [
        timed(tools.index.links, doc_id)[0] for doc_id in chance.sample(tools.list_documents(), 5)
    ]
    return {
        "open": opened,
        "rank": statistics.median(ranks),
        "rank_max": max(ranks),
        "lookup": statistics.median(looks),
        "lookup_max": max(looks),
        "lookup_docs": statistics.median(found),
        "lookup_docs_max": max(found),
        "grep": grep,
        "grep_docs": len(hits),
        "links": statistics.median(links),
        "peak_mb": peak_mb(),
    }


def update_after_changes(folder: Path, db: Path, changed: int = 10) -> tuple[float, int, int]:
    """Change `changed` files, then update with a sub-model reading metadata: (seconds, changed
    documents found, sub-model calls)."""
    files = sorted(folder.glob("*/article-*.txt"))
    for path in random.Random(3).sample(files, changed):
        path.write_text(
            path.read_text(encoding="utf-8") + "\n\nAn added closing line.\n", encoding="utf-8"
        )
    sub = ScriptedLM(
        lambda r: (
            '{"title": "", "summary": "", "keywords": [], "entities": [], "doc_type": "article"}'
        )
    )
    rlm = MultiDocRLM(folder, sub, sub, store_path=db, cache=False)
    rlm.index.store.db.execute("UPDATE corpus_docs SET meta = json_set(meta, '$.source', 'bench')")
    rlm.index.store.db.commit()  # only the changed documents are left for the model to read
    seconds, report = timed(rlm.build_index)
    return seconds, len(report.changed), len(sub.requests)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--dir", type=Path, default=ROOT / "bench" / "data")
    parser.add_argument("--fresh", action="store_true", help="write the corpus again")
    parser.add_argument(
        "--queries-only", action="store_true", help="reuse the index the last run built"
    )
    args = parser.parse_args()
    folder, db = args.dir / f"corpus-{args.docs}", args.dir / f"corpus-{args.docs}.sqlite"
    if args.fresh or not folder.exists():
        written, size = timed(write_corpus, folder, args.docs)
        print(f"wrote {args.docs:,} articles ({size / 1e6:,.0f} MB) in {written:.0f} s")
    size = sum(p.stat().st_size for p in folder.glob("*/*.txt"))
    if not args.queries_only:
        remove(db)
    with get_context("spawn").Pool(1) as pool:  # started before the build, so its memory is its own
        index = CorpusIndex(folder, CorpusStore(db))
        started = time.perf_counter()
        build, report = timed(index.update)
        docs = len(report.added) or index.totals()[0]
        full_text, _ = timed(index.index_full_text)  # what build_index does next
        build_peak = peak_mb()
        index.store.close()
        q = pool.apply(query_process, (folder, db))
    update, changed, calls = update_after_changes(folder, db)
    total = time.perf_counter() - started
    built = (
        "reused, update found nothing to do"
        if args.queries_only
        else f"{docs / build:,.0f} docs/s ({build:.0f} s, {size / 1e6 / build:.0f} MB/s)"
    )
    database = sum(p.stat().st_size for p in db.parent.glob(db.name + "*"))
    report = [
        f"{docs:,} documents, {size / 1e6:,.0f} MB; database {database / 1e6:,.0f} MB; the query "
        f"process opened the index in {q['open']:.2f} s; all of it took {total:.0f} s.",
        "",
        "| measure | result | target |",
        "|---|---|---|",
        "| build: read files, rule metadata, store text and inverted indexes | "
        f"{built} | ≥ 2,000 docs/s |",
    ]
    if not args.queries_only:
        report.append(
            f"| then the full-text index (build_index builds it next) | {full_text:.0f} s "
            f"({docs / full_text:,.0f} docs/s); "
            f"with the build {docs / (build + full_text):,.0f} docs/s | — |"
        )
    report += [
        f"| rank_documents top 10, median of {len(RANK_QUERIES)} queries (slowest) | "
        f"{q['rank'] * 1e3:.1f} ms ({q['rank_max'] * 1e3:.1f} ms) | ≤ 50 ms |",
        f"| search_by_keyword, median of 50 keywords (slowest) | {q['lookup'] * 1e3:.2f} ms "
        f"({q['lookup_max'] * 1e3:.2f} ms; median {q['lookup_docs']:.0f}, "
        f"most {q['lookup_docs_max']:,} docs) | ≤ 5 ms |",
        f"| grep_corpus, rare literal ({q['grep_docs']} document) | {q['grep']:.1f} s | ≤ 10 s |",
        f"| get_links of a document, median of 5 | {q['links']:.2f} s | — |",
        "| update after changing 10 files: documents re-indexed, sub-model calls | "
        f"{changed}, {calls} ({update:.1f} s) | 10, 10 |",
        "| peak memory: build process, query process | "
        f"{build_peak:,.0f} MB, {q['peak_mb']:,.0f} MB | — |",
    ]
    write_page("corpus", "Corpus index at scale", "\n".join(report))


if __name__ == "__main__":
    main()
