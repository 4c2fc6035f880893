"""/api/analyze (one JSON answer) and /api/analyze-stream (Server-Sent Events), /api/config."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from sse_starlette.sse import EventSourceResponse

from longread.errors import CancelledError, LongreadError, ModelError
from longread.strategies.select import DOCUMENT_MODES, TEXT_MODES
from longread.web.analysis import Analysis, AnalyzeRequest, UnknownDocumentError

router = APIRouter()
log = logging.getLogger(__name__)


def _start(body: AnalyzeRequest, request: Request) -> Analysis:
    try:
        return Analysis(body, request.app.state.services)
    except UnknownDocumentError as error:
        raise HTTPException(404, str(error)) from error
    except LongreadError as error:  # a bad mode or model, a missing API key…
        raise HTTPException(422, str(error)) from error


@router.get("/api/config")
def config(request: Request) -> dict[str, Any]:
    """The models on offer (and which can drive rlm), the modes, defaults and limits."""
    services = request.app.state.services
    settings = services.settings
    return {"models": services.models.describe(), "model": settings.model, "subModel": settings.default_sub,
            "modes": list(TEXT_MODES), "indexed_modes": list(DOCUMENT_MODES),
            "defaults": AnalyzeRequest.model_json_schema()["properties"],
            "max_upload_mb": settings.max_upload_mb}


@router.post("/api/analyze")
def analyze(body: AnalyzeRequest, request: Request) -> dict[str, Any]:
    """Answer a question about documents: the answer, its citations, usage and chunks read."""
    analysis = _start(body, request)
    try:
        return analysis.run()
    except ModelError as error:
        raise HTTPException(502, str(error)) from error
    except LongreadError as error:
        raise HTTPException(422, str(error)) from error


@router.post("/api/analyze-stream")
async def analyze_stream(body: AnalyzeRequest, request: Request) -> EventSourceResponse:
    """The same analysis as Server-Sent Events: `phase`, `subcall` and `log` events while it runs,
    then one `answer` (the /api/analyze JSON) or one `error`. Closing the stream cancels the run."""
    analysis = _start(body, request)
    return EventSourceResponse(_events(analysis), ping=15)


async def _events(analysis: Analysis) -> AsyncIterator[dict[str, str]]:
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[tuple[str, dict[str, Any]]] = asyncio.Queue()

    def send(kind: str, data: dict[str, Any]) -> None:
        if not loop.is_closed():  # the server may be shutting down under a running analysis
            loop.call_soon_threadsafe(queue.put_nowait, (kind, data))

    def work() -> None:
        try:
            send("answer", analysis.run(send))
        except CancelledError:
            pass
        except LongreadError as error:
            send("error", {"message": str(error)})
        except Exception as error:  # a bug must still end the stream with a message
            log.exception("analysis failed")
            send("error", {"message": f"internal error: {type(error).__name__}: {error}"})

    threading.Thread(target=work, name="longread-analysis", daemon=True).start()  # not a pooled thread:
    # an analysis may run for minutes
    try:
        while True:
            kind, data = await queue.get()
            yield {"event": kind, "data": json.dumps(data, ensure_ascii=False)}
            if kind in ("answer", "error"):
                break
    finally:
        analysis.cancel()  # the client left (or the run ended): no further model calls
