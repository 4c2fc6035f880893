"""What an MCP client sends is an agent's, and an agent may be steered by what it read: a path
outside the folders the server reads (by `..`, an absolute path or a link planted inside a root),
and SQL that writes, attaches, loads an extension or reads the index's own tables through
`records`, are each refused; the index is unchanged afterwards."""

from __future__ import annotations

import hashlib
import shutil
import threading
from pathlib import Path

import anyio
import pytest

from longread.api.settings import AskSettings
from longread.errors import InputError
from longread.llm.scripted import ScriptedLM
from longread.mcp_server import verbs
from longread.mcp_server.verbs import Roots
from longread.store.record_query import QueryError

MACBETH = Path(__file__).resolve().parents[2] / "examples" / "macbeth.md"


def _never(request) -> str:
    raise AssertionError("looking at a source calls no model")


@pytest.fixture
def root(tmp_path) -> Path:
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(MACBETH, folder / "macbeth.md")
    (tmp_path / "secret.txt").write_text("the vault code is 4711\n", encoding="utf-8")
    (folder / "innocent.md").symlink_to(tmp_path / "secret.txt")
    return folder


@pytest.mark.parametrize("given", ["../secret.txt", "innocent.md", "/etc/passwd", "docs/../.."])
def test_a_path_leading_outside_the_roots_is_refused(root, given):
    with pytest.raises(InputError, match="outside what this server reads"):
        Roots.of([root]).path(given)


@pytest.mark.parametrize(
    "sql",
    [
        "DELETE FROM dialogue",
        "DROP TABLE dialogue",
        "ATTACH DATABASE '{planted}' AS x",
        "SELECT load_extension('/tmp/evil.so')",
        "PRAGMA writable_schema = 1",
        "SELECT * FROM sqlite_master",
        "SELECT * FROM documents_text",
        "SELECT 1; DELETE FROM dialogue",
    ],
)
def test_records_sql_may_only_read_the_record_tables(root, tmp_path, sql):
    model = ScriptedLM(_never)
    settings = AskSettings(root_model=model, sub_model=model, cache=False)
    planted = tmp_path / "planted.sqlite"
    sql = sql.format(planted=planted)
    with verbs.opened(root / "macbeth.md", settings) as source:
        before = verbs.records(source, "SELECT count(*) AS n FROM dialogue")["rows"]
        index_file = Path(source.store.path)  # type: ignore[attr-defined]
        digest = hashlib.sha256(index_file.read_bytes()).hexdigest()
        with pytest.raises((QueryError, InputError)):
            verbs.records(source, sql)
        after = verbs.records(source, "SELECT count(*) AS n FROM dialogue")["rows"]
    assert before == after and before[0]["n"] > 100
    assert hashlib.sha256(index_file.read_bytes()).hexdigest() == digest
    assert not planted.exists()


# --- out-of-range arguments and concurrent calls -------------------------------------------------

BIG = 10**30


def _server(root: Path, max_calls: int | None = None):
    from longread.mcp_server.server import make_server

    model = ScriptedLM(_never)
    settings = AskSettings(root_model=model, sub_model=model, cache=False)
    if max_calls is None:
        return make_server(Roots.of([root]), settings)
    return make_server(Roots.of([root]), settings, max_calls=max_calls)


@pytest.mark.parametrize(
    ("tool", "arguments", "needle"),
    [
        ("read", {"start": BIG, "end": BIG + 5}, "start"),
        ("read", {"start": -5, "end": 10}, "start"),
        ("read", {"start": 5, "end": -BIG}, "end"),
        ("read", {"start": "x", "end": 5}, "start"),
        ("read", {"section": 5}, "section"),
        ("search", {"query": "wood", "k": -1}, "k"),
        ("search", {"query": "wood", "k": BIG}, "k"),
        ("search", {"query": ["wood"]}, "query"),
        ("ask", {"question": "q", "max_seconds": -1}, "max_seconds"),
        ("ask", {"question": "q", "max_seconds": 0}, "max_seconds"),
        ("ask", {"question": "q", "max_cost_usd": -1e308}, "max_cost_usd"),
        ("outline", {"path": "mac\x00beth.md"}, "null"),
        ("records", {"sql": 5}, "sql"),
    ],
)
def test_an_out_of_range_argument_is_one_line_never_a_traceback(
    root, tool, arguments, needle, caplog
):
    from mcp.client import Client

    async def call():
        async with Client(_server(root)) as client:
            return await client.call_tool(tool, {"path": "macbeth.md", **arguments})

    result = anyio.run(call)
    text = result.content[0].text
    assert result.is_error and needle in text and "\n" not in text, text
    assert not [r for r in caplog.records if r.exc_info], "the server logged a traceback"


def test_calls_past_the_cap_are_refused_as_busy(root):
    """Two calls may run at once here: a third, while both run, is refused at once in one line;
    once they end, a call runs again."""
    from mcp.server.mcpserver.exceptions import ToolError

    from longread.mcp_server.server import Calls

    model = ScriptedLM(_never)
    settings = AskSettings(root_model=model, sub_model=model, cache=False)
    calls = Calls(Roots.of([root]), settings, max_calls=2)
    release, started = threading.Event(), []

    def held(source) -> str:
        started.append(source)
        release.wait(120)
        return "done"

    async def run() -> tuple[list[str], str, str]:
        done: list[str] = []

        async def one() -> None:
            done.append(await calls.run(None, "macbeth.md", held))

        async with anyio.create_task_group() as group:
            group.start_soon(one)
            group.start_soon(one)
            while len(started) < 2:
                await anyio.sleep(0.01)
            try:
                await calls.run(None, "macbeth.md", held)
                refused = ""
            except ToolError as error:
                refused = str(error)
            release.set()
        return done, refused, await calls.run(None, "macbeth.md", lambda source: "again")

    done, refused, again = anyio.run(run)
    assert done == ["done", "done"] and again == "again"
    assert "busy" in refused and "\n" not in refused, refused
