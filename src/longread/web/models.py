"""The models an analysis may use: the server's defaults and the local models present, each
resolved once and shared (a local model must never run two calls at once)."""

from __future__ import annotations

import threading

from longread.errors import InputError, LongreadError
from longread.llm.base import LM
from longread.llm.local_models import DEFAULT_LOCAL, LOCAL_MODELS
from longread.web.settings import Settings


def present_local_models() -> list[str]:
    """`local` (bundled) and each optional local model already downloaded (never fetched here)."""
    from longread.config import cache_dir

    return ["local"] + [
        f"local:{key}"
        for key, info in LOCAL_MODELS.items()
        if key != DEFAULT_LOCAL and (cache_dir() / "models" / info.filename).is_file()
    ]


class ModelPool:
    """Resolves model specs a client may choose, once each."""

    def __init__(self, settings: Settings, choices: list[str] | None = None):
        self.settings = settings
        listed = [settings.model, settings.default_sub] + (
            choices if choices is not None else present_local_models()
        )
        self.choices = list(dict.fromkeys(listed))
        self._models: dict[str, LM] = {}
        self._lock = threading.Lock()

    def get(self, spec: str | None, default: str) -> LM:
        """The model for `spec` (the default when None); InputError for one not offered."""
        spec = spec or default
        if spec not in self.choices:
            raise InputError(
                f"model '{spec}' is not offered by this server; "
                f"choose one of {', '.join(self.choices)}"
            )
        with self._lock:
            if spec not in self._models:
                self._models[spec] = self.settings.resolve(spec)
            return self._models[spec]

    def describe(self) -> list[dict[str, object]]:
        """Each offered model: its spec, whether it writes code (can drive rlm), its window."""
        described = []
        for spec in self.choices:
            try:
                lm = self.get(spec, spec)
            except LongreadError as error:  # e.g. a hosted model without its API key
                described.append({"spec": spec, "available": False, "error": str(error)})
                continue
            described.append(
                {
                    "spec": spec,
                    "name": lm.name,
                    "available": True,
                    "writes_code": lm.writes_code,
                    "context_window": lm.context_window,
                }
            )
        return described
