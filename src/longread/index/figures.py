"""Figures described by a vision model while a document is indexed: each picture the document
holds (a PDF's pages' images, a DOCX's or an HTML page's pictures) is shown to the model with its
caption, and what the model says is written into the text beside the figure (and beside each
other figure showing the same picture with the same caption), so that search finds it and an
answer cites it with its page. Pictures are read only here, within the bounds of `Pictures`.
Calls go through the gateway (budget, cost, cache); a figure the model fails on keeps its caption
alone."""

from __future__ import annotations

import base64
import logging
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from longread.errors import ModelError
from longread.ingest.figures import pdf_figures, with_descriptions
from longread.ingest.loaded import Figure, LoadedDocument
from longread.ingest.pictures import Pictures
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.types import Image
from longread.llm.usage import Purpose

log = logging.getLogger(__name__)
MAX_FIGURES = 100  # pictures described in one document at most
DESCRIPTION_TOKENS = 300
PROMPT = (
    "This picture is a figure of a document. {caption}Describe it for a reader who cannot see it: "
    "what it shows, the labels and values it states, and what it tells. Two to four sentences, "
    "no preamble."
)


@dataclass
class FigureReader:
    """Describes a document's figures with `vision` through `gateway` (see the module)."""

    vision: LM
    gateway: Gateway

    @property
    def name(self) -> str:
        return self.vision.name

    def __call__(self, path: str | Path, document: LoadedDocument) -> LoadedDocument:
        """The document with its figures' descriptions written into its text."""
        figures: Iterable[Figure] = document.figures
        if not document.figures and document.kind == "pdf":
            figures = pdf_figures(path, document)
        shown = _shown(figures, Pictures(Path(path).name))
        said = self.gateway.map(self._described, [group[0] for group in shown])
        found = [
            (figure, text)
            for group, text in zip(shown, said, strict=True)
            if text
            for figure in group
        ]
        return with_descriptions(document, found)

    def _described(self, figure: Figure) -> str:
        assert figure.data is not None
        caption = f"Its caption: “{figure.caption}”. " if figure.caption else ""
        image = Image(figure.media_type, base64.b64encode(figure.data).decode("ascii"))
        try:
            reply = self.gateway.complete(
                self.vision,
                PROMPT.format(caption=caption),
                purpose=Purpose.DESCRIBE_FIGURE,
                max_tokens=DESCRIPTION_TOKENS,
                images=[image],
            )
        except ModelError as error:  # (this figure keeps its caption; the others go on)
            log.warning("a figure (page %s) was not described: %s", figure.page, error)
            return ""
        return " ".join(reply.text.split())


def _shown(figures: Iterable[Figure], pictures: Pictures) -> list[list[Figure]]:
    """The figures whose pictures can be shown, with their bytes (read within the bounds of
    `pictures`), grouped by picture and caption: one description serves a group. MAX_FIGURES
    groups at most; no more figures are drawn or read once they are found, or the pictures'
    bytes are spent."""
    groups: dict[tuple[int, str], list[Figure]] = {}
    for figure in figures:
        data = pictures.data(figure)
        if data is not None:
            key = (id(data), figure.caption)  # (the same picture is the same bytes object)
            if key not in groups and len(groups) == MAX_FIGURES:
                break
            groups.setdefault(key, []).append(replace(figure, data=data))
        if pictures.full:
            break
    return list(groups.values())
