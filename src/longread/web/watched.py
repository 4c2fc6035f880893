"""Folders a server keeps indexed as they change (`longread serve --watch DIR`): each watched on a
thread of its own, its index kept where the server's indexes live, so it is listed with them and
the documents list shows its last update."""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from longread.config import index_path
from longread.index.corpus import CorpusIndex
from longread.index.watching import WatchUpdate, watch_corpus
from longread.store.open_corpus import open_corpus_store

log = logging.getLogger("longread.watch")
STOP_SECONDS = 10.0  # an update under way when the server stops is given this long to commit


class WatchedFolders:
    """The watches of `folders`, their indexes in `index_dir`, from start() to stop()."""

    def __init__(self, folders: Sequence[Path], index_dir: Path):
        self.folders, self.index_dir = list(folders), index_dir
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for folder in self.folders:
            thread = threading.Thread(
                target=self._watch, args=(folder,), name=f"watch {folder.name}", daemon=True
            )
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(STOP_SECONDS)

    def _watch(self, folder: Path) -> None:
        store = open_corpus_store(index_path(folder, self.index_dir))
        try:
            index = CorpusIndex(folder, store)
            watch_corpus(index, self._stop, partial(_updated, folder), partial(_failed, folder))
        except Exception:  # (a folder gone or unreadable: the server goes on without it)
            log.exception("watching %s stopped", folder)
        finally:
            store.close()


def _updated(folder: Path, update: WatchUpdate) -> None:
    log.info("%s: %s in %.2f s", folder, update.report.summary(), update.seconds)


def _failed(folder: Path, error: Exception) -> None:
    log.warning("%s: update failed (%s); the folder is listed again", folder, error)
