"""Single-document index at scale: builds a large document by repeating a real public-domain text
(Macbeth, with its act and scene headings renumbered per copy), then measures structure detection +
index build (no summaries), grep_all of a rare literal, read_range of 10 KB, and peak memory.

    python bench/single_doc.py [--mb 400] [--dir /tmp/longread-bench]
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time
from pathlib import Path

from longread.index.single import SingleDocIndex
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.store.docstore import DocStore
from longread.tools.single_doc import SingleDocTools

ROOT = Path(__file__).resolve().parents[1]
NEEDLE = "The zanzibar-quokka clause applies to every third harvest."


def write_document(path: Path, megabytes: int) -> int:
    """Write about `megabytes` MB: copies of the play as `# Copy N` parts, one needle at 60%."""
    play = (ROOT / "examples" / "macbeth.md").read_text(encoding="utf-8").replace("# Macbeth", "## Macbeth", 1)
    copies = max(1, megabytes * 1_000_000 // len(play))
    with path.open("w", encoding="utf-8") as out:
        for n in range(copies):
            out.write(f"# Copy {n + 1}\n\n{play}\n")
            if n == int(copies * 0.6):
                out.write(f"\n{NEEDLE}\n\n")
    return path.stat().st_size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=400)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/longread-bench"))
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    doc, db = args.dir / f"macbeth-x{args.mb}MB.md", args.dir / f"index-{args.mb}.sqlite"
    db.unlink(missing_ok=True)
    size = write_document(doc, args.mb)

    started = time.perf_counter()
    index = SingleDocIndex.build(doc, DocStore(db))
    build = time.perf_counter() - started
    tools = SingleDocTools(index, ScriptedLM([]), Gateway())

    started = time.perf_counter()
    hits = tools.grep_all("zanzibar-quokka")
    grep = time.perf_counter() - started
    reads = []
    for _ in range(200):
        start = random.randrange(index.total_chars - 10_000)
        t = time.perf_counter()
        tools.read_range(start, start + 10_000)
        reads.append(time.perf_counter() - t)
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(f"\n{size / 1e6:,.0f} MB document, {len(index.rows):,} sections\n")
    print("| measure | result | target |")
    print("|---|---|---|")
    print(f"| structure + index build, no summaries | {size / 1e6 / build:,.0f} MB/s ({build:.1f} s) | ≥ 50 MB/s |")
    print(f"| grep_all, rare literal ({sum(map(len, hits.values()))} hit) | {grep:.2f} s | ≤ 2 s |")
    print(f"| read_range 10 KB, median of 200 | {statistics.median(reads) * 1e3:.2f} ms | ≤ 5 ms |")
    print(f"| peak memory of this process | {peak_mb:,.0f} MB | ≤ 1.5 GB (query process) |")


if __name__ == "__main__":
    main()
