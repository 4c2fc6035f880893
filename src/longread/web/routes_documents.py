"""/api/parse, /api/documents and a document's text around a citation."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from longread.errors import InputError
from longread.index.single import SingleDocIndex
from longread.tools.referencing import shown as shown_reference
from longread.web.documents import UnsupportedTypeError, parse_text, parse_upload
from longread.web.indexed import IndexedCorpus, find_indexed, list_indexed

router = APIRouter()
CONTEXT_CHARS = 800  # shown before and after a cited span
LISTED = 500  # uploads listed by default (the newest): a long-lived server holds thousands
MAX_LISTED = 10_000

PARSE_BODY = {
    "requestBody": {
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "files": {"type": "array", "items": {"type": "string", "format": "binary"}},
                        "text": {"type": "string", "description": "pasted text"},
                        "name": {"type": "string", "description": "a name for the pasted text"},
                    },
                }
            }
        }
    }
}


@router.post("/api/parse", openapi_extra=PARSE_BODY)
async def parse(request: Request) -> dict[str, Any]:
    """Parse uploaded files (`files`: PDF, DOCX, HTML, markdown, text) and/or pasted `text`; the
    server keeps their text for later analyses."""
    services = request.app.state.services
    form = await request.form(max_part_size=services.settings.max_upload_bytes)
    parsed = []
    try:
        for upload in form.getlist("files"):
            if isinstance(upload, UploadFile):
                name = upload.filename or "upload"
                data = await upload.read()
                parsed.append(
                    (name, await run_in_threadpool(parse_upload, name, data))
                )  # off the event loop
        text = form.get("text")
        if isinstance(text, str) and text.strip():
            given = form.get("name")
            parsed.append(
                (
                    given if isinstance(given, str) and given.strip() else "pasted text",
                    parse_text(text),
                )
            )
    except UnsupportedTypeError as error:
        raise HTTPException(415, str(error)) from error
    except InputError as error:
        raise HTTPException(422, str(error)) from error
    finally:
        await form.close()
    if not parsed:
        raise HTTPException(422, "send files (field `files`) or text (field `text`)")
    return {
        "documents": [services.documents.add(name, loaded).summary() for name, loaded in parsed]
    }


@router.get("/api/documents")
def documents(
    request: Request, limit: Annotated[int, Query(ge=0, le=MAX_LISTED)] = LISTED
) -> dict[str, Any]:
    """Uploaded documents (the `limit` uploaded last; `older`: how many more the server holds),
    then the documents and corpora indexed on the server (analyzed through their index; a corpus
    has `kind` "corpus" and its count of `documents`)."""
    services = request.app.state.services
    uploads, older = services.documents.newest(limit)
    return {
        "documents": [d.summary() for d in uploads]
        + [d.summary() for d in list_indexed(services.settings.index_dir)],
        "older": older,
    }


@router.delete("/api/documents/{doc_id}")
def forget(doc_id: str, request: Request) -> dict[str, Any]:
    """Forget an uploaded document."""
    if not request.app.state.services.documents.remove(doc_id):
        raise HTTPException(404, f"no uploaded document {doc_id!r}")
    return {"removed": doc_id}


@router.get("/api/documents/{doc_id}/range")
def text_range(
    doc_id: str, start: int, end: int, request: Request, path: str | None = None
) -> dict[str, Any]:
    """Characters [start, end) of a document with up to 800 characters either side (for showing a
    citation in its place): `before`, `text`, `after`. In a corpus, `path` names the document."""
    services = request.app.state.services
    uploaded = services.documents.get(doc_id)
    if uploaded is not None:
        return _around(doc_id, start, end, len(uploaded.text), lambda s, e: uploaded.text[s:e])
    indexed = find_indexed(services.settings.index_dir, doc_id)
    if indexed is None:
        raise HTTPException(404, f"no document {doc_id!r}")
    if isinstance(indexed, IndexedCorpus):
        if path is None:
            raise HTTPException(422, f"{doc_id} is a corpus: name one of its documents with `path`")
        with indexed.opened() as corpus:
            doc = corpus.store.catalog.doc(path)
            if doc is None:
                raise HTTPException(404, f"no document {path!r} in {doc_id}")
            read = partial(corpus.store.documents.read_range, doc.store_id)
            shown = _around(doc_id, start, end, doc.chars, read)
            try:
                level2 = corpus.document_index(path)
            except InputError:  # (its file changed since it was indexed: no sections to name)
                return {**shown, "references": [], "path": path}
            return {**shown, **_references(level2, shown), "path": path}
    with indexed.opened() as index:
        shown = _around(doc_id, start, end, index.total_chars, index.read_range)
        return {**shown, **_references(index, shown)}


def _references(index: SingleDocIndex, shown: dict[str, Any]) -> dict[str, Any]:
    """The cross-references written in the text shown, each with the span of the section it
    names (for the viewer to open it): `references`."""
    low = shown["start"] - len(shown["before"])
    high = shown["end"] + len(shown["after"])
    return {
        "references": [
            {
                **shown_reference(r),
                "target_start": r.opens,
                "target_end": r.target.end if r.target else None,
            }
            for r in index.references(low, high)
        ]
    }


def _around(
    doc_id: str, start: int, end: int, total: int, read: Callable[[int, int], str]
) -> dict[str, Any]:
    if not 0 <= start <= end <= total:
        raise HTTPException(422, f"range [{start}, {end}) is outside the document (0 to {total})")
    lo, hi = max(0, start - CONTEXT_CHARS), min(total, end + CONTEXT_CHARS)
    return {
        "document_id": doc_id,
        "start": start,
        "end": end,
        "before": read(lo, start),
        "text": read(start, end),
        "after": read(end, hi),
    }
