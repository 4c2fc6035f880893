"""`longread mcp` as an agent meets it: started as a subprocess and driven through the official
MCP SDK's client, over standard input/output and over HTTP with a token, with a scripted model
behind an OpenAI-compatible server."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import anyio
import httpx2
import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from cli import LONGREAD, free_port
from fake_openai import fake_openai

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
TOOLS = {"ask", "estimate", "search", "read", "outline", "records"}
LONG_CELL = "```repl\nimport time\ntime.sleep(120)\n```"
REPLIES = ["Birnam wood comes to Dunsinane [1].", LONG_CELL]


def _environment(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "OPENAI_API_KEY": "sk-test",
        "LONGREAD_CACHE_DIR": str(tmp_path / "cache"),
    }


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(EXAMPLES / "macbeth.md", folder / "macbeth.md")
    return folder


def _structured(result: object) -> object:
    assert not result.is_error, result.content  # type: ignore[attr-defined]
    content = result.structured_content  # type: ignore[attr-defined]
    return content["result"] if list(content) == ["result"] else content  # (a list is wrapped)


def _processes() -> dict[int, tuple[int, bytes]]:
    """Each process's parent and command line."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                found[int(entry.name)] = (parent, (entry / "cmdline").read_bytes())
            except OSError:
                continue
    return found


