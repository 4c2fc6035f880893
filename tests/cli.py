"""Running the real `longread` command, as a user would: the console script of this environment,
as a subprocess, with a scripted OpenAI-compatible server's key and a cache folder of the test's."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

LONGREAD = str(Path(sys.executable).with_name("longread"))


def longread(
    *args: str,
    cache: Path,
    cwd: Path | None = None,
    timeout: float = 180,
    text: bool = True,
    input: str | None = None,
    **env: str,
) -> subprocess.CompletedProcess:
    """`longread ARGS` with OPENAI_API_KEY (a test key unless given), the cache in `cache`, and
    `env` added to this process's environment, `input` on its standard input; its output
    captured."""
    environment = {
        **os.environ,
        "OPENAI_API_KEY": "sk-test",
        "LONGREAD_CACHE_DIR": str(cache),
        **env,
    }
    return subprocess.run(
        [LONGREAD, *args],
        cwd=cwd,
        env=environment,
        capture_output=True,
        text=text,
        timeout=timeout,
        input=input,
    )


def scripted_rlm(url: str) -> list[str]:
    """The options of `ask` for rlm mode on the scripted OpenAI-compatible server at `url`."""
    return ["--mode", "rlm", "--model", "openai:scripted", "--base-url", url]


def free_port() -> int:
    """A port no one listens on now, on 127.0.0.1 (for a server a test starts)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
