"""The REPL functions over one indexed document (navigation, reading, grep and sub-model questions,
plus `search`). Reads are lazy and LRU-cached; grep streams the stored text block by block, so a 400
MB document is never loaded whole."""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from longread.answer import Citation
from longread.index.single import SingleDocIndex
from longread.ingest.toc import Section, deepest_shown, outline_lines
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.usage import Purpose
from longread.query.core.catalog import Catalog, document_catalog, kept_with
from longread.repl.protocol import JsonText
from longread.store.rows import SectionRow
from longread.text.cut import truncate_middle
from longread.text.grep import MAX_HITS, MAX_MATCH_CHARS, grep_blocks, hit_limit
from longread.text.grounding import grounded_span
from longread.text.patterns import SearchPattern, compile_search, index_terms
from longread.text.rank import focus_lines, keywords, search_words, stem
from longread.tools.bounds import (
    QUERY_CHARS,
    READ_LIMIT,
    cached_reads,
    fit_chars,
    short_name,
    short_text,
)
from longread.tools.referencing import ReferenceNavigation
from longread.tools.toolset import Brief, Toolset
from longread.tools.tree_nav import TreeNavigation

SUMMARY_CHARS = 4_000  # summaries longer than this in all are left out of the system prompt

INTRO = """You are analyzing a single long document that exceeds your context window.
You have access to a pre-built index and functions to explore the document.

DOCUMENT INFO:
- Path: {path}
- Type: {doc_type}
- Total size: {chars:,} characters in {sections:,} sections

TABLE OF CONTENTS:
{toc}

SECTION SUMMARIES:
{summaries}"""
GUIDE = """STRATEGY:
1. Consult the TOC and summaries, or search(), to identify relevant sections.
2. Use grep_section() or grep_all() for exact words, read_section_chunk() to read.
3. Use ask_about_section() or llm_query() for meaning.
4. Aggregate what you found and call FINAL(answer), naming the sections it rests on.
Variables preset in the REPL: doc_path, doc_type, total_chars, section_names.

Example of two turns:
```repl
hits = search({query!r}, k=3)
print(hits)
```
```repl
answer = ask_about_section({question!r}, hits[0]["section"])
print(answer)
```
Then check the answer against the section's text (grep_section) and call FINAL(answer)."""
TREE = """

SUMMARY TREE: {levels} levels of summaries over the document, root first. The whole document:
{summary}
Walk it with get_tree(depth), get_children(node_id), get_node(node_id); read_node(node_id) gives a
node's text."""
FIRST_STEP = """for hit in search({query!r}, k=3):
    print(hit["section"], hit["start"], hit["end"], "|", hit["snippet"])"""
SNIPPET_READ = 100_000  # characters of a section a search reads for its best sentence
MAX_SEARCH_HITS = 100  # sections one search returns at most (the first 10 with a snippet)


