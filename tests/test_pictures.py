"""A document's figures: a PDF's images with their captions, a DOCX's and an HTML page's pictures
with their alt text; described by a vision model (a scripted one here) as the document is
indexed, so that search finds the description and a citation gives its page; without one, the
captions and alt text are what is found. A picture outside an HTML page's folder is never read."""

from __future__ import annotations

import base64
import io

import docx
import pytest
from fpdf import FPDF
from PIL import Image as Picture

from cli import longread
from fake_openai import fake_openai
from longread.config import index_path
from longread.errors import ModelError
from longread.index.figures import FigureReader
from longread.index.single import SingleDocIndex
from longread.ingest.document import load_document
from longread.ingest.pictures import Pictures
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.store.docstore import DocStore
from longread.tools.single_doc import SingleDocTools

CAPTION = "Figure 1: Monthly tide heights at the harbour mouth."
SAID = "A bar chart of tide heights; the tallest bar, 4.2 metres, stands over March."


def chart_png(tmp_path) -> bytes:
    """A small bar chart, drawn as a PNG."""
    picture = Picture.new("RGB", (240, 140), "white")
    for n, height in enumerate([40, 90, 120, 70]):
        picture.paste((30, 60, 160), (20 + n * 55, 130 - height, 60 + n * 55, 130))
    out = io.BytesIO()
    picture.save(out, format="PNG")
    (tmp_path / "chart.png").write_bytes(out.getvalue())
    return out.getvalue()


def report_pdf(tmp_path):
    """Two pages: the chart and its caption on the first, prose on the second."""
    chart_png(tmp_path)
    pdf = FPDF()
    pdf.set_font("Helvetica", size=12)
    pdf.add_page()
    pdf.multi_cell(0, 8, "Harbour report. The tides were measured every day of the year.")
    pdf.image(str(tmp_path / "chart.png"), x=20, y=40, w=120)
    pdf.set_xy(20, 115)
    pdf.multi_cell(0, 8, CAPTION)
    pdf.add_page()
    pdf.multi_cell(0, 8, "The ferry ran twice a day while the weather allowed it.")
    path = tmp_path / "report.pdf"
    pdf.output(str(path))
    return path


def describer(request) -> str:
    """A scripted vision model: a description of the chart it is shown, and nothing else."""
    [image] = request.images
    assert base64.b64decode(image.data).startswith(b"\x89PNG") and image.media_type == "image/png"
    return SAID


def test_a_pdfs_figure_is_described_found_by_search_and_cited_with_its_page(tmp_path):
    path = report_pdf(tmp_path)
    vision = ScriptedLM(describer, reads_images=True, name="scripted:vision")
    reader = FigureReader(vision, Gateway(cache=False))
    index = SingleDocIndex.build(path, DocStore(tmp_path / "described.sqlite"), reader)
    [asked] = vision.requests
    assert CAPTION in asked.messages[-1]["content"]  # (the model is told the caption)
    text = index.read_range(0, index.total_chars)
    assert f"[Figure, page 1: {SAID}]" in text
    assert text.index(SAID) > text.index(CAPTION)  # (beside its caption)
    tools = SingleDocTools(index, vision, Gateway())
    [hit] = tools.search("tallest bar March", k=1)
    assert SAID in index.read_range(hit["start"], hit["end"])
    at = text.index(SAID)
    assert tools.citation(at, at + len(SAID)).page == 1
    assert (
        "ferry" in text[index.store.documents.get(index.store_id)["pages"][1][1] :]
    )  # (page 2 moved)
    again = SingleDocIndex.build(path, DocStore(tmp_path / "described.sqlite"), reader)
    assert again.store_id == index.store_id and len(vision.requests) == 1  # (reused, not re-read)


def test_without_a_vision_model_the_caption_is_found(tmp_path):
    path = report_pdf(tmp_path)
    index = SingleDocIndex.build(path, DocStore(tmp_path / "plain.sqlite"))
    text = index.read_range(0, index.total_chars)
    assert CAPTION in text and "[Figure" not in text
    tools = SingleDocTools(index, ScriptedLM([]), Gateway())
    [hit] = tools.search("monthly tide heights", k=1)
    assert "tide heights" in index.read_range(hit["start"], hit["end"])


def test_a_figure_the_model_fails_on_keeps_its_caption_and_the_build_goes_on(tmp_path):
    path = report_pdf(tmp_path)
    vision = ScriptedLM([ModelError("the picture was refused")], reads_images=True)
    index = SingleDocIndex.build(
        path, DocStore(tmp_path / "failed.sqlite"), FigureReader(vision, Gateway(cache=False))
    )
    text = index.read_range(0, index.total_chars)
    assert CAPTION in text and "[Figure" not in text and len(vision.requests) == 1


