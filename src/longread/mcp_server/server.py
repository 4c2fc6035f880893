"""`longread mcp`: the verbs of `verbs` as MCP tools, the roots as resources. Each call runs on a
thread of its own; the run's events reach the client as progress notifications, and a client
that cancels the call stops the run (its model calls, and its code cell's worker, at once)."""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from longread import __version__
from longread.api.asker import SourceAsker
from longread.api.settings import AskSettings
from longread.errors import InputError, LongreadError
from longread.events import Event, EventKind, fan_out
from longread.llm.usage import Budget
from longread.mcp_server import arguments, verbs
from longread.mcp_server.arguments import OneLineServer
from longread.mcp_server.verbs import Roots

T = TypeVar("T")
POLL_SECONDS = 0.02  # between the checks for the call's end and its progress
MAX_CALLS = 8  # calls running at once; another is refused as busy
INSTRUCTIONS = (
    "longread answers questions about documents and folders far larger than a context window, "
    "with citations (character spans). Start with `outline` or `records`, `search` and `read` to "
    "look; `ask` answers a question (it may take minutes on a local model: watch its progress); "
    "`estimate` says what `ask` would cost without calling a model. Paths are relative to the "
    "first folder the server reads."
)


def described(event: Event) -> str | None:
    """A line saying what the run is doing, for the events worth a progress notification."""
    data = event.data
    if event.kind == EventKind.MODE:
        return f"mode {data['mode']}: {data['reason']}"
    if event.kind == EventKind.PHASE:
        return f"phase {data.get('name', '')}".strip()
    if event.kind == EventKind.LLM_START:
        return f"model call ({data.get('purpose')}, {data.get('model')})"
    if event.kind == EventKind.PROGRESS:
        return f"{data['task']}: {data['done']:,} of {data['total']:,}"
    if event.kind == EventKind.CODE:
        return f"turn {data.get('turn')}: running code block {data.get('block')}"
    if event.kind == EventKind.NOTICE:
        return str(data.get("text", ""))
    return None


class Calls:
    """How the server runs a verb: on a thread, with the server's settings (and the call's
    changes), progress sent to the client and a cancelled call's run stopped; `max_calls` at
    once (counted on the event loop), another refused in one line."""

    def __init__(self, roots: Roots, settings: AskSettings, max_calls: int = MAX_CALLS):
        self.roots = roots
        self.settings = settings
        self.max_calls = max_calls
        self.running = 0

    async def run(
        self,
        ctx: Context | None,
        path: str,
        work: Callable[[SourceAsker], T],
        **changes: Any,
    ) -> T:
        if self.running >= self.max_calls:
            raise ToolError(
                f"busy: {self.running} calls are running, {self.max_calls} at most; "
                "call again when one has ended"
            )
        self.running += 1
        try:
            return await self._run(ctx, path, work, **changes)
        finally:
            self.running -= 1

    async def _run(
        self,
        ctx: Context | None,
        path: str,
        work: Callable[[SourceAsker], T],
        **changes: Any,
    ) -> T:
        try:
            source_path = self.roots.path(path)
        except InputError as error:
            raise ToolError(str(error)) from error
        progress = Progress(ctx)
        settings = self.settings.changed(
            on_event=fan_out(self.settings.on_event, progress), **changes
        )
        cancelled = threading.Event()
        opened: list[SourceAsker] = []

        def job() -> T:
            with verbs.opened(source_path, settings) as source:
                opened.append(source)
                if cancelled.is_set():
                    source.cancel()
                return work(source)

        outcome: list[tuple[bool, Any]] = []

        def thread() -> None:
            try:
                outcome.append((True, job()))
            except BaseException as error:  # noqa: BLE001 - raised again on the event loop
                outcome.append((False, error))

        threading.Thread(target=thread, name="longread-mcp-call", daemon=True).start()
        try:
            while not outcome:
                await anyio.sleep(POLL_SECONDS)
                await progress.send()
        except anyio.get_cancelled_exc_class():
            cancelled.set()
            for source in opened:
                source.cancel()
            raise
        await progress.send()
        done, value = outcome[0]
        if done:
            return value
        if isinstance(value, LongreadError | KeyError | ValueError):  # (the caller's to mend)
            raise ToolError(value.args[0] if isinstance(value, KeyError) else str(value)) from value
        raise value


