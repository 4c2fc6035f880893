"""Read a plain-text or markdown file: detect its encoding, refuse what is not text."""

from __future__ import annotations

import codecs
import os
from mmap import mmap
from pathlib import Path
from stat import S_ISDIR, S_ISREG
from typing import BinaryIO

from charset_normalizer import from_bytes

from longread.errors import InputError

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
_BINARY_MAGIC = {
    b"%PDF": "a PDF",
    b"PK\x03\x04": "a ZIP/DOCX archive",
    b"\x7fELF": "an executable",
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
}


def check_file(path: str | Path) -> Path:
    """The path, if it names a readable, non-empty regular file; else a one-line InputError."""
    p = Path(path).expanduser()
    try:
        info = p.stat()  # one system call for every check
    except (FileNotFoundError, NotADirectoryError):
        raise InputError(f"no such file: {p}") from None
    if S_ISDIR(info.st_mode):
        raise InputError(f"{p} is a directory; give a file")
    if not S_ISREG(info.st_mode):
        raise InputError(f"{p} is not a regular file")
    if info.st_size == 0:
        raise InputError(f"{p} is empty")
    return p


def open_regular(path: str | Path) -> BinaryIO:
    """The file opened for reading if it is a regular file once open: a FIFO, device or socket
    (put in its place after a check, or named as a picture) is opened without blocking, seen and
    refused with an InputError, never read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not S_ISREG(os.fstat(fd).st_mode):
            raise InputError(f"{path} is not a regular file")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def decode(data: bytes | mmap, name: str = "input") -> str:
    """Text from bytes (or a file mapped into memory): BOMs first, then strict UTF-8, then
    charset detection; newlines normalized."""
    return decoded(data, name)[0]


def decoded(data: bytes | mmap, name: str = "input") -> tuple[str, bool]:
    """(`decode`'s text, whether that text is the bytes read as UTF-8 unchanged: no byte order
    mark, no other encoding, no line end normalized)."""
    head = bytes(data[:8192])
    for bom, encoding in _BOMS:
        if head.startswith(bom):
            return _normalize(str(data, encoding, errors="replace")), False  # (a cut file: �)
    for magic, kind in _BINARY_MAGIC.items():
        if head.startswith(magic):
            raise InputError(f"{name} is {kind}, not a text file")
    if b"\x00" in head:
        raise InputError(f"{name} looks binary (it contains NUL bytes), not a text file")
    try:
        raw = str(data, "utf-8")
    except UnicodeDecodeError:
        return _normalize(str(data, _guess_encoding(bytes(data[:1_000_000])), "replace")), False
    text = _normalize(raw)
    return text, text is raw


def _guess_encoding(data: bytes) -> str:
    """Charset detection, preferring Windows-1252 (which covers Latin-1 text) unless another code
    page reads clearly cleaner: on short Western text detectors often pick a Baltic or Central
    European one by a hair."""
    matches = from_bytes(data[:1_000_000])
    best = matches.best()
    western = next((m for m in matches if m.encoding == "cp1252"), None)
    if best is None or (western is not None and western.chaos <= best.chaos + 0.15):
        return "cp1252"
    return best.encoding


def _normalize(text: str) -> str:
    """Unix newlines; a text without carriage returns is returned as is (no copy)."""
    if "\r" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")


def read_text_file(path: str | Path) -> str:
    """The normalized text of a text or markdown file."""
    p = check_file(path)
    return text_of(p.read_bytes(), p)[0]


def text_of(data: bytes | mmap, path: Path) -> tuple[str, bool]:
    """The normalized text of the bytes of the file `path`, and whether it is those bytes as
    UTF-8 unchanged (see `decoded`); an InputError if it holds no text."""
    text, verbatim = decoded(data, path.name)
    if not text or text.isspace():  # (strip() would copy the whole text)
        raise InputError(f"{path} has no text (only whitespace)")
    return text, verbatim
