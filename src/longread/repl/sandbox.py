"""Host side of the REPL: starts the kernel-confined worker process, sends it code, answers its
tool calls, and bounds everything a cell does. A cell's time limit (or the run's deadline, if
sooner) covers the worker's time and the host's tool calls alike; the worker's frames are read
with that deadline and a size cap; a cell over its time, a dead worker or a malformed frame kills
and restarts the worker. Cancelling the run kills it at once."""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import os
import select
import subprocess
import threading
import time
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from longread import deadline
from longread.errors import BudgetExceededError, CancelledError, LongreadError
from longread.repl import isolation, protocol
from longread.repl.workers import Worker, kill, take_spare
from longread.text.cut import truncate_middle

FATAL = (BudgetExceededError, CancelledError)
RESTART_NOTE = (
    "The REPL was restarted: every variable you defined is gone "
    "(`context` and the tool functions are back)."
)
MAX_REPLY_BYTES = 8 * 1024 * 1024  # the largest frame the host reads from a worker
MAX_REPLY_CONTAINERS = 1_000_000  # and the most objects and arrays in it
MAX_TOOL_RESULT_BYTES = 32 * 1024 * 1024  # the largest result a tool may send back
MAX_ERROR_CHARS = 20_000
START_SECONDS = 30.0
CANCEL_POLL_SECONDS = 0.1


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


def _text(value: str, limit: int) -> str:
    """`value` cut to `limit` characters, lone surrogates (not text) replaced."""
    return truncate_middle(value, limit).encode("utf-8", "replace").decode("utf-8")


def _write_private(path: str, text: str) -> str:
    """Write a new file only its owner can read (for the worker to load before it confines
    itself); its path."""
    with open(
        os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w", encoding="utf-8"
    ) as f:
        f.write(text)
    return path


def _last_line(path: str) -> str:
    with contextlib.suppress(OSError), open(path, "rb") as f:
        lines = f.read()[-2000:].decode("utf-8", "replace").strip().splitlines()
        return lines[-1] if lines else ""
    return ""


