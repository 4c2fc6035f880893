"""The smart chunker (phase 1 of the summary tree's build): a cursor walks the text; each step shows
the sub-model a buffer from the cursor and asks, in one call, where the chunk should end, where the
next one should start (the overlap) and for a summary of exactly the chunk. Every answer is checked:
the cut must lie inside the buffer, past its first half; the next start after the cursor and at most
a short overlap before the cut; both snap to the nearest paragraph, line or sentence boundary. A
refused or missing answer falls back to the boundary rule (and is counted); so does a bad next start
alone, keeping the model's cut and summary. A model that cannot write JSON reliably (the small local
one) is not asked for cuts: the rule cuts, and its one call per chunk writes the summary. Each chunk
is saved with its summary, so a stopped run resumes at the last one."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from longread.events import Event, EventKind, EventSink, ignore
from longread.index.enrich.summaries import clean_summary, derailed
from longread.ingest.doctype import doc_noun
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.jsonio import extract_json
from longread.llm.usage import Purpose
from longread.store.docstore import DocStore

CHARS_PER_TOKEN = 4
CUT_WINDOW = 0.85  # cut marks are shown in the buffer's last 15%, where the chunk should end
MIN_CUT = 0.5  # a cut before the middle of the buffer is refused: it would re-read too much text
MAX_OVERLAP = 0.15  # the next chunk starts at most this share of the chunk before its end
MAX_MARKS = 16
SUMMARY_CHARS = 600

CUT_PROMPT = """You are splitting a long {doc_type} into parts. Below is its text from the current
position. Marks like «1234» give character offsets where the text may be cut.

\"\"\"
{text}
\"\"\"

Reply with JSON only: {{"cut": C, "next_start": N, "summary": S}}, where C is the offset of the mark
where this part should end (the end of a topic, scene or chapter if there is one), N is C itself or
the offset of a mark just before C (N <= C: the next part starts there, repeating a sentence or
two), and S is 2-3 sentences on what the text says from its start up to C."""
SUMMARY_PROMPT = """Summarize this part of a {doc_type} in 2-3 sentences: what happens or what it
says, with the names and terms that matter.

\"\"\"
{text}
\"\"\""""
CUT_SCHEMA = {
    "type": "object",
    "properties": {
        "cut": {"type": "integer"},
        "next_start": {"type": "integer"},
        "summary": {"type": "string", "maxLength": SUMMARY_CHARS},
    },
    "required": ["cut", "next_start", "summary"],
}
_BOUNDARY = re.compile(r"\n[ \t]*\n\s*|\n[ \t]*|(?<=[.!?;:])[\"'’”)\]]*[ \t]+")


@dataclass
class ChunkingReport:
    """What a chunking run did: chunks made now, how each was cut, and the answers refused."""

    chunks: int = 0
    model_cuts: int = 0
    rule_cuts: int = 0
    refused: list[str] = field(default_factory=list)  # why each refused answer was refused


def boundaries(text: str) -> list[tuple[int, int]]:
    """(offset, strength) where a new paragraph (2), line (1) or sentence (0) starts in `text`."""
    return [
        (m.end(), 2 if m.group().count("\n") > 1 else int("\n" in m.group()))
        for m in _BOUNDARY.finditer(text)
        if m.end() < len(text)
    ]


def snap(offset: int, marks: list[tuple[int, int]], lo: int, hi: int) -> int:
    """The boundary in [lo, hi] nearest to `offset` (`offset` itself if there is none)."""
    inside = [m for m, _ in marks if lo <= m <= hi]
    return min(inside, key=lambda m: abs(m - offset)) if inside else offset


def rule_cut(buffer: str, marks: list[tuple[int, int]]) -> int:
    """The fallback cut: the last boundary of the strongest kind in the buffer's last 15% (else
    past its middle); the last space, or the buffer's end, if there is no boundary."""
    for lo in (CUT_WINDOW, MIN_CUT):
        window = [(strength, m) for m, strength in marks if m >= lo * len(buffer)]
        if window:
            return max(window)[1]
    space = buffer.rfind(" ", int(MIN_CUT * len(buffer)))
    return space + 1 if space > 0 else len(buffer)


def rule_next(cut: int, marks: list[tuple[int, int]]) -> int:
    """The fallback start of the next chunk: the start of the chunk's last sentence or line when it
    is short enough to repeat, else the cut itself."""
    before = [m for m, _ in marks if 0 < m < cut]
    return before[-1] if before and cut - before[-1] <= MAX_OVERLAP * cut else cut


