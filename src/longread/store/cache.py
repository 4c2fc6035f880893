"""SQLite cache of model responses, keyed by a hash of model + request."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

_SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    model TEXT NOT NULL,
    value TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS speeds (
    model TEXT PRIMARY KEY,
    calls INTEGER NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    seconds REAL NOT NULL
)
"""
DECODE_WEIGHT = 10  # an output token takes about as long as this many input tokens


def request_key(model: str, fields: dict[str, Any]) -> str:
    payload = json.dumps({"model": model, **fields}, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


class ResponseCache:
    """Thread-safe get/put of JSON values in one SQLite file (WAL mode)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)
        self._lock = threading.Lock()

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

    def record_speed(
        self, model: str, input_tokens: int, output_tokens: int, seconds: float
    ) -> None:
        """Add one model call's tokens and seconds to what is known of the model's speed."""
        with self._lock:
            self._db.execute(
                "INSERT INTO speeds VALUES (?, 1, ?, ?, ?) ON CONFLICT (model) DO UPDATE SET "
                "calls = calls + 1, input_tokens = input_tokens + excluded.input_tokens, "
                "output_tokens = output_tokens + excluded.output_tokens, "
                "seconds = seconds + excluded.seconds",
                (model, input_tokens, output_tokens, seconds),
            )

    def seconds_per_token(self, model: str) -> float | None:
        """Seconds per input token (an output token counting as `DECODE_WEIGHT`) over the model's
        calls made so far; None for a model never timed here."""
        with self._lock:
            row = self._db.execute(
                "SELECT input_tokens + ? * output_tokens, seconds FROM speeds WHERE model = ?",
                (DECODE_WEIGHT, model),
            ).fetchone()
        return row[1] / row[0] if row and row[0] > 0 else None

    def reply_tokens(self, model: str) -> int | None:
        """The model's mean reply length in tokens over its calls made so far (None: none)."""
        with self._lock:
            row = self._db.execute(
                "SELECT output_tokens, calls FROM speeds WHERE model = ?", (model,)
            ).fetchone()
        return round(row[0] / row[1]) if row and row[1] else None

    def close(self) -> None:
        with self._lock:
            self._db.close()
