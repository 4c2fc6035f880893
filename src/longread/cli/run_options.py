"""The options `longread ask` and `longread chat` share (models, strategy, budget, output), and
the settings they make for the API."""

from __future__ import annotations

from typing import Any

import typer

from longread.strategies.catalog import modes_for

MODE = typer.Option(
    "auto",
    help=f"Strategy: {', '.join(modes_for('document'))}; for a folder "
    f"{', '.join(modes_for('corpus'))} (auto: base if the document fits the "
    "root model, rlm if it writes code, else map).",
)
MODEL = typer.Option(None, help="Root model spec (default: $LONGREAD_MODEL or local).")
SUB_MODEL = typer.Option(None, help="Sub-model spec (default: the root model).")
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


RUN_OPTIONS = (
    "max_iterations",
    "max_depth",
    "concurrency",
    "cell_timeout",
    "focus",
    "top_k",
    "verify",
)


def run_settings(given: dict[str, Any]) -> dict[str, Any]:
    """The API's settings from a command's options (`given`: its parameters by name)."""
    from longread.api import Budget, RunOptions
    from longread.llm.specs import ClientOptions

    trace = given["trace"]
    return dict(
        mode=given["mode"],
        trace_path=str(trace) if trace else None,
        budget=Budget(
            *(given[k] for k in ("max_subcalls", "max_cost", "max_tokens", "max_seconds"))
        ),
        options=RunOptions(**{k: given[k] for k in RUN_OPTIONS}),
        cache=not given["no_cache"],
        client_options=ClientOptions(given["base_url"], given["api_key"]),
    )
