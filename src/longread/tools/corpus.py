"""The REPL functions over a corpus: navigation, search (inverted indexes, BM25 over the full text,
streamed grep), document and section reads (level 2 built on first use) and sub-model questions.
Search results and reads are cached."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cached_property, lru_cache
from itertools import islice
from typing import Any

from longread.answer import Citation
from longread.index.corpus import CorpusIndex
from longread.ingest.metadata import entity_key, find_dates, keyword_key
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.usage import Purpose
from longread.query.core.catalog import Catalog, corpus_catalog, kept_with
from longread.store.full_text import spelled
from longread.store.rows import own_spans
from longread.text.cut import truncate_middle
from longread.text.grep import MAX_HITS, candidate_documents, grep_blocks, hit_limit
from longread.text.grounding import grounded_span
from longread.text.offsets import JoinedTexts
from longread.text.patterns import SearchPattern, compile_search, index_terms
from longread.text.rank import densest_window, keywords, search_words
from longread.tools.bounds import (
    QUERY_CHARS,
    READ_LIMIT,
    bounded_batch,
    cached_reads,
    fit_chars,
    short_name,
    short_text,
)
from longread.tools.referencing import CorpusReferenceNavigation
from longread.tools.toolset import Brief, Toolset

SAMPLE_SUMMARIES = 20

INTRO = """You are analyzing a corpus of {total_docs:,} documents totaling {total_chars:,} characters.
Each document has metadata and can be explored in detail.

CORPUS INFO:
- Path: {path}
- Documents: {total_docs:,}
- Total size: {total_chars:,} characters

SAMPLE DOCUMENT SUMMARIES (first {shown}):
{summaries}"""  # noqa: E501
GUIDE = """STRATEGY:
1. First, use corpus-level search (rank_documents, search_by_keyword) to find relevant documents.
2. Rank or filter to top candidates.
3. Dive into specific documents for details (grep_document, read_doc_section, ask_about_document).
4. Use the sub-model for semantic extraction (ask_across_documents).
5. Aggregate findings across documents and call FINAL(answer), naming the documents it rests on.
Variables preset in the REPL: corpus_path, total_docs, total_chars, doc_ids, doc_summaries.

Example of two turns:
```repl
ranked = rank_documents({query!r}, top_k=3)
print(ranked)
```
```repl
answers = ask_across_documents({question!r}, [doc_id for doc_id, score, summary in ranked])
print(answers)
```
Then check the answers against the documents (grep_document) and call FINAL(answer)."""
FIRST_STEP = """for doc_id, score, summary in rank_documents({query!r}, top_k=5):
    print(doc_id, round(score, 2), summary[:120])"""
ASK = """Answer this question based on the document.

Question: {question}

