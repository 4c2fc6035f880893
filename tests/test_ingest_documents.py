"""Loading PDF, DOCX and HTML files: text, page spans, headings, and clear refusals."""

from __future__ import annotations

import io
import zipfile
from itertools import pairwise

import docx
import pytest
from pypdf import PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

from longread.errors import InputError
from longread.ingest.document import load_document
from longread.ingest.docx import load_docx
from longread.ingest.html import load_html
from longread.ingest.loaded import LoadedDocument, PageSpan
from longread.ingest.pdf import load_pdf

PAGES = [
    ["Chapter 1 Introduction", "Long documents need care."],
    ["Some context first.", "Background", "History of the field."],
    ["Chapter 2 Methods", "We read every page."],
]


def _name(value: str) -> NameObject:
    return NameObject(value)


def pdf_writer(pages: list[list[str]]) -> PdfWriter:
    """A PDF whose pages show the given lines in Helvetica (an empty list makes a blank page)."""
    writer = PdfWriter()
    font = DictionaryObject(
        {
            _name("/Type"): _name("/Font"),
            _name("/Subtype"): _name("/Type1"),
            _name("/BaseFont"): _name("/Helvetica"),
        }
    )
    for lines in pages:
        page = writer.add_blank_page(612, 792)
        if not lines:
            continue
        stream = DecodedStreamObject()
        stream.set_data(
            "".join(
                f"BT /F1 12 Tf 72 {720 - 20 * row} Td ({line}) Tj ET\n"
                for row, line in enumerate(lines)
            ).encode("latin-1")
        )
        page.replace_contents(stream)
        page[_name("/Resources")] = DictionaryObject(
            {_name("/Font"): DictionaryObject({_name("/F1"): font})}
        )
    return writer


def write_pdf(path, pages=PAGES, outline=False, password=None):
    writer = pdf_writer(pages)
    if outline:
        first = writer.add_outline_item(title="Chapter 1 Introduction", page_number=0)
        writer.add_outline_item(title="Background", page_number=1, parent=first)
        writer.add_outline_item(title="Chapter 2 Methods", page_number=2)
        writer.add_outline_item(title="Not printed anywhere", page_number=2)
    if password is not None:
        writer.encrypt(user_password=password, owner_password="owner")
    writer.write(path)
    return path


# --- PDF ---------------------------------------------------------------------------------------


def test_pdf_pages_cover_the_text(tmp_path):
    doc = load_pdf(write_pdf(tmp_path / "book.pdf"))
    assert doc.kind == "pdf"
    assert [page.number for page in doc.pages] == [1, 2, 3]
    for page, lines in zip(doc.pages, PAGES, strict=True):
        assert doc.text[page.start : page.end].split("\n") == lines
    for before, after in pairwise(doc.pages):
        assert doc.text[before.end : after.start] == "\n\n"
    assert doc.pages[0].start == 0 and doc.pages[-1].end == len(doc.text)
    assert doc.headings == []


def test_page_at(tmp_path):
    doc = load_pdf(write_pdf(tmp_path / "book.pdf"))
    second = doc.pages[1]
    assert doc.page_at(0) == 1
    assert doc.page_at(second.start) == 2 and doc.page_at(second.end - 1) == 2
    assert doc.page_at(second.end) == 2  # the separator belongs to the page before it
    assert doc.page_at(doc.text.index("We read")) == 3
    assert doc.page_at(len(doc.text)) is None and doc.page_at(-1) is None
    assert LoadedDocument("x", "text", "abc").page_at(1) is None


def test_pdf_outline_becomes_headings(tmp_path):
    doc = load_pdf(write_pdf(tmp_path / "book.pdf", outline=True))
    found = [(h.title, h.level) for h in doc.headings]
    assert found == [
        ("Chapter 1 Introduction", 1),
        ("Background", 2),
        ("Chapter 2 Methods", 1),
        ("Not printed anywhere", 1),
    ]
    for heading in doc.headings[:3]:
        assert doc.text[heading.start :].startswith(heading.title)
    background = doc.headings[1]
    assert background.start > doc.pages[1].start  # found inside its page, not at its top
    assert doc.headings[3].start == doc.pages[2].start  # title not in the text: the page's start


