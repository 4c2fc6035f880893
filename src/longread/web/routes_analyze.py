"""/api/analyze (one JSON answer) and /api/analyze-stream (Server-Sent Events), /api/config."""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import AsyncIterator, Callable
from functools import cache, partial
from typing import Any, TypeVar

from fastapi import APIRouter, HTTPException, Request
from sse_starlette.sse import EventSourceResponse
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool

from longread.errors import CancelledError, LongreadError, ModelError
from longread.strategies.catalog import modes_for
from longread.web.analysis import Analysis, AnalyzeRequest, UnknownDocumentError
from longread.web.conversations import UnknownConversationError
from longread.web.slots import ServerBusyError, Slot

router = APIRouter()
log = logging.getLogger(__name__)
T = TypeVar("T")


async def _slot(request: Request) -> Slot:
    """A slot for one analysis, once one is free; 503 with Retry-After if none frees in time."""
    try:
        return await request.app.state.slots.acquire()
    except ServerBusyError as busy:
        raise HTTPException(
            503, str(busy), headers={"Retry-After": str(busy.retry_after)}
        ) from busy


async def _start(body: AnalyzeRequest, request: Request) -> Analysis:
    """The analysis, checked (off the event loop: it may open indexes and load a local model)."""
    try:
        return await run_in_threadpool(Analysis, body, request.app.state.services)
    except (UnknownDocumentError, UnknownConversationError) as error:
        raise HTTPException(404, str(error)) from error
    except LongreadError as error:  # a bad mode or model, a missing API key…
        raise HTTPException(422, str(error)) from error


@router.get("/api/config")
def config(request: Request) -> dict[str, Any]:
    """The models on offer (and which can drive rlm), the modes, defaults and limits."""
    services = request.app.state.services
    settings = services.settings
    return {
        "models": services.models.describe(),
        "model": settings.model,
        "subModel": settings.default_sub,
        "modes": list(modes_for("texts")),
        "indexed_modes": list(modes_for("document")),
        "corpus_modes": list(modes_for("corpus")),
        "defaults": _defaults(),
        "max_upload_mb": settings.max_upload_mb,
        "watching": [str(folder) for folder in settings.watch],
    }


@cache
def _defaults() -> dict[str, Any]:
    """The analysis request's fields with their defaults (the schema, made once)."""
    return dict(AnalyzeRequest.model_json_schema()["properties"])


@router.post("/api/estimate")
async def estimate(body: AnalyzeRequest, request: Request) -> dict[str, Any]:
    """What an analysis would cost (calls, tokens, dollars, seconds), without a model call."""
    analysis = await _start(body, request)
    try:
        return await run_in_threadpool(analysis.estimate)
    except LongreadError as error:
        raise HTTPException(422, str(error)) from error


@router.post("/api/analyze")
async def analyze(body: AnalyzeRequest, request: Request) -> dict[str, Any]:
    """Answer a question about documents: the answer, its citations, usage and chunks read. A
    client that disconnects before the answer cancels the run."""
    with await _slot(request):
        analysis = await _start(body, request)
        running, left = in_thread(analysis.run), asyncio.ensure_future(_disconnect(request))
        try:
            either: set[asyncio.Future[Any]] = {running, left}
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            if not running.done():
                running.cancel()  # (its outcome is no one's now)
                return {}
            return running.result()
        except ModelError as error:
            raise HTTPException(502, str(error)) from error
        except LongreadError as error:
            raise HTTPException(422, str(error)) from error
        finally:
            left.cancel()
            analysis.cancel()  # (no further model calls if the client left)


async def _disconnect(request: Request) -> None:
    """Returns when the client has closed the connection."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def in_thread(work: Callable[[], T]) -> asyncio.Future[T]:
    """`work()` on a thread of its own (an analysis may run for minutes: not a pooled thread), as
    a future of this event loop."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def settle(outcome: Callable[[], None]) -> None:
        if not loop.is_closed():  # the server may be shutting down under a running analysis
            loop.call_soon_threadsafe(lambda: None if future.done() else outcome())

    def run() -> None:
        try:
            result = work()
        except BaseException as error:  # noqa: BLE001 - handed to the awaiting request
            settle(partial(future.set_exception, error))
        else:
            settle(partial(future.set_result, result))

    threading.Thread(target=run, name="longread-analysis", daemon=True).start()
    return future


@router.post("/api/analyze-stream")
async def analyze_stream(body: AnalyzeRequest, request: Request) -> EventSourceResponse:
    """The same analysis as Server-Sent Events: `phase`, `subcall` and `log` events while it runs,
    then one `answer` (the /api/analyze JSON) or one `error`. Closing the stream cancels the run."""
    slot = await _slot(request)
    try:
        analysis = await _start(body, request)
    except BaseException:
        slot.release()
        raise
    # The events release the slot when they end or are closed; the background task, if they never
    # started (a client gone before the first byte).
    return EventSourceResponse(
        _events(analysis, slot), ping=15, background=BackgroundTask(slot.release)
    )


async def _events(analysis: Analysis, slot: Slot) -> AsyncIterator[dict[str, str]]:
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

    in_thread(work)
    try:
        while True:
            kind, data = await queue.get()
            yield {"event": kind, "data": json.dumps(data, ensure_ascii=False)}
            if kind in ("answer", "error"):
                break
    finally:
        analysis.cancel()  # the client left (or the run ended): no further model calls
        slot.release()
