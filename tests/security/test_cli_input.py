"""The `longread` command given hostile or mistaken input, run as a user runs it: every mistake is
one line on stderr and exit code 2, never a traceback, a usage block or a library's warning."""

from __future__ import annotations

import logging
import os
import re
import subprocess
from pathlib import Path

import pytest

from cli import LONGREAD
from longread.errors import InputError
from longread.ingest.document import load_document
from security.harness import measured
from test_ingest_documents import write_pdf


def longread(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("LONGREAD_MODEL", "LONGREAD_SUB_MODEL")}
    return subprocess.run(
        [LONGREAD, *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=300
    )


def assert_one_line_error(result: subprocess.CompletedProcess, *needles: str) -> str:
    """Exit code 2, exactly one line on stderr: `error:` and the needles (in any case)."""
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert all(needle.lower() in lines[0].lower() for needle in needles), lines[0]
    return lines[0]


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["ask", "--max-iterations", "-1", "f", "q"], ["--max-iterations", "1"]),
        (["ask", "f", "q", "--max-iterations", "abc"], ["--max-iterations", "integer"]),
        (["--bogus"], ["--bogus"]),
        (["ask"], ["Missing argument", "FILE"]),
        (["nosuchcommand"], ["nosuchcommand"]),
        (["serve", "--max-concurrent", "0"], ["--max-concurrent"]),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(tmp_path, args, needles):
    line = assert_one_line_error(longread(*args, cwd=tmp_path), *needles)
    assert not any(box in line for box in "│╭╰─") and "Usage:" not in line


@pytest.mark.parametrize("args", [[], ["corpus"]])
def test_no_arguments_shows_the_help_without_a_traceback(tmp_path, args):
    result = longread(*args, cwd=tmp_path)
    assert result.returncode == 0 and "Usage:" in result.stdout and result.stderr == ""
    assert "Traceback" not in result.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--help"], "ask"),
        (["ask", "--help"], "--max-iterations"),
        (["serve", "--help"], "--queue-timeout"),
    ],
)
def test_help_still_works(tmp_path, args, needle):
    result = longread(*args, cwd=tmp_path)
    assert result.returncode == 0 and needle in result.stdout and result.stderr == ""


# --- symbolic link loops -------------------------------------------------------------------------


def test_a_symlink_loop_is_an_input_error_when_loaded(tmp_path):
    (tmp_path / "loop").symlink_to("loop")
    with pytest.raises(InputError, match="symbolic links"):
        load_document(tmp_path / "loop")


def test_a_symlink_loop_given_as_the_file_is_one_line(tmp_path):
    (tmp_path / "loop").symlink_to("loop")
    assert_one_line_error(longread("ask", "loop", "q", cwd=tmp_path), "loop")


def test_a_symlink_loop_in_a_folder_is_skipped_with_its_reason(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "notes.txt").write_text("The harbour master keeps the tide tables.")
    (folder / "loop").symlink_to("loop")
    result = longread("index", str(folder), cwd=tmp_path)
    assert result.returncode == 0 and "Traceback" not in result.stdout + result.stderr, (
        result.stderr
    )
    report = " ".join(result.stdout.split())  # (rich wraps it at the terminal's width)
    assert "1 added" in report and "1 skipped" in report
    assert re.search(r"\bskipped loop: \S.*symbolic links", report), report


def test_a_folder_holding_only_a_symlink_loop_is_one_line(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "loop").symlink_to("loop")
    assert_one_line_error(
        longread("ask", str(folder), "q", cwd=tmp_path), "no readable documents (1 files skipped)"
    )


# --- damaged PDFs --------------------------------------------------------------------------------


def _truncated_pdf(tmp_path: Path) -> Path:
    data = write_pdf(tmp_path / "full.pdf").read_bytes()
    (tmp_path / "cut.pdf").write_bytes(data[: len(data) // 2])
    return tmp_path / "cut.pdf"


def test_a_truncated_pdf_is_one_line_without_library_warnings(tmp_path):
    assert_one_line_error(
        longread("ask", str(_truncated_pdf(tmp_path)), "q", cwd=tmp_path),
        "cut.pdf",
        "not a readable PDF",
    )


def test_pypdf_is_silenced_only_while_a_pdf_loads(tmp_path, caplog):
    logger = logging.getLogger("pypdf")
    before = logger.level
    with pytest.raises(InputError):
        load_document(_truncated_pdf(tmp_path))
    assert not [r for r in caplog.records if r.name.startswith("pypdf")]
    assert logger.level == before
    logging.getLogger("pypdf._reader").warning("seen after the load")
    assert [r.getMessage() for r in caplog.records] == ["seen after the load"]


def _bomb_docx(path: Path, inflated_mb: int) -> Path:
    """A real DOCX with one more part of zeros that packs about a thousand to one."""
    import zipfile

    from test_ingest_documents import write_docx

    write_docx(path)
    zeros = bytes(1024 * 1024)
    with (
        zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as package,
        package.open("word/media/fill.bin", "w") as part,
    ):
        for _ in range(inflated_mb):
            part.write(zeros)
    return path


def test_a_zip_bomb_is_refused_in_one_line_before_it_inflates(tmp_path):
    bomb = _bomb_docx(tmp_path / "report.docx", 64)
    assert bomb.stat().st_size < 2 * 1024 * 1024
    with pytest.raises(InputError, match="zip bomb"):
        load_document(bomb)
    result, peak_mb = measured([LONGREAD, "ask", str(bomb), "What is in it?"], tmp_path, 300)
    assert_one_line_error(result, "zip bomb")
    assert peak_mb < 300  # (the whole CLI: well under what the part would inflate to)


def test_a_pdf_stream_that_inflates_without_end_is_refused_in_one_line(tmp_path):
    import zlib

    from pypdf import PdfWriter
    from pypdf.generic import NameObject, StreamObject

    writer = PdfWriter()
    page = writer.add_blank_page(612, 792)
    stream = StreamObject()
    stream._data = zlib.compress(b"BT /F1 12 Tf (x) Tj ET\n" * 8_000_000, 9)  # 184 MB inflated
    stream[NameObject("/Filter")] = NameObject("/FlateDecode")
    page[NameObject("/Contents")] = writer._add_object(stream)
    path = tmp_path / "bomb.pdf"
    writer.write(path)
    with pytest.raises(InputError):
        load_document(path)


def test_a_file_linked_from_outside_the_folder_is_not_indexed(tmp_path):
    """A symlink inside the folder to a file outside it (a secret, a key) is left out, as a
    folder linked to is; a link to a file inside the folder is read."""
    secret = tmp_path / "secret.txt"
    secret.write_text("The vault code is 7391-ALPHA-SECRET.")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "notes.txt").write_text("The harbour master keeps the tide tables.")
    (folder / "inner.txt").symlink_to(folder / "notes.txt")
    (folder / "leak.txt").symlink_to(secret)
    (folder / ".env").write_text("TOKEN=7391-ALPHA-SECRET")
    (folder / "env.txt").symlink_to(folder / ".env")  # (a hidden file, shown by a link)
    result = longread("index", str(folder), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    report = " ".join(result.stdout.split())
    assert "2 added" in report, report
    from longread.index.corpus_update import files_named  # (what watch reads of named files)

    assert set(files_named(folder, ["leak.txt", "inner.txt", "notes.txt"])) == {
        "inner.txt",
        "notes.txt",
    }