class SingleDocTools(TreeNavigation, ReferenceNavigation, Toolset):
    """The document functions over one indexed document (navigation, reading, grep and sub-model
    questions), plus search, the summary tree's tools and the hypothesis tools."""

    TOOL_NAMES = (
        "get_toc",
        "get_section_names",
        "get_summary",
        "get_all_summaries",
        "read_section",
        "read_section_chunk",
        "read_range",
        "grep_section",
        "grep_all",
        "find_sections_by_keyword",
        "search",
        "ask_about_section",
        *TreeNavigation.TREE_TOOLS,
        *ReferenceNavigation.REFERENCE_TOOLS,
    )
    LOOKING = frozenset(TOOL_NAMES)
    REFS = "a section name or a summary-tree node id"
    CONTEXT_DOC = (
        "the whole document, read-only and read lazily: len(context), context[a:b] (at most "
        "1,000,000 characters at a time), 'word' in context"
    )

    def __init__(self, index: SingleDocIndex, sub: LM, gateway: Gateway, cache_sections: int = 32):
        super().__init__(sub, gateway)
        self.index = index
        self.store, self.store_id = index.store, index.store_id
        self.doc_id = Path(index.path).name
        self._pages = self.store.documents.get(self.store_id)["pages"]  # [[number, start, end]…]
        self._read = cached_reads(index.read_range, cache_sections)

    @property
    def names(self) -> list[str]:
        """Every section's unique name, in document order (read once, when first asked for)."""
        return self.index.names

    def _find(self, section_name: Any) -> SectionRow | None:
        if not isinstance(section_name, str):
            return None
        return self.store.sections.named(self.store_id, short_name(section_name))

    def _row(self, section_name: str) -> SectionRow:
        row = self._find(section_name)
        if row is None:
            wanted = short_name(section_name).lower()
            close = ", ".join(map(repr, [n for n in self.names if wanted in n.lower()][:5]))
            hint = f"; did you mean {close}?" if close else "; see get_section_names()"
            raise KeyError(f"no section named {short_name(section_name)!r}{hint}")
        return row

    def _row_of(self, section_id: int) -> SectionRow:
        return self.store.sections.by_id([section_id])[section_id]

    def section_at(self, offset: int) -> str:
        """The name of the innermost section containing a character offset."""
        row = self.store.sections.leaf_at(self.store_id, offset)
        return row.name if row is not None else ""

    def page_at(self, offset: int) -> int | None:
        """The page holding a character offset, for paged documents (PDF)."""
        at = bisect.bisect_right(self._pages, offset, key=lambda page: page[1]) - 1
        return self._pages[at][0] if at >= 0 and offset < self._pages[at][2] else None

    def make_catalog(self) -> Catalog:
        index, name = self.index, self.doc_id
        return kept_with(index, lambda: document_catalog(index, name))

    def citation(self, start: int, end: int) -> Citation:
        """A citation of characters [start, end), with its section and page."""
        return Citation(
            self.doc_id,
            start,
            end,
            self._read(start, end),
            self.section_at(start),
            self.page_at(start),
        )

    def search_ids(self, query: str, k: int) -> list[tuple[int, float]]:
        """(section id, score) of the k sections whose own text best matches `query` (BM25)."""
        return self.index.store.search.sections_matching(self.index.store_id, keywords(query), k)

    def section_name(self, section_id: int) -> str:
        return self._row_of(section_id).name

    def section_start(self, section_id: int) -> int:
        return self._row_of(section_id).start

    def own_span(self, section_name: str) -> tuple[int, int]:
        """A section's own text: from its start to its first subsection (the text search
        indexes)."""
        return self.store.sections.own_span(self._row(section_name))

    def outline(self) -> list[Section]:
        """The TOC as Section trees, titled by unique section name."""
        nodes: dict[int, Section] = {}
        top: list[Section] = []
        for row in self.index.rows:
            nodes[row.id] = Section(row.name, row.level, row.start, row.end)
            (nodes[row.parent_id].children if row.parent_id in nodes else top).append(nodes[row.id])
        return top

    def _outline_summary(self, max_lines: int = 60) -> str:
        """The outline for the system prompt, its shallow levels read from the store."""
        counts = self.store.sections.depth_counts(self.store_id)
        total = sum(counts.values())
        limit = max_lines if total <= max_lines else max_lines - 1
        deepest = deepest_shown(counts, max_lines)
        shown = self.store.sections.outline_rows(self.store_id, deepest, limit)
        return outline_lines(shown, total)

    def brief(self, question: str) -> Brief:
        summaries = self.index.summaries
        listed = "\n".join(f"- {name}: {text}" for name, text in summaries.items())
        if not summaries:
            listed = "(none were made: build the index with summaries to have them)"
        elif len(listed) > SUMMARY_CHARS:
            listed = (
                f"({len(summaries):,} summaries: too many to list here; use get_summary(name).)"
            )
        intro = INTRO.format(
            path=self.doc_id,
            doc_type=self.index.doc_type,
            chars=self.index.total_chars,
            sections=self.index.section_count,
            toc=self._outline_summary(),
            summaries=listed,
        )
        if self.summary_tree is not None:
            root = self.summary_tree.root
            intro += TREE.format(levels=root.level + 1, summary=truncate_middle(root.summary, 800))
        query = search_words(question)
        return Brief(
            intro,
            GUIDE.format(query=query, question=question),
            FIRST_STEP.format(query=query),
            variables=self.variables(),
            context_length=self.index.total_chars,
            first_step_reads=True,  # (each hit's best sentence)
        )

    def variables(self) -> dict[str, Any]:
        """The document's metadata variables, preset in the REPL (the section names as the store
        saved them: JSON text, decoded only by the REPL)."""
        return {
            "doc_path": self.index.path,
            "doc_type": self.index.doc_type,
            "total_chars": self.index.total_chars,
            "section_names": JsonText(self.store.sections.names_json(self.store_id)),
        }

    def cite(self, answer: str, question: str, limit: int = 3) -> list[Citation]:
        """Sentences of the best-matching sections where the answer's words stand together near
        the question's."""
        citations = []
        hits = self.search_ids(answer, 10)
        rows = self.store.sections.by_id(section_id for section_id, _ in hits)
        for section_id, _ in hits:
            start, end = self.store.sections.own_span(rows[section_id])
            span = grounded_span(answer, self._read(start, end), question)
            if span is not None:
                citations.append(self.citation(start + span[0], start + span[1]))
            if len(citations) == limit:
                break
        return citations

    # -- navigation ----------------------------------------------------------------------
    def get_toc(self) -> dict:
        """The full table of contents: {"sections": [{title, level, start_char, end_char,
        children}]}."""
        return self.index.toc

    def get_section_names(self) -> list[str]:
        """Every section name, in document order."""
        return list(self.names)

    def get_summary(self, section_name: str) -> str:
        """The summary of one section."""
        self._row(section_name)
        return self.index.summaries.get(section_name, "No summary available")

    def get_all_summaries(self) -> dict[str, str]:
        """Every section's summary, by section name."""
        return self.index.summaries

    # -- reading ---------------------------------------------------------------------------
    def read_section(self, section_name: str) -> str:
        """The full text of a section."""
        row = self._row(section_name)
        return self._read(row.start, row.end)

    def read_section_chunk(
        self, section_name: str, chunk_idx: int, chunk_size: int = 10_000
    ) -> str:
        """Chunk number `chunk_idx` (from 0) of a section, `chunk_size` characters each."""
        row = self._row(section_name)
        start = row.start + chunk_idx * chunk_size
        return self._read(start, min(start + chunk_size, row.end)) if start < row.end else ""

    def read_range(self, start: int, end: int) -> str:
        """Characters [start, end) of the document (at most 1,000,000 at a time)."""
        if int(end) - int(start) > READ_LIMIT:
            self.notices.append(f"read_range returns at most {READ_LIMIT:,} characters at a time.")
        return self._read(start, end)

    # -- search ----------------------------------------------------------------------------
    def grep_section(self, pattern: str, section_name: str) -> list[dict]:
        """Regex matches (case-insensitive) in one section: match, start, end (document offsets)."""
        row = self._row(section_name)
        hits = list(islice(self._grep(pattern, row.start, row.end), MAX_HITS + 1))
        return self._capped(hits, "grep_section")

    def grep_all(self, pattern: str, max_hits: int = 200) -> dict[str, list[dict]]:
        """Regex matches over the whole document, grouped by section (streamed, never all in
        memory)."""
        found: dict[str, list[dict]] = {}
        for hit in islice(self._grep(pattern, 0, self.index.total_chars), hit_limit(max_hits)):
            found.setdefault(self.section_at(hit["start"]), []).append(hit)
        return found

    def _capped(self, hits: list[dict], tool: str) -> list[dict]:
        if len(hits) > MAX_HITS:
            self.notices.append(
                f"{tool} returned the first {MAX_HITS:,} matches; narrow the pattern."
            )
        return hits[:MAX_HITS]

    def _grep(self, pattern: str, start: int, end: int) -> Iterator[dict]:
        regex = compile_search(pattern)
        for low, high in self._grep_spans(regex, start, end):
            blocks = self.store.documents.iter_blocks(self.store_id, low, high)
            for m in grep_blocks(regex, blocks, low, high, lines=False):
                yield {"match": m.text, "start": m.start, "end": m.end}

    def _grep_spans(self, regex: SearchPattern, start: int, end: int) -> list[tuple[int, int]]:
        """Where in [start, end) a match can be: around the sections that hold the pattern's
        rarest word (whole, or a word's start), when the full-text index knows it (every match
        holds it, and is at most MAX_MATCH_CHARS long); else everywhere."""
        found = self.store.search.sections_holding(self.store_id, index_terms(regex.pattern))
        if found is None:
            return [(start, end)]
        rows = self.store.sections.by_id(found)
        spans: list[tuple[int, int]] = []
        for low, high in sorted(self.store.sections.own_span(rows[i]) for i in found):
            low, high = max(start, low - MAX_MATCH_CHARS), min(end, high + MAX_MATCH_CHARS)
            if low >= high:
                continue
            if spans and low <= spans[-1][1]:
                spans[-1] = (spans[-1][0], max(spans[-1][1], high))
            else:
                spans.append((low, high))
        return spans

    def find_sections_by_keyword(self, keyword: str) -> list[str]:
        """Sections whose keywords include `keyword` (case and plural insensitive)."""
        wanted = stem(keyword.lower())
        return [
            name
            for name, words in self.index.keywords.items()
            if any(stem(w.lower()) == wanted for w in words)
        ]

    def search(self, query: str, k: int = 5) -> list[dict]:
        """The k sections most relevant to `query` (BM25 over their text): section, score, start,
        end, and (for the first ten) the snippet, the sentence of the section's own text that
        matches best."""
        query = short_text(query, QUERY_CHARS)
        hits = self.search_ids(query, max(1, min(int(k), MAX_SEARCH_HITS)))
        rows = self.store.sections.by_id(sid for sid, _ in hits)
        found = []
        for rank, (sid, score) in enumerate(hits):
            own = self.own_span(rows[sid].name)
            text = self._read(own[0], min(own[1], own[0] + SNIPPET_READ)) if rank < 10 else ""
            found.append(
                {
                    "section": rows[sid].name,
                    "score": round(score, 3),
                    "start": rows[sid].start,
                    "end": rows[sid].end,
                    "snippet": focus_lines(text, query, 1) if text.strip() else "",
                }
            )
        return found

    # -- the RLM core's reach into the document ---------------------------------------------
    def resolve(self, text_or_ref: Any) -> Any:
        """A section's text for its name, a summary-tree node's text for its id, else the value."""
        if self._find(text_or_ref) is not None:
            return self.read_section(text_or_ref)
        tree = self.summary_tree
        if isinstance(text_or_ref, int) and tree is not None and text_or_ref in tree.by_id:
            return self.read_node(text_or_ref)
        return super().resolve(text_or_ref)

    def read_context(self, start: int, end: int) -> str:
        """Characters [start, end) of the document (what `context[start:end]` reads)."""
        return self._read(max(0, int(start)), min(int(end), self.index.total_chars))

    def context_length(self) -> int:
        return self.index.total_chars

    # -- sub-model -------------------------------------------------------------------------
    def ask_about_section(self, question: str, section_name: str) -> str:
        """Ask the sub-model a question about one section's text."""
        content = truncate_middle(self.read_section(section_name), fit_chars(self.sub, 1500))
        prompt = (
            "Answer this question based on the section content.\n\n"
            f"Question: {short_text(question)}\n\n"
            f'Section "{section_name}":\n{content}'
        )
        return self.gateway.complete(
            self.sub, prompt, purpose=Purpose.ASK_ABOUT_SECTION, label=section_name
        ).text
