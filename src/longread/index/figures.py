"""Figures described by a vision model while a document is indexed: each picture the document
holds (a PDF's pages' images, a DOCX's or an HTML page's pictures) is shown to the model with its
caption, and what the model says is written into the text beside the figure, so that search finds
it and an answer cites it with its page. Calls go through the gateway (budget, cost, cache); a
figure the model fails on keeps its caption alone."""

from __future__ import annotations

import base64
import logging
from dataclasses import dataclass
from pathlib import Path

from longread.errors import ModelError
from longread.ingest.figures import pdf_figures, with_descriptions
from longread.ingest.loaded import Figure, LoadedDocument
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.types import Image
from longread.llm.usage import Purpose

log = logging.getLogger(__name__)
MAX_FIGURES = 100  # described in one document at most
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
        figures = document.figures
        if not figures and document.kind == "pdf":
            figures = pdf_figures(path, document)
        shown = [figure for figure in figures if figure.data][:MAX_FIGURES]
        said = self.gateway.map(self._described, shown)
        found = [(figure, text) for figure, text in zip(shown, said, strict=True) if text]
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
