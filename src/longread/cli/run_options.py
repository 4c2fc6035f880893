"""The options every command that asks shares (models, strategy, budget, trace, cache), and the
`AskSettings` they make for the API."""

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from longread.strategies.catalog import modes_for

if TYPE_CHECKING:  # (the library loads when a command runs, not for --help)
    from longread.api import AskSettings

MODE = typer.Option(
    "auto",
    help=f"Strategy: {', '.join(modes_for('document'))}; for a folder "
    f"{', '.join(modes_for('corpus'))} (auto: base if the document fits the "
    "root model, rlm if it writes code, else map).",
)
MODEL = typer.Option(None, help="Root model spec (default: $LONGREAD_MODEL or local).")
SUB_MODEL = typer.Option(None, help="Sub-model spec (default: the root model).")
VISION_MODEL = typer.Option(
    None,
    help="A model that reads images (openai:…, anthropic:…) to describe a document's figures as "
    "it is indexed (default: $LONGREAD_VISION_MODEL, else none: figures keep their captions).",
)
BASE_URL = typer.Option(None, help="Base URL of an OpenAI-compatible server.")
API_KEY = typer.Option(None, help="API key (default: the provider's env variable).")
MAX_ITERATIONS = typer.Option(12, min=1, help="Root turns of the rlm loop.")
MAX_DEPTH = typer.Option(
    1, min=1, help="RLM levels: 1 makes rlm_query a plain sub-call, 2 lets it start child RLMs."
)
CONCURRENCY = typer.Option(8, min=1, help="Model calls at once (batches, child RLMs).")
CELL_TIMEOUT = typer.Option(
    120.0, min=0.1, help="Seconds one code cell may run, its tool and model calls included."
)
TOP_K = typer.Option(8, min=1, help="retrieval: passages the root model answers from.")
MAX_SUBCALLS = typer.Option(None, min=0, help="Budget (per question): sub-model calls.")
MAX_COST = typer.Option(None, min=0, help="Budget (per question): USD.")
MAX_TOKENS = typer.Option(None, min=1, help="Budget (per question): input + output tokens.")
MAX_SECONDS = typer.Option(None, min=1, help="Budget (per question): wall-clock seconds.")
FOCUS = typer.Option(
    None,
    "--focus/--no-focus",
    help="map/tree: show the sub-model only each passage's best-matching lines, a line back "
    "from each (default: on for local models and models that cannot write code; use --focus "
    "for a small model behind a server).",
)
VERIFY = typer.Option(
    False,
    "--verify",
    help="The sub-model also judges each claim against the text it cites (one more call, "
    "inside the budget); without it claims are checked by their words and numbers.",
)
READER = typer.Option(
    None,
    "--reader",
    help="Who reads a counting, ranking, listing or lookup question into the query run over "
    "the records: a model spec, `rules` (no model: only a word's mentions are counted), or by "
    "default (also $LONGREAD_READER) a hosted root model itself, else the local code model "
    "local:qwen2.5-coder-1.5b (fetched once, 1.1 GB).",
)
ANSWER_MODEL = typer.Option(
    None,
    "--answer-model",
    help="Who states a fact's short answer from the passages found, where the root model "
    "cannot join them (the bundled small one): a model spec, `none` (the best finding leads), "
    "or by default (also $LONGREAD_ANSWER_MODEL) the local code model local:qwen2.5-coder-1.5b.",
)
TRACE = typer.Option(None, help="Write a JSONL trace of the run here.")
NO_CACHE = typer.Option(False, "--no-cache", help="Do not reuse or store model responses.")
JSON_OUT = typer.Option(False, "--json", help="Print each answer as JSON.")
QUIET = typer.Option(False, "--quiet", "-q", help="No progress display.")
EXECUTOR = typer.Option(
    None,
    "--executor",
    help="ray: the sub-model's calls (map, llm_query_batched) and a folder's indexing run as "
    "Ray tasks (RAY_ADDRESS joins a cluster, else a local Ray starts). Default: local. Also "
    "LONGREAD_EXECUTOR.",
)


def ask_settings(
    mode: str = MODE,
    model: str | None = MODEL,
    sub_model: str | None = SUB_MODEL,
    vision_model: str | None = VISION_MODEL,
    base_url: str | None = BASE_URL,
    api_key: str | None = API_KEY,
    max_iterations: int = MAX_ITERATIONS,
    max_depth: int = MAX_DEPTH,
    concurrency: int = CONCURRENCY,
    cell_timeout: float = CELL_TIMEOUT,
    top_k: int = TOP_K,
    max_subcalls: int | None = MAX_SUBCALLS,
    max_cost: float | None = MAX_COST,
    max_tokens: int | None = MAX_TOKENS,
    max_seconds: float | None = MAX_SECONDS,
    focus: bool | None = FOCUS,
    verify: bool = VERIFY,
    reader: str | None = READER,
    answer_model: str | None = ANSWER_MODEL,
    trace: Path | None = TRACE,
    no_cache: bool = NO_CACHE,
) -> "AskSettings":
    """The API's settings from the options every asking command takes."""
    from longread.api import AskSettings, Budget, RunOptions
    from longread.config import default_answer_model, default_reader
    from longread.llm.specs import ClientOptions

    return AskSettings(
        root_model=model,
        sub_model=sub_model,
        vision_model=vision_model,
        mode=mode,
        budget=Budget(max_subcalls, max_cost, max_tokens, max_seconds),
        options=RunOptions(
            max_iterations=max_iterations,
            max_depth=max_depth,
            concurrency=concurrency,
            cell_timeout=cell_timeout,
            focus=focus,
            top_k=top_k,
            verify=verify,
            reader=reader or default_reader(),
            answer_model=answer_model or default_answer_model(),
        ),
        cache=not no_cache,
        trace_path=str(trace) if trace else None,
        client_options=ClientOptions(base_url, api_key),
    )


def asking(command: Callable[..., None]) -> Callable[..., None]:
    """`command` with the options of `ask_settings` in place of its `settings` parameter, which
    receives the AskSettings they make (the options are declared once, for every command that
    asks)."""
    shared = list(inspect.signature(ask_settings).parameters.values())
    own = [
        p.replace(annotation=eval(p.annotation, command.__globals__))  # noqa: S307 - our own code
        if isinstance(p.annotation, str)
        else p
        for p in inspect.signature(command).parameters.values()
        if p.name != "settings"
    ]
    arguments = sum(1 for p in own if isinstance(p.default, typer.models.ArgumentInfo))
    merged = [
        p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
        for p in [*own[:arguments], *shared, *own[arguments:]]
    ]

    def run(**given: Any) -> None:
        settings = ask_settings(**{p.name: given.pop(p.name) for p in shared})
        command(settings=settings, **given)

    run.__name__, run.__doc__ = command.__name__, command.__doc__
    run.__signature__ = inspect.Signature(merged)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in merged}
    return run