Document {doc_id}:
{content}"""


class CorpusTools(CorpusReferenceNavigation, Toolset):
    """The corpus functions (plus search_by_date, get_links and the hypothesis tools)."""

    TOOL_NAMES = (
        "list_documents",
        "get_doc_meta",
        "get_doc_summary",
        "get_all_summaries",
        "search_by_keyword",
        "search_by_entity",
        "search_by_keywords",
        "search_by_date",
        "grep_corpus",
        "rank_documents",
        "get_links",
        "read_document",
        "read_document_chunk",
        "grep_document",
        "get_doc_toc",
        "get_doc_sections",
        "read_doc_section",
        "ask_about_document",
        "ask_across_documents",
        *CorpusReferenceNavigation.REFERENCE_TOOLS,
    )
    LOOKING = frozenset(TOOL_NAMES)
    REFS = "a document id"
    CONTEXT_DOC = (
        "every document in id order, one line apart, read-only and read lazily: "
        "len(context), context[a:b] (at most 1,000,000 characters at a time)"
    )

    def __init__(self, index: CorpusIndex, sub: LM, gateway: Gateway, cache_size: int = 128):
        super().__init__(sub, gateway)
        self.index = index
        self.store = index.store
        self._read = cached_reads(self._read_range, cache_size)
        self._lookup = lru_cache(maxsize=cache_size)(self.store.search.lookup)
        self._rank = lru_cache(maxsize=cache_size)(self._rank_words)
        self._links = lru_cache(maxsize=cache_size)(index.links)

    # -- helpers other modules use ---------------------------------------------------------
    def _read_range(self, doc_id: str, start: int, end: int) -> str:
        return self.store.documents.read_range(self.index.doc(doc_id).store_id, start, end)

    def _rank_words(self, query: str, k: int) -> list[tuple[str, float]]:
        return self.store.search.rank(spelled(keywords(query)) or spelled(query), k)

    def ranked(self, query: str, k: int) -> list[tuple[str, float]]:
        """(doc id, BM25 score) of the k documents best matching `query`."""
        return self._rank(short_text(query, QUERY_CHARS), hit_limit(k))

    def passages(self, doc_id: str, question: str, chars: int) -> list[tuple[int, int]]:
        """Spans of the document to read for `question`, about `chars` in all: the whole document
        if it fits, else the own text of the sections its full-text search ranks best (of one
        too long to read whole, the part around what holds most of the question's words)."""
        total = self.index.doc(doc_id).chars
        if total <= chars:
            return [(0, total)]
        level2 = self.index.document_index(doc_id)
        own = dict(zip((row.id for row in level2.rows), own_spans(level2.rows), strict=True))
        spans, used = [], 0
        for section_id, _ in level2.store.search.sections_matching(
            level2.store_id, keywords(question), 20
        ):
            start, end = own[section_id]
            room = chars - used
            if end - start > room:  # (a long section: where it holds most of the question)
                start += densest_window(self._read(doc_id, start, end), question, room)
            spans.append((start, min(end, start + room)))
            used += spans[-1][1] - start
            if used >= chars:
                break
        return sorted(spans) or [(0, chars)]

    def make_catalog(self) -> Catalog:
        index = self.index
        return kept_with(index, lambda: corpus_catalog(index))

    def citation(self, doc_id: str, start: int, end: int) -> Citation:
        return Citation(doc_id, start, end, self._read(doc_id, start, end))

    def brief(self, question: str) -> Brief:
        total_docs, total_chars = self.index.totals()
        shown = self.store.catalog.docs(limit=SAMPLE_SUMMARIES)
        listed = "\n".join(
            f"- {d.doc_id}: {d.meta['title']}. {d.meta['summary'][:200]}" for d in shown
        )
        intro = INTRO.format(
            total_docs=total_docs,
            total_chars=total_chars,
            path=self.index.root,
            shown=len(shown),
            summaries=listed or "(none)",
        )
        query = search_words(question)
        return Brief(
            intro,
            GUIDE.format(query=query, question=question),
            FIRST_STEP.format(query=query),
            variables={
                "corpus_path": str(self.index.root),
                "total_docs": total_docs,
                "total_chars": total_chars,
                "doc_ids": list(self._joined.names),  # (in id order, as the store lists them)
                "doc_summaries": {d.doc_id: d.meta["summary"] for d in shown},
            },
            context_length=self._joined.length,
        )

    # -- the RLM core's reach into the corpus -------------------------------------------------
    @cached_property
    def _joined(self) -> JoinedTexts:
        sizes = self.store.catalog.doc_sizes()
        return JoinedTexts([doc_id for doc_id, _ in sizes], [chars for _, chars in sizes])

    def resolve(self, text_or_ref: Any) -> Any:
        """A document's text (its first 1,000,000 characters) for its id, else the value itself."""
        if isinstance(text_or_ref, str) and text_or_ref in self._joined.names:
            return self.read_document(text_or_ref)
        return super().resolve(text_or_ref)

    def read_context(self, start: int, end: int) -> str:
        """Characters [start, end) of the documents joined in id order, one newline between two."""
        start = int(start)
        return self._joined.read(start, min(int(end), start + READ_LIMIT), self._read)

    def context_length(self) -> int:
        return self._joined.length

    def flat_citation(self, start: int, end: int) -> Citation:
        """A citation of [start, end) of the joined documents (what `context` reads), in the
        offsets of the document holding it."""
        doc_id, local = self._joined.locate(start)
        return self.citation(doc_id, local, local + end - start)

    def cite(self, answer: str, question: str, limit: int = 3) -> list[Citation]:
        """Sentences of the best-matching documents where the answer's words stand together near
        the question's."""
        citations = []
        for doc_id, _ in self.ranked(answer, 10):
            for start, end in self.passages(doc_id, answer, 20_000):
                span = grounded_span(answer, self._read(doc_id, start, end), question)
                if span is not None:
                    citations.append(self.citation(doc_id, start + span[0], start + span[1]))
                    break
            if len(citations) == limit:
                break
        return citations

    # -- corpus navigation ----------------------------------------------------------------------
    def list_documents(self, limit: int | None = None) -> list[str]:
        """Every document id (its path in the corpus folder), sorted; the first `limit` if given."""
        ids = self.store.catalog.doc_ids()
        return ids[:limit] if limit else ids

    def get_doc_meta(self, doc_id: str) -> dict:
        """Metadata: title, summary, keywords, entities, doc_type, date, author, sizes, ..."""
        return vars(self.index.meta(doc_id))

    def get_doc_summary(self, doc_id: str) -> str:
        """The 2-3 sentence summary of a document."""
        return self.index.doc(doc_id).meta["summary"]

    def get_all_summaries(self) -> dict[str, str]:
        """Every document's summary, by id."""
        return {d.doc_id: d.meta["summary"] for d in self.store.catalog.docs()}

    # -- corpus search ----------------------------------------------------------------------------
    def search_by_keyword(self, keyword: str) -> list[str]:
        """Documents with `keyword` among their keywords (case and plural insensitive)."""
        return list(self._lookup("keyword", keyword_key(short_name(keyword))))

    def search_by_entity(self, entity: str) -> list[str]:
        """Documents naming `entity` (a person, organization or place) among their entities."""
        return list(self._lookup("entity", entity_key(short_name(entity))))

    def search_by_keywords(self, keywords: list[str], mode: str = "any") -> list[str]:
        """Documents with any (mode="any") or all (mode="all") of the keywords."""
        if mode not in ("any", "all"):
            raise ValueError("mode must be 'any' or 'all'")
        sets = [set(self.search_by_keyword(k)) for k in bounded_batch(keywords, "keywords")]
        if not sets:
            return []
        return sorted(set.union(*sets) if mode == "any" else set.intersection(*sets))

    def search_by_date(self, start: str, end: str | None = None) -> list[str]:
        """Documents stating a date in [start, end] (ISO prefixes: "2024", "2024-10",
        "2024-10-05")."""
        start, end = short_name(start), None if end is None else short_name(end)
        low = find_dates(start, 1)[0] if find_dates(start, 1) else start
        high = (end or low) + "\uffff"
        return list(self.store.search.lookup_range("date", low, high))

    def grep_corpus(
        self, pattern: str, max_docs: int = 100, max_hits: int = 20
    ) -> dict[str, list[dict]]:
        """Regex matches (case-insensitive) across all documents, streamed: {doc_id: [{match,
        start, line}]} for the first `max_docs` documents that match (up to `max_hits` each)."""
        found: dict[str, list[dict]] = {}
        per_document, documents = hit_limit(max_hits), hit_limit(max_docs)
        regex = compile_search(pattern)  # (once, not once per document)
        for doc_id in self._grep_candidates(regex):
            blocks = self.store.documents.iter_blocks(self.index.doc(doc_id).store_id)
            hits = [
                {"match": m.text, "start": m.start, "line": m.line}
                for m in islice(grep_blocks(regex, blocks), per_document)
            ]
            if hits:
                found[doc_id] = hits
                if len(found) == documents:
                    break
        return found

    def _grep_candidates(self, regex: SearchPattern) -> Iterable[str]:
        """The documents, in id order, that may hold a match: those holding the pattern's rarest
        word (whole, or a word's start) by the full-text index, where it knows; else those a
        streamed pass over all the text finds a match in."""
        holding = self.store.search.documents_holding(index_terms(regex.pattern))
        if holding is not None:
            return holding
        return candidate_documents(regex, self.store.catalog.iter_blocks())

    def rank_documents(self, query: str, top_k: int = 10) -> list[tuple[str, float, str]]:
        """The top_k documents most relevant to `query` (BM25 over their full text):
        [(doc_id, score, summary)], best first."""
        return [
            (doc_id, round(score, 3), self.index.doc(doc_id).meta["summary"])
            for doc_id, score in self.ranked(query, top_k)
        ]

    def get_links(self, doc_id: str) -> dict[str, list[str]]:
        """{"references": documents whose file name or title it names, "referenced_by": those naming
        it}."""
        out, into = self._links(doc_id)
        return {"references": out, "referenced_by": into}

    # -- document access -----------------------------------------------------------------------
    def read_document(self, doc_id: str) -> str:
        """A document's full text (the first 1,000,000 characters of a longer one)."""
        total = self.index.doc(doc_id).chars
        if total > READ_LIMIT:
            self.notices.append(
                f"read_document({doc_id!r}) returned the first {READ_LIMIT:,} of {total:,} "
                "characters; use read_document_chunk or read_doc_section for the rest."
            )
        return self._read(doc_id, 0, min(total, READ_LIMIT))

    def read_document_chunk(self, doc_id: str, start: int, end: int) -> str:
        """Characters [start, end) of a document (at most 1,000,000 at a time)."""
        if int(end) - int(start) > READ_LIMIT:
            self.notices.append(
                f"read_document_chunk returns at most {READ_LIMIT:,} characters at a time."
            )
        return self._read(doc_id, start, end)

    def grep_document(self, doc_id: str, pattern: str) -> list[dict]:
        """Regex matches (case-insensitive) in one document: [{match, start, line}]."""
        blocks = self.store.documents.iter_blocks(self.index.doc(doc_id).store_id)
        hits = [
            {"match": m.text, "start": m.start, "line": m.line}
            for m in islice(grep_blocks(pattern, blocks), MAX_HITS + 1)
        ]
        if len(hits) > MAX_HITS:
            self.notices.append(
                f"grep_document returned the first {MAX_HITS:,} matches; narrow the pattern."
            )
        return hits[:MAX_HITS]

    def get_doc_toc(self, doc_id: str) -> dict:
        """A document's table of contents (its level-2 index is built on first use)."""
        return self.index.document_index(doc_id).toc

    def get_doc_sections(self, doc_id: str) -> list[str]:
        """A document's section names, in order."""
        return list(self.index.document_index(doc_id).names)

    def read_doc_section(self, doc_id: str, section_name: str) -> str:
        """The text of one section of a document."""
        level2 = self.index.document_index(doc_id)
        spans = level2.section_map
        if section_name not in spans:
            raise KeyError(
                f"no section {section_name!r} in {doc_id}; see get_doc_sections({doc_id!r})"
            )
        return self._read(doc_id, *spans[section_name])

    # -- sub-model ------------------------------------------------------------------------------
    def ask_about_document(self, question: str, doc_id: str) -> str:
        """Ask the sub-model a question about one document (its passages that best match the
        question, when it is longer than the sub-model's window)."""
        return self._ask(doc_id, self._document_prompt(question, doc_id))

    def ask_across_documents(self, question: str, doc_ids: list[str]) -> dict[str, str]:
        """Ask the same question about several documents, in parallel: {doc_id: answer}."""
        ids = list(dict.fromkeys(map(short_name, bounded_batch(doc_ids, "documents"))))
        prompts = [
            (d, self._document_prompt(question, d)) for d in ids
        ]  # the store stays on this thread
        return dict(zip(ids, self.gateway.map(lambda item: self._ask(*item), prompts), strict=True))

    def _document_prompt(self, question: str, doc_id: str) -> str:
        """The prompt about one document; reading it may index the document (a store write)."""
        room = fit_chars(self.sub, 1500)
        content = "\n...\n".join(
            self._read(doc_id, s, e) for s, e in self.passages(doc_id, question, room)
        )
        return ASK.format(
            question=short_text(question), doc_id=doc_id, content=truncate_middle(content, room)
        )

    def _ask(self, doc_id: str, prompt: str) -> str:
        return self.gateway.complete(
            self.sub, prompt, purpose=Purpose.ASK_ABOUT_DOCUMENT, label=doc_id
        ).text
