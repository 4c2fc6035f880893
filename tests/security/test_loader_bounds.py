"""Hostile files given to `longread index`, as a user runs it: loaders count the bytes they decode,
not the sizes a file declares. A page showing one large picture many times, a picture that is a
FIFO, a DOCX whose directory under-states a part, a PDF page of 14,400 points: each ends within its
time limit under 600 MB, with one line where something is refused or left out, and the rest of
the document (or folder) is indexed."""

from __future__ import annotations

import base64
import binascii
import io
import os
import re
import struct
import zipfile
from pathlib import Path

import pytest
from PIL import Image as Picture

from cli import LONGREAD
from fake_openai import fake_openai
from longread.errors import InputError
from longread.ingest.document import load_document
from security.harness import measured

LIMIT_MB = 600
SAID = "A field of grey noise."


def index(path: Path, tmp_path: Path, *extra: str, **env: str):
    """`longread index PATH --no-summaries` with the cache in the test's folder: (the run, its
    peak MB)."""
    return measured(
        [LONGREAD, "index", str(path), "--no-summaries", *extra],
        tmp_path,
        LONGREAD_CACHE_DIR=str(tmp_path / "cache"),
        OPENAI_API_KEY="sk-test",
        **env,
    )


def noise_png(side: int = 1150) -> bytes:
    """A PNG of random pixels (it does not compress): about 4 MB at the default side."""
    out = io.BytesIO()
    Picture.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(out, format="PNG")
    return out.getvalue()


def page_showing(folder: Path, source: str, times: int) -> Path:
    folder.mkdir(exist_ok=True)
    page = folder / "page.html"
    pictures = f'<img alt="Noise" src="{source}"><br>' * times
    page.write_text(
        f"<html><body><h1>Tides</h1><p>The harbour master keeps the tide tables.</p>{pictures}"
        "</body></html>"
    )
    return page


def shown_pictures(messages) -> list[bytes]:
    """The pictures a vision request shows, decoded."""
    parts = messages[-1]["content"]
    return [
        base64.b64decode(p["image_url"]["url"].split(",", 1)[1])
        for p in parts
        if p["type"] == "image_url"
    ]