class Progress:
    """The run's events, as lines sent to the client in progress notifications (numbered)."""

    def __init__(self, ctx: Context | None):
        self.ctx = ctx
        self.lines: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.sent = 0

    def __call__(self, event: Event) -> None:  # (on the run's threads)
        line = described(event)
        if line:
            self.lines.put(line)

    async def send(self) -> None:
        """Send the lines the run made since the last time (on the event loop)."""
        while not self.lines.empty():
            line = self.lines.get()
            self.sent += 1
            if self.ctx is not None:
                await self.ctx.report_progress(self.sent, None, line)


def make_server(roots: Roots, settings: AskSettings, max_calls: int = MAX_CALLS) -> MCPServer:
    """The MCP server over these roots, asking with these settings, `max_calls` at once."""
    server: MCPServer = OneLineServer(
        "longread", instructions=INSTRUCTIONS, version=__version__, log_level="WARNING"
    )
    calls = Calls(roots, settings, max_calls)

    @server.tool(description="Answer a question about a file or folder, with citations.")
    async def ask(
        path: str,
        question: str,
        mode: str = "auto",
        max_seconds: float | None = None,
        max_cost_usd: float | None = None,
        ctx: Context | None = None,
    ) -> dict[str, Any]:
        """`mode`: auto, base, retrieval, map, tree, rlm or aggregate (for a folder: see
        `estimate`); the budget's seconds and dollars are per question."""
        arguments.budget("max_seconds", max_seconds)
        arguments.budget("max_cost_usd", max_cost_usd)
        base = settings.budget
        budget = Budget(
            base.max_subcalls,
            max_cost_usd if max_cost_usd is not None else base.max_cost_usd,
            base.max_tokens,
            max_seconds if max_seconds is not None else base.max_seconds,
        )
        return await calls.run(
            ctx, path, lambda source: verbs.ask(source, question), mode=mode, budget=budget
        )

    @server.tool(description="What `ask` would cost (calls, tokens, dollars, seconds), no call.")
    async def estimate(path: str, question: str, mode: str = "auto") -> list[dict[str, Any]]:
        return await calls.run(None, path, lambda s: verbs.estimate(s, question), mode=mode)

    @server.tool(description="Full-text search: the passages best matching a query, with spans.")
    async def search(path: str, query: str, k: int = 5) -> list[dict[str, Any]]:
        arguments.count("k", k, verbs.MAX_HITS)
        return await calls.run(None, path, lambda source: verbs.search(source, query, k))

    @server.tool(
        description="Read characters [start, end) of a document, or one section "
        "(in a folder, name the `document`)."
    )
    async def read(
        path: str,
        start: int | None = None,
        end: int | None = None,
        section: str | None = None,
        document: str | None = None,
    ) -> dict[str, Any]:
        arguments.offset("start", start)
        arguments.offset("end", end)
        return await calls.run(
            None, path, lambda source: verbs.read(source, start, end, section, document)
        )

    @server.tool(description="A document's sections with their spans, or a folder's documents.")
    async def outline(path: str, document: str | None = None) -> dict[str, Any]:
        return await calls.run(None, path, lambda source: verbs.outline(source, document))

    @server.tool(
        description="The record tables found in the text (columns, rows, samples); with `sql`, "
        "one read-only SELECT over them."
    )
    async def records(path: str, sql: str | None = None) -> dict[str, Any]:
        return await calls.run(None, path, lambda source: verbs.records(source, sql))

    for root in roots.paths:
        _add_root(server, calls, str(root))
    return server


def _add_root(server: MCPServer, calls: Calls, root: str) -> None:
    """The root as a resource: its outline (a document's sections, a folder's documents)."""

    async def read_outline() -> str:
        found = await calls.run(None, root, verbs.outline)
        return json.dumps(found, ensure_ascii=False)

    server.resource(
        f"file://{root}",
        name=root,
        description="the outline of this indexed document or folder",
        mime_type="application/json",
    )(read_outline)
