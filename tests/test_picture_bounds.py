"""A document's pictures are read within bounds when a vision model is to see them: each distinct
picture once (the same bytes for every figure showing it), only a regular file, none over its
byte or pixel cap, no more than the document's total; each one left out is said in one line."""

from __future__ import annotations

import io
import logging
import os
import struct
import zlib
from base64 import b64decode

from PIL import Image as Picture

from longread.index.figures import FigureReader
from longread.ingest import pictures as bounds
from longread.ingest.document import load_document
from longread.ingest.loaded import Figure, LoadedDocument
from longread.ingest.pictures import Pictures, picture_source
from longread.ingest.text import open_regular
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM


def png(side: int = 16, seed: int = 0) -> bytes:
    out = io.BytesIO()
    Picture.new("RGB", (side, side), (seed, 80, 160)).save(out, format="PNG")
    return out.getvalue()


def png_header(width: int, height: int) -> bytes:
    """A PNG that says it is `width` by `height`, with no pixels (an empty data chunk)."""

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", b"")


def shown(tmp_path, name: str, data: bytes | None = None) -> Figure:
    """A figure of a page in `tmp_path` showing the file `name` (written with `data`)."""
    if data is not None:
        (tmp_path / name).write_bytes(data)
    kind, source = picture_source(name, tmp_path.resolve())
    return Figure(0, None, "", kind, source=source)


def test_a_picture_shown_many_times_is_read_once(tmp_path, monkeypatch):
    figures = [shown(tmp_path, "chart.png", png())] + [shown(tmp_path, "chart.png")] * 3
    opened: list[str] = []

    def counted(path: str):
        opened.append(path)
        return open_regular(path)

    monkeypatch.setattr(bounds, "open_regular", counted)
    pictures = Pictures("page.html")
    first, *others = [pictures.data(figure) for figure in figures]
    assert first == png() and all(other is first for other in others)
    assert len(opened) == 1 and pictures.spent == len(first)


def test_pictures_past_the_documents_total_are_left_out_in_one_line(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(bounds, "MAX_DOCUMENT_BYTES", 2 * len(png()) + 10)
    figures = [shown(tmp_path, f"p{n}.png", png(seed=n)) for n in range(4)]
    pictures = Pictures("page.html")
    with caplog.at_level(logging.WARNING):
        read = [pictures.data(figure) for figure in figures[:3]]
    assert read[:2] == [png(seed=0), png(seed=1)] and read[2] is None and pictures.full
    [said] = caplog.messages
    assert said.startswith("page.html: p2.png and those after it are past the") and "\n" not in said


def test_a_picture_too_large_in_pixels_or_not_a_picture_is_not_shown(tmp_path, caplog):
    figures = [
        shown(tmp_path, "wide.png", png_header(6_000, 6_000)),  # (36 million pixels)
        shown(tmp_path, "vast.png", png_header(60_000, 60_000)),  # (Pillow's own bomb size)
        shown(tmp_path, "text.png", b"not a picture at all"),
        shown(tmp_path, "ok.png", png()),
    ]
    pictures = Pictures("page.html")
    with caplog.at_level(logging.WARNING):
        read = [pictures.data(figure) for figure in figures]
    assert read == [None, None, None, png()]
    assert [m.split(": ", 1)[1].split(" is ")[0] for m in caplog.messages] == [
        "wide.png",
        "vast.png",
        "text.png",
    ]
    assert "million pixels" in caplog.messages[0] and "size can be read" in caplog.messages[2]


def test_a_picture_that_is_a_fifo_is_not_read(tmp_path, caplog):
    os.mkfifo(tmp_path / "pipe.png")
    with caplog.at_level(logging.WARNING):
        assert Pictures("page.html").data(shown(tmp_path, "pipe.png")) is None
    assert caplog.messages == [
        "page.html: pipe.png is not a regular file: not read (its caption is kept)"
    ]


def test_one_description_serves_every_figure_of_the_same_picture_and_caption(tmp_path):
    figures = [shown(tmp_path, "chart.png", png())] * 3 + [
        shown(tmp_path, "other.png", png(seed=9))
    ]
    figures = [
        Figure(n, None, "A chart", f.media_type, source=f.source) for n, f in enumerate(figures)
    ]
    document = LoadedDocument("page.html", "html", "abcd", figures=figures)

    def describe(request) -> str:
        [image] = request.images
        return "Said of the chart." if b64decode(image.data) == png() else "Said of the other."

    vision = ScriptedLM(describe, reads_images=True)
    described = FigureReader(vision, Gateway(cache=False))(tmp_path / "page.html", document)
    assert len(vision.requests) == 2
    assert described.text.count("Said of the chart.") == 3
    assert described.text.count("Said of the other.") == 1


def test_a_docx_keeps_no_more_pictures_than_a_document_shows(tmp_path, monkeypatch):
    import docx

    from longread.ingest import docx as docx_loader

    monkeypatch.setattr(docx_loader, "MAX_DOCUMENT_BYTES", 2 * len(png()) + 10)
    made = docx.Document()
    for seed in (0, 1, 2, 0):  # (the first picture shown again last)
        made.add_picture(io.BytesIO(png(seed=seed)))
    made.add_paragraph("The harbour master keeps the tide tables.")
    made.save(str(tmp_path / "report.docx"))
    kept = [figure.data for figure in load_document(tmp_path / "report.docx").figures]
    assert kept[:3] == [png(seed=0), png(seed=1), None] and kept[3] is kept[0]
