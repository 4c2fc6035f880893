"""List prices in USD per million tokens (input, output), matched by model-name prefix."""

from __future__ import annotations

_PER_MILLION: dict[str, tuple[float, float]] = {
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4o": (2.50, 10.00),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-5-nano": (0.05, 0.40),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5": (1.25, 10.00),
    "o4-mini": (1.10, 4.40),
    "claude-haiku-4-5": (1.00, 5.00),
    "claude-sonnet-4": (3.00, 15.00),
    "claude-opus-4": (15.00, 75.00),
    "claude-3-5-haiku": (0.80, 4.00),
}


def cost_usd(model_spec: str, input_tokens: int, output_tokens: int) -> float | None:
    """Cost of one call, 0 for local models, None when the price is unknown."""
    provider, _, model = model_spec.partition(":")
    if provider in ("local", "scripted"):
        return 0.0
    for prefix in sorted(_PER_MILLION, key=len, reverse=True):
        if model.startswith(prefix):
            price_in, price_out = _PER_MILLION[prefix]
            return (input_tokens * price_in + output_tokens * price_out) / 1e6
    return None
