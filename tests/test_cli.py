"""The `longread` command as a user runs it: errors are one line, answers come with usage."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def longread(
    *args: str, env: dict | None = None, timeout: float = 600
) -> subprocess.CompletedProcess:
    full_env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY")
    }
    full_env.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "longread.cli", *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=timeout,
    )


def one_line_error(result: subprocess.CompletedProcess, expected: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and expected in lines[0], result.stderr


def test_missing_file(tmp_path):
    one_line_error(longread("ask", str(tmp_path / "nope.txt"), "q"), "no such file")


def test_folder_without_readable_documents(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "blob.bin").write_bytes(bytes(range(256)))
    one_line_error(
        longread("ask", str(tmp_path / "docs"), "q"), "has no readable documents (1 files skipped)"
    )


def test_binary_file(tmp_path):
    path = tmp_path / "blob.bin"
    path.write_bytes(bytes(range(256)) * 8)
    one_line_error(longread("ask", str(path), "q"), "binary")


def test_empty_file(tmp_path):
    path = tmp_path / "empty.md"
    path.write_text("")
    one_line_error(longread("ask", str(path), "q"), "is empty")


def test_unknown_model_spec():
    one_line_error(
        longread("ask", str(EXAMPLES / "macbeth.md"), "q", "--model", "gpt9000"),
        "unknown model spec",
    )


def test_missing_api_key():
    one_line_error(
        longread("ask", str(EXAMPLES / "macbeth.md"), "q", "--model", "openai:gpt-4o-mini"),
        "OPENAI_API_KEY",
    )


def test_unknown_mode():
    one_line_error(
        longread("ask", str(EXAMPLES / "macbeth.md"), "q", "--mode", "magic"), "unknown mode"
    )


def test_an_empty_question_is_one_line_and_exit_2_before_any_indexing(tmp_path):
    doc = tmp_path / "notes.md"
    doc.write_text("The harbour opens at dawn.\n")
    for question in ("", "   \n "):
        result = longread(
            "ask", str(doc), question, env={"LONGREAD_CACHE_DIR": str(tmp_path / "c")}
        )
        one_line_error(result, "the question is empty")
        assert result.returncode == 2
    assert not (tmp_path / "c").exists()  # nothing was indexed


def test_budget_stop_prints_the_partial_answer_and_exits_3(tmp_path):
    doc = tmp_path / "doc.txt"
    doc.write_text("Nothing to see here, but something is hidden.\n\n" * 3000)
    result = longread(
        "ask",
        str(doc),
        "What is hidden?",
        "--mode",
        "map",
        "--max-subcalls",
        "1",
        "--json",
        "--no-cache",
    )
    assert result.returncode == 3 and "budget exceeded" in result.stderr
    partial = json.loads(result.stdout)
    assert partial["stopped_by"] == "max_subcalls" and partial["usage"]["subcalls"] == 1


def test_toc_prints_the_nested_outline_with_spans(tmp_path):
    result = longread(
        "toc", str(EXAMPLES / "macbeth.md"), env={"LONGREAD_CACHE_DIR": str(tmp_path)}
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("Macbeth  [0:108,666)")
    assert any(line.startswith("  ACT V  [") for line in lines)
    assert any(line.startswith("    SCENE III. A heath near Forres.") for line in lines)


def test_index_without_summaries_reports_what_it_built(tmp_path):
    env = {"LONGREAD_CACHE_DIR": str(tmp_path)}
    result = longread("index", str(EXAMPLES / "macbeth.md"), "--no-summaries", env=env)
    assert result.returncode == 0, result.stderr
    assert "markdown, 108,666 characters, 34 sections" in result.stdout
    assert list((tmp_path / "indexes").glob("macbeth-*.sqlite"))
    one_line_error(longread("index", str(tmp_path / "missing.pdf"), env=env), "no such file")


def test_index_with_the_local_model_builds_no_summaries_unless_asked(tmp_path):
    env = {"LONGREAD_CACHE_DIR": str(tmp_path), "LONGREAD_MODEL": "local"}
    started = time.monotonic()
    result = longread("index", str(EXAMPLES / "macbeth.md"), env=env)
    assert result.returncode == 0, result.stderr
    assert "summaries: not built" in result.stderr and "--summaries builds them" in result.stderr
    assert "summaries:" not in result.stdout and time.monotonic() - started < 60


def test_repl_binds_the_document_functions_for_a_person(tmp_path):
    env = {
        **{k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"},
        "LONGREAD_CACHE_DIR": str(tmp_path),
    }
    code = (
        "print(len(get_section_names()), doc_type)\n"
        "print(search('Birnam forest', k=1)[0]['section'])\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "longread.cli", "repl", str(EXAMPLES / "macbeth.md")],
        input=code,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "34 markdown" in result.stdout and "SCENE" in result.stdout
    assert "34 sections" in result.stderr  # the banner


LEAVING = r"""
import sys
from concurrent.futures import ThreadPoolExecutor
from longread.cli import _leave
pool = ThreadPoolExecutor(2)
pool.submit(print, "from a pooled thread").result()
sys.stdout.write("unflushed output")
_leave(3)
"""


def test_leaving_flushes_output_keeps_the_code_and_does_not_wait_for_idle_pools():
    done = subprocess.run(
        [sys.executable, "-c", LEAVING], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 3
    assert done.stdout == "from a pooled thread\nunflushed output"
