"""A local model's evaluated prompt prefixes kept on disk (llama.cpp's state after the prefix: its
attention cache, a few MB), so a later call, in this process or another, whose prompt starts the
same way (a source's tables described for the model that writes its queries) evaluates only what
follows. Kept per model file and context size; the oldest go past MAX_BYTES."""

from __future__ import annotations

import ctypes
import hashlib
import os
import struct
from pathlib import Path
from typing import Any

from longread.config import cache_dir

MAX_BYTES = 1 << 30  # of saved states per machine, the oldest removed first
MIN_TOKENS = 64  # a shorter prefix is evaluated again rather than kept
_HEADER = struct.Struct("<Q")


class PrefixStates:
    """The saved prefixes of one model file at one context size."""

    def __init__(self, model_path: Path, n_ctx: int, folder: Path | None = None):
        stem = f"{model_path.stem}-{os.path.getsize(model_path)}-{n_ctx}"
        self.folder = (folder or cache_dir() / "prefixes") / stem

    def _file(self, tokens: list[int]) -> Path:
        digest = hashlib.sha256(struct.pack(f"<{len(tokens)}i", *tokens)).hexdigest()[:32]
        return self.folder / f"{digest}.state"

    def restore(self, llama: Any, tokens: list[int]) -> bool:
        """Load the state after `tokens` into the model, if one was saved; False if none was (or
        it no longer fits this build of llama.cpp)."""
        path = self._file(tokens)
        try:
            data = path.read_bytes()
        except OSError:
            return False
        try:
            (count,) = _HEADER.unpack_from(data)
            saved = list(struct.unpack_from(f"<{count}i", data, _HEADER.size))
        except struct.error:  # (a file cut short)
            return False
        start = _HEADER.size + 4 * count
        if saved != tokens or start >= len(data):
            return False
        import llama_cpp

        state = (ctypes.c_uint8 * (len(data) - start)).from_buffer_copy(data, start)
        if llama_cpp.llama_state_set_data(llama._ctx.ctx, state, len(state)) != len(state):
            llama.reset()
            return False
        llama.input_ids[:count] = tokens
        llama.n_tokens = count
        llama._requires_eval = True  # (the logits are the prefix's, not live: decode the rest)
        path.touch()  # (kept as the newest)
        return True

    def save(self, llama: Any, tokens: list[int]) -> None:
        """Keep the model's state after `tokens` (its evaluated prompt starts with them): what
        followed them is dropped from its cache first."""
        count = len(tokens)
        if count < MIN_TOKENS or list(llama.input_ids[:count]) != tokens:
            return
        if not llama._ctx.kv_cache_seq_rm(-1, count, -1):
            return
        llama.n_tokens = count
        import llama_cpp

        size = llama_cpp.llama_state_get_size(llama._ctx.ctx)
        buffer = (ctypes.c_uint8 * size)()
        written = llama_cpp.llama_state_get_data(llama._ctx.ctx, buffer, size)
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self._file(tokens)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        with open(partial, "wb") as out:
            out.write(_HEADER.pack(count))
            out.write(struct.pack(f"<{count}i", *tokens))
            out.write(memoryview(buffer)[:written])
        partial.replace(path)
        _trim(self.folder.parent)


def _trim(folder: Path) -> None:
    """Remove the oldest saved states past MAX_BYTES."""
    files = []
    for path in folder.glob("*/*.state"):
        try:
            stat = path.stat()
        except OSError:
            continue
        files.append((stat.st_mtime, stat.st_size, path))
    total = sum(size for _, size, _ in files)
    for _, size, path in sorted(files):
        if total <= MAX_BYTES:
            break
        path.unlink(missing_ok=True)
        total -= size
