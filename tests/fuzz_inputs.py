"""Mutated real files for fuzzing the loaders: seeds of every format the loaders read (a PDF
with a table, a DOCX with headings and a table, HTML, Markdown, and text in odd encodings), and
the mutations hypothesis draws (bytes overwritten, cut, inserted, repeated). What one input did:
`loaded`, `refused` (one InputError line) or an exception that fails the property."""

from __future__ import annotations

import io
import resource
import time
from dataclasses import dataclass
from pathlib import Path

import docx
from fpdf import FPDF
from hypothesis import strategies as st

from longread.errors import LongreadError
from longread.ingest.document import load_document

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
MAX_SECONDS = 10.0  # one load, however malformed its input
MAX_GROWTH_MB = 300  # of the process's peak memory, over all the inputs of a run


def _pdf() -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=11)
    pdf.start_section("Ledger")
    pdf.multi_cell(0, 6, "The harbour dues of 1891, by ship and month.")
    with pdf.table() as table:
        for cells in (
            ("ship", "month", "dues"),
            ("Silver Heron", "May", "12"),
            ("Gull", "June", "7"),
        ):
            row = table.row()
            for cell in cells:
                row.cell(cell)
    return bytes(pdf.output())


def _docx() -> bytes:
    document = docx.Document()
    document.add_heading("Minutes", 0)
    document.add_paragraph("Alice: the budget is approved.")
    table = document.add_table(rows=2, cols=2)
    for row, cells in zip(table.rows, [("item", "cost"), ("rope", "4")], strict=True):
        for cell, value in zip(row.cells, cells, strict=True):
            cell.text = value
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def seeds() -> dict[str, bytes]:
    """A real file of each kind, by the suffix it is loaded under."""
    verses = (EXAMPLES / "esther-kjv.txt").read_text(encoding="utf-8")[:6_000]
    return {
        ".pdf": _pdf(),
        ".docx": _docx(),
        ".html": (EXAMPLES / "harbour" / "records" / "weather-log.html").read_bytes(),
        ".md": (EXAMPLES / "macbeth.md").read_bytes()[:12_000],
        ".txt": verses.encode("utf-8"),
        ".utf16.txt": verses.encode("utf-16"),
        ".latin1.txt": "Größe, naïve café: £12 ½\n".encode("latin-1") * 200,
    }


MUTATIONS = st.lists(
    st.tuples(
        st.sampled_from(["overwrite", "cut", "insert", "repeat"]),
        st.floats(0, 1),  # where, as a share of the length
        st.binary(min_size=1, max_size=64),
    ),
    min_size=1,
    max_size=6,
)


def mutated(seed: bytes, mutations: list[tuple[str, float, bytes]]) -> bytes:
    data = bytearray(seed)
    for kind, where, piece in mutations:
        at = int(where * len(data))
        if kind == "overwrite":
            data[at : at + len(piece)] = piece
        elif kind == "cut":
            del data[at : at + 64 * len(piece)]
        elif kind == "insert":
            data[at:at] = piece
        else:
            data[at:at] = bytes(data[at : at + 4096]) * 4
    return bytes(data)


@dataclass
class Tried:
    """What the inputs of a run did."""

    loaded: int = 0
    refused: int = 0
    slowest: float = 0.0
    peak_mb: float = 0.0

    def load(self, data: bytes, suffix: str, folder: Path) -> str:
        """Load one input as a user's file; `loaded` or `refused` (anything else raises)."""
        path = folder / f"input{suffix}"
        path.write_bytes(data)
        started = time.monotonic()
        try:
            load_document(path)
            what = "loaded"
        except LongreadError as error:
            assert "\n" not in str(error).strip(), f"a refusal of more than one line: {error}"
            what = "refused"
        seconds = time.monotonic() - started
        assert seconds <= MAX_SECONDS, f"one load took {seconds:.1f} s"
        self.slowest = max(self.slowest, seconds)
        self.peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        setattr(self, what, getattr(self, what) + 1)
        return what