class Sandbox:
    """A persistent Python namespace in a separate, kernel-confined process. `tools` are host
    functions the code can call (arguments and results travel as JSON); `context` is loaded into
    the variable `context` and `variables` (JSON values) under their names. With
    `context_length`, `context` is instead a lazy, read-only view of that many characters, read
    through the `context_read(start, end)` tool. `run_deadline` (a
    `time.monotonic()` value) and `cancelled` come from the run: past the one, or once the other
    is set, the worker is killed and the run's error raised."""

    def __init__(
        self,
        tools: Mapping[str, Callable[..., Any]],
        context: Any = None,
        *,
        variables: Mapping[str, Any] | None = None,
        context_length: int | None = None,
        cell_timeout: float = 120.0,
        memory_mb: int = 1024,
        max_output_chars: int = 20_000,
        max_final_chars: int = 1_000_000,
        run_deadline: float | None = None,
        cancelled: threading.Event | None = None,
    ):
        self.tools = dict(tools)
        self.context = context
        self.variables = dict(variables or {})
        self.context_length = context_length
        self.cell_timeout = cell_timeout
        self.limits = isolation.Limits(memory_mb=memory_mb)
        self.max_output_chars = max_output_chars
        self.max_final_chars = max_final_chars
        self.run_deadline = run_deadline
        self.cancelled = cancelled
        self.restarts = 0
        self.layers: dict[str, dict[str, Any]] = {}
        self._process: subprocess.Popen | None = None
        self._finalizer: weakref.finalize | None = None
        self._reserved = {
            *self.tools,
            *self.variables,
            "context",
            "FINAL",
            "FINAL_VAR",
            "SHOW_VARS",
        }

    @property
    def isolated(self) -> bool:
        """Is the worker confined by the operating system (not only by its own Python code)?"""
        return isolation.is_isolated(self.layers)

    # -- lifecycle -------------------------------------------------------------------------
    def start(self) -> None:
        """Start the worker (or take the one `prespawn` started) and confine it: it gets the
        policy, the tools and the context only now, and no code before it is ready."""
        worker = take_spare() or Worker.spawn()
        self._process, self.run_dir = worker.process, worker.run_dir
        self._cmd, self._reply = worker.cmd, worker.reply
        self._finalizer = weakref.finalize(
            self, kill, worker.process, worker.run_dir, (worker.cmd, worker.reply)
        )
        worker.finalizer.detach()
        try:
            ready_by = time.monotonic() + START_SECONDS
            protocol.send(worker.cmd, self._init_message(worker.run_dir), ready_by)
            ready = protocol.receive(worker.reply, ready_by, 1 << 20, 1_000)
        except protocol.ChannelClosed:
            ready = {}
        if ready.get("op") != "ready" or not isinstance(ready.get("layers"), dict):
            why = _last_line(worker.startup_log)
            self.close()
            raise LongreadError(
                "the REPL worker process failed to start" + (f": {why}" if why else "")
            )
        self.layers = {**ready["layers"], "namespaces": isolation.namespaces_layer(worker.bwrap)}

    def _init_message(self, run_dir: str) -> dict[str, Any]:
        context_file, kind = None, None
        if self.context is not None:
            kind = "text" if isinstance(self.context, str) else "json"
            context_file = _write_private(
                os.path.join(run_dir, "context.txt" if kind == "text" else "context.json"),
                self.context
                if kind == "text"
                else json.dumps(self.context, ensure_ascii=False, default=str),
            )
        variables_file = _write_private(
            os.path.join(run_dir, "variables.json"), protocol.json_object(self.variables)
        )
        size_mb = sum(os.path.getsize(f) for f in (context_file, variables_file) if f) >> 20
        return {
            "op": "init",
            "tools": {n: describe(n, f) for n, f in self.tools.items()},
            "context_file": context_file,
            "context_kind": kind,
            "context_length": self.context_length,
            "variables_file": variables_file,
            "policy": isolation.policy(run_dir, self.limits, extra_memory_mb=4 * size_mb),
            "libraries": isolation.libraries(),
            "max_output_chars": self.max_output_chars,
            "max_final_chars": self.max_final_chars,
        }

    def rebind(
        self,
        tools: Mapping[str, Callable[..., Any]],
        run_deadline: float | None,
        cancelled: threading.Event | None,
    ) -> None:
        """Serve another run (a conversation's next question) with the worker as it is, its
        variables kept: the run's own tools (by the same names), deadline and cancellation."""
        if set(tools) != set(self.tools):
            raise ValueError("a REPL kept for another run must get the same tools")
        self.tools = dict(tools)
        self.run_deadline, self.cancelled = run_deadline, cancelled

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
        """Run one cell. A cell over its time limit, a worker that dies or sends a bad frame
        restarts the worker. A budget or cancellation error raised by a tool (or the run's
        deadline or cancellation while the cell runs) kills the worker and is raised here."""
        if self._process is None:
            self.start()
        started = time.monotonic()
        cell_deadline = min(
            t
            for t in (started + self.cell_timeout, self.run_deadline, deadline.current())
            if t is not None
        )  # (a child RLM's cell ends with its parent's)
        try:
            protocol.send(self._cmd, {"op": "exec", "code": code}, cell_deadline)
            while True:
                message = self._next_message(cell_deadline)
                if message.get("op") != "call":
                    return self._result(message, started)
                reply = self._dispatch(message, cell_deadline)
                if time.monotonic() >= cell_deadline:
                    raise protocol.FrameTimeout("a tool call used up the cell's time")
                protocol.send(self._cmd, reply, cell_deadline)
        except protocol.FrameTimeout:
            self._raise_if_run_is_over()
            return self._recover(
                started, f"Error: the cell ran longer than {self.cell_timeout:g} s and was stopped."
            )
        except protocol.ChannelEnded:
            return self._recover(
                started,
                f"Error: the REPL process exited (code {self._exit_code()}) "
                "while running this cell.",
            )
        except protocol.ChannelClosed as error:
            return self._recover(
                started,
                f"Error: the REPL process broke the protocol ({error}) while running this cell.",
            )
        except FATAL:
            self.close()
            raise

    def _next_message(self, cell_deadline: float) -> dict[str, Any]:
        """The worker's next frame; waits in short slices so that a cancellation is seen at once."""
        poller = select.poll()
        poller.register(self._reply, select.POLLIN)
        while True:
            if self.cancelled is not None and self.cancelled.is_set():
                raise CancelledError("the run was cancelled")
            deadline.end_if_stopped()
            left = cell_deadline - time.monotonic()
            if left <= 0:
                raise protocol.FrameTimeout("the cell's time is up")
            if poller.poll(min(left, CANCEL_POLL_SECONDS) * 1000):
                return protocol.receive(
                    self._reply, cell_deadline, MAX_REPLY_BYTES, MAX_REPLY_CONTAINERS
                )

    def _exit_code(self) -> int | str:
        """The worker's exit code, once it has ended (it is given a moment)."""
        try:
            return self._process.wait(timeout=1.0) if self._process else "unknown"
        except subprocess.TimeoutExpired:
            return "unknown"

    def _raise_if_run_is_over(self) -> None:
        if self.run_deadline is not None and time.monotonic() >= self.run_deadline:
            self.close()
            raise BudgetExceededError(
                "budget exceeded: the run's time budget ran out during a code cell", "max_seconds"
            )

    def _result(self, message: dict[str, Any], started: float) -> CellResult:
        """The cell's outcome, each part checked and re-capped here: the worker's own caps are its
        code's to undo."""
        output, error, final = (message.get(key) for key in ("output", "error", "final"))
        if (
            message.get("op") != "result"
            or not isinstance(output, str)
            or not all(part is None or isinstance(part, str) for part in (error, final))
        ):
            raise protocol.ChannelClosed(f"unexpected frame {str(message.get('op'))[:40]!r}")
        result = CellResult(
            output=_text(output, self.max_output_chars),
            error=None if error is None else _text(error, MAX_ERROR_CHARS),
            final=None if final is None else _text(final, self.max_final_chars),
            seconds=time.monotonic() - started,
        )
        restored = message.get("restored")
        names = (
            [n for n in restored if isinstance(n, str) and n in self._reserved]
            if isinstance(restored, list)
            else []
        )
        if names:
            result.notices.append(
                f"Note: {', '.join(names)} cannot be overwritten; restored the original."
            )
        return result

    def _recover(self, started: float, what: str) -> CellResult:
        self.restart()
        return CellResult(notices=[what, RESTART_NOTE], seconds=time.monotonic() - started)

    def _dispatch(self, message: dict[str, Any], cell_deadline: float) -> dict[str, Any] | bytes:
        name = str(message.get("name"))[:100]
        function = self.tools.get(name)
        args, kwargs = message.get("args", []), message.get("kwargs", {})
        if function is None or not isinstance(args, list) or not isinstance(kwargs, dict):
            return {"op": "error", "error": f"unknown tool {name!r}"}
        try:
            with deadline.until(cell_deadline):
                value = function(*args, **kwargs)
            reply = protocol.encode({"op": "return", "value": value})
            if len(reply) > MAX_TOOL_RESULT_BYTES:
                return {
                    "op": "error",
                    "error": f"{name} returned {len(reply) / 2**20:,.0f} MB, over the "
                    f"{MAX_TOOL_RESULT_BYTES >> 20} MB a tool may return: ask for less",
                }
            return reply
        except FATAL:
            raise
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


@functools.cache
def probe() -> dict[str, dict[str, Any]]:
    """The isolation layers a worker gets on this machine (one worker started, once per process)."""
    with Sandbox({}) as sandbox:
        return sandbox.layers
