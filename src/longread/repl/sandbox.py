"""Host side of the REPL: starts the worker process, sends it code, answers its tool calls, and
enforces the per-cell time limit by killing and restarting it."""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from longread.errors import BudgetExceededError, CancelledError, LongreadError
from longread.repl import protocol

FATAL = (BudgetExceededError, CancelledError)
RESTART_NOTE = ("The REPL was restarted: every variable you defined is gone "
                "(`context` and the tool functions are back).")


@dataclass
class CellResult:
    """What one code cell did: its printed output, its error, and FINAL's value if it called it."""

    output: str = ""
    error: str | None = None
    final: str | None = None
    notices: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def render(self) -> str:
        """The text fed back to the model."""
        parts = [self.output.rstrip()] if self.output.strip() else []
        if self.error:
            parts.append(f"Error:\n{self.error}")
        parts += self.notices
        return "\n".join(parts) if parts else "(no output)"


def _clean_env(workdir: str) -> dict[str, str]:
    """The worker's whole environment: nothing inherited, so no API keys or other secrets."""
    return {"HOME": workdir, "TMPDIR": workdir, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8", "PYTHONDONTWRITEBYTECODE": "1"}


def _kill(process: subprocess.Popen, workdir: str, fds: tuple[int, ...]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    for fd in fds:
        with contextlib.suppress(OSError):
            os.close(fd)
    shutil.rmtree(workdir, ignore_errors=True)


class Sandbox:
    """A persistent Python namespace in a separate process. `tools` are host functions the code can
    call (arguments and results travel as JSON); `context` is loaded into the variable `context`
    and `variables` (JSON values) under their names."""

    def __init__(self, tools: Mapping[str, Callable[..., Any]], context: Any = None, *,
                 variables: Mapping[str, Any] | None = None, cell_timeout: float = 60.0,
                 memory_mb: int = 1024, max_output_chars: int = 20_000,
                 max_file_mb: int = 64):
        self.tools = dict(tools)
        self.context = context
        self.variables = dict(variables or {})
        self.cell_timeout = cell_timeout
        self.memory_mb = memory_mb
        self.max_output_chars = max_output_chars
        self.max_file_mb = max_file_mb
        self.restarts = 0
        self.fatal: LongreadError | None = None
        self._process: subprocess.Popen | None = None
        self._finalizer: weakref.finalize | None = None

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        workdir = tempfile.mkdtemp(prefix="longread-repl-")
        cmd_r, cmd_w = os.pipe()
        reply_r, reply_w = os.pipe()
        process = subprocess.Popen(
            [sys.executable, "-I", "-m", "longread.repl.worker", str(cmd_r), str(reply_w)],
            pass_fds=(cmd_r, reply_w), cwd=workdir, env=_clean_env(workdir),
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            start_new_session=True)
        os.close(cmd_r)
        os.close(reply_w)
        self._process, self.workdir, self._cmd, self._reply = process, workdir, cmd_w, reply_r
        self._finalizer = weakref.finalize(self, _kill, process, workdir, (cmd_w, reply_r))
        try:
            protocol.send(cmd_w, self._init_message(workdir))
            ready = self._receive(timeout=30.0)
        except protocol.ChannelClosed:
            ready = None
        if ready is None or ready.get("op") != "ready":
            self.close()
            raise LongreadError("the REPL worker process failed to start")

    def _init_message(self, workdir: str) -> dict[str, Any]:
        context_file, kind = None, None
        if self.context is not None:
            kind = "text" if isinstance(self.context, str) else "json"
            context_file = os.path.join(workdir, "context.txt" if kind == "text" else "context.json")
            with open(context_file, "w", encoding="utf-8") as f:
                if kind == "text":
                    f.write(self.context)
                else:
                    json.dump(self.context, f, ensure_ascii=False, default=str)
        size_mb = os.path.getsize(context_file) // 2**20 if context_file else 0
        return {"op": "init", "tools": {n: describe(n, f) for n, f in self.tools.items()},
                "context_file": context_file, "context_kind": kind, "variables": self.variables,
                "memory_mb": self.memory_mb + 4 * size_mb, "max_file_mb": self.max_file_mb,
                "max_output_chars": self.max_output_chars}

    def close(self) -> None:
        """Stop the worker and remove its folder."""
        if self._finalizer is not None:
            self._finalizer()
        self._process = None

    def restart(self) -> None:
        self.close()
        self.restarts += 1
        self.start()

    def __enter__(self) -> Sandbox:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- running code ----------------------------------------------------------------------
    def run(self, code: str) -> CellResult:
        """Run one cell. A cell over its time limit, or a worker that dies, restarts the worker.
        Time spent in tool calls on the host does not count towards the cell's limit. A budget or
        cancellation error raised by a tool is re-raised here once the cell has ended."""
        if self._process is None:
            self.start()
        started = time.monotonic()
        worker_time = 0.0
        protocol.send(self._cmd, {"op": "exec", "code": code})
        while True:
            slice_start = time.monotonic()
            try:
                message = self._receive(timeout=max(self.cell_timeout - worker_time, 0.0))
            except protocol.ChannelClosed:
                code = self._process.poll() if self._process else None
                return self._recover(started, f"Error: the REPL process exited (code {code}) "
                                              "while running this cell.")
            worker_time += time.monotonic() - slice_start
            if message is None:
                return self._recover(started, f"Error: the cell ran longer than {self.cell_timeout:g} s "
                                              "and was stopped.")
            if message.get("op") == "call":
                protocol.send(self._cmd, self._dispatch(message))
                continue
            result = CellResult(output=str(message.get("output", "")), error=message.get("error"),
                                final=message.get("final"), seconds=time.monotonic() - started)
            if message.get("restored"):
                names = ", ".join(message["restored"])
                result.notices.append(f"Note: {names} cannot be overwritten; restored the original.")
            if self.fatal is not None:
                raise self.fatal
            return result

    def _recover(self, started: float, what: str) -> CellResult:
        self.restart()
        if self.fatal is not None:
            raise self.fatal
        return CellResult(notices=[what, RESTART_NOTE], seconds=time.monotonic() - started)

    def _receive(self, timeout: float) -> dict[str, Any] | None:
        """The worker's next message, or None on timeout (ChannelClosed if the worker died)."""
        readable, _, _ = select.select([self._reply], [], [], timeout)
        return protocol.receive(self._reply) if readable else None

    def _dispatch(self, message: dict[str, Any]) -> dict[str, Any]:
        name = str(message.get("name"))
        function = self.tools.get(name)
        if function is None:
            return {"op": "error", "error": f"unknown tool {name!r}"}
        try:
            value = function(*message.get("args", []), **message.get("kwargs", {}))
            return {"op": "return", "value": value}
        except FATAL as error:
            self.fatal = error
            return {"op": "error", "error": str(error)}
        except TypeError as error:
            return {"op": "error", "error": f"{error}; usage: {describe(name, function)}"}
        except Exception as error:  # noqa: BLE001 - any tool failure goes back to the model's code
            return {"op": "error", "error": f"{name} failed: {type(error).__name__}: {error}"}


def describe(name: str, function: Callable[..., Any]) -> str:
    """`name(signature)  # first docstring line` — what the model is shown for each tool."""
    try:
        signature = str(inspect.signature(function, eval_str=True))
    except (TypeError, ValueError, NameError):
        signature = "(...)"
    doc = (inspect.getdoc(function) or "").split("\n")[0]
    return f"{name}{signature}" + (f"  # {doc}" if doc else "")
