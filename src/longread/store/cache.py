"""SQLite cache of model responses, keyed by a hash of model + request."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from longread.store.damage import recovering
from longread.store.locked import patiently
from longread.store.model_speed import Speed, fit

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
);
CREATE TABLE IF NOT EXISTS call_samples (  -- the model's recent calls (its speed is fitted to them)
    id INTEGER PRIMARY KEY,
    model TEXT NOT NULL,
    purpose TEXT NOT NULL,  -- what the call was for (a passage read, a root turn…)
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL,
    seconds REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS call_samples_by_model ON call_samples (model, id);
"""
DECODE_WEIGHT = 10  # an output token takes about as long as this many input tokens
SAMPLES_KEPT = 200  # a model's recent calls kept for fitting its speed
REFIT_SHARE = 0.1  # new calls, of those a speed was fitted to, that make it fitted again


@dataclass(frozen=True)
class ModelHistory:
    """What the calls made so far say of a model: seconds per input token (an output token
    counting as DECODE_WEIGHT), the provider's tokens per token longread counts, the mean reply
    in tokens for each shape of request ('json', 'text'), and its speed fitted to its recent
    calls, of each purpose and of all (None until there are enough)."""

    seconds_per_token: float | None
    token_ratio: float
    reply_tokens: dict[str, int]
    speed: Speed | None = None
    speeds: dict[str, Speed] = field(default_factory=dict)  # (by purpose)

    def seconds(
        self, calls: int, input_tokens: int, output_tokens: int, purpose: str = ""
    ) -> float | None:
        """The seconds of these calls (made for `purpose`): by the speed fitted to the calls of
        that purpose, else to all, else by the one rate (a local model reads a map's short
        passages, its prompt's start already evaluated, faster than one long prompt a token)."""
        speed = self.speeds.get(purpose) or self.speed
        if speed is not None:
            return speed.seconds(calls, input_tokens, output_tokens)
        if self.seconds_per_token is None:
            return None
        return self.seconds_per_token * (input_tokens + DECODE_WEIGHT * output_tokens)


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
        # (by model: the newest call fitted, the calls fitted, the speeds)
        self._fitted: dict[str, tuple[int, int, Speed | None, dict[str, Speed]]] = {}

    def _open(self) -> None:
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        patiently(lambda: self._db.execute("PRAGMA journal_mode=WAL"))
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
        self,
        model: str,
        shape: str,
        tokens: tuple[int, int, int],
        seconds: float,
        purpose: str = "",
    ) -> None:
        """Add one model call (`tokens`: input as reported, input as counted here, output; made
        for `purpose`) to the model's history."""
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
            self._db.execute(
                "INSERT INTO call_samples (model, purpose, input_tokens, output_tokens, seconds) "
                "VALUES (?, ?, ?, ?, ?)",
                (model, purpose, tokens[0], tokens[2], seconds),
            )
            self._db.execute(
                "DELETE FROM call_samples WHERE model = ? AND id <= (SELECT id FROM call_samples "
                "WHERE model = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
                (model, model, SAMPLES_KEPT),
            )

    def history(self, model: str) -> ModelHistory | None:
        """What earlier calls say of `model` (None: it was never called with the cache on)."""
        with self._lock:
            rows = self._db.execute(
                "SELECT shape, calls, input_tokens, counted_tokens, output_tokens, seconds "
                "FROM model_calls WHERE model = ?",
                (model,),
            ).fetchall()
            speed, speeds = self._speeds(model)
        if not rows:
            return None
        weighted = sum(r[2] + DECODE_WEIGHT * r[4] for r in rows)
        counted = sum(r[3] for r in rows)
        return ModelHistory(
            sum(r[5] for r in rows) / weighted if weighted else None,
            sum(r[2] for r in rows) / counted if counted else 1.0,
            {r[0]: round(r[4] / r[1]) for r in rows},
            speed,
            speeds,
        )

    def _speeds(self, model: str) -> tuple[Speed | None, dict[str, Speed]]:
        """The model's speed fitted to its kept calls, and to those of each purpose: fitted again
        once the calls made since are REFIT_SHARE of those fitted (under the lock)."""
        (newest,) = self._db.execute(
            "SELECT coalesce(max(id), 0) FROM call_samples WHERE model = ?", (model,)
        ).fetchone()
        fitted = self._fitted.get(model)
        if fitted is not None and 0 <= newest - fitted[0] < fitted[1] * REFIT_SHARE:
            return fitted[2], fitted[3]
        samples = self._db.execute(
            "SELECT purpose, input_tokens, output_tokens, seconds FROM call_samples "
            "WHERE model = ?",
            (model,),
        ).fetchall()
        speeds = {
            purpose: speed
            for purpose in {sample[0] for sample in samples}
            if (speed := fit([sample[1:] for sample in samples if sample[0] == purpose]))
        }
        speed = fit([sample[1:] for sample in samples])
        self._fitted[model] = (newest, len(samples), speed, speeds)
        return speed, speeds

    def close(self) -> None:
        with self._lock:
            self._db.close()
