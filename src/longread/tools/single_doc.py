"""The REPL functions over one indexed document (seed 000 §4.1, plus `search`). Reads are lazy and
LRU-cached; grep streams the stored text block by block, so a 400 MB document is never loaded whole."""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from longread.index.single import SingleDocIndex
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.repl.capture import truncate_middle
from longread.tools.context_tools import fit_chars
from longread.tools.rank import stem

MAX_MATCH_CHARS = 2_000  # a match longer than this may be missed where two stored blocks meet
_REGEX_SYNTAX = re.compile(r"[.^$*+?{}\[\]\\|()]")


class SingleDocTools:
    def __init__(self, index: SingleDocIndex, sub: LM, gateway: Gateway, cache_sections: int = 32):
        self.index = index
        self.sub = sub
        self.gateway = gateway
        self.names = index.names
        self.rows = dict(zip(self.names, index.rows, strict=True))
        parents = {row.parent_id for row in index.rows}
        leaves = [(row.start, name) for name, row in self.rows.items() if row.id not in parents]
        self._leaf_starts = [start for start, _ in leaves]
        self._leaf_names = [name for _, name in leaves]
        self._read = lru_cache(maxsize=cache_sections)(index.read_range)

    def _row(self, section_name: str) -> Any:
        if section_name not in self.rows:
            close = [n for n in self.names if section_name.lower() in n.lower()][:5]
            hint = f"; did you mean {', '.join(map(repr, close))}?" if close else "; see get_section_names()"
            raise KeyError(f"no section named {section_name!r}{hint}")
        return self.rows[section_name]

    def section_at(self, offset: int) -> str:
        """The name of the innermost section containing a character offset."""
        return self._leaf_names[max(0, bisect.bisect_right(self._leaf_starts, offset) - 1)]

    # -- navigation ----------------------------------------------------------------------
    def get_toc(self) -> dict:
        """The full table of contents: {"sections": [{title, level, start_char, end_char, children}]}."""
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

    def read_section_chunk(self, section_name: str, chunk_idx: int, chunk_size: int = 10_000) -> str:
        """Chunk number `chunk_idx` (from 0) of a section, `chunk_size` characters each."""
        row = self._row(section_name)
        start = row.start + chunk_idx * chunk_size
        return self._read(start, min(start + chunk_size, row.end)) if start < row.end else ""

    def read_range(self, start: int, end: int) -> str:
        """Characters [start, end) of the document."""
        return self._read(start, end)

    # -- search ----------------------------------------------------------------------------
    def grep_section(self, pattern: str, section_name: str) -> list[dict]:
        """Regex matches (case-insensitive) in one section: match, start, end (document offsets)."""
        row = self._row(section_name)
        return list(self._grep(pattern, row.start, row.end))

    def grep_all(self, pattern: str, max_hits: int = 200) -> dict[str, list[dict]]:
        """Regex matches over the whole document, grouped by section (streamed, never all in memory)."""
        found: dict[str, list[dict]] = {}
        for number, hit in enumerate(self._grep(pattern, 0, self.index.total_chars)):
            if number == max_hits:
                break
            found.setdefault(self.section_at(hit["start"]), []).append(hit)
        return found

    def _grep(self, pattern: str, start: int, end: int):
        regex = re.compile(pattern, re.IGNORECASE)
        literal = None if _REGEX_SYNTAX.search(pattern) else pattern.lower()
        tail, tail_start, reported = "", start, -1
        for offset, body in self.index.store.iter_blocks(self.index.doc_id, start, end):
            lo, hi = max(start - offset, 0), min(end - offset, len(body))
            window, window_start = tail + body[lo:hi], tail_start
            tail = window[-MAX_MATCH_CHARS:]
            tail_start = window_start + len(window) - len(tail)
            if literal is not None and window.isascii() and literal not in window.lower():
                continue  # exact for ASCII text, and ~20x faster than a case-insensitive regex
            for m in regex.finditer(window):
                absolute = window_start + m.start()
                if absolute > reported and m.end() > m.start():
                    reported = absolute
                    yield {"match": m.group(0), "start": absolute, "end": window_start + m.end()}

    def find_sections_by_keyword(self, keyword: str) -> list[str]:
        """Sections whose keywords include `keyword` (case and plural insensitive)."""
        wanted = stem(keyword.lower())
        return [name for name, words in self.index.keywords.items()
                if any(stem(w.lower()) == wanted for w in words)]

    def search(self, query: str, k: int = 5) -> list[dict]:
        """The k sections most relevant to `query` (BM25 over their text): section, score, start, end."""
        by_id = {row.id: name for name, row in self.rows.items()}
        return [{"section": by_id[sid], "score": round(score, 3), "start": self.rows[by_id[sid]].start,
                 "end": self.rows[by_id[sid]].end}
                for sid, score in self.index.store.search_sections(self.index.doc_id, query, k)]

    # -- sub-model -------------------------------------------------------------------------
    def llm_query(self, prompt: str) -> str:
        """Ask the sub-model (it sees only the prompt)."""
        text = truncate_middle(str(prompt), fit_chars(self.sub))
        return self.gateway.complete(self.sub, text, purpose="subcall").text

    def ask_about_section(self, question: str, section_name: str) -> str:
        """Ask the sub-model a question about one section's text."""
        content = truncate_middle(self.read_section(section_name), fit_chars(self.sub, 1500))
        prompt = (f"Answer this question based on the section content.\n\nQuestion: {question}\n\n"
                  f"Section \"{section_name}\":\n{content}")
        return self.gateway.complete(self.sub, prompt, purpose="ask_about_section", label=section_name).text

    def functions(self) -> dict[str, Callable[..., Any]]:
        names = ["get_toc", "get_section_names", "get_summary", "get_all_summaries", "read_section",
                 "read_section_chunk", "read_range", "grep_section", "grep_all",
                 "find_sections_by_keyword", "search", "llm_query", "ask_about_section"]
        return {name: getattr(self, name) for name in names}
