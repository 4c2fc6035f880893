"""What a server is started with: access token, limits, default models, where indexes live."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from longread.config import cache_dir, default_model, default_sub_model
from longread.executor import Executor
from longread.llm.base import LM
from longread.llm.specs import resolve_model


@dataclass
class Settings:
    """`token`: every /api/ route then needs `Authorization: Bearer <token>`. `max_seconds` and
    `max_cost_usd` bound each analysis (its own budget); `max_subcalls` caps what one may ask for.
    At most `max_concurrent` analyses run at once; another waits up to `queue_timeout` seconds for
    one to end, else gets 503. `resolve` turns a model spec into a model (tests pass scripted
    ones)."""

    token: str | None = field(default_factory=lambda: os.environ.get("LONGREAD_TOKEN") or None)
    max_upload_mb: float = 50.0
    model: str = field(default_factory=default_model)
    sub_model: str | None = None
    max_chars_kept: int = 100_000_000  # parsed text held in memory; the oldest documents go first
    max_seconds: float = 900.0
    max_cost_usd: float | None = None
    max_subcalls: int = 200
    max_concurrent: int = 4
    queue_timeout: float = 30.0
    allow_unisolated_code: bool = False  # run rlm mode even where the OS cannot isolate model code
    index_dir: Path = field(default_factory=lambda: cache_dir() / "indexes")
    watch: tuple[Path, ...] = ()  # folders kept indexed as they change (their indexes in index_dir)
    resolve: Callable[[str], LM] = resolve_model
    cache: bool = True  # reuse model responses across analyses (the gateway's SQLite cache)
    executor: Executor | None = None  # on Ray: the sub-model's calls run as Ray tasks
    hosts: frozenset[str] | None = None  # the `Host` names answered to (None: any); see hosts.py

    @property
    def max_upload_bytes(self) -> int:
        return int(self.max_upload_mb * 1024 * 1024)

    @property
    def default_sub(self) -> str:
        return self.sub_model or default_sub_model(self.model)
