"""The functions the root model calls from the REPL over a generic context (str, dict or list):
slice-aware sub-LLM queries (single, batched, recursive), slices, grep and the shared hypothesis.
They run on the host: the worker only holds proxies."""

from __future__ import annotations

from functools import cached_property
from typing import Any

from longread import deadline
from longread.answer import Citation, slice_citation
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.usage import Purpose
from longread.query.core.catalog import Catalog, kept_with, texts_catalog
from longread.text.cut import truncate_middle
from longread.text.grep import hit_limit
from longread.text.grounding import grounded_span
from longread.text.patterns import compile_search
from longread.text.rank import BM25, search_words
from longread.text.slices import ContextSlicer
from longread.tools.bounds import QUERY_CHARS, bounded_batch, fit_chars, short_text
from longread.tools.hypothesis import HypothesisTracker
from longread.tools.toolset import Brief, Toolset

PASSAGE_CHARS = 600
MAX_SNIPPET_SIDE = 2_000  # grep's context_chars, at most
INTRO = (
    "You answer a question about a context that is too large to read at once.\n"
    "It is stored in a Python REPL as the variable `context` "
    "({kind}, {size:,} characters, {slices} slices)."
)
GUIDE = """Example of two turns:
```repl
hits = search("project deadline date", k=3)
print(hits)
```
```repl
answer = llm_query("When is the deadline? Answer in one sentence.", slice_id=hits[0]["slice_id"])
FINAL(answer)
```
Use Python (grep, slicing, counting) for exact lookups and llm_query on slices for meaning.
The context starts with:
{preview}"""
FIRST_STEP = """for hit in search({query!r}, k=3):
    print(hit["slice_id"], hit["start"], hit["text"])"""


