"""`longread serve` (the web app) and `longread trace view FILE` (its run viewer, on a trace)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.markup import escape

from longread.cli.app import app
from longread.cli.display import err_console

HOST = typer.Option("127.0.0.1", help="Interface to listen on (0.0.0.0: every interface).")
PORT = typer.Option(8000, min=0, max=65535, help="Port to listen on.")
TOKEN = typer.Option(
    None,
    envvar="LONGREAD_TOKEN",
    help="Require `Authorization: Bearer TOKEN` on every /api/ route.",
)
ALLOW_HOST = typer.Option(
    [],
    "--allow-host",
    help="A host name the server also answers to (repeat for more); by default only the address "
    "it listens on (and localhost for a loopback one), so a page of another site cannot drive it.",
)


def warn_if_open(host: str, token: str | None) -> None:
    """Say so when the app is reachable beyond this machine by anyone."""
    if host not in ("127.0.0.1", "localhost", "::1") and not token:
        err_console.print(
            "[yellow]warning:[/] listening beyond this machine without --token: anyone who "
            "can reach it can run analyses",
            highlight=False,
        )


@app.command()
def serve(
    host: str = HOST,
    port: int = PORT,
    token: str | None = TOKEN,
    max_upload_mb: float = typer.Option(
        50.0, min=0.001, help="Largest upload (MB); larger gets 413."
    ),
    model: list[str] = typer.Option(
        [],
        help="A model spec to offer (repeat it, or give a comma list); the first is the default "
        "root model (default: $LONGREAD_MODEL or local). The local models present are offered "
        "too.",
    ),
    sub_model: str | None = typer.Option(
        None, help="Default sub-model spec (default: the root model)."
    ),
    max_seconds: float = typer.Option(
        900.0, min=1, help="Budget of each analysis: wall-clock seconds."
    ),
    max_cost: float | None = typer.Option(None, min=0, help="Budget of each analysis: USD."),
    max_concurrent: int = typer.Option(4, min=1, help="Analyses run at once; more wait in line."),
    queue_timeout: float = typer.Option(
        30.0,
        min=0,
        help="Seconds a request waits in line for an analysis to end; then 503 (server busy).",
    ),
    allow_unisolated_code: bool = typer.Option(
        False,
        "--allow-unisolated-code",
        help="Offer rlm mode even where the operating system cannot isolate model-written code.",
    ),
    executor: str | None = typer.Option(
        None,
        "--executor",
        help="ray: the sub-model's calls run as Ray tasks (RAY_ADDRESS joins a cluster, else a "
        "local Ray starts). Default: local. Also LONGREAD_EXECUTOR.",
    ),
    allow_host: list[str] = ALLOW_HOST,
    watch: list[Path] = typer.Option(
        [],
        "--watch",
        help="A folder to offer as a corpus, kept indexed as its files change (repeat for more).",
    ),
) -> None:
    """Serve the web app: upload documents, ask with any mode, watch the run live, read the cited
    answer. The API is described at /docs."""
    from longread.executor import make_executor
    from longread.repl.isolation import is_isolated, warning
    from longread.repl.sandbox import probe
    from longread.web import create_app
    from longread.web.hosts import allowed_hosts
    from longread.web.models import present_local_models
    from longread.web.serving import serve_app
    from longread.web.settings import Settings

    settings = Settings(
        token=token,
        max_upload_mb=max_upload_mb,
        sub_model=sub_model,
        max_seconds=max_seconds,
        max_cost_usd=max_cost,
        max_concurrent=max_concurrent,
        queue_timeout=queue_timeout,
        allow_unisolated_code=allow_unisolated_code,
        hosts=allowed_hosts(host, allow_host),
        watch=tuple(_folder(f) for f in watch),
    )
    offered = [spec.strip() for given in model for spec in given.split(",") if spec.strip()]
    if offered:
        settings.model = offered[0]
    warn_if_open(host, token)
    layers = probe()
    if not is_isolated(layers):
        consequence = (
            "rlm mode is offered anyway"
            if allow_unisolated_code
            else "rlm mode is refused (--allow-unisolated-code offers it)"
        )
        err_console.print(
            f"[yellow]warning:[/] {escape(warning(layers))}; {consequence}", highlight=False
        )
    with make_executor(executor) as runner:
        settings.executor = runner
        print(f"longread: serving on http://{host}:{port}/ (API docs at /docs)", flush=True)
        choices = offered[1:] + present_local_models()
        serve_app(create_app(settings, choices), host, port)


def _folder(given: Path) -> Path:
    """A folder to watch, resolved; InputError if it is none."""
    from longread.errors import InputError

    if not given.is_dir():
        raise InputError(f"--watch {given}: not a folder")
    return given.resolve()


trace_app = typer.Typer(no_args_is_help=True, help="Look at the trace of a run.")
app.add_typer(trace_app, name="trace")


@trace_app.command("view")
def trace_view(
    file: Path = typer.Argument(..., help="A JSONL trace (`ask --trace FILE`, `chat --trace`)."),
    host: str = HOST,
    port: int = PORT,
    token: str | None = TOKEN,
    allow_host: list[str] = ALLOW_HOST,
) -> None:
    """Open the web app's run viewer on a trace file: each question's run as a timeline of root
    turns, code and output, and sub-calls with prompt, reply, seconds and tokens."""
    from longread.web import create_app
    from longread.web.hosts import allowed_hosts
    from longread.web.runs import RunLog
    from longread.web.serving import serve_app
    from longread.web.settings import Settings

    runs = RunLog.from_trace(file)
    warn_if_open(host, token)
    print(
        f"longread: {len(runs.list())} runs of {file.name} on http://{host}:{port}/#runs",
        flush=True,
    )
    app = create_app(Settings(token=token, hosts=allowed_hosts(host, allow_host)), runs=runs)
    serve_app(app, host, port)
