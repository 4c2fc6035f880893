"""Length-prefixed JSON frames over a pair of pipes between the host and its REPL worker.
JSON only (never pickle): the worker runs untrusted code, so nothing it sends may execute."""

from __future__ import annotations

import json
import os
import struct
from typing import Any

MAX_FRAME = 512 * 1024 * 1024
_HEADER = struct.Struct(">I")


class ChannelClosed(Exception):
    """The other side went away or sent something that is not a frame."""


def send(fd: int, message: dict[str, Any]) -> None:
    body = json.dumps(message, ensure_ascii=False, default=str).encode("utf-8")
    data = memoryview(_HEADER.pack(len(body)) + body)
    while data:
        try:
            written = os.write(fd, data)
        except (BrokenPipeError, OSError) as error:
            raise ChannelClosed(str(error)) from error
        data = data[written:]


def _read_exact(fd: int, size: int) -> bytes:
    chunks, remaining = [], size
    while remaining:
        try:
            chunk = os.read(fd, min(remaining, 1 << 20))
        except OSError as error:
            raise ChannelClosed(str(error)) from error
        if not chunk:
            raise ChannelClosed("end of stream")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def receive(fd: int) -> dict[str, Any]:
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size))
    if size > MAX_FRAME:
        raise ChannelClosed(f"frame of {size} bytes is too large")
    try:
        message = json.loads(_read_exact(fd, size).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ChannelClosed(f"malformed frame: {error}") from error
    if not isinstance(message, dict):
        raise ChannelClosed("malformed frame: not an object")
    return message
