"""Every command and every Python example in README.md and docs/ runs: each block is executed as
a user would (the real `longread` command, a fresh Python), in a folder holding a copy of
`examples/`, against a scripted OpenAI-compatible server standing in for the model. A block that
cannot run here says why in its info string (```` ```sh hosted ````): `setup` (installs, or runs
the suite), `hosted` (needs a hosted model's key), `server` (serves until stopped), `cluster`
(needs a Ray cluster), `slow` (runs for hours on any model)."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from fake_openai import fake_openai

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
REASONS = {"setup", "hosted", "server", "cluster", "slow"}
_FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```", re.DOTALL | re.MULTILINE)
_COG = re.compile(r"<!-- \[\[\[cog.*?\[\[\[end\]\]\] -->", re.DOTALL)  # (generated: --help)


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    language: str
    reason: str
    body: str

    def commands(self) -> list[str]:
        """The shell commands the block shows: every line of a shell block (comments dropped,
        `\\` continuations joined); only the `$ ` lines of a transcript."""
        lines = self.body.replace("\\\n", " ").splitlines()
        if self.language in ("sh", "bash", "console"):
            lines = [line.removeprefix("$ ") for line in lines]
        else:
            lines = [line[2:] for line in lines if line.startswith("$ ")]
        commands = []
        for line in lines:
            words = shlex.split(line, comments=True)
            if words:
                commands.append(line.split("  #")[0].strip())
        return commands


def blocks() -> list[Block]:
    found = []
    for page in PAGES:
        text = _COG.sub("", page.read_text(encoding="utf-8"))
        for match in _FENCE.finditer(text):
            language, _, reason = match[1].strip().partition(" ")
            line = text.count("\n", 0, match.start()) + 1
            found.append(Block(page.name, line, language, reason.strip(), match[2]))
    return found


def runnable() -> list[Block]:
    return [b for b in blocks() if not b.reason and (b.language == "python" or b.commands())]


_TABLE = re.compile(r'CREATE TABLE ("[^"]+") \(.*?\n  ("[^"]+")', re.S)


def _reply(messages: list[dict]) -> str:
    """The scripted model: in the code-writing loop, code that reads the start of the document
    and answers with it; asked for a statement, one counting the rows of the first table shown
    by its first column; elsewhere a plain sentence."""
    if any("```repl" in str(m.get("content", "")) for m in messages):
        return "```repl\nopening = context[:80]\nprint(opening)\nFINAL(opening)\n```"
    shown = _TABLE.search(str(messages[0].get("content", "")))
    if shown is not None and "SELECT statement" in str(messages[0].get("content", "")):
        table, column = shown.groups()
        sql = f"SELECT {column}, count(*) AS n FROM {table} GROUP BY {column} ORDER BY n DESC"
        return json.dumps({"sql": sql})
    return "The passages do not say."


@pytest.fixture(scope="module")
def workplace(tmp_path_factory):
    """A folder with a copy of examples/, and the environment each block runs in."""
    folder = tmp_path_factory.mktemp("docs")
    shutil.copytree(ROOT / "examples", folder / "examples")
    with fake_openai() as server:
        server.last = _reply  # type: ignore[assignment]
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("LONGREAD_", "OPENAI_"))},
            "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
            "LONGREAD_MODEL": "openai:scripted",
            "OPENAI_BASE_URL": server.url,
            "OPENAI_API_KEY": "sk-test",
            "LONGREAD_CACHE_DIR": str(folder / "cache"),
            "LONGREAD_DATA_DIR": str(folder / "data"),
        }
        yield folder, env


def test_every_block_that_does_not_run_says_why():
    unexplained = [
        f"{b.page}:{b.line} ({b.reason})" for b in blocks() if b.reason and b.reason not in REASONS
    ]
    assert not unexplained, f"blocks marked with no known reason: {unexplained}"
    assert len(runnable()) >= 8  # (the README's examples and the docs' among them)


@pytest.mark.parametrize("block", runnable(), ids=lambda b: f"{b.page}:{b.line}")
def test_the_block_runs(block, workplace):
    folder, env = workplace
    if block.language == "python":
        script = folder / f"{block.page}-{block.line}.py"
        script.write_text(block.body, encoding="utf-8")
        runs = [[sys.executable, str(script)]]
    else:
        runs = [["bash", "-c", command] for command in block.commands()]
    for command in runs:
        done = subprocess.run(
            command, cwd=folder, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, f"{command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
        if block.language != "python":  # (a Python example may only define something)
            assert done.stdout.strip(), f"{command} printed nothing"


def test_the_readme_fits_on_a_screen_and_links_only_to_pages_that_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert readme.count("\n") <= 150
    links = re.findall(r"\]\(([^)#]+)\)", readme)
    assert links and all((ROOT / link).exists() for link in links), links


def test_the_readme_states_each_mode_s_budget_on_the_local_model():
    from longread.strategies.declared import declared

    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    stated = re.search(r"stops after its mode's budget \((.*?)\)", text)
    assert stated, "the README no longer states the local model's budgets"
    said = {}
    for part in re.split(r", (?=\d+ s for)", stated[1]):
        seconds, names = re.fullmatch(r"(\d+) s for (.+)", part).groups()
        said |= {name: float(seconds) for name in re.split(r", | and ", names)}
    assert said == {m.name: m.seconds[0] for m in declared().values()}
