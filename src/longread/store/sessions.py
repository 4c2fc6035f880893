"""Saved conversations: one JSON file per name, holding what it is about and its questions and
answers. Names are plain words (no path can be made of one); a save replaces the file whole."""

from __future__ import annotations

import json
import os
import re
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from longread.answer import Answer
from longread.config import data_dir
from longread.errors import InputError

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


@dataclass
class SavedSession:
    """A conversation as saved: its name, the file or folder it is about, and its turns."""

    name: str
    source: str
    kind: str  # "document" or "corpus"
    turns: list[tuple[str, Answer]]
    updated: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "source": self.source,
            "kind": self.kind,
            "updated": self.updated,
            "turns": [{"question": q, "answer": a.to_dict()} for q, a in self.turns],
        }


class SessionStore:
    """The saved conversations in a folder (by default `sessions` in the data folder)."""

    def __init__(self, folder: Path | None = None):
        self.folder = folder or data_dir() / "sessions"

    def path(self, name: str) -> Path:
        if not _NAME.fullmatch(name):
            raise InputError(
                f"{name!r} is not a session name: use letters, digits, '.', '_' or '-' "
                "(at most 64, starting with a letter or digit)"
            )
        return self.folder / f"{name}.json"

    def save(self, session: SavedSession) -> None:
        """Write the session (atomically: a crash leaves the previous save)."""
        target = self.path(session.name)
        self.folder.mkdir(parents=True, exist_ok=True)
        session.updated = datetime.now(UTC).isoformat(timespec="seconds")
        text = json.dumps(session.to_dict(), ensure_ascii=False, indent=1)
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=self.folder, suffix=".tmp", delete=False
        ) as f:
            f.write(text)
        os.replace(f.name, target)

    def load(self, name: str) -> SavedSession | None:
        """The saved session, or None if there is none by that name."""
        path = self.path(name)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            return SavedSession(
                name=name,
                source=str(data["source"]),
                kind=str(data["kind"]),
                turns=[(t["question"], Answer.from_dict(t["answer"])) for t in data["turns"]],
                updated=str(data.get("updated", "")),
            )
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise InputError(f"the saved session {path} cannot be read: {error}") from None

    def names(self) -> list[str]:
        """The saved sessions' names, newest first."""
        if not self.folder.is_dir():
            return []
        files = sorted(self.folder.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        return [p.stem for p in files if _NAME.fullmatch(p.stem)]

    def remove(self, name: str) -> bool:
        """Delete the saved session; False if there was none."""
        try:
            self.path(name).unlink()
        except FileNotFoundError:
            return False
        return True
