"""The REPL worker: isolation, limits, output capture, FINAL, tool proxies."""

from __future__ import annotations

import os
import time

import pytest

from longread.errors import BudgetExceededError
from longread.repl.sandbox import RESTART_NOTE, Sandbox


def echo(text: str, times: int = 1) -> str:
    """Repeat text."""
    return text * times


def broken() -> str:
    raise ValueError("the index is gone")


@pytest.fixture
def sandbox():
    with Sandbox({"echo": echo, "broken": broken}, context="The context text.", cell_timeout=2) as sb:
        yield sb


def test_namespace_persists_and_last_expression_is_shown(sandbox):
    assert sandbox.run("x = 41").output == ""
    assert sandbox.run("x + 1").output.strip() == "42"


def test_context_and_tools_are_available(sandbox):
    assert sandbox.run("print(context.upper())").output.strip() == "THE CONTEXT TEXT."
    assert sandbox.run("print(echo('ab', times=3))").output.strip() == "ababab"


def test_final_and_final_var(sandbox):
    assert sandbox.run("FINAL('the answer')").final == "the answer"
    assert sandbox.run("result = {'n': 3}\nFINAL_VAR('result')").final == '{"n": 3}'
    missing = sandbox.run("FINAL_VAR('nope')")
    assert missing.final is None and "no variable named 'nope'" in missing.error


def test_final_is_not_swallowed_by_except(sandbox):
    assert sandbox.run("try:\n    FINAL('kept')\nexcept Exception:\n    pass").final == "kept"


def test_infinite_loop_is_killed_and_the_session_goes_on(sandbox):
    sandbox.run("keep = 1")
    started = time.monotonic()
    result = sandbox.run("while True:\n    pass")
    assert time.monotonic() - started < 6
    assert "longer than 2 s" in result.render() and RESTART_NOTE in result.notices
    assert "NameError" in sandbox.run("keep").error
    assert sandbox.run("print('alive')").output.strip() == "alive"


def test_host_api_key_is_not_visible(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-host-secret-value")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-host-secret")
    with Sandbox({}) as sb:
        env = sb.run("import os\nprint(sorted(os.environ.items()))").output
        proc = sb.run("print(open('/proc/self/environ', 'rb').read())").output
        parent = sb.run("print(open(f'/proc/{os.getppid()}/environ', 'rb').read())")
    assert "sk-host-secret-value" not in env and "sk-ant" not in env
    assert "sk-host-secret-value" not in proc
    assert "sk-host-secret-value" not in parent.render() and "not allowed" in parent.error


def test_huge_print_keeps_head_and_tail(sandbox):
    result = sandbox.run("print('HEAD' + 'x' * 2_000_000 + 'TAIL')")
    assert result.output.startswith("HEAD") and result.output.rstrip().endswith("TAIL")
    assert "characters cut from the middle" in result.output
    assert len(result.output) < 21_000


def test_exit_calls_end_neither_run_nor_host(sandbox):
    assert "SystemExit" in sandbox.run("import sys\nsys.exit(3)").error
    assert "not allowed" in sandbox.run("import os\nos._exit(1)").error
    died = sandbox.run("import posix\nposix._exit(1)")
    assert "exited" in died.render() and RESTART_NOTE in died.notices
    assert sandbox.run("1 + 1").output.strip() == "2"


def test_writes_outside_the_folder_processes_and_network_are_refused(sandbox, tmp_path):
    outside = tmp_path / "escape.txt"
    assert "not allowed" in sandbox.run(f"open({str(outside)!r}, 'w').write('x')").error
    assert not outside.exists()
    assert sandbox.run("open('notes.txt', 'w').write('ok')").error is None
    assert "starting a process" in sandbox.run("import subprocess\nsubprocess.run(['true'])").error
    assert "not allowed" in sandbox.run("import os\nos.system('true')").error
    assert "network" in sandbox.run(
        "import socket\ns = socket.socket()\ns.connect(('127.0.0.1', 9))").error
    assert "not allowed" in sandbox.run("import ctypes").error
    assert "not allowed" in sandbox.run(f"open({os.path.expanduser('~/.bashrc')!r}).read()").error
    assert "not allowed" in sandbox.run("import os, signal\nos.kill(os.getppid(), signal.SIGTERM)").error


def test_working_folder_is_removed_after_close_and_after_a_kill():
    sb = Sandbox({}, cell_timeout=1)
    sb.start()
    first = sb.workdir
    sb.run("open('a.txt', 'w').write('x')\nwhile True: pass")
    assert not os.path.exists(first)
    second = sb.workdir
    sb.close()
    assert not os.path.exists(second)


def test_reserved_names_are_restored_and_reported(sandbox):
    result = sandbox.run("context = 'hijacked'\necho = None\nFINAL_VAR = 1")
    assert "restored" in result.render()
    assert sandbox.run("print(context)").output.strip() == "The context text."
    assert sandbox.run("print(echo('z'))").output.strip() == "z"


def test_exceptions_show_the_failing_line(sandbox):
    error = sandbox.run("a = 1\nb = a / 0\n").error
    assert "line 2" in error and "b = a / 0" in error and "ZeroDivisionError" in error
    assert "SyntaxError" in sandbox.run("def (").error


def test_tool_errors_and_bad_arguments_come_back_as_text(sandbox):
    assert "the index is gone" in sandbox.run("broken()").error
    assert "usage: echo(text: str, times: int = 1)" in sandbox.run("echo()").error
    assert "arguments must be" in sandbox.run("echo(object())").error


def test_memory_limit():
    with Sandbox({}, memory_mb=256) as sb:
        assert "MemoryError" in sb.run("x = bytearray(600 * 1024 * 1024)").error
        assert sb.run("print('still here')").output.strip() == "still here"


def test_budget_error_from_a_tool_ends_the_cell_and_reaches_the_host():
    def spend() -> str:
        raise BudgetExceededError("budget exceeded: sub-call budget of 0 is used up", "max_subcalls")

    with Sandbox({"spend": spend}) as sb, pytest.raises(BudgetExceededError):
        sb.run("try:\n    spend()\nexcept Exception:\n    pass\nprint('went on')")
