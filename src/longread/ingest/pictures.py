"""A document's pictures, read only when a vision model is to see them, and then within bounds:
each distinct picture read once, a file only if it is a regular file (a FIFO, device or socket is
never read), none over MAX_IMAGE_BYTES or MAX_PICTURE_PIXELS (its header tells its size; nothing
is decoded), and MAX_DOCUMENT_BYTES for all of one document's. A picture left out keeps its
caption, and why is said in one line."""

from __future__ import annotations

import base64
import binascii
import io
import logging
import re
import warnings
from pathlib import Path

from longread.errors import InputError
from longread.ingest.loaded import Figure
from longread.ingest.text import open_regular

log = logging.getLogger(__name__)
MAX_IMAGE_BYTES = 4_000_000  # a picture larger than this is not sent (its caption still counts)
MAX_PICTURE_PIXELS = 25_000_000  # nor one larger than this once decoded (by whoever decodes it)
MAX_DOCUMENT_BYTES = 48_000_000  # all the pictures of one document read or kept

_DATA_URL = re.compile(r"data:(image/[\w.+-]+);base64,([A-Za-z0-9+/=\s]+)")
_PICTURE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}


def picture_source(source: str, folder: Path) -> tuple[str, str]:
    """(media type, where its bytes are) of a page's picture: written into the page (its `data:`
    URL), or a file of a picture type inside the page's own folder (`folder`, resolved); (type,
    "") for any other, or one too large (a picture elsewhere on the disk or the web is never
    read). Nothing is read here."""
    inline = _DATA_URL.fullmatch(source.strip())
    if inline:
        return inline[1], inline[0] if len(inline[2]) <= 2 * MAX_IMAGE_BYTES else ""
    kind = _PICTURE_TYPES.get(Path(source.split("?")[0]).suffix.lower())
    if kind is None or "://" in source or source.startswith("/"):
        return kind or "image/png", ""
    try:
        path = (folder / source).resolve()
    except (OSError, ValueError):
        return kind, ""
    return kind, str(path) if path.is_relative_to(folder) else ""


class Pictures:
    """The pictures of the document `name`, read within the bounds above (see the module)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.spent = 0  # bytes of pictures kept
        self._seen: dict[object, bytes | None] = {}

    @property
    def full(self) -> bool:
        return self.spent >= MAX_DOCUMENT_BYTES

    def data(self, figure: Figure) -> bytes | None:
        """The figure's picture (the same bytes for each figure showing it), or None where it
        cannot or must not be shown."""
        key = figure.source or id(figure.data)
        if key not in self._seen:
            self._seen[key] = self._bounded(figure)
        return self._seen[key]

    def _bounded(self, figure: Figure) -> bytes | None:
        try:
            data = figure.data if figure.data is not None else _read(figure.source)
        except InputError:
            why = "is not a regular file: not read"
        except (OSError, ValueError, binascii.Error) as error:
            why = f"cannot be read ({type(error).__name__})"
        else:
            if data is None:
                return None
            why = self._refusal(data)
            if not why:
                self.spent += len(data)
                return data
        self._left_out(figure, why)
        return None

    def _refusal(self, data: bytes) -> str:
        """Why the picture is not shown ("" if it is)."""
        if len(data) > MAX_IMAGE_BYTES:
            return f"is over {MAX_IMAGE_BYTES / 1e6:.0f} MB: not shown"
        pixels = _pixels(data)
        if pixels is None:
            return "is not a picture whose size can be read: not shown"
        if pixels > MAX_PICTURE_PIXELS:
            return f"is over {MAX_PICTURE_PIXELS / 1e6:.0f} million pixels: not shown"
        if self.spent + len(data) > MAX_DOCUMENT_BYTES:
            self.spent = MAX_DOCUMENT_BYTES  # (full: the pictures after it are not read)
            return f"and those after it are past the {MAX_DOCUMENT_BYTES / 1e6:.0f} MB of pictures"
        return ""

    def _left_out(self, figure: Figure, why: str) -> None:
        """Say in one line that the figure's picture is left out, and why."""
        if figure.source.startswith("data:"):
            named = "a picture written into the page"
        elif figure.source:
            named = Path(figure.source).name
        else:
            named = f"a picture on page {figure.page}" if figure.page else "a picture"
        log.warning("%s: %s %s (its caption is kept)", self.name, named, why)


def _read(source: str) -> bytes | None:
    """The bytes at `source` (a `data:` URL or a file's path; None for ""), MAX_IMAGE_BYTES and
    one more at most."""
    if not source:
        return None
    inline = _DATA_URL.fullmatch(source)
    if inline:
        return base64.b64decode(inline[2], validate=False)
    with open_regular(source) as file:
        return file.read(MAX_IMAGE_BYTES + 1)


def _pixels(data: bytes) -> int | None:
    """Width times height, as the picture's header says (None if it is not a picture Pillow
    knows); nothing is decoded."""
    from PIL import Image  # (large: loaded only when pictures are read)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as picture:
                width, height = picture.size
    except Image.DecompressionBombError:
        return MAX_PICTURE_PIXELS + 1
    except (OSError, ValueError, SyntaxError):  # (UnidentifiedImageError is an OSError)
        return None
    return width * height
