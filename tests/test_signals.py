"""A run ends when told to, whatever its model is doing: `timeout` sends SIGTERM, a closing
terminal SIGHUP, a user's Ctrl-C; the CLI ends within seconds even while every thread waits
on a model that never answers."""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from cli import LONGREAD
from fake_openai import fake_openai

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
GRACE = 2.5  # seconds the run may take to end once signalled (the CLI's own is 1.5)


def _as_a_shell() -> None:
    """In the child: the signals as a terminal's shell starts a command with them (none
    ignored), whatever this test process inherited (`nohup` ignores SIGHUP) or was left with by
    another test."""
    for stop in (signal.SIGINT, signal.SIGHUP, signal.SIGTERM):
        signal.signal(stop, signal.SIG_DFL)


@pytest.mark.parametrize(
    ("mode", "stop"),
    [
        ("map", signal.SIGTERM),  # (the model is called from a pool of threads)
        ("base", signal.SIGTERM),  # (from the main thread)
        ("map", signal.SIGHUP),
        ("map", signal.SIGINT),
    ],
)
def test_a_signal_ends_a_run_whose_model_never_answers(tmp_path, mode, stop):
    released = threading.Event()

    def never(messages: list[dict]) -> str:
        released.wait(120)  # (a model that hangs until the test is over)
        return "too late"

    with fake_openai([]) as server:
        server.last = never  # type: ignore[assignment]
        env = {
            **os.environ,
            "OPENAI_API_KEY": "sk-test",
            "LONGREAD_CACHE_DIR": str(tmp_path / "cache"),
        }
        command = [LONGREAD, "ask", str(EXAMPLES / "macbeth.md"), "Who is Banquo?"]
        command += ["--mode", mode, "--model", "openai:x", "--base-url", server.url]
        cli = subprocess.Popen(
            command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_as_a_shell
        )
        try:
            deadline = time.monotonic() + 60
            while not server.requests and time.monotonic() < deadline:
                time.sleep(0.1)
            assert server.requests, "the run never called the model"
            time.sleep(0.5)
            signalled = time.monotonic()
            cli.send_signal(stop)  # (Ctrl-C too: once ends the run as its budget would)
            code = cli.wait(timeout=30)
            took = time.monotonic() - signalled
        finally:
            cli.kill()
            released.set()
        said = cli.stderr.read().decode(errors="replace")[-3000:]  # (stacks, if the last resort)
    assert took <= GRACE, f"ended {took:.1f} s after the signal\n{said}"
    assert code == (130 if stop is signal.SIGINT else 128 + stop)
    assert f"the run was stopped ({stop.name})" in said


def test_sigterm_stops_the_local_model_mid_reply_and_prints_the_answer_so_far(tmp_path):
    trace = tmp_path / "trace.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("LONGREAD_")}
    env["LONGREAD_CACHE_DIR"] = str(tmp_path / "cache")
    env["LONGREAD_ANSWER_MODEL"] = "none"  # (the bundled model's reply is the one stopped)
    command = [LONGREAD, "ask", str(EXAMPLES / "macbeth.md"), "Who is Banquo's son?"]
    command += ["--mode", "map", "--no-cache", "--trace", str(trace)]  # (the local model)
    cli = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_as_a_shell
    )
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline and not (
            trace.exists() and '"llm_start"' in trace.read_text()
        ):
            time.sleep(0.05)
        assert trace.exists() and '"llm_start"' in trace.read_text(), "no reply was started"
        time.sleep(0.3)  # (decoding)
        signalled = time.monotonic()
        cli.send_signal(signal.SIGTERM)
        out, err = cli.communicate(timeout=30)
        took = time.monotonic() - signalled
    finally:
        cli.kill()
    assert took <= GRACE, f"ended {took:.1f} s after the signal"
    assert cli.returncode == 128 + signal.SIGTERM
    assert b"the run was stopped (SIGTERM)" in err and b"Traceback" not in err
    assert b"stopped by signal" in out  # the answer so far, printed with its usage line
    assert not list(tmp_path.glob("longread-repl-*"))


_FORKS_BESIDE_THE_WATCHER = """
import sys, time
from longread import cli, deadline
from longread.forking import Forked, can_fork
cli._watch_signals()
print(can_fork(), flush=True)
copy = Forked(lambda: time.sleep(60))
time.sleep(0.3)
copy.stop()  # (a SIGTERM to the copy)
time.sleep(0.5)
print(deadline.stop_requested(), flush=True)
"""


def test_the_command_line_forks_beside_its_signal_watcher_and_a_copys_signal_stays_its_own():
    """The watcher thread waits in a read and holds no lock, so builds still fork beside it (it
    kept the full-text index of a large document from being built in parallel); a copy lets go of
    the watcher's wakeup descriptor, so the SIGTERM that stops a copy does not stop the run."""
    done = subprocess.run(
        [str(Path(LONGREAD).with_name("python")), "-c", _FORKS_BESIDE_THE_WATCHER],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "None"]
