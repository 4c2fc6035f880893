"""Errors a user can cause or meet. Each carries a one-line message; the CLI prints it without a
traceback."""

from __future__ import annotations

from typing import Any


class LongreadError(Exception):
    """Base class for every error longread reports to a user."""

    exit_code = 2


class InputError(LongreadError):
    """A file or argument the user gave cannot be used (missing, a directory, binary, empty...)."""


class ModelSpecError(LongreadError):
    """A model spec string that names no known provider or model."""


class MissingAPIKeyError(LongreadError):
    """A hosted model was asked for without the key its provider needs."""


class ModelError(LongreadError):
    """A model call failed for good (after retries, or with an error retrying cannot fix)."""


class ModelFetchError(LongreadError):
    """An optional local model could not be downloaded or verified."""


class UnknownSliceError(LongreadError, KeyError):
    """A slice id that is not in the slicer."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown slice"


class BudgetExceededError(LongreadError):
    """A run hit one of its budgets. `partial` holds the best answer reached so far, if any."""

    exit_code = 3

    def __init__(self, message: str, limit: str, partial: Any = None):
        super().__init__(message)
        self.limit = limit
        self.partial = partial


class CancelledError(LongreadError):
    """The run was cancelled by its caller (for example a client that disconnected)."""
