"""What an agent can do with a file or folder through MCP, as plain functions: each opens the
source (indexing what changed since its last index), does one thing and returns JSON-ready data.
A path is read only inside the folders the server was given (`Roots`)."""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from longread.answer import Answer, usage_line
from longread.api.asker import SourceAsker, answered, asked
from longread.api.opening import open as open_source
from longread.api.settings import AskSettings
from longread.errors import InputError
from longread.query.core.catalog import Catalog
from longread.tools.corpus import CorpusTools
from longread.tools.single_doc import SingleDocTools

MAX_READ = 20_000  # characters one `read` returns at most
MAX_HITS = 20  # passages one `search` returns at most
MAX_OUTLINE = 2_000  # sections (or documents) one `outline` lists at most
SAMPLES = 3  # rows of each record table `records` shows
SNIPPET = 400  # characters of a corpus passage a search hit shows


@dataclass(frozen=True)
class Roots:
    """The files and folders the server reads; a relative path is taken from the first."""

    paths: tuple[Path, ...]

    @classmethod
    def of(cls, given: Sequence[Path]) -> Roots:
        resolved = tuple(p.expanduser().resolve() for p in given) or (Path.cwd().resolve(),)
        missing = [str(p) for p in resolved if not p.exists()]
        if missing:
            raise InputError(f"no such file or folder: {', '.join(missing)}")
        return cls(resolved)

    def path(self, given: str) -> Path:
        """The file or folder `given` names, if it lies inside a root (InputError otherwise)."""
        first = self.paths[0]
        base = first if first.is_dir() else first.parent
        if "\x00" in given:  # (no file's name holds one: the system refuses it)
            raise InputError(f"{given!r}: a path holds no null character")
        candidate = Path(given).expanduser()
        resolved = (candidate if candidate.is_absolute() else base / candidate).resolve()
        if not any(resolved == root or resolved.is_relative_to(root) for root in self.paths):
            shown = ", ".join(str(root) for root in self.paths)
            raise InputError(f"{given}: outside what this server reads ({shown})")
        if not resolved.exists():
            raise InputError(f"{given}: no such file or folder")
        return resolved


_OPENING: dict[Path, threading.Lock] = {}
_OPENING_GUARD = threading.Lock()


@contextmanager
def opened(path: Path, settings: AskSettings) -> Iterator[SourceAsker]:
    """The file or folder, open for questions (indexed, or brought up to date) while in the
    block; calls that open one source at once take turns until it is ready, then run together."""
    with _OPENING_GUARD:
        turn = _OPENING.setdefault(path, threading.Lock())
    with turn:
        source = open_source(path, settings=settings)
        try:
            source.ready()
        except BaseException:
            source.close()
            raise
    with source:
        yield source


def answer_data(answer: Answer) -> dict[str, Any]:
    """An answer as an agent reads it: the text (its `[n]` marks number the citations), each
    citation's document, span, section, page and text, each claim with its support, the usage."""
    return {
        "answer": answer.text,
        "mode": answer.mode,
        "reason": answer.reason,
        "stopped_by": answer.stopped_by,
        "citations": [
            {
                "n": number,
                "document": c.doc_id,
                "start": c.start,
                "end": c.end,
                "section": c.span_id,
                "page": c.page,
                "text": c.text,
            }
            for number, c in enumerate(answer.citations, 1)
        ],
        "claims": [
            {
                "text": claim.text,
                "citations": claim.citations,
                "supported": claim.supported,
                "reason": claim.reason,
            }
            for claim in answer.claims
        ],
        "counts": answer.to_dict()["counts"],
        "usage": {**answer.usage, "line": usage_line(answer.usage)},
    }


def ask(source: SourceAsker, question: str) -> dict[str, Any]:
    """The answer to `question`, refused before any call when its mode is predicted to run past
    its default time budget (as `longread ask` refuses it)."""
    return answer_data(answered(source, question))


