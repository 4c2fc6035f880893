"""The `longread` command."""

from __future__ import annotations

import atexit
import contextlib
import errno
import faulthandler
import os
import signal
import sqlite3
import sys
import threading
import time
import warnings
from typing import Any, NoReturn, cast

import typer
from rich.markup import escape

from longread import deadline
from longread.cli.display import err_console
from longread.errors import BudgetExceededError, LongreadError
from longread.forking import start_waiting_thread
from longread.store.damage import damaged_files, set_aside


def main() -> NoReturn:
    """Entry point: runs the app; errors a user can cause become one line and a non-zero exit.
    It leaves without tearing the interpreter down (once the output is flushed, other threads
    are done and exit handlers have run): freeing what a run loaded, an SDK's thousand classes
    among it, took half a second."""
    code = 0
    try:
        _run()
    except SystemExit as done:
        if done.code is not None and not isinstance(done.code, int):
            print(done.code, file=sys.stderr)  # (as the interpreter would)
        code = done.code if isinstance(done.code, int) else 0 if done.code is None else 1
    except KeyboardInterrupt:  # (a second Ctrl-C while the first was being reported)
        code = 130
    _leave(code)


def _leave(code: int) -> NoReturn:
    """What interpreter shutdown does before it frees everything, then exit: threading's exit
    callbacks (which stop idle thread pools) and the wait for non-daemon threads, then the exit
    handlers (finalizers, caches), with the output flushed. A Ctrl-C while it waits ends the
    process at once: an interrupt escaping here would start the interpreter's own shutdown,
    which waits on the same threads and freezes the signal watcher."""
    try:
        threading._shutdown()  # type: ignore[attr-defined]
        _finish()
    except KeyboardInterrupt:
        _end_now(130)
    os._exit(code)


def load_commands() -> None:
    """Register every command on the app (each module of this package registers its own)."""
    from longread.cli import (  # noqa: F401
        ask,
        chat,
        corpus,
        doctor,
        evaluate,
        index,
        mcp,
        records,
        repl,
        serve,
        watch,
    )


def _run() -> None:
    from longread.cli.app import app

    load_commands()
    warnings.showwarning = _warned
    _watch_signals()
    try:
        code = app(standalone_mode=False)
        if isinstance(code, int) and code:  # (typer returns, not raises, an exit's code here)
            sys.exit(code)
    except BudgetExceededError as error:
        if error.partial is not None:
            from longread.cli.display import print_answer

            print_answer(error.partial, as_json="--json" in sys.argv)
        stopped = deadline.stop_requested()
        _fail(str(error), stopped[1] if stopped and error.limit == "signal" else error.exit_code)
    except LongreadError as error:
        _fail(str(error), error.exit_code)
    except (sqlite3.DatabaseError, OSError, UnicodeDecodeError) as error:
        if _no_room(error):
            _fail(
                f"could not write to disk ({error}): it is full, or a file-size limit was "
                "reached; what was written is kept, and the next run goes on from it",
                1,
            )
        if isinstance(error, OSError):
            raise
        if not _rebuilt_damaged():  # (not damage: a store error said in one line)
            _fail(f"the index failed: {type(error).__name__}: {error}", 1)
    except (typer.Abort, KeyboardInterrupt):
        err_console.print("[red]interrupted[/]")
        sys.exit(130)
    except typer.Exit as done:
        sys.exit(done.exit_code)
    except Exception as error:
        if not isinstance(error, _usage_errors()):
            raise
        usage = cast(Any, error)  # click's (or typer's) ClickException
        if type(error).__name__ == "NoArgsIsHelpError":  # `longread` or `longread corpus` alone
            print(usage.ctx.get_help())  # the help, as for --help: no error
            sys.exit(0)
        _fail(usage.format_message(), usage.exit_code)  # a usage error: exit code 2


def _warned(message: Warning | str, category: type[Warning], *where: Any, **more: Any) -> None:
    """A warning of the library (a damaged index set aside), one line on stderr."""
    err_console.print(f"[yellow]warning:[/] {escape(str(message))}", highlight=False)


REBUILT = "LONGREAD_REBUILT"  # (set for the run started again after damage was set aside)


def _no_room(error: BaseException) -> bool:
    """Whether a write failed for want of room (a full disk, a quota, a file-size limit)."""
    if isinstance(error, OSError):
        return error.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT)
    text = str(error).lower()
    return "disk is full" in text or "disk i/o error" in text


