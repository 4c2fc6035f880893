"""`longread doctor`: what this machine gives longread. The sandbox's layers (probed by starting a
worker), the local models, the cache folder and the providers configured. Exits 1 when model-written
code would run without operating-system isolation."""

from __future__ import annotations

import os
import platform
import sys
from functools import partial

from rich.markup import escape

from longread import __version__
from longread.cli.app import app
from longread.cli.display import console

say = partial(console.print, highlight=False, soft_wrap=True)

PROVIDER_VARIABLES = (
    "LONGREAD_MODEL",
    "LONGREAD_SUB_MODEL",
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "AZURE_OPENAI_API_KEY",
    "AZURE_OPENAI_ENDPOINT",
    "OPENAI_API_VERSION",
    "ANTHROPIC_API_KEY",
)
SECRET_VARIABLES = {"OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "ANTHROPIC_API_KEY"}


@app.command()
def doctor() -> None:
    """Report the sandbox's isolation layers, the local models, the cache folder and the providers
    configured (exit 1 if model-written code would run without operating-system isolation)."""
    from longread.repl.isolation import is_isolated
    from longread.repl.sandbox import probe

    say(
        f"longread {__version__} · Python {platform.python_version()} · "
        f"{platform.system()} {platform.release()} {platform.machine()}"
    )
    say("\n[bold]Sandbox[/] (the REPL worker that runs model-written code in rlm mode)")
    layers = probe()
    for name, layer in layers.items():
        state = "[green]active[/]  " if layer["active"] else "[yellow]inactive[/]"
        say(f"  {name:<11} {state} {escape(layer['detail'])}")
    isolated = is_isolated(layers)
    say(
        "  [green]model code is isolated by the operating system[/]"
        if isolated
        else "  [red]model code is NOT isolated by the operating system[/]: "
        "rlm mode prints a warning, `serve` refuses it without --allow-unisolated-code"
    )
    _local_models()
    _cache()
    _providers()
    sys.exit(0 if isolated else 1)


def _local_models() -> None:
    from longread.config import cache_dir
    from longread.errors import ModelFetchError
    from longread.llm.local_models import DEFAULT_LOCAL, LOCAL_MODELS, bundled_smollm2_path

    say("\n[bold]Local models[/]")
    try:
        bundled = bundled_smollm2_path()
        say(
            f"  local:{DEFAULT_LOCAL:<20} bundled, {bundled.stat().st_size / 1e6:,.0f} MB  "
            f"{escape(str(bundled))}"
        )
    except ModelFetchError as error:
        say(f"  local:{DEFAULT_LOCAL:<20} [red]{escape(str(error))}[/]")
    try:
        import llama_cpp  # noqa: F401 - is the runtime importable?

        runtime = f"llama-cpp-python {llama_cpp.__version__}"
    except ImportError as error:
        runtime = f"[red]llama-cpp-python cannot be imported: {escape(str(error))}[/]"
    say(f"  runtime: {runtime}")
    from longread.strategies.declared import declared

    budgets = ", ".join(f"{m.name} {m.seconds[0]:,.0f} s" for m in declared().values())
    say(
        f"  a run whose root model is local stops after its mode's budget ({budgets}) unless "
        "--max-seconds says otherwise (its answer so far is printed); one predicted to take "
        "longer asks for --max-seconds first"
    )
    for key, info in LOCAL_MODELS.items():
        if key == DEFAULT_LOCAL:
            continue
        path = cache_dir() / "models" / info.filename
        state = (
            "fetched" if path.is_file() else f"not fetched ({info.size / 1e6:,.0f} MB on first use)"
        )
        say(f"  local:{key:<20} {state}")


def _cache() -> None:
    from longread.config import cache_dir

    root = cache_dir()
    say("\n[bold]Cache folder[/]")
    say(f"  {escape(str(root))}" + ("" if root.is_dir() else " (not created yet)"))
    for name, what in (("indexes", "indexes"), ("responses.sqlite", "model responses")):
        path = root / name
        if path.exists():
            files = list(path.glob("*.sqlite")) if path.is_dir() else [path]
            size = sum(f.stat().st_size for f in files)
            say(f"  {what}: {len(files) if path.is_dir() else 1} file(s), {size / 1e6:,.1f} MB")


def _providers() -> None:
    from longread.config import default_model, default_sub_model, default_vision_model

    say("\n[bold]Models and providers[/]")
    root = default_model()
    say(f"  default root model {escape(root)}, sub-model {escape(default_sub_model(root))}")
    vision = default_vision_model()
    say(
        f"  figures described by {escape(vision)}"
        if vision
        else "  [yellow]figures are not described[/]: no vision model (--vision-model SPEC or "
        "LONGREAD_VISION_MODEL); their captions and alt text are indexed"
    )
    for name in PROVIDER_VARIABLES:
        value = os.environ.get(name)
        shown = "not set" if value is None else "set" if name in SECRET_VARIABLES else escape(value)
        say(f"  {name:<22} {shown}")
