"""The full-text index of a large document, built beside the rest of its build: a process per core,
forked once the sections are known (so each has the text without a copy), builds its parts in
memory while this process stores the text and the sections, then copies each part into the index
file once the document has its id. A part a process failed to copy is built afterwards, here
(`DocStore.ensure_fts`). Where this process cannot fork safely (see `forking`), or the text is
small, nothing runs beside: the index is built afterwards, here."""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from contextlib import suppress
from multiprocessing import get_context
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

from longread.forking import can_fork, cores, settle_copy
from longread.store.full_text import build_part, copy_part, part_ranges
from longread.store.rows import SectionRow, own_spans
from longread.store.section_search import FTS_BATCH_CHARS

PARALLEL_CHARS = 32_000_000  # of section text, below which starting processes does not pay
Entry = tuple[int | None, str, int, int, int]  # (parent position, title, level, start, end)


class PartBuilders:
    """The processes building a document's full-text parts: `parts` of them, over its sections'
    own `spans`."""

    def __init__(self, text: str, entries: Sequence[Entry], path: Path):
        self.spans = spans = own_spans(
            [SectionRow(i, e[0], i, e[1], e[2], e[3], e[4], "") for i, e in enumerate(entries)]
        )
        chars = sum(end - start for start, end in spans)
        workers = min(cores(), 8)
        ranges = part_ranges(spans, max(workers, math.ceil(chars / FTS_BATCH_CHARS)))
        self.parts = len(ranges)
        self._pipes: list[Connection] = []
        self._processes: list[BaseProcess] = []
        context = get_context("fork")
        for worker in range(min(workers, len(ranges))):
            ours, theirs = context.Pipe(duplex=False)
            mine = list(range(worker, len(ranges), workers))
            process = context.Process(
                target=_build_parts,
                args=(text, spans, [e[1] for e in entries], ranges, mine, path, ours),
                daemon=True,
            )
            process.start()
            ours.close()
            self._pipes.append(theirs)
            self._processes.append(process)

    @classmethod
    def start(cls, text: str, entries: Sequence[Entry], path: Path) -> PartBuilders | None:
        """The builders of the parts of a document of `entries`, started; None where building
        beside does not pay or cannot be done safely."""
        if not can_fork() or cores() < 2 or len(text) < PARALLEL_CHARS:
            return None
        return cls(text, entries, path)

    def stored(self, store_id: int | None) -> None:
        """Tell the builders the document's id, and wait for them to copy their parts in; or,
        given None (the document was not stored), stop them."""
        for pipe, process in zip(self._pipes, self._processes, strict=True):
            if store_id is None:
                process.terminate()
            else:
                with suppress(OSError):  # (that builder has ended already)
                    pipe.send(store_id)
            pipe.close()
        for process in self._processes:
            process.join()


def _build_parts(
    text: str,
    spans: list[tuple[int, int]],
    titles: list[str],
    plan: list[tuple[int, int]],
    parts: list[int],
    path: Path,
    pipe: Connection,
) -> None:
    """In a builder: each of `parts` of the index planned as `plan` (each part's [first, stop)
    run of section positions) indexed in memory, then copied into the index file as soon as the
    document's id has come down `pipe`. Interrupts are for the process that started it (which
    stops it); a failure ends it quietly, its parts left to that process."""
    settle_copy()
    store_id: int | None = None
    try:
        for part in parts:
            first, stop = plan[part]
            rows = zip(
                range(first, stop),
                titles[first:stop],
                (text[start:end] for start, end in spans[first:stop]),
                strict=True,
            )
            built = build_part(rows)
            if store_id is None:
                store_id = pipe.recv()
            if store_id is None:
                built.close()
                return
            copy_part(built, path, store_id, part, plan)

    except Exception:
        os._exit(1)
