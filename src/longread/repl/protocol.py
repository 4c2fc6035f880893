"""Length-prefixed JSON frames over a pair of pipes between the host and its REPL worker. JSON only
(never pickle): the worker runs untrusted code, so nothing it sends may execute. The host reads and
writes every frame with a deadline, and reads with caps on size and nesting, so a worker that stalls
mid-frame, stops reading, or sends a huge or deeply nested frame cannot hold it."""

from __future__ import annotations

import json
import os
import re
import select
import struct
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

MAX_FRAME = 512 * 1024 * 1024  # what the host may send (a tool's result can be large)
_HEADER = struct.Struct(">I")
_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")


class ChannelClosed(Exception):
    """The other side went away or sent something that is not a frame."""


class FrameTimeout(ChannelClosed):
    """No whole frame went through before the deadline."""


class ChannelEnded(ChannelClosed):
    """The other side closed its end (it exited, or was killed)."""


@dataclass(frozen=True)
class JsonText:
    """A value already encoded as JSON (a long list read from the store as saved): it goes into
    a JSON object as it is, never decoded and encoded again on the host."""

    text: str


def json_object(values: Mapping[str, Any]) -> str:
    """The JSON object of `values`, each JsonText among them written as it is."""
    members = (
        json.dumps(name)
        + ": "
        + (
            value.text
            if isinstance(value, JsonText)
            else json.dumps(value, ensure_ascii=False, default=str)
        )
        for name, value in values.items()
    )
    return "{" + ", ".join(members) + "}"


def decoded(values: Mapping[str, Any]) -> dict[str, Any]:
    """`values` with each JsonText among them decoded."""
    return {
        name: json.loads(value.text) if isinstance(value, JsonText) else value
        for name, value in values.items()
    }


def encode(message: dict[str, Any]) -> bytes:
    """The frame for `message`: its length, then its JSON."""
    body = json.dumps(message, ensure_ascii=False, default=str).encode("utf-8", "replace")
    return _HEADER.pack(len(body)) + body


def _wait(fd: int, event: int, deadline: float | None) -> None:
    if deadline is None:
        return
    remaining = deadline - time.monotonic()
    poller = select.poll()  # (not select(): it fails on descriptors past 1023)
    poller.register(fd, event)
    if remaining <= 0 or not poller.poll(remaining * 1000):
        raise FrameTimeout("the other side did not keep up before the deadline")


def send(fd: int, message: dict[str, Any] | bytes, deadline: float | None = None) -> None:
    """Write a frame (a message, or one `encode` made). With a deadline, `fd` must be non-blocking:
    a reader that stops reading raises FrameTimeout instead of holding the writer."""
    data = memoryview(message if isinstance(message, bytes) else encode(message))
    while data:
        _wait(fd, select.POLLOUT, deadline)
        try:
            written = os.write(fd, data)
        except BlockingIOError:
            continue
        except OSError as error:
            raise ChannelEnded(str(error)) from error
        data = data[written:]


def _read_exact(fd: int, size: int, deadline: float | None) -> bytes:
    chunks, remaining = [], size
    while remaining:
        _wait(fd, select.POLLIN, deadline)
        try:
            chunk = os.read(fd, min(remaining, 1 << 20))
        except OSError as error:
            raise ChannelEnded(str(error)) from error
        if not chunk:
            raise ChannelEnded("end of stream")
        chunks.append(chunk)
        remaining -= len(chunk)
    return b"".join(chunks)


def receive(
    fd: int,
    deadline: float | None = None,
    max_bytes: int = MAX_FRAME,
    max_containers: int | None = None,
) -> dict[str, Any]:
    """The next frame from `fd` as a JSON object. FrameTimeout when it is not whole by `deadline`
    (a `time.monotonic()` value); ChannelClosed for a closed pipe, a frame over `max_bytes` or
    with more than `max_containers` objects and arrays (each costs the reader far more than its
    two bytes), or one that is not a JSON object."""
    (size,) = _HEADER.unpack(_read_exact(fd, _HEADER.size, deadline))
    if size > max_bytes:
        raise ChannelClosed(f"a frame of {size:,} bytes is over the limit of {max_bytes:,}")
    body = _read_exact(fd, size, deadline)
    if max_containers is not None and body.count(b"{") + body.count(b"[") > max_containers:
        raise ChannelClosed("a frame nests too many objects")
    try:
        message = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError) as error:  # ValueError: bad UTF-8 or JSON, a huge integer
        raise ChannelClosed(f"malformed frame: {type(error).__name__}") from error
    if not isinstance(message, dict):
        raise ChannelClosed("malformed frame: not an object")
    return _without_surrogates(message) if _ESCAPED_SURROGATE.search(body) else message


def _without_surrogates(value: Any) -> Any:
    """`value` with lone surrogates (from \\ud800-style escapes; not text) replaced in every
    string."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, list):
        return [_without_surrogates(item) for item in value]
    if isinstance(value, dict):
        return {_without_surrogates(key): _without_surrogates(item) for key, item in value.items()}
    return value
