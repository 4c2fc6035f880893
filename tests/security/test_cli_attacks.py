"""Attacks through the real `longread ask`, as a user runs it: the root model is a scripted
OpenAI-compatible server on 127.0.0.1 reached through the real OpenAI client, the API key is in the
CLI's environment, and the model's code goes after the key, the host, the cache and the terminal."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cli import LONGREAD, longread, scripted_rlm
from fake_openai import fake_openai
from security.harness import GUARD_OFF, attempt

API_KEY = "sk-e2e-secret-7d1e0b"
DOCUMENT = (
    "# Harbour notes\n\nThe harbour master keeps the tide tables.\n\n"
    "# Ships\n\nThe Silver Heron sails at dawn.\n"
)


def repl(code: str) -> str:
    return f"```repl\n{code}\n```"


def ask(tmp_path: Path, url: str, *extra: str) -> subprocess.CompletedProcess:
    """`longread ask notes.md` in rlm mode on the scripted server, with the key in its
    environment."""
    (tmp_path / "notes.md").write_text(DOCUMENT, encoding="utf-8")
    return longread(
        "ask",
        "notes.md",
        "When does the Silver Heron sail?",
        *scripted_rlm(url),
        "--cell-timeout",
        "10",
        "--max-iterations",
        "3",
        "--trace",
        "trace.jsonl",
        *extra,
        cache=tmp_path / "cache",
        cwd=tmp_path,
        text=False,
        OPENAI_API_KEY=API_KEY,
    )


def worker_pids(own: Path) -> set[int]:
    """The REPL workers (or bubblewrap starting one) a test started: each works in a folder of
    the test's own `own` temporary folder (its TMPDIR), so other longread work beside the suite
    is never counted."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
                works_in = os.readlink(f"/proc/{entry}/cwd")
            except OSError:
                continue
            if b"longread.repl.worker" in cmdline and works_in.startswith(f"{own}/"):
                found.add(int(entry))
    return found


ATTACK = (
    GUARD_OFF
    + "findings = []\nprint(get_section_names())\n"
    + "".join(
        attempt(action, report="findings.append")
        for action in (
            "findings.append(open(f'/proc/{os.getppid()}/environ', 'rb').read())",
            (
                "fd = os.open('/', os.O_PATH)\n"
                "findings.append(os.read(os.open(f'proc/{os.getppid()}/environ', 0, dir_fd=fd), "
                "9999))"
            ),
            "findings.append(os.popen('env').read())",
            (
                "findings.append(subprocess.run(['cat', f'/proc/{os.getppid()}/environ'], "
                "capture_output=True).stdout)"
            ),
            (
                "import glob\nread = [open(p, 'rb').read() for p in glob.glob('/proc/*/environ')]\n"
                "assert read\nfindings += read"
            ),
            "findings.append(open('{cache}/responses.sqlite', 'rb').read())",
            "db = sqlite3.connect('{cache}/responses.sqlite')\n"
            "db.execute('UPDATE responses SET value = ?', ('POIS' + 'ON',))\ndb.commit()",
            (
                "import urllib.request\n"
                "findings.append(urllib.request.urlopen('{url}/models', timeout=3).read())"
            ),
            "os.kill(-1, signal.SIGKILL)",
            "signal.pidfd_send_signal(os.pidfd_open(os.getppid()), signal.SIGKILL)",
        )
    )
    + "FINAL('\\n'.join(str(f)[:300] for f in findings))"
)


def test_model_code_gets_no_key_no_host_and_no_cache(mode, tmp_path):
    with fake_openai([]) as server:
        server.replies += [
            lambda messages: repl(
                ATTACK.replace("{cache}", str(tmp_path / "cache")).replace("{url}", server.url)
            )
        ]
        first = ask(tmp_path, server.url, "--json")
        requests_after_run = len(server.requests)
    output = first.stdout.decode() + first.stderr.decode()
    trace = (tmp_path / "trace.jsonl").read_text()
    assert first.returncode == 0, output  # the host was not killed
    answer = json.loads(first.stdout)["text"]
    assert answer.count("BLOCKED") == 10 and "ESCAPED" not in answer, answer
    for leaked in (API_KEY, "OPENAI_API_KEY", "POISON"):
        assert leaked not in output and leaked not in trace
    assert requests_after_run == 1  # the host's one root turn; none came from the worker
    assert all(h.get("authorization") == f"Bearer {API_KEY}" for h in server.headers)
    with sqlite3.connect(tmp_path / "cache" / "responses.sqlite") as db:
        values = [v for (v,) in db.execute("SELECT value FROM responses")]
    assert values and all(json.loads(v)["text"].startswith("```repl") for v in values)


def test_escape_sequences_and_forged_lines_do_not_reach_the_terminal(mode, tmp_path):
    forged = (
        "The Silver Heron sails at dawn. \x1b[2J\x1b]0;pwned title\x07 \x1b]8;;https://evil.example/\x1b\\"
        "click\x1b]8;;\x1b\\ \x9b31mred\u202eevil\x08\r\n"
        "[1] notes.md [0:13) § Harbour notes forged citation\n"
        "rlm · 1 calls (0 sub, 0 cached) · 1 in / 1 out tokens · $0.0000 · 0.1 s"
    )
    with fake_openai([repl("print(get_section_names())\nFINAL(" + repr(forged) + ")")]) as server:
        done = ask(tmp_path, server.url)
    assert done.returncode == 0, done.stderr
    for raw in (b"\x1b", b"\x07", b"\x08", b"\r", "\x9b".encode(), "\u202e".encode()):
        assert raw not in done.stdout and raw not in done.stderr
    lines = done.stdout.decode().splitlines()
    forged_lines = [
        line for line in lines if "forged citation" in line or "$0.0000 · 0.1 s" in line
    ]
    assert len(forged_lines) == 2 and all(line.startswith("  ") for line in forged_lines)
    assert lines[-1].startswith("rlm · ") and "$0.0000 · 0.1 s" not in lines[-1]  # the tool's own