def test_an_html_pages_pictures_give_their_alt_text_and_only_their_own_bytes(tmp_path):
    png = chart_png(tmp_path)
    page = tmp_path / "site" / "page.html"
    page.parent.mkdir()
    (page.parent / "local.png").write_bytes(png)
    inline = base64.b64encode(png).decode()
    page.write_text(
        "<html><body><h1>Tides</h1><p>Measured daily.</p>"
        f'<figure><img alt="A tide chart" src="data:image/png;base64,{inline}">'
        "<figcaption>Figure 2: Tides by month</figcaption></figure>"
        '<p><img alt="The quay" src="local.png"></p>'
        '<p><img alt="Elsewhere" src="../chart.png"><img src="https://example.com/x.png"></p>'
        "</body></html>",
        encoding="utf-8",
    )
    document = load_document(page)
    assert "[Image: A tide chart]" in document.text and "Figure 2: Tides by month" in document.text
    inline_figure, local, outside, remote = document.figures
    assert all(figure.data is None for figure in document.figures)  # (read only when described)
    pictures = Pictures("page.html")
    assert inline_figure.caption == "A tide chart" and pictures.data(inline_figure) == png
    assert pictures.data(local) == png  # (a picture in the page's own folder)
    assert pictures.data(outside) is None and pictures.data(remote) is None  # (never read)
    assert outside.source == remote.source == ""  # (outside its folder, or on the web)
    assert document.text[: inline_figure.at].endswith("[Image: A tide chart]")


def test_a_docx_pictures_alt_text_is_indexed_and_its_picture_described(tmp_path):
    chart_png(tmp_path)
    made = docx.Document()
    made.add_heading("Harbour report", 1)
    made.add_paragraph("The tides were measured every day.")
    made.add_picture(str(tmp_path / "chart.png"))
    made.inline_shapes[0]._inline.docPr.set("descr", "A chart of the tides")
    made.add_paragraph("The ferry ran twice a day.")
    path = tmp_path / "report.docx"
    made.save(str(path))
    document = load_document(path)
    [figure] = document.figures
    assert "[Image: A chart of the tides]" in document.text
    assert figure.caption == "A chart of the tides" and figure.data.startswith(b"\x89PNG")
    vision = ScriptedLM(describer, reads_images=True, name="scripted:vision")
    index = SingleDocIndex.build(
        path, DocStore(tmp_path / "docx.sqlite"), FigureReader(vision, Gateway(cache=False))
    )
    text = index.read_range(0, index.total_chars)
    assert text.index(f"[Figure: {SAID}]") > text.index("[Image: A chart of the tides]")


def test_a_model_that_reads_no_images_is_refused_as_the_vision_model(tmp_path):
    from longread.api import SingleDocRLM
    from longread.errors import InputError

    path = report_pdf(tmp_path)
    rlm = SingleDocRLM(path, vision_model=ScriptedLM([], name="scripted:blind"))
    with pytest.raises(InputError, match="reads no images"):
        rlm.build_index(summaries=False)


def test_the_command_line_describes_figures_through_an_openai_compatible_vision_model(tmp_path):
    path = report_pdf(tmp_path)

    def sees_a_chart(messages) -> str:
        parts = messages[-1]["content"]
        shown = [p["image_url"]["url"] for p in parts if p["type"] == "image_url"]
        return SAID if shown and shown[0].startswith("data:image/png;base64,") else "no image"

    cache = tmp_path / "cache"
    with fake_openai([sees_a_chart]) as server:
        done = longread(
            "index", str(path), "--no-summaries", "--vision-model", "openai:vision",
            cache=cache, OPENAI_BASE_URL=server.url,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert len(server.requests) == 1 and server.requests[0]["model"] == "vision"
    index = SingleDocIndex.build(path, DocStore(index_path(path, cache / "indexes")))
    assert SAID in index.read_range(0, index.total_chars)
    told = longread("doctor", cache=cache)
    assert "figures are not described" in told.stdout
    told = longread("doctor", cache=cache, LONGREAD_VISION_MODEL="openai:vision")
    assert "figures described by openai:vision" in told.stdout


def test_a_pdf_whose_pictures_cannot_be_read_is_indexed_with_its_text(tmp_path, monkeypatch):
    import pdfplumber

    def unreadable(*args, **kwargs):
        raise ValueError("a damaged image stream")

    path = report_pdf(tmp_path)
    monkeypatch.setattr(pdfplumber, "open", unreadable)
    vision = ScriptedLM(describer, reads_images=True)
    index = SingleDocIndex.build(
        path, DocStore(tmp_path / "damaged.sqlite"), FigureReader(vision, Gateway(cache=False))
    )
    assert CAPTION in index.read_range(0, index.total_chars) and vision.requests == []