def test_pdf_with_empty_user_password_opens(tmp_path):
    doc = load_pdf(write_pdf(tmp_path / "open.pdf", password=""))
    assert doc.text.startswith("Chapter 1 Introduction")


def _truncated(tmp_path):
    data = write_pdf(tmp_path / "full.pdf").read_bytes()
    (tmp_path / "cut.pdf").write_bytes(data[:200])
    return tmp_path / "cut.pdf"


def _blank_pages(tmp_path):
    pdf_writer([[], []]).write(tmp_path / "scan.pdf")
    return tmp_path / "scan.pdf"


def _no_pages(tmp_path):
    PdfWriter().write(tmp_path / "none.pdf")
    return tmp_path / "none.pdf"


def _empty(tmp_path):
    (tmp_path / "empty.pdf").write_bytes(b"")
    return tmp_path / "empty.pdf"


@pytest.mark.parametrize(
    "make, message",
    [
        (
            lambda tmp: write_pdf(tmp / "locked.pdf", password="secret"),
            "encrypted (password-protected)",
        ),
        (_truncated, "is not a readable PDF ("),
        (_blank_pages, "has no text layer"),
        (_no_pages, "has no pages"),
        (_empty, "is empty"),
    ],
)
def test_bad_pdfs_are_refused_in_one_line(tmp_path, make, message):
    with pytest.raises(InputError) as caught:
        load_pdf(make(tmp_path))
    assert message in str(caught.value) and "\n" not in str(caught.value)


# --- DOCX --------------------------------------------------------------------------------------


def write_docx(path):
    document = docx.Document()
    document.add_heading("Annual   Report", 0)
    document.add_paragraph("Opening words.")
    document.add_heading("Größe – naïve café", 1)
    document.add_paragraph("")
    document.add_paragraph("Before the table.")
    table = document.add_table(rows=3, cols=2)
    for row, cells in zip(table.rows, [("Name", "Wert"), ("Größe", "42"), ("", "")], strict=True):
        for cell, value in zip(row.cells, cells, strict=True):
            cell.text = value
    merged = table.add_row().cells
    merged[0].merge(merged[1]).text = "Total"
    document.add_heading("Details", 2)
    document.add_paragraph("After the table.")
    document.save(path)
    return path


def test_docx_text_tables_and_headings(tmp_path):
    doc = load_docx(write_docx(tmp_path / "report.docx"))
    assert doc.kind == "docx" and doc.pages == []
    assert doc.text == (
        "Annual Report\n\nOpening words.\n\nGröße – naïve café\n\n"
        "Before the table.\n\nName | Wert\nGröße | 42\nTotal\n\n"
        "Details\n\nAfter the table."
    )
    assert [(h.title, h.level) for h in doc.headings] == [
        ("Annual Report", 1),
        ("Größe – naïve café", 1),
        ("Details", 2),
    ]
    for heading in doc.headings:
        assert doc.text[heading.start :].startswith(heading.title)


def _zip_without_document(path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("notes.txt", "hello")
    path.write_bytes(buffer.getvalue())


def _blank_docx(path):
    document = docx.Document()
    document.add_paragraph("   ")
    document.save(path)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda p: p.write_bytes(bytes(range(256)) * 4), "is not a readable DOCX"),
        (_zip_without_document, "is not a readable DOCX"),
        (_blank_docx, "has no text"),
    ],
)
def test_bad_docx_is_refused(tmp_path, make, message):
    path = tmp_path / "bad.docx"
    make(path)
    with pytest.raises(InputError) as caught:
        load_docx(path)
    assert message in str(caught.value) and "\n" not in str(caught.value)


# --- HTML --------------------------------------------------------------------------------------