class ContextTools(Toolset):
    """Tools over one in-memory context (str, dict or list), cut into slices."""

    TOOL_NAMES = (
        "list_slices",
        "get_slice_info",
        "read_slice",
        "grep",
        "search",
    )
    LOOKING = frozenset(TOOL_NAMES)
    REFS = "a slice id, or by default the whole context"
    CONTEXT_DOC = "the context itself (str, dict or list)"
    LAZY_CONTEXT = False

    def __init__(
        self,
        slicer: ContextSlicer,
        sub: LM,
        gateway: Gateway,
        hypothesis: HypothesisTracker | None = None,
        *,
        context: Any = None,
        doc_id: str = "context",
    ):
        super().__init__(sub, gateway, hypothesis)
        self.slicer = slicer
        self.context = context
        self.doc_id = doc_id
        self._passages: list[dict] | None = None
        self._index: BM25 | None = None

    @cached_property
    def _text(self) -> str:
        """The context as text (a list or dict as Python writes it)."""
        return self.context if isinstance(self.context, str) else repr(self.context)

    def make_catalog(self) -> Catalog:
        return kept_with(self, lambda: texts_catalog([(self.doc_id, self._text)]))

    def read_context(self, start: int, end: int) -> str:
        return self._text[max(0, int(start)) : int(end)]

    def context_length(self) -> int:
        return len(self._text)

    def brief(self, question: str) -> Brief:
        text = self._text
        kind = type(self.context).__name__
        if isinstance(self.context, (list, dict)):
            kind += f" of {len(self.context)} items"
        preview = text[:300].replace("```", "'''") + ("…" if len(text) > 300 else "")
        return Brief(
            INTRO.format(kind=kind, size=len(text), slices=len(self.slicer)),
            GUIDE.format(preview=preview),
            FIRST_STEP.format(query=search_words(question)),
            context=self.context,
        )

    def cite(self, answer: str, question: str, limit: int = 3) -> list[Citation]:
        """Passages where the answer's words stand together near the question's."""
        citations = []
        for hit in self.search(answer, k=10):
            span = grounded_span(answer, hit["text"], question)
            if span is None:
                continue
            piece = self.slicer.get_slice(hit["slice_id"])
            start = hit["start"] + span[0]
            citations.append(slice_citation(piece, start, start + span[1] - span[0], self.doc_id))
            if len(citations) == limit:
                break
        return citations

    def _prompt(self, prompt: str, slice_id: str | None) -> str:
        if slice_id is None:
            if len(prompt) < 1_000 and len(self.slicer):
                self.notices.append(
                    "Note: llm_query without slice_id does not see the context. Pass "
                    "slice_id=... (see list_slices() or grep()) or put text in the prompt."
                )
            return truncate_middle(str(prompt), fit_chars(self.sub))
        self.touched = True  # the slice's text is served, through the sub-model
        text = truncate_middle(self.read_slice(slice_id), fit_chars(self.sub, 1500))
        return f'Context ({slice_id}):\n"""\n{text}\n"""\n\n{short_text(prompt)}'

    def llm_query(self, prompt: str, slice_id: str | None = None) -> str:
        """Ask the sub-model; with slice_id, that slice's text is put before the prompt."""
        return self.gateway.complete(
            self.sub, self._prompt(prompt, slice_id), purpose=Purpose.SUBCALL, label=slice_id
        ).text

    def resolve(self, text_or_ref: Any) -> Any:
        """The whole context for None, a slice's text for its id, else the value itself."""
        if text_or_ref is None:
            return self.context
        if isinstance(text_or_ref, str) and text_or_ref in self.slicer:
            return self.read_slice(text_or_ref)
        return text_or_ref

    def llm_query_batched(
        self, prompts: list[str], slice_ids: list[str | None] | None = None
    ) -> list[str]:
        """Several llm_query calls at once (each with its slice, if given); the answers in order,
        a failed call's error in its place."""
        prompts = bounded_batch(prompts, "prompts")
        ids = list(slice_ids) if slice_ids is not None else [None] * len(prompts)
        if len(ids) != len(prompts):
            raise ValueError("slice_ids must have one entry per prompt")
        return self._each(self.llm_query, list(zip(prompts, ids, strict=True)))

    def list_slices(self) -> list[str]:
        """The ids of the context's slices, in order."""
        return self.slicer.list_slices()

    def get_slice_info(self) -> list[dict]:
        """Id, type, size, preview and metadata of every slice."""
        return self.slicer.get_slice_info()

    def read_slice(self, slice_id: str) -> str:
        """The full text of one slice."""
        return self.slicer.get_slice(slice_id).text()

    def grep(self, pattern: str, context_chars: int = 80, max_hits: int = 50) -> list[dict]:
        """Regex search (case-insensitive) over every slice: slice_id, start, match, snippet."""
        regex = compile_search(pattern)
        context_chars, max_hits = (
            max(0, min(int(context_chars), MAX_SNIPPET_SIDE)),
            hit_limit(max_hits),
        )
        hits: list[dict] = []
        for piece in self.slicer:
            deadline.check()
            text = piece.text()
            for start, end, match in regex.finditer(text):
                snippet = text[max(0, start - context_chars) : end + context_chars]
                hits.append(
                    {"slice_id": piece.slice_id, "start": start, "match": match, "snippet": snippet}
                )
                if len(hits) >= max_hits:
                    return hits
        return hits

    def search(self, query: str, k: int = 5) -> list[dict]:
        """The k passages (about 600 characters) most relevant to `query` by BM25, best first:
        slice_id, start (offset in the slice), score, text."""
        if self._passages is None or self._index is None:
            self._passages = [
                {"slice_id": piece.slice_id, "start": part.metadata["start"], "text": part.content}
                for piece in self.slicer
                for part in ContextSlicer.auto_slice_context(
                    piece.text(), "chars", PASSAGE_CHARS
                ).values()
            ]
            self._index = BM25([p["text"] for p in self._passages])
        scores = self._index.scores(short_text(query, QUERY_CHARS))
        best = sorted(range(len(scores)), key=lambda i: scores[i], reverse=True)[: hit_limit(k)]
        return [{**self._passages[i], "score": round(scores[i], 3)} for i in best if scores[i] > 0]
