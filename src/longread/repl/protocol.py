"""Length-prefixed JSON frames over a pair of pipes between the host and its REPL worker.
JSON only (never pickle): the worker runs untrusted code, so nothing it sends may execute. The
host reads every frame with a deadline and a size cap, so a worker that stalls mid-frame or sends
a huge one cannot hold it."""

from __future__ import annotations

import json
import os
import select
import struct
import time
from typing import Any

MAX_FRAME = 512 * 1024 * 1024  # what the host may send (a tool's result can be large)
_HEADER = struct.Struct(">I")


class ChannelClosed(Exception):
    """The other side went away or sent something that is not a frame."""


class FrameTimeout(ChannelClosed):
    """No whole frame arrived before the deadline."""


def send(fd: int, message: dict[str, Any]) -> None:
    body = json.dumps(message, ensure_ascii=False, default=str).encode("utf-8")
    data = memoryview(_HEADER.pack(len(body)) + body)
    while data:
        try:
            written = os.write(fd, data)
        except OSError as error:
            raise ChannelClosed(str(error)) from error
        data = data[written:]


def _wait(fd: int, deadline: float | None) -> None:
    if deadline is None:
        return
    remaining = deadline - time.monotonic()
    if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
        raise FrameTimeout("no reply before the deadline")


def _read_exact(fd: int, size: int, deadline: float | None) -> bytes:
    chunks, remaining = [], size
    while remaining:
        _wait(fd, deadline)
        try:
            chunk = os.read(fd, min(remaining, 1 << 20))
        except OSError as error:
            raise ChannelClosed(str(error)) from error
        if not chunk:
            raise ChannelClosed("end of stream")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def receive(fd: int, deadline: float | None = None, max_bytes: int = MAX_FRAME) -> dict[str, Any]:
    """The next frame from `fd` as a JSON object. FrameTimeout when it is not whole by `deadline`
    (a `time.monotonic()` value); ChannelClosed for a closed pipe, a frame over `max_bytes` or one
    that is not a JSON object."""
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))
    if size > max_bytes:
        raise ChannelClosed(f"a frame of {size:,} bytes is over the limit of {max_bytes:,}")
    try:
        message = json.loads(_read_exact(fd, size, deadline).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ChannelClosed(f"malformed frame: {error}") from error
    if not isinstance(message, dict):
        raise ChannelClosed("malformed frame: not an object")
    return message
