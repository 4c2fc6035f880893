"""Knowing a file without reading it: its stamp (size, modification time, inode) says it is the file
an index was built from; only when the stamp differs is its content hashed, streamed in bounded
memory, so a touched but unchanged file is recognized without being indexed again."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from stat import S_ISREG
from typing import NamedTuple

_READ_BYTES = 1 << 20


class Stamp(NamedTuple):
    """What the file system says of a file, without reading it."""

    path: str  # absolute
    size: int
    mtime_ns: int
    inode: int


class Fingerprint(NamedTuple):
    stamp: Stamp
    file_hash: str


def stamp(path: str | Path) -> Stamp | None:
    """The file's stamp; None for what is not a regular file one can stat (the loader says why)."""
    absolute = os.path.abspath(path)
    try:
        status = os.stat(absolute)
    except (OSError, ValueError):
        return None
    if not S_ISREG(status.st_mode):
        return None
    return Stamp(absolute, status.st_size, status.st_mtime_ns, status.st_ino)


def fingerprint(source: Stamp) -> Fingerprint | None:
    """The stamp with the SHA-256 of the file's bytes, read 1 MB at a time; None if it cannot be
    read."""
    digest = hashlib.sha256()
    try:
        with open(source.path, "rb") as file:
            while block := file.read(_READ_BYTES):
                digest.update(block)
    except OSError:
        return None
    return Fingerprint(source, digest.hexdigest())
