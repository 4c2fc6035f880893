"""Smart chunking and summary-tree cost on a real text: the input tokens sent while chunking against
the document's own tokens (counted with the model's tokenizer), how the chunks were cut, and the
tree's calls and tokens per MB. Runs a fresh store and no response cache, so every call is paid.
The table goes to the document and model's section of docs/bench-smart-chunking.md.

    python bench/smart_chunking.py [--file examples/macbeth.md] [--model local] [--chunk-tokens N]
        [--group-size 5]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from pathlib import Path

from pages import write_page

from longread.index.enrich.smart_chunks import SmartChunker
from longread.index.enrich.summary_tree import build_tree
from longread.index.single import SingleDocIndex
from longread.llm.gateway import Gateway
from longread.llm.specs import resolve_model
from longread.store.docstore import DocStore

ROOT = Path(__file__).resolve().parents[1]


def measure(
    path: Path, model: str, chunk_tokens: int | None, group_size: int
) -> dict[str, float | int | str]:
    lm = resolve_model(model)
    with tempfile.TemporaryDirectory() as folder:
        index = SingleDocIndex.build(path, DocStore(Path(folder) / "bench.sqlite"))
        text = index.read_range(0, index.total_chars)
        doc_tokens = lm.count_tokens(text)
        chunking, tree = Gateway(), Gateway()
        started = time.perf_counter()
        report = SmartChunker(
            index.store,
            index.store_id,
            lm,
            chunking,
            doc_type=index.doc_type,
            target_chunk_tokens=chunk_tokens,
        ).run()
        chunk_seconds = time.perf_counter() - started
        started = time.perf_counter()
        root = build_tree(
            index.store, index.store_id, lm, tree, doc_type=index.doc_type, group_size=group_size
        )
        tree_seconds = time.perf_counter() - started
    megabytes = len(text.encode("utf-8")) / 1e6
    sent = chunking.usage.total("input_tokens")
    return {
        "document": path.name,
        "model": lm.name,
        "MB": round(megabytes, 3),
        "document tokens": doc_tokens,
        "chunks": report.chunks,
        "cut by the model": report.model_cuts,
        "cut by the rule": report.rule_cuts,
        "answers refused": len(report.refused),
        "why refused": "; ".join(
            f"{n}× {why}" for why, n in Counter(r.split(" ")[0] for r in report.refused).items()
        ),
        "chunking input tokens": sent,
        "input / document tokens": round(sent / doc_tokens, 3),
        "chunking output tokens": chunking.usage.total("output_tokens"),
        "chunking seconds": round(chunk_seconds, 1),
        "tree levels": root.level + 1 if root else 0,
        "tree calls": tree.usage.calls,
        "tree calls per MB": round(tree.usage.calls / megabytes, 1),
        "tree tokens per MB": round(tree.usage.tokens / megabytes),
        "tree seconds": round(tree_seconds, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", type=Path, default=ROOT / "examples" / "macbeth.md")
    parser.add_argument("--model", default="local")
    parser.add_argument("--chunk-tokens", type=int, default=None)
    parser.add_argument("--group-size", type=int, default=5)
    args = parser.parse_args()
    row = measure(args.file, args.model, args.chunk_tokens, args.group_size)
    lines = ["| measure | value |", "|---|---|"]
    for key, value in row.items():
        lines.append(f"| {key} | {f'{value:,}' if isinstance(value, int) else value} |")
    write_page(
        "smart-chunking",
        "Smart chunking and the summary tree",
        "\n".join(lines),
        section=f"{args.file.name}, {args.model}",
    )


if __name__ == "__main__":
    main()
