"""A zip package (a DOCX) checked before anything reads it: its parts' declared sizes all told, each
part's ratio, then what each part truly inflates to, counted while inflating a step at a time.
(Python's zipfile inflates a part whole in one step and only then cuts it to the size the central
directory declares: a part that under-states its size would take all it inflates to.)"""

from __future__ import annotations

import struct
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from longread.errors import InputError

MAX_INFLATED_BYTES = 256 * 1024 * 1024  # a package's parts, all told, once inflated
MAX_RATIO = 100  # inflated to stored, of a part over RATIO_FLOOR_BYTES (XML packs 5-20 to one)
RATIO_FLOOR_BYTES = 1024 * 1024
_STEP = 1 << 20  # bytes read, and inflated, at a time
_LOCAL_HEADER = struct.Struct("<4s22xHH")  # signature; the name's and the extra field's lengths


def check_package(path: Path) -> None:
    """Refuse, with an InputError naming the part, a package that would inflate past
    MAX_INFLATED_BYTES, holds a part packed more than MAX_RATIO to one (a zip bomb), packed by a
    method Word does not write, or inflating to more than its directory says."""
    with zipfile.ZipFile(path) as package:
        parts = package.infolist()
        _check_declared(path, parts)
        with path.open("rb") as file:
            for part in parts:
                _check_inflated(path, file, part)


def _check_declared(path: Path, parts: list[zipfile.ZipInfo]) -> None:
    total = sum(part.file_size for part in parts)
    if total > MAX_INFLATED_BYTES:
        raise InputError(
            f"{path} would inflate to {total / 2**20:,.0f} MB, over the "
            f"{MAX_INFLATED_BYTES / 2**20:,.0f} MB a document may take: refused"
        )
    for part in parts:
        if part.file_size > RATIO_FLOOR_BYTES and part.file_size > MAX_RATIO * max(
            1, part.compress_size
        ):
            raise InputError(
                f"{path} holds a part packed {part.file_size // max(1, part.compress_size):,} to "
                f"one ({part.filename}): a zip bomb, refused"
            )


def _check_inflated(path: Path, file: BinaryIO, part: zipfile.ZipInfo) -> None:
    """Inflate the part's stored bytes a step at a time, stopping once past its declared size."""
    if part.compress_type == zipfile.ZIP_STORED:
        return  # (read as stored: no more than the file holds)
    if part.compress_type != zipfile.ZIP_DEFLATED:
        raise InputError(
            f"{path} holds a part packed by a method Word does not use ({part.filename}): refused"
        )
    inflater, inflated = zlib.decompressobj(-zlib.MAX_WBITS), 0
    for stored in _stored(file, part):
        while stored and inflated <= part.file_size:
            inflated += len(inflater.decompress(stored, _STEP))
            stored = inflater.unconsumed_tail
        if inflated > part.file_size:
            raise InputError(
                f"{path} holds a part that inflates to more than the {part.file_size:,} bytes "
                f"its directory says ({part.filename}): refused"
            )


def _stored(file: BinaryIO, part: zipfile.ZipInfo) -> Iterator[bytes]:
    """The part's bytes as stored, a step at a time (found as zipfile finds them: after the local
    header at the offset the central directory gives)."""
    file.seek(part.header_offset)
    header = file.read(_LOCAL_HEADER.size)
    if len(header) < _LOCAL_HEADER.size:
        raise zipfile.BadZipFile(f"a truncated local header ({part.filename})")
    signature, name_length, extra_length = _LOCAL_HEADER.unpack(header)
    if signature != b"PK\x03\x04":
        raise zipfile.BadZipFile(f"a bad local header ({part.filename})")
    file.seek(name_length + extra_length, 1)
    left = part.compress_size
    while left > 0 and (stored := file.read(min(left, _STEP))):
        left -= len(stored)
        yield stored