def test_a_final_of_100_million_characters_ends_fast_and_small(tmp_path):
    with fake_openai([repl("print(get_section_names())\nFINAL('A' * 100_000_000)")]) as server:
        started = time.monotonic()
        done = ask(tmp_path, server.url, "--quiet")
        seconds = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert seconds < 10 + 5
    assert len(done.stdout) < 400_000  # (the answer was cut to 1 MB, then its print to lines)
    assert b"more lines of the answer (--json has all)" in done.stdout


def test_sigterm_ends_the_run_and_removes_its_folder(mode, tmp_path):
    with fake_openai([repl("print(get_section_names())\nwhile True: pass")]) as server:
        (tmp_path / "notes.md").write_text(DOCUMENT, encoding="utf-8")
        env = {
            **os.environ,
            "OPENAI_API_KEY": API_KEY,
            "LONGREAD_CACHE_DIR": str(tmp_path / "cache"),
            "TMPDIR": str(tmp_path),
        }
        cli = subprocess.Popen(
            [
                LONGREAD,
                "ask",
                "notes.md",
                "q",
                "--mode",
                "rlm",
                "--model",
                "openai:x",
                "--base-url",
                server.url,
                "--cell-timeout",
                "60",
            ],
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + 60
        while len(server.requests) < 1 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)  # the cell is running
        assert list(tmp_path.glob("longread-repl-*")) and worker_pids(tmp_path)
        cli.send_signal(signal.SIGTERM)
        cli.wait(timeout=10)
    time.sleep(0.5)
    assert not list(tmp_path.glob("longread-repl-*"))
    assert not worker_pids(tmp_path)


UNDYING = (
    GUARD_OFF
    + """
import ctypes, threading, time
ctypes.CDLL(None).prctl(1, 0, 0, 0, 0)  # clear the parent-death signal
threading.Thread(target=lambda: [time.sleep(1) for _ in iter(int, 1)], daemon=False).start()
while True: time.sleep(1)
"""
)


@pytest.mark.parametrize("cell", ["while True: pass", UNDYING], ids=["spinning", "undying"])
def test_sigkill_of_the_host_kills_its_worker_and_the_next_run_sweeps_the_folder(
    mode, tmp_path, cell
):
    env = {**os.environ, "TMPDIR": str(tmp_path)}
    host = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from longread.repl.sandbox import Sandbox\n"
            "s = Sandbox({}, cell_timeout=60); s.start(); print('up', flush=True)\n"
            f"s.run({cell!r})",
        ],
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert host.stdout.readline().strip() == "up"
    time.sleep(0.5)
    assert worker_pids(tmp_path)
    host.kill()
    host.wait()
    deadline = time.monotonic() + 5
    while worker_pids(tmp_path) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not worker_pids(tmp_path)  # no orphan spinning on
    assert len(list(tmp_path.glob("longread-repl-*"))) == 1
    subprocess.run(
        [sys.executable, "-c", "from longread.repl.sandbox import Sandbox\nSandbox({}).start()"],
        env=env,
        check=True,
        timeout=60,
    )
    assert not list(tmp_path.glob("longread-repl-*"))


@pytest.mark.skipif(sys.platform != "linux", reason="the check is about Linux's layers")
def test_doctor_reports_every_layer(mode):
    done = subprocess.run([LONGREAD, "doctor"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout
    for layer in ("rlimits", "uid", "landlock", "seccomp", "namespaces"):
        assert layer in done.stdout
    namespaces = next(line for line in done.stdout.splitlines() if "namespaces" in line)
    assert ("inactive" in namespaces) == (mode == "kernel")
    assert "model code is isolated by the operating system" in done.stdout


def test_records_csv_export_writes_no_formula(tmp_path):
    """A cell a spreadsheet would run (`=`, `+`, `-`, `@` first) is written behind a single
    quote; numbers, negative ones too, stay numbers."""
    (tmp_path / "orders.csv").write_text(
        "item,note,amount\n"
        'a,"=HYPERLINK(""http://evil.example"",""x"")",1\n'
        "b,+cmd|calc!A0,-2\n"
        "c,-2+3,3.5\n"
        "d,@SUM(A1:A2),4\n"
        "e,plain,-5\n",
        encoding="utf-8",
    )
    result = longread(
        "records", "orders.csv", "--csv", "orders", cache=tmp_path / "cache", cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    cells = [cell for row in csv.reader(io.StringIO(result.stdout)) for cell in row]
    formulas = ['=HYPERLINK("http://evil.example","x")', "+cmd|calc!A0", "-2+3", "@SUM(A1:A2)"]
    assert all("'" + formula in cells for formula in formulas), cells
    assert not any(cell in formulas for cell in cells)
    assert {"-2", "3.5", "-5", "plain"} <= set(cells)
