"""How long a model's calls take on this machine, fitted from the calls it made: a call costs a
fixed time (a request's round trip, a local model's set-up), a time per prompt token and a time
per reply token. The three are fitted to the recent calls by least squares of each call's error
relative to its time, none negative: one rate for all tokens (what the estimate used before) put
a local model's short map prompts at several times their seconds."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

Sample = tuple[int, int, float]  # (prompt tokens, reply tokens, seconds) of one call
MIN_SAMPLES = 4  # fewer calls than this fit nothing


@dataclass(frozen=True)
class Speed:
    """Seconds of a call: `per_call` + `per_input` a prompt token + `per_output` a reply token."""

    per_call: float
    per_input: float
    per_output: float

    def seconds(self, calls: int, input_tokens: int, output_tokens: int) -> float:
        return (
            calls * self.per_call + input_tokens * self.per_input + output_tokens * self.per_output
        )


def fit(samples: Sequence[Sample]) -> Speed | None:
    """The speed that best explains the samples (least squares, no part negative); None for too
    few samples or none that a non-negative speed explains."""
    timed = [(i, o, s) for i, o, s in samples if s > 0]
    if len(timed) < MIN_SAMPLES:
        return None
    # each call's error relative to its own time: a short call counts as much as a long one (the
    # long ones' noise would otherwise set the time of a reply token). The error of any speed is
    # a quadratic form of the rows' sums of products, so the samples are read once.
    relative = [(1.0 / s, i / s, o / s) for i, o, s in timed]
    scale = [max(abs(x[c]) for x in relative) or 1.0 for c in range(3)]  # (tokens, ones alike)
    rows = [[v / k for v, k in zip(x, scale, strict=True)] for x in relative]
    gram = [[sum(x[r] * x[c] for x in rows) for c in range(3)] for r in range(3)]
    sums = [sum(x[r] for x in rows) for r in range(3)]
    best: tuple[float, Speed] | None = None
    for size in (3, 2, 1):
        for kept in itertools.combinations(range(3), size):
            solved = _solve([[gram[r][c] for c in kept] for r in kept], [sums[r] for r in kept])
            if solved is None or min(solved) < 0:
                continue
            pairs = itertools.product(enumerate(kept), repeat=2)
            error = (
                len(rows)
                + sum(solved[m] * gram[r][c] * solved[n] for (m, r), (n, c) in pairs)
                - 2 * sum(solved[m] * sums[r] for m, r in enumerate(kept))
            )
            parts = [0.0, 0.0, 0.0]
            for k, value in zip(kept, solved, strict=True):
                parts[k] = value / scale[k]
            if best is None or error < best[0]:
                best = (error, Speed(*parts))
    return None if best is None else best[1]


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float] | None:
    """x with matrix · x = vector (Gaussian elimination with partial pivoting); None where the
    system has no single solution."""
    n = len(vector)
    matrix, vector = [row[:] for row in matrix], vector[:]
    size = max(abs(v) for row in matrix for v in row) or 1.0
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(matrix[r][col]))
        if abs(matrix[pivot][col]) < 1e-9 * size:
            return None
        matrix[col], matrix[pivot] = matrix[pivot], matrix[col]
        vector[col], vector[pivot] = vector[pivot], vector[col]
        for r in range(n):
            if r != col:
                factor = matrix[r][col] / matrix[col][col]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[col], strict=True)]
                vector[r] -= factor * vector[col]
    return [vector[r] / matrix[r][r] for r in range(n)]
