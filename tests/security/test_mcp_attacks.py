"""What an MCP client sends is an agent's, and an agent may be steered by what it read: a path
outside the folders the server reads (by `..`, an absolute path or a link planted inside a root),
and SQL that writes, attaches, loads an extension or reads the index's own tables through
`records`, are each refused; the index is unchanged afterwards."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

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
