"""The FastAPI app: API routes behind the optional bearer token, the static UI, the upload limit."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import Depends, FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from longread.config import cache_dir
from longread.store.cache import ResponseCache
from longread.web import routes_analyze, routes_documents, routes_runs
from longread.web.analysis import Services
from longread.web.auth import require_token
from longread.web.documents import DocumentStore
from longread.web.hosts import HostCheck
from longread.web.limits import BodyLimit
from longread.web.models import ModelPool
from longread.web.runs import RunLog
from longread.web.security_headers import SecurityHeaders
from longread.web.settings import Settings
from longread.web.slots import Slots
from longread.web.watched import WatchedFolders

STATIC = Path(__file__).parent / "static"
SWEEP_SECONDS = 60.0  # how often idle conversations are looked for
ECHO_CHARS = 200  # the most of a request a validation error echoes back, per value


def create_app(
    settings: Settings | None = None,
    model_choices: list[str] | None = None,
    runs: RunLog | None = None,
) -> FastAPI:
    """The web app. `model_choices`: specs a client may pick besides the defaults (None: the
    local models present); `runs`: what the run viewer starts with (a trace file's runs)."""
    settings = settings or Settings()
    app = FastAPI(
        title="longread",
        version="0.1.0",
        description="Answer questions about long documents (base, retrieval, map, rlm).",
        lifespan=_lifespan,
    )
    app.state.settings = settings
    app.state.services = Services(
        settings,
        DocumentStore(settings.max_chars_kept),
        ModelPool(settings, model_choices),
        ResponseCache(cache_dir() / "responses.sqlite") if settings.cache else None,
        runs=runs or RunLog(),
    )
    for router in (routes_documents.router, routes_analyze.router, routes_runs.router):
        app.include_router(router, dependencies=[Depends(require_token)])
    app.state.slots = Slots(settings.max_concurrent, settings.queue_timeout)
    app.add_middleware(BodyLimit, max_bytes=settings.max_upload_bytes)
    if settings.hosts is not None:
        app.add_middleware(HostCheck, hosts=settings.hosts)
    app.add_exception_handler(RequestValidationError, validation_error)  # type: ignore[arg-type]
    app.add_middleware(SecurityHeaders)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Idle conversations are closed as they expire (checked each SWEEP_SECONDS), and the open
    ones (their REPLs stopped) when the server stops; watched folders are watched meanwhile."""
    conversations = app.state.services.conversations
    settings = app.state.settings
    watched = WatchedFolders(settings.watch, settings.index_dir)
    watched.start()

    async def sweep() -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            await asyncio.to_thread(conversations.expire_idle)

    sweeping = asyncio.create_task(sweep())
    yield
    sweeping.cancel()
    conversations.close()
    await asyncio.to_thread(watched.stop)


async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
    """FastAPI's 422 for an invalid request, but echoing only a short prefix of what was sent."""
    return JSONResponse({"detail": [_bounded(e) for e in error.errors()]}, status_code=422)


def _bounded(error: dict[str, Any]) -> dict[str, Any]:
    """One validation error with each value that may hold the input (`input`, `msg`, the parts of
    `loc`, the `ctx` values) cut short."""
    bounded = {
        **error,
        "input": _short(error.get("input")),
        "msg": _short(error.get("msg", "")),
        "loc": [_short(part) for part in error.get("loc", ())],
    }
    if "ctx" in error:
        bounded["ctx"] = {key: _short(value) for key, value in error["ctx"].items()}
    return bounded


def _short(value: Any) -> Any:
    """`value` as JSON data; if its JSON text is over ECHO_CHARS characters, the start of that text
    (the string itself, for a string) and "…"."""
    value = jsonable_encoder(value)
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return value if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "…"