def estimate(source: SourceAsker, question: str) -> list[dict[str, Any]]:
    """What answering would cost in the source's mode (each mode, for `auto`), without a call."""
    modes = None if source.mode == "auto" else [source.mode]
    return [e.to_dict() for e in source.estimate(asked(question), modes)]


def search(source: SourceAsker, query: str, k: int = 5) -> list[dict[str, Any]]:
    """The passages best matching `query` (full-text search): a document's sections, or a
    folder's documents each with its best passage."""
    k = max(1, min(int(k), MAX_HITS))
    with source.reading() as tools:
        if isinstance(tools, SingleDocTools):
            return tools.search(query, k)
        assert isinstance(tools, CorpusTools)
        hits = []
        for doc_id, score in tools.ranked(query, k):
            start, end = tools.passages(doc_id, query, SNIPPET)[0]
            hits.append(
                {
                    "document": doc_id,
                    "score": round(score, 3),
                    "start": start,
                    "end": end,
                    "text": tools.citation(doc_id, start, end).text,
                }
            )
        return hits


def read(
    source: SourceAsker,
    start: int | None = None,
    end: int | None = None,
    section: str | None = None,
    document: str | None = None,
) -> dict[str, Any]:
    """Characters [start, end) of the document (of `document`, in a folder), or one section's
    text; at most MAX_READ characters, and says so when cut."""
    with source.reading() as tools:
        if isinstance(tools, SingleDocTools):
            text = (
                tools.read_section(section)
                if section is not None
                else tools.read_range(*_span(start, end))
            )
        elif isinstance(tools, CorpusTools) and document is not None:
            text = (
                tools.read_doc_section(document, section)
                if section is not None
                else tools.citation(document, *_span(start, end)).text
            )
        else:
            raise InputError("a folder: say which `document` to read (see `outline`)")
    return {
        "start": 0 if section is not None else start,
        "text": text[:MAX_READ],
        "cut": len(text) > MAX_READ,
    }


def _span(start: int | None, end: int | None) -> tuple[int, int]:
    """[start, end) as asked, at most MAX_READ long."""
    if start is None or end is None:
        raise InputError("give `start` and `end` (character offsets) or a `section`")
    start = max(0, int(start))
    return start, max(start, min(int(end), start + MAX_READ))


def outline(source: SourceAsker, document: str | None = None) -> dict[str, Any]:
    """A document's sections (title, level, span), or a folder's documents (or, with `document`,
    that document's sections), at most MAX_OUTLINE."""
    with source.reading() as tools:
        if isinstance(tools, SingleDocTools):
            toc = tools.get_toc()
        elif isinstance(tools, CorpusTools) and document is not None:
            toc = tools.get_doc_toc(document)
        else:
            assert isinstance(tools, CorpusTools)
            ids = tools.list_documents()
            return {"documents": ids[:MAX_OUTLINE], "total": len(ids)}
    flat = list(_flat(toc.get("sections", [])))
    return {"sections": flat[:MAX_OUTLINE], "total": len(flat)}


def _flat(sections: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for section in sections:
        yield {
            "title": section["title"],
            "level": section["level"],
            "start": section["start_char"],
            "end": section["end_char"],
        }
        yield from _flat(section.get("children", []))


def records(source: SourceAsker, sql: str | None = None) -> dict[str, Any]:
    """The record tables found in the source (columns, rows, samples), or with `sql` the rows
    of one read-only SELECT over them (bounded in rows and time)."""
    with source.reading() as tools:
        assert isinstance(tools, SingleDocTools | CorpusTools)
        if sql is not None:
            return {"rows": tools.sql(sql)}
        catalog: Catalog = tools.catalog()
        return {
            "tables": [
                {
                    "name": table.name,
                    "kinds": list(table.kinds),
                    "rows": table.rows,
                    "columns": [{"name": c.name, "type": c.type} for c in table.columns],
                    "samples": catalog.query.execute(
                        f'SELECT * FROM "{table.name}" LIMIT {SAMPLES}', max_rows=SAMPLES
                    ).rows,
                }
                for table in catalog.tables.values()
            ],
            "skipped": catalog.skipped,
        }
