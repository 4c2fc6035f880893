"""Fixtures of the attack tests (helpers in harness.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from security.harness import MODES, VICTIM_SECRET, isolation_mode


@pytest.fixture(params=MODES)
def mode(request) -> Iterator[str]:
    """Each test that takes it runs once per isolation set-up."""
    with isolation_mode(request.param):
        yield request.param


@pytest.fixture(scope="module")
def victim() -> Iterator[subprocess.Popen]:
    """A process of the host's user with a secret in its environment: a target to read or kill."""
    process = subprocess.Popen(
        [sys.executable, "-c", "import time; time.sleep(600)"],
        env={**os.environ, "VICTIM_SECRET": VICTIM_SECRET},
    )
    yield process
    process.kill()
    process.wait()