def _workers_of(pid: int) -> set[int]:
    """The REPL workers among the process's descendants."""
    processes = _processes()
    found = set()
    for child, (_, command) in processes.items():
        at = child
        while at in processes and at not in (pid, 1):
            at = processes[at][0]
        if at == pid and child != pid and b"longread.repl.worker" in command:
            found.add(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def asks_sees_progress_cancels_and_reads(client: Client, model, server_pid: int) -> dict:
    """What an agent does: ask (watching progress), read a cited span, cancel a long run."""
    seen: dict = {"progress": []}

    async def progress(done: float, total: float | None, message: str | None) -> None:
        seen["progress"].append(message)

    asked = {"path": "macbeth.md", "question": "What is Birnam wood doing?"}
    seen["answer"] = _structured(
        await client.call_tool("ask", {**asked, "mode": "retrieval"}, progress_callback=progress)
    )
    cited = seen["answer"]["citations"][0]
    span = {"path": "macbeth.md", "start": cited["start"], "end": cited["end"]}
    seen["read"] = _structured(await client.call_tool("read", span))
    async with anyio.create_task_group() as group:

        async def long_run() -> None:
            await client.call_tool("ask", {**asked, "mode": "rlm"})

        group.start_soon(long_run)
        with anyio.fail_after(60):
            while not _workers_of(server_pid) or len(model.requests) < 2:
                await anyio.sleep(0.1)
        await anyio.sleep(1.0)  # (the cell is sleeping in its worker)
        workers = _workers_of(server_pid)
        group.cancel_scope.cancel()
    cancelled = time.monotonic()
    while any(_alive(w) for w in workers) and time.monotonic() - cancelled < 5:
        await anyio.sleep(0.05)
    seen["gone_after"] = time.monotonic() - cancelled
    seen["workers"] = workers
    seen["still"] = [w for w in workers if _alive(w)]
    return seen


def check_the_agent_s_view(seen: dict) -> None:
    answer = seen["answer"]
    assert answer["answer"].startswith("Birnam wood comes to Dunsinane")
    assert answer["citations"] and answer["usage"]["calls"] == 1
    assert any(m and m.startswith("mode retrieval") for m in seen["progress"])
    assert any(m and m.startswith("model call") for m in seen["progress"])
    assert seen["read"]["text"] == answer["citations"][0]["text"]
    assert seen["workers"] and not seen["still"], seen
    assert seen["gone_after"] <= 1.0, seen


def _model_options(model) -> list[str]:
    return ["--model", "openai:x", "--base-url", model.url]


def test_an_agent_asks_over_stdio_sees_progress_cancels_and_reads_the_cited_span(tmp_path):
    folder = _folder(tmp_path)
    with fake_openai(REPLIES) as model:
        server = StdioServerParameters(
            command=LONGREAD,
            args=["mcp", str(folder), *_model_options(model)],
            env=_environment(tmp_path),
            cwd=str(tmp_path),
        )

        async def session() -> dict:
            async with Client(server, read_timeout_seconds=120) as client:
                tools = {tool.name for tool in (await client.list_tools()).tools}
                resources = [str(r.uri) for r in (await client.list_resources()).resources]
                folder_outline = _structured(await client.call_tool("outline", {"path": "."}))
                play = _structured(await client.call_tool("outline", {"path": "macbeth.md"}))
                outside = await client.call_tool("outline", {"path": "/etc"})
                seen = await asks_sees_progress_cancels_and_reads(
                    client, model, _server_pid(tmp_path)
                )
                return {
                    **seen,
                    "tools": tools,
                    "resources": resources,
                    "folder": folder_outline,
                    "outline": play,
                    "outside": outside,
                }

        seen = anyio.run(session)
    assert seen["tools"] == TOOLS
    assert seen["resources"] == [f"file://{folder.resolve()}"]
    assert seen["folder"]["documents"] == ["macbeth.md"]
    titles = [section["title"] for section in seen["outline"]["sections"]]
    assert any(title.startswith("ACT V") for title in titles)
    assert seen["outside"].is_error and "outside what this server reads" in str(
        seen["outside"].content
    )
    check_the_agent_s_view(seen)


def _server_pid(tmp_path: Path) -> int:
    """The `longread mcp` process this test started (its command line names this test's folder)."""
    for pid, (_, command) in _processes().items():
        if b"\0mcp\0" in command and str(tmp_path).encode() in command:
            return pid
    raise AssertionError("the mcp server is not running")


def test_over_http_the_token_and_the_host_are_checked(tmp_path):
    with fake_openai(REPLIES) as scripted:
        seen, refused = _over_http(tmp_path, scripted)
    check_the_agent_s_view(seen)
    assert refused == {"without a token": 401, "another host": 421}
    assert seen["tools"] == TOOLS
    best = seen["hits"][0]
    assert "Birnam" in best["snippet"] and "Birnam" in best["section"], seen["hits"]
    assert "The wood of Birnam" in seen["section"]["text"] and not seen["section"]["cut"]
    assert seen["bad_read"].is_error and "give `start` and `end`" in str(seen["bad_read"].content)
    speeches = seen["counted"]["rows"][0]["n"]
    dialogue = next(t for t in seen["tables"]["tables"] if t["name"] == "dialogue")
    assert 100 < speeches < dialogue["rows"], seen["counted"]
    assert {"speaker"} <= {c["name"] for c in dialogue["columns"]} and dialogue["samples"]
    [cost] = seen["costs"]
    assert cost["mode"] == "map" and cost["calls"][0] >= 1, cost


def _over_http(tmp_path: Path, scripted) -> tuple[dict, dict]:
    """`longread mcp --http --token`: what a client with the token sees, and the statuses of
    requests without it or for another host."""
    folder = _folder(tmp_path)
    port = free_port()
    token = "s3cret-token"
    server = subprocess.Popen(
        [LONGREAD, "mcp", str(folder), "--http", "--port", str(port), "--token", token]
        + _model_options(scripted),
        env=_environment(tmp_path),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        without = httpx2.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
        rebound = httpx2.post(
            url,
            json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
            headers={"Authorization": f"Bearer {token}", "Host": "evil.example"},
        )

        async def session() -> dict:
            http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=60)
            from mcp.client.streamable_http import streamable_http_client

            transport = streamable_http_client(url, http_client=http)
            async with http, Client(transport) as client:
                tools = {tool.name for tool in (await client.list_tools()).tools}
                play = {"path": "macbeth.md"}
                hits = _structured(
                    await client.call_tool("search", {**play, "query": "Birnam wood"})
                )
                section = _structured(
                    await client.call_tool("read", {**play, "section": hits[0]["section"]})
                )
                bad_read = await client.call_tool("read", play)
                sql = "SELECT count(*) AS n FROM \"dialogue\" WHERE speaker = 'MACBETH'"
                counted = _structured(await client.call_tool("records", {**play, "sql": sql}))
                tables = _structured(await client.call_tool("records", play))
                costs = _structured(
                    await client.call_tool(
                        "estimate", {**play, "question": "Who is Banquo?", "mode": "map"}
                    )
                )
                seen = await asks_sees_progress_cancels_and_reads(client, scripted, server.pid)
                return {
                    **seen,
                    "tools": tools,
                    "hits": hits,
                    "section": section,
                    "bad_read": bad_read,
                    "counted": counted,
                    "tables": tables,
                    "costs": costs,
                }

        seen = anyio.run(session)
    finally:
        server.terminate()
        server.wait(timeout=30)
    return seen, {"without a token": without.status_code, "another host": rebound.status_code}


@pytest.mark.parametrize("given", ["../outside.md", "/etc/passwd"])
def test_a_path_outside_the_roots_is_refused(tmp_path, given):
    from longread.errors import InputError
    from longread.mcp_server.verbs import Roots

    roots = Roots.of([_folder(tmp_path)])
    (tmp_path / "outside.md").write_text("# secret\n")
    with pytest.raises(InputError, match="outside what this server reads"):
        roots.path(given)
    assert roots.path("macbeth.md") == (tmp_path / "docs" / "macbeth.md").resolve()


def test_calls_made_at_once_on_a_source_never_indexed_all_answer(tmp_path):
    folder = _folder(tmp_path)
    (folder / "orders.csv").write_text(
        "order,customer,quantity\n" + "".join(f"{n},C{n % 3},{n}\n" for n in range(1, 30)),
        encoding="utf-8",
    )
    server = StdioServerParameters(
        command=LONGREAD, args=["mcp", str(folder)], env=_environment(tmp_path), cwd=str(tmp_path)
    )
    calls = [
        ("search", {"path": ".", "query": "Birnam wood"}),
        ("outline", {"path": "."}),
        ("records", {"path": "."}),
        ("outline", {"path": "macbeth.md"}),
        ("search", {"path": "macbeth.md", "query": "Birnam wood"}),
        ("records", {"path": "orders.csv"}),
    ]

    async def session() -> list:
        found: dict[int, object] = {}
        async with Client(server, read_timeout_seconds=120) as client:

            async def one(at: int, name: str, arguments: dict) -> None:
                found[at] = await client.call_tool(name, arguments)

            async with anyio.create_task_group() as group:
                for at, (name, arguments) in enumerate(calls):
                    group.start_soon(one, at, name, arguments)
        return [found[at] for at in range(len(calls))]

    results = anyio.run(session)
    failed = [(calls[at][0], r.content) for at, r in enumerate(results) if r.is_error]
    assert not failed, failed
    assert _structured(results[1])["documents"] == ["macbeth.md", "orders.csv"]
