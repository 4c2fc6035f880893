"""Where longread keeps its caches and which models it uses when none are named."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """`$LONGREAD_CACHE_DIR`, else `$XDG_CACHE_HOME/longread`, else `~/.cache/longread`."""
    explicit = os.environ.get("LONGREAD_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "longread"


def data_dir() -> Path:
    """Where what a user made is kept (saved conversations): `$LONGREAD_DATA_DIR`, else
    `$XDG_DATA_HOME/longread`, else `~/.local/share/longread`."""
    explicit = os.environ.get("LONGREAD_DATA_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "longread"


def index_path(document: Path, folder: Path | None = None) -> Path:
    """Where a document's index lives: one SQLite file per document path, in the cache (or in
    `folder`)."""
    import hashlib

    from longread.errors import InputError

    try:
        resolved = document.expanduser().resolve()
    except (RuntimeError, OSError) as error:  # a symlink loop: RuntimeError before Python 3.13
        raise InputError(f"cannot read {document}: {error}") from None
    digest = hashlib.sha1(str(resolved).encode("utf-8")).hexdigest()[:12]
    return (folder or cache_dir() / "indexes") / f"{resolved.stem[:40]}-{digest}.sqlite"


def default_model() -> str:
    """The root model spec used when none is given: `$LONGREAD_MODEL`, else the embedded local
    model."""
    return os.environ.get("LONGREAD_MODEL", "local")


def default_vision_model() -> str | None:
    """The model that describes figures: `$LONGREAD_VISION_MODEL`, else none."""
    return os.environ.get("LONGREAD_VISION_MODEL") or None


def default_sub_model(root: str) -> str:
    """The sub-model spec: `$LONGREAD_SUB_MODEL`, else the root model."""
    return os.environ.get("LONGREAD_SUB_MODEL", root)


def default_reader() -> str:
    """Who reads counting questions when none is named: `$LONGREAD_READER`, else `auto`."""
    return os.environ.get("LONGREAD_READER", "auto")


def default_answer_model() -> str:
    """Who states a fact's short answer when none is named: `$LONGREAD_ANSWER_MODEL`, else
    `auto`."""
    return os.environ.get("LONGREAD_ANSWER_MODEL", "auto")
