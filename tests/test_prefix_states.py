"""A local model's evaluated prompt prefix kept on disk: a call whose first message is kept saves
the state after it; a call in another process that starts with the same message loads it,
evaluates only the rest, and replies as a call evaluating everything would; a damaged or foreign
state file is evaluated again. On the embedded model (SmolLM2-135M)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.local_model

SYSTEM = "You answer from this table of ships. " + " ".join(
    f"Ship {n} carried {cargo} to port {n % 7}." for n, cargo in enumerate(["salt", "tin"] * 10)
)
CALL = """
import json, sys, time
from longread.llm.local import LocalLM
from longread.llm.local_models import bundled_smollm2_path
from longread.llm.types import Request
lm = LocalLM(bundled_smollm2_path(), name="local:test", writes_code=False)
messages = ({"role": "system", "content": sys.argv[1]}, {"role": "user", "content": sys.argv[2]})
started = time.monotonic()
reply = lm.complete(Request(messages, max_tokens=8, keep_prefix=sys.argv[3] == "keep"))
print(json.dumps({"text": reply.text, "seconds": time.monotonic() - started}))
"""


def call(cache: Path, question: str, keep: bool) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CALL, SYSTEM, question, "keep" if keep else "no"],
        capture_output=True,
        text=True,
        env={"LONGREAD_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_kept_prefix_is_loaded_in_another_process_and_replies_the_same(tmp_path):
    cache = tmp_path / "cache"
    first = call(cache, "What did ship 3 carry?", keep=True)
    saved = list((cache / "prefixes").glob("*/*.state"))
    assert len(saved) == 1 and saved[0].stat().st_size > 10_000
    again = call(cache, "What did ship 5 carry?", keep=True)
    plain = call(tmp_path / "empty", "What did ship 5 carry?", keep=False)
    assert again["text"] == plain["text"]
    assert list((cache / "prefixes").glob("*/*.state")) == saved  # (loaded, not saved again)
    assert first["text"]


def test_a_damaged_state_is_evaluated_again(tmp_path):
    cache = tmp_path / "cache"
    call(cache, "What did ship 3 carry?", keep=True)
    [saved] = list((cache / "prefixes").glob("*/*.state"))
    data = bytearray(saved.read_bytes())
    data[20:40] = b"\x00" * 20  # (tokens that are not the prompt's)
    saved.write_bytes(bytes(data))
    again = call(cache, "What did ship 5 carry?", keep=True)
    plain = call(tmp_path / "empty", "What did ship 5 carry?", keep=False)
    assert again["text"] == plain["text"]
    saved.write_bytes(b"\x02\x00\x00\x00\x00\x00\x00\x00" + b"\xff" * 64)  # (cut short)
    assert call(cache, "What did ship 5 carry?", keep=True)["text"] == plain["text"]
