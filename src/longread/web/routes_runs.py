"""/api/runs: the run viewer's past runs, each as a timeline of its events."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request

router = APIRouter()
# (in memory, quick: answered on the event loop, not handed to a thread and back)


@router.get("/api/runs")
async def runs(request: Request) -> dict[str, Any]:
    """Every run this server recorded (or the trace file holds), newest first, in a line each."""
    return {"runs": request.app.state.services.runs.list()}


@router.get("/api/runs/{run_id}")
async def run(run_id: str, request: Request) -> dict[str, Any]:
    """One run with its events in order (`timeline`), as the trace records them."""
    found = request.app.state.services.runs.get(run_id)
    if found is None:
        raise HTTPException(404, f"no run {run_id[:80]!r} on this server")
    return found
