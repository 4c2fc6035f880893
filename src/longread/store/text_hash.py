"""A document's identity: the hash of its text."""

from __future__ import annotations

import hashlib
from concurrent.futures import ThreadPoolExecutor

_HASH_CHARS = 1 << 20


def content_hash(text: str) -> str:
    """The identity of a document: SHA-256 of its normalized text in UTF-8. The text is encoded a
    slice at a time (never copied whole) while a helper thread hashes the slice before."""
    if len(text) <= _HASH_CHARS:  # small: not worth a thread
        return hashlib.sha256(text.encode("utf-8")).hexdigest()
    digest = hashlib.sha256()
    with ThreadPoolExecutor(1) as hasher:
        pending = hasher.submit(digest.update, b"")
        for start in range(0, len(text), _HASH_CHARS):
            data = text[start : start + _HASH_CHARS].encode("utf-8")
            pending.result()
            pending = hasher.submit(digest.update, data)
        pending.result()
    return digest.hexdigest()