def marked(buffer: str, marks: list[tuple[int, int]]) -> str:
    """The buffer with «offset» marks at up to MAX_MARKS boundaries of its last 15%."""
    window = [m for m, _ in marks if m >= CUT_WINDOW * len(buffer)]
    shown = window[:: max(1, -(-len(window) // MAX_MARKS))] + [len(buffer)]
    parts, last = [], 0
    for mark in dict.fromkeys(shown):
        parts += [buffer[last:mark], f"«{mark}»"]
        last = mark
    return "".join(parts)


def check_cut(reply: Any, buffer: str, marks: list[tuple[int, int]]) -> tuple[int, int | None, str]:
    """(cut, next start, summary) from the model's JSON, snapped to boundaries; ValueError says why
    an answer is refused. A next start that is not within a short overlap before the cut comes back
    as None (the cut and summary still stand; the caller places the next start by rule)."""
    if not isinstance(reply, dict) or not all(
        isinstance(reply.get(k), int) for k in ("cut", "next_start")
    ):
        raise ValueError("not a JSON object with integer cut and next_start")
    cut, next_start = reply["cut"], reply["next_start"]
    if not MIN_CUT * len(buffer) <= cut <= len(buffer):
        raise ValueError(f"cut {cut} outside [{int(MIN_CUT * len(buffer))}, {len(buffer)}]")
    summary = " ".join(str(reply.get("summary", "")).split())
    if derailed(summary):
        raise ValueError("an empty or derailed summary")
    snapped = snap(cut, marks, int(MIN_CUT * len(buffer)), len(buffer))
    if next_start == cut:  # no overlap asked for
        return snapped, snapped, summary
    if not 0 < next_start < cut or cut - next_start > MAX_OVERLAP * cut:
        return snapped, None, summary
    return (
        snapped,
        min(snapped, snap(next_start, marks, int(snapped * (1 - MAX_OVERLAP)), snapped)),
        summary,
    )


class SmartChunker:
    """Cuts one stored document into chunks with level-0 summaries (see the module docstring)."""

    def __init__(
        self,
        store: DocStore,
        store_id: int,
        lm: LM,
        gateway: Gateway,
        *,
        doc_type: str = "document",
        target_chunk_tokens: int | None = None,
        on_event: EventSink = ignore,
    ):
        self.store = store
        self.store_id = store_id
        self.total = store.documents.get(store_id)["chars"]
        self.lm = lm
        self.gateway = gateway
        self.doc_type = doc_noun(doc_type)
        tokens = target_chunk_tokens or (3_000 if lm.writes_code else 1_000)
        if tokens < 50:
            raise ValueError("target_chunk_tokens must be at least 50")
        self.buffer_chars = tokens * CHARS_PER_TOKEN
        self.on_event = on_event
        self.report = ChunkingReport()

    def run(self) -> ChunkingReport:
        """Chunk from the last saved chunk (or the start) to the end of the text."""
        chunks = self.store.summaries.chunks(self.store_id)
        cursor = chunks[-1].next_start if chunks else 0
        if chunks and chunks[-1].end >= self.total:
            return self.report
        while True:
            buffer = self.store.documents.read_range(
                self.store_id, cursor, cursor + self.buffer_chars
            )
            cut, next_start, summary, cut_by = self._step(buffer)
            self.store.summaries.add_chunk(
                self.store_id,
                (cursor, cursor + cut),
                cursor + next_start,
                cut_by,
                summary,
                self.lm.name,
            )
            self.report.chunks += 1
            self.on_event(
                Event(
                    EventKind.PROGRESS,
                    {"task": "chunks", "done": cursor + cut, "total": self.total},
                )
            )
            if cursor + cut >= self.total:
                return self.report
            cursor += next_start

    def _step(self, buffer: str) -> tuple[int, int, str, str]:
        """(cut, next start, summary, how it was cut) for the chunk starting the buffer."""
        if len(buffer) < self.buffer_chars:  # the rest of the text fits
            return len(buffer), len(buffer), self._summarize(buffer), "end"
        marks = boundaries(buffer)
        if self.lm.writes_code:
            try:
                cut, next_start, summary = self._ask_cut(buffer, marks)
            except ValueError as refused:
                self.report.refused.append(str(refused))
            else:
                self.report.model_cuts += 1
                if next_start is None:
                    self.report.refused.append(
                        "next_start not within a short overlap before the cut"
                    )
                    next_start = rule_next(cut, marks)
                return cut, next_start, summary, "model"
        cut = rule_cut(buffer, marks)
        self.report.rule_cuts += 1
        return cut, rule_next(cut, marks), self._summarize(buffer[:cut]), "rule"

    def _ask_cut(self, buffer: str, marks: list[tuple[int, int]]) -> tuple[int, int | None, str]:
        prompt = CUT_PROMPT.format(doc_type=self.doc_type, text=marked(buffer, marks))
        reply = self.gateway.complete(
            self.lm, prompt, purpose=Purpose.SMART_CHUNK, max_tokens=300, json_schema=CUT_SCHEMA
        ).text
        return check_cut(extract_json(reply), buffer, marks)

    def _summarize(self, text: str) -> str:
        if not text.strip():
            return "(blank)"
        reply = self.gateway.complete(
            self.lm,
            SUMMARY_PROMPT.format(doc_type=self.doc_type, text=text),
            purpose=Purpose.SMART_CHUNK,
            max_tokens=120,
        ).text
        return clean_summary(reply, text, SUMMARY_CHARS)
