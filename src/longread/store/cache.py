"""SQLite cache of model responses, keyed by a hash of model + request."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from longread.store.damage import recovering

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    value TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS model_calls (
    model TEXT NOT NULL,
    shape TEXT NOT NULL,  -- what was asked for: 'json' or 'text'
    calls INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL,  -- as the provider reported them
    counted_tokens INTEGER NOT NULL,  -- as longread counted the same prompts
    output_tokens INTEGER NOT NULL,
    seconds REAL NOT NULL,
    PRIMARY KEY (model, shape)
)
"""
DECODE_WEIGHT = 10  # an output token takes about as long as this many input tokens


@dataclass(frozen=True)
class ModelHistory:
    """What the calls made so far say of a model: seconds per input token (an output token
    counting as DECODE_WEIGHT), the provider's tokens per token longread counts, and the mean
    reply in tokens for each shape of request ('json', 'text')."""

    seconds_per_token: float | None
    token_ratio: float
    reply_tokens: dict[str, int]


def request_key(model: str, fields: dict[str, Any]) -> str:
    payload = json.dumps({"model": model, **fields}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class ResponseCache:
    """Thread-safe get/put of JSON values in one SQLite file (WAL mode)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        recovering(self.path, self._open)
        self._lock = threading.Lock()

    def _open(self) -> None:
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")  # (a cache: no sync per reply stored)
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT value FROM responses WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, model: str, value: dict[str, Any]) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO responses (key, model, value, created) VALUES (?, ?, ?, ?)",
                (key, model, json.dumps(value, ensure_ascii=False), time.time()),
            )

    def record_call(
        self, model: str, shape: str, tokens: tuple[int, int, int], seconds: float
    ) -> None:
        """Add one model call (`tokens`: input as reported, input as counted here, output) to
        the model's history."""
        with self._lock:
            self._db.execute(
                "INSERT INTO model_calls VALUES (?, ?, 1, ?, ?, ?, ?) "
                "ON CONFLICT (model, shape) DO UPDATE SET calls = calls + 1, "
                "input_tokens = input_tokens + excluded.input_tokens, "
                "counted_tokens = counted_tokens + excluded.counted_tokens, "
                "output_tokens = output_tokens + excluded.output_tokens, "
                "seconds = seconds + excluded.seconds",
                (model, shape, *tokens, seconds),
            )

    def history(self, model: str) -> ModelHistory | None:
        """What earlier calls say of `model` (None: it was never called with the cache on)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT shape, calls, input_tokens, counted_tokens, output_tokens, seconds "
                "FROM model_calls WHERE model = ?",
                (model,),
            ).fetchall()
        if not rows:
            return None
        weighted = sum(r[2] + DECODE_WEIGHT * r[4] for r in rows)
        counted = sum(r[3] for r in rows)
        return ModelHistory(
            sum(r[5] for r in rows) / weighted if weighted else None,
            sum(r[2] for r in rows) / counted if counted else 1.0,
            {r[0]: round(r[4] / r[1]) for r in rows},
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()
