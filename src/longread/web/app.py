"""The FastAPI app: API routes behind the optional bearer token, the static UI, the upload limit."""

from __future__ import annotations

from pathlib import Path

from fastapi import Depends, FastAPI, Request, Response
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from longread.config import cache_dir
from longread.store.cache import ResponseCache
from longread.web import routes_analyze, routes_documents
from longread.web.analysis import Services
from longread.web.auth import require_token
from longread.web.documents import DocumentStore
from longread.web.limits import BodyLimit
from longread.web.models import ModelPool
from longread.web.settings import Settings

STATIC = Path(__file__).parent / "static"
# The page runs only its own script and style: no inline code, nothing from elsewhere.
CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'")


def create_app(settings: Settings | None = None, model_choices: list[str] | None = None) -> FastAPI:
    """The web app. `model_choices`: specs a client may pick besides the defaults (None: the
    local models present)."""
    settings = settings or Settings()
    app = FastAPI(title="longread", version="0.1.0",
                  description="Answer questions about long documents (base, retrieval, map, rlm).")
    app.state.settings = settings
    app.state.services = Services(
        settings, DocumentStore(settings.max_chars_kept), ModelPool(settings, model_choices),
        ResponseCache(cache_dir() / "responses.sqlite") if settings.cache else None)
    for router in (routes_documents.router, routes_analyze.router):
        app.include_router(router, dependencies=[Depends(require_token)])
    app.add_middleware(BodyLimit, max_bytes=settings.max_upload_bytes)

    @app.middleware("http")
    async def security_headers(request: Request, call_next):  # type: ignore[no-untyped-def]
        response: Response = await call_next(request)
        response.headers["X-Content-Type-Options"] = "nosniff"
        if request.url.path == "/" or request.url.path.startswith("/static/"):  # not /docs (Swagger UI)
            response.headers["Content-Security-Policy"] = CSP
        return response

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
