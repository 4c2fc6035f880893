"""The manifest of a sharded corpus index: a folder holding one database per shard (each of the
one-file format) and `manifest.json`, which lists the shards with their document counts, content
digests and build state. A document belongs to shard crc32(its id) mod N, so every process agrees
where it lives without asking."""

from __future__ import annotations

import json
import os
import zlib
from dataclasses import asdict, dataclass, field
from pathlib import Path

from longread.errors import InputError

MANIFEST = "manifest.json"
FORMAT = 1
BUILDING, READY = "building", "ready"


def shard_of(doc_id: str, count: int) -> int:
    """The shard of the document `doc_id` among `count` (stable across runs and machines)."""
    return zlib.crc32(doc_id.encode("utf-8")) % count


def shards_folder(index_file: Path) -> Path:
    """Where the sharded form of the one-file index `index_file` lives."""
    return index_file.with_suffix(".shards")


@dataclass
class Shard:
    """One shard: its database file (in the manifest's folder), documents, the digest of their
    ids and contents, and whether its last build finished."""

    file: str
    docs: int = 0
    digest: str = ""
    state: str = BUILDING


@dataclass
class Manifest:
    """The shards of an index folder, in shard order."""

    folder: Path
    shards: list[Shard] = field(default_factory=list)

    @classmethod
    def new(cls, folder: Path, count: int) -> Manifest:
        width = len(str(count - 1))
        return cls(folder, [Shard(f"shard-{i:0{width}d}.sqlite") for i in range(count)])

    @classmethod
    def load(cls, folder: Path) -> Manifest | None:
        """The manifest in `folder`, None if there is none."""
        try:
            data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as error:
            raise InputError(f"cannot read the shard manifest in {folder}: {error}") from None
        if data.get("format") != FORMAT:
            raise InputError(f"{folder / MANIFEST} is of an unknown format; index the folder again")
        return cls(folder, [Shard(**s) for s in data["shards"]])

    def save(self) -> None:
        """Write the manifest (whole or not at all: a new file renamed over the old)."""
        data = {"format": FORMAT, "shards": [asdict(s) for s in self.shards]}
        partial = self.folder / f".{MANIFEST}.partial"
        partial.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(partial, self.folder / MANIFEST)

    @property
    def paths(self) -> list[Path]:
        return [self.folder / s.file for s in self.shards]