def test_a_page_showing_one_large_picture_500_times_is_indexed_small(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    picture = folder / "noise.png"
    picture.write_bytes(noise_png())
    assert picture.stat().st_size > 3_900_000
    page = page_showing(folder, "noise.png", 500)
    assert page.stat().st_size < 20_000
    done, peak = index(page, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and peak < LIMIT_MB, (peak, done.stderr)
    with fake_openai([]) as server:
        server.last = lambda messages: (
            SAID if shown_pictures(messages) == [picture.read_bytes()] else "wrong"
        )
        done, peak = index(
            page, tmp_path, "--rebuild", "--vision-model", "openai:vision",
            OPENAI_BASE_URL=server.url,
        )  # fmt: skip
        asked = len(server.requests)
        server.requests.clear()  # (the pictures sent are large: not kept past the count)
    assert done.returncode == 0, done.stderr
    assert peak < LIMIT_MB, (peak, done.stderr)
    assert asked == 1  # (one picture, one caption: described once, the description shared)


def test_a_picture_that_is_a_fifo_does_not_hang_indexing(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    os.mkfifo(folder / "pipe.png")
    page = page_showing(folder, "pipe.png", 1)
    done, _ = index(page, tmp_path)
    assert done.returncode == 0, done.stderr
    with fake_openai([SAID]) as server:
        done, _ = index(
            page, tmp_path, "--rebuild", "--vision-model", "openai:vision",
            OPENAI_BASE_URL=server.url,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr  # (not None: it ended, well within its time)
    assert server.requests == []  # (nothing read, nothing sent)
    [line] = [line for line in done.stderr.splitlines() if "pipe.png" in line]
    assert "not a regular file" in line and "Traceback" not in done.stderr


def picture_docx(path: Path) -> tuple[Path, dict[str, bytes]]:
    """A real DOCX showing a small picture, and its parts by name."""
    import docx

    made = docx.Document()
    made.add_paragraph("The harbour master keeps the tide tables.")
    made.add_picture(io.BytesIO(noise_png(side=8)))
    made.save(str(path))
    with zipfile.ZipFile(path) as package:
        return path, {info.filename: package.read(info) for info in package.infolist()}


def understated_docx(path: Path, inflated_mb: int) -> Path:
    """A real DOCX showing a picture whose part is zeros that inflate to `inflated_mb` MB, though
    its central directory (and local header) says it holds 1,000 bytes, with the checksum of
    those 1,000."""
    path, parts = picture_docx(path)
    name = next(part for part in parts if part.startswith("word/media/"))
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as package:
        for part, data in parts.items():
            if part != name:
                package.writestr(part, data)
        with package.open(name, "w") as part:
            for _ in range(inflated_mb):
                part.write(bytes(1024 * 1024))
    data = bytearray(path.read_bytes())
    crc = binascii.crc32(bytes(1000))
    for signature, name_at, crc_at, size_at in (
        (b"PK\x03\x04", 30, 14, 22),
        (b"PK\x01\x02", 46, 16, 24),
    ):
        at = data.find(signature)
        while data[at + name_at : at + name_at + len(name)] != name.encode():
            at = data.find(signature, at + 4)
        struct.pack_into("<I", data, at + crc_at, crc)
        struct.pack_into("<I", data, at + size_at, 1000)
    path.write_bytes(bytes(data))
    with zipfile.ZipFile(path) as package:  # (what it declares: a small part, a true checksum)
        assert package.getinfo(name).file_size == 1000
    return path


def test_a_docx_that_understates_a_part_is_refused_in_one_line(tmp_path):
    bomb = understated_docx(tmp_path / "report.docx", 1024)
    assert bomb.stat().st_size < 3 * 1024 * 1024
    done, peak = index(bomb, tmp_path)
    assert peak < LIMIT_MB, (peak, done.stderr)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    [line] = done.stderr.splitlines()
    assert "word/media/" in line and "refused" in line, line


def test_a_docx_part_packed_by_a_method_word_does_not_use_is_refused(tmp_path):
    """Python's zipfile inflates bzip2 and LZMA parts without any bound on a step's output."""
    path, parts = picture_docx(tmp_path / "report.docx")
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as package:
        for part, data in parts.items():
            packed = zipfile.ZIP_BZIP2 if part == "word/document.xml" else zipfile.ZIP_DEFLATED
            package.writestr(part, data, compress_type=packed)
    with pytest.raises(InputError, match=r"method Word does not use \(word/document.xml\)"):
        load_document(path)


def huge_page_pdf(path: Path) -> Path:
    """A PDF of one page 14,400 points square (200 inches), a line of text at its top and a
    small picture stretched over the rest."""
    from fpdf import FPDF

    pdf = FPDF(unit="pt", format=(14_400, 14_400))
    pdf.add_page()
    pdf.set_font("Helvetica", size=72)
    pdf.text(100, 200, "Chart of the harbour approaches.")
    pdf.image(io.BytesIO(noise_png(side=8)), x=0, y=400, w=14_400, h=14_000)
    pdf.output(str(path))
    return path


def test_a_pdf_page_of_14400_points_renders_its_figure_small(tmp_path):
    pdf = huge_page_pdf(tmp_path / "chart.pdf")
    assert pdf.stat().st_size < 4000
    sizes: list[tuple[int, int]] = []

    def describe(messages) -> str:
        sizes.extend(Picture.open(io.BytesIO(p)).size for p in shown_pictures(messages))
        return SAID

    with fake_openai([describe]) as server:
        done, peak = index(
            pdf, tmp_path, "--vision-model", "openai:vision", OPENAI_BASE_URL=server.url
        )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert peak < LIMIT_MB, (peak, done.stderr)
    [(width, height)] = sizes  # (described, at a size a vision model can take)
    assert width * height <= 8_000_000


def test_a_folder_of_hostile_files_indexes_the_others(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "notes.txt").write_text("The harbour master keeps the tide tables.")
    understated_docx(folder / "report.docx", 64)
    os.mkfifo(folder / "pipe.png")
    page_showing(folder, "pipe.png", 3)
    os.mkfifo(folder / "queue.txt")
    done, peak = index(folder, tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    report = " ".join(done.stdout.split())
    assert "2 added" in report and "3 skipped" in report, report
    for name, why in [("pipe.png", "not a regular file"), ("queue.txt", "not a regular file")]:
        assert re.search(rf"skipped {name}: \S+ is {why}", report), report
    assert re.search(r"skipped report.docx: \S+ holds a part that inflates to more", report)
    assert peak < LIMIT_MB
