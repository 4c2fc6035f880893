"""The REPL worker: a separate Python process that runs model-written code cells in one persistent
namespace. Started by `Sandbox` as `python -I -m longread.repl.worker CMD_FD REPLY_FD`. Before the
first cell it confines itself through the kernel (`confine.py`); the audit hook (`guard.py`) only
explains refusals."""

from __future__ import annotations

import ast
import builtins
import json
import linecache
import os
import sys
import threading
import traceback
import types
from contextlib import redirect_stderr, redirect_stdout
from typing import Any

from longread.repl import confine, guard, protocol
from longread.repl.capture import CappedText
from longread.repl.lazytext import LazyText
from longread.text.cut import truncate_middle


class ToolError(Exception):
    """A tool function failed on the host side."""


class _Final(BaseException):
    """Carries FINAL's value out of a cell (a BaseException so `except Exception` cannot swallow
    it)."""

    def __init__(self, value: str):
        self.value = value


def _as_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)


class Worker:
    def __init__(self, cmd_fd: int, reply_fd: int):
        self.cmd_fd = cmd_fd
        self.reply_fd = reply_fd
        self.cells = 0
        self.namespace: dict[str, Any] = {"__name__": "__repl__", "__builtins__": builtins}
        self.reserved: dict[str, Any] = {}
        self.output_limit = 20_000
        self.final_limit = 1_000_000
        self._call_lock = threading.Lock()

    def setup(self, init: dict[str, Any]) -> confine.Report:
        """Load the context and tools, then confine the process; what each isolation layer did."""
        self.output_limit = int(init["max_output_chars"])
        self.final_limit = int(init["max_final_chars"])
        tools = {name: self._proxy(name, doc) for name, doc in init["tools"].items()}
        with open(init["variables_file"], encoding="utf-8") as f:
            variables = json.load(f)
        self.reserved = {
            **variables,
            **tools,
            "FINAL": self.final,
            "FINAL_VAR": self.final_var,
            "SHOW_VARS": self.show_vars,
        }
        if init.get("context_length") is not None:
            self.reserved["context"] = LazyText(int(init["context_length"]), tools["context_read"])
        elif init.get("context_file"):
            with open(init["context_file"], encoding="utf-8") as f:
                self.reserved["context"] = (
                    f.read() if init["context_kind"] == "text" else json.load(f)
                )
        self.namespace.update(self.reserved)
        policy = init["policy"]
        confine.use_libraries(init["libraries"])
        report = confine.confine(policy)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 2)  # stderr was the host's start-up log
        guard.install(policy["read"])
        os._exit = _refuse_exit  # type: ignore[assignment]
        os.abort = _refuse_exit  # type: ignore[assignment]
        return report

    def _proxy(self, name: str, doc: str) -> Any:
        def tool(*args: Any, **kwargs: Any) -> Any:
            return self.call_host(name, args, kwargs)

        tool.__name__ = tool.__qualname__ = name
        tool.__doc__ = doc
        return tool

    def call_host(self, name: str, args: tuple, kwargs: dict) -> Any:
        try:
            json.dumps([args, kwargs])
        except (TypeError, ValueError):
            raise TypeError(
                f"{name}(): arguments must be str, numbers, bool, None, lists or dicts"
            ) from None
        with self._call_lock:
            protocol.send(
                self.reply_fd, {"op": "call", "name": name, "args": list(args), "kwargs": kwargs}
            )
            reply = protocol.receive(self.cmd_fd)
        if reply.get("op") == "return":
            return reply.get("value")
        raise ToolError(reply.get("error", f"{name} failed"))

    def show_vars(self) -> dict[str, str]:
        """The variables made so far, each with its type's name."""
        return {
            name: type(value).__name__
            for name, value in self.namespace.items()
            if not name.startswith("_")
            and name not in self.reserved
            and not isinstance(value, types.ModuleType)
        }

    def final(self, value: Any) -> None:
        """Return `value` as the final answer and end the run."""
        raise _Final(self._capped(value))

    def final_var(self, name: Any) -> None:
        """Return the variable called `name` as the final answer."""
        if isinstance(name, str) and name.isidentifier():
            if name not in self.namespace:
                raise NameError(f"FINAL_VAR: no variable named {name!r}")
            raise _Final(self._capped(self.namespace[name]))
        raise _Final(self._capped(name))

    def _capped(self, value: Any) -> str:
        return truncate_middle(_as_text(value), self.final_limit)

    def run_cell(self, code: str) -> dict[str, Any]:
        self.cells += 1
        filename = f"<cell {self.cells}>"
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        out = CappedText(self.output_limit)
        error = final = None
        with redirect_stdout(out), redirect_stderr(out):
            try:
                self._execute(code, filename)
            except _Final as done:
                final = done.value
            except SystemExit:
                error = "SystemExit: exiting is not allowed here; the REPL keeps running"
            except BaseException as exc:  # noqa: BLE001 - everything the model's code raises is reported
                error = truncate_middle(_format_error(exc), self.output_limit)  # (cut as output)
        restored = [n for n, obj in self.reserved.items() if self.namespace.get(n) is not obj]
        self.namespace.update({n: self.reserved[n] for n in restored})
        return {
            "op": "result",
            "output": out.getvalue(),
            "error": error,
            "final": final,
            "restored": restored,
        }

    def _execute(self, code: str, filename: str) -> None:
        tree = ast.parse(code, filename)
        last = tree.body[-1] if tree.body else None
        if isinstance(last, ast.Expr):
            tree.body.pop()  # (its value is shown, as at an interactive prompt)
        else:
            last = None
        exec(compile(tree, filename, "exec"), self.namespace)
        if last is not None:
            value = eval(compile(ast.Expression(last.value), filename, "eval"), self.namespace)
            if value is not None:
                print(repr(value))

    def serve(self) -> None:
        report = self.setup(protocol.receive(self.cmd_fd))
        protocol.send(self.reply_fd, {"op": "ready", "layers": report})
        while True:
            message = protocol.receive(self.cmd_fd)
            if message.get("op") == "exec":
                protocol.send(self.reply_fd, self.run_cell(str(message.get("code", ""))))


def _format_error(exc: BaseException) -> str:
    """The exception with only the model's own frames, each with the line that failed."""
    te = traceback.TracebackException.from_exception(exc)
    for link in [te, te.__cause__, te.__context__]:
        if link is not None:
            link.stack = traceback.StackSummary.from_list(
                [f for f in link.stack if f.filename.startswith("<cell")]
            )
    return "".join(te.format()).strip()


def _refuse_exit(*_: Any) -> None:
    raise guard.SandboxViolation("sandbox: ending the REPL process is not allowed")


if __name__ == "__main__":
    confine.die_with_parent(os.getppid())
    end = os._exit  # (model code may replace os._exit; threads it started must not keep us alive)
    try:
        Worker(int(sys.argv[1]), int(sys.argv[2])).serve()
    except protocol.ChannelClosed:
        end(0)