PAGE = """<!DOCTYPE html><html><head><title>Ignored title</title>
<style>body { color: red }</style><script>var hidden = "script text";</script></head>
<body><noscript>enable js</noscript>
<h1>The <em>Main</em>   Story</h1>
<p>Fish &amp; chips,   <b>hot</b>
   and cheap.<br>Next line.</p><!-- a comment -->
<h2>Sub<span>section</span> <a href="#">one</a></h2>
<ul><li>first</li><li>second</li></ul>
<table><tr><th>Key</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table>
<h3>Deep &lt;three&gt;</h3><div><div><p>End.</p></div></div>
</body></html>"""


def test_html_text_and_headings(tmp_path):
    (tmp_path / "page.html").write_text(PAGE, encoding="utf-8")
    doc = load_html(tmp_path / "page.html")
    assert doc.kind == "html"
    assert doc.text == (
        "The Main Story\n\nFish & chips, hot and cheap.\nNext line.\n\n"
        "Subsection one\n\nfirst\nsecond\n\nKey | Value\n--- | ---\na | 1\n\n"
        "Deep <three>\n\nEnd."
    )
    assert [(h.title, h.level) for h in doc.headings] == [
        ("The Main Story", 1),
        ("Subsection one", 2),
        ("Deep <three>", 3),
    ]
    for heading in doc.headings:
        assert doc.text[heading.start :].startswith(heading.title)


def test_html_meta_charset_and_title_fallback(tmp_path):
    page = (
        '<html><head><meta charset="iso-8859-1"><title>Café Über</title></head>'
        "<body><h2>Crème brûlée</h2><p>Déjà vu à Zürich.</p></body></html>"
    )
    (tmp_path / "latin.htm").write_bytes(page.encode("latin-1"))
    doc = load_html(tmp_path / "latin.htm")
    assert doc.text == "Café Über\n\nCrème brûlée\n\nDéjà vu à Zürich."
    assert [(h.title, h.level, h.start) for h in doc.headings] == [
        ("Café Über", 1, 0),
        ("Crème brûlée", 2, len("Café Über\n\n")),
    ]


def test_html_preformatted_text_keeps_its_lines(tmp_path):
    (tmp_path / "code.html").write_text("<pre>\ndef f():\n    return 1\n\n\n\nf()\n</pre>")
    assert load_html(tmp_path / "code.html").text == "def f():\n    return 1\n\nf()"


def test_html_without_text_is_refused(tmp_path):
    (tmp_path / "blank.html").write_text("<html><head><script>x()</script></head><body> </body>")
    with pytest.raises(InputError, match="has no text"):
        load_html(tmp_path / "blank.html")


# --- dispatch ----------------------------------------------------------------------------------


def test_load_document_sniffs_content_before_suffix(tmp_path):
    pdf = write_pdf(tmp_path / "really_a_pdf.txt")
    assert load_document(pdf).kind == "pdf"
    word = write_docx(tmp_path / "report.bin")
    assert load_document(word).kind == "docx"
    loaded = load_document(pdf)
    assert loaded.pages[0] == PageSpan(
        1, 0, len("Chapter 1 Introduction\nLong documents need care.")
    )


@pytest.mark.parametrize(
    "name, kind",
    [
        ("notes.md", "markdown"),
        ("notes.txt", "text"),
        ("README", "text"),
        ("data.csv", "text"),
        ("page.html", "html"),
    ],
)
def test_load_document_by_suffix(tmp_path, name, kind):
    (tmp_path / name).write_text("# Notes\n\nGröße matters.\r\n", encoding="utf-8")
    doc = load_document(tmp_path / name)
    assert doc.kind == kind and "Größe matters." in doc.text and "\r" not in doc.text


@pytest.mark.parametrize(
    "name, data, message",
    [
        ("image.xyz", b"\x89PNG\r\n\x1a\n" + bytes(100), "unsupported file type '.xyz'"),
        ("fake.pdf", b"just some words", "is not a readable PDF"),
        ("archive.docx", b"PK\x03\x04" + bytes(60), "is not a readable DOCX"),
        ("notes.md", b"\x00\x01binary", "not a text file"),
    ],
)
def test_load_document_refuses_what_it_cannot_read(tmp_path, name, data, message):
    (tmp_path / name).write_bytes(data)
    with pytest.raises(InputError) as caught:
        load_document(tmp_path / name)
    assert message in str(caught.value)
