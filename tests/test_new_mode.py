"""Adding a mode is one file: the example of docs/modes.md, put beside the declared modes, is
offered by `--mode`, answers through the CLI, and is listed by the web app."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from longread.llm.scripted import ScriptedLM
from longread.strategies import declared as declared_modes
from longread.strategies.catalog import check_mode, modes_for
from webserver import scripted_app

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def first_line_mode(tmp_path, monkeypatch):
    """The docs' example mode, in a folder of its own added to the declared modes' package."""
    guide = (ROOT / "docs" / "modes.md").read_text(encoding="utf-8")
    example = guide.split("## Adding a mode", 1)[1]
    code = re.search(r"```python\n(.*?)```", example, re.DOTALL)
    assert code, "docs/modes.md shows no mode file"
    folder = tmp_path / "more_modes"
    folder.mkdir()
    (folder / "first_line.py").write_text(code[1], encoding="utf-8")
    monkeypatch.setattr(declared_modes, "__path__", [*declared_modes.__path__, str(folder)])
    declared_modes.declared.cache_clear()
    yield "first_line"
    declared_modes.declared.cache_clear()


def test_a_mode_in_one_file_is_offered_and_answers_through_the_cli(first_line_mode, tmp_path):
    from longread.cli import load_commands
    from longread.cli.app import app

    assert first_line_mode in modes_for("document") and first_line_mode not in modes_for("corpus")
    assert check_mode(first_line_mode, "document") == first_line_mode
    load_commands()
    document = tmp_path / "notes.md"
    document.write_text("The first line says hello.\nThe second does not.\n", encoding="utf-8")
    spec = ["--model", "openai:scripted", "--base-url", "http://127.0.0.1:9/v1"]  # (never called)
    result = CliRunner().invoke(
        app,
        ["ask", str(document), "What does it say?", "--mode", first_line_mode, *spec, "-q"],
        env={"OPENAI_API_KEY": "sk-test"},
    )
    assert result.exit_code == 0, result.output
    assert "The first line says hello." in result.output and "first_line" in result.output


def test_a_mode_in_one_file_is_listed_by_the_web_app(first_line_mode, tmp_path):
    config = TestClient(scripted_app(tmp_path, ScriptedLM([]))).get("/api/config").json()
    assert first_line_mode in config["indexed_modes"]
    assert first_line_mode not in config["corpus_modes"]