def _rebuilt_damaged() -> bool:
    """After a database error in the middle of a run: the files it had opened that fail SQLite's
    integrity check set aside, and the command run again once, building them anew (False, and
    nothing done, if none is damaged or this is that second run)."""
    damaged = [] if os.environ.get(REBUILT) else damaged_files()
    for path in damaged:
        set_aside(path)
    if not damaged:
        return False
    os.environ[REBUILT] = "1"
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os.execv(sys.executable, [sys.executable, *sys.argv])


def _terminated(signum: int, frame: object) -> None:
    """Every run is asked to stop: model calls and cells end as a spent budget ends them (the
    answer so far is printed, the sandboxes close, their folders go); the watcher ends what is
    still running GRACE seconds on."""
    deadline.request_stop(signal.Signals(signum).name, 128 + signum)


GRACE = 1.5  # seconds a signalled run has to end as a spent budget does, before it is ended
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)
LAST_RESORT_SECONDS = 3.0  # after GRACE, should the exit itself hang
EXIT_HANDLERS_SECONDS = 0.4  # then given to the exit handlers (they may wait on a stuck thread)


def _watch_signals() -> None:
    """At SIGTERM, SIGHUP or Ctrl-C, ask every run to stop at once (a local model stops decoding
    at its next token), and end the process GRACE seconds later if it has not ended by then, or
    at a second Ctrl-C: the main thread's handler runs only between its Python steps, and the
    exit waits for every thread, so a model call that does not return (a server that never
    answers) would keep the process alive. A thread of its own learns of each signal at once,
    through the interpreter's wakeup descriptor."""
    for stop in STOP_SIGNALS:  # the run ends as a spent budget does (Ctrl-C too)
        if signal.getsignal(stop) is not signal.SIG_IGN:  # (as a shell leaves a background job)
            signal.signal(stop, _terminated)
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    try:
        signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
        # (a parent that started us with these blocked did not mean to keep them from us; one
        # that set them to be ignored, as a shell does for a background job, is obeyed)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    except ValueError:  # (not the main thread: an embedding caller keeps its own signals)
        os.close(read_end)
        os.close(write_end)
        return

    def watch() -> None:
        interrupted = False
        while True:
            signum = os.read(read_end, 1)[0]
            code = 130 if signum == signal.SIGINT else 128 + signum
            if signum == signal.SIGINT and interrupted:
                _end_now(code)
            interrupted = interrupted or signum == signal.SIGINT
            if signum in STOP_SIGNALS:
                deadline.request_stop(signal.Signals(signum).name, code)
                threading.Thread(target=_end_later, args=(code,), daemon=True).start()
                # the last resort, a thread of C that needs no interpreter: should Python's own
                # exit freeze the threads above, the stacks are printed and the process ends
                faulthandler.dump_traceback_later(GRACE + LAST_RESORT_SECONDS, exit=True)

    start_waiting_thread(watch, "longread-signals")  # (the build may fork beside it)


def _end_later(code: int) -> None:
    time.sleep(GRACE)
    _end_now(code)


def _end_now(code: int) -> NoReturn:
    """Exit at once, from any thread: the exit handlers (finalizers, caches) and the flush of the
    output given a moment, on a thread of their own, in case they too wait on a stuck thread (a
    flush waits for a write blocked on a full pipe)."""
    handlers = threading.Thread(target=_finish, daemon=True)
    handlers.start()
    handlers.join(EXIT_HANDLERS_SECONDS)
    os._exit(code)


def _finish() -> None:
    """The exit handlers, then the output flushed."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # (a closed pipe: nothing more can be said)
            stream.flush()


def _usage_errors() -> tuple[type[Exception], ...]:
    """What a bad command line raises: typer's own exceptions (recent typer carries its own copy of
    click) or, with an older typer, click's."""
    import click

    return (click.ClickException, getattr(typer, "TyperException", click.ClickException))


def _fail(message: str, exit_code: int) -> NoReturn:
    """Print `error: message` as one line on stderr (as given: no markup, no wrapping) and exit."""
    err_console.print(
        f"[red]error:[/] {escape(' '.join(message.split()))}", highlight=False, soft_wrap=True
    )
    sys.exit(exit_code)
