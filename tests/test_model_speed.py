"""A model's speed, fitted to its calls: a fixed time per call, per prompt token and per reply
token, none negative; the estimate of seconds uses it once enough calls were timed."""

from __future__ import annotations

import random

import pytest

from longread.store.cache import ResponseCache
from longread.store.model_speed import MIN_SAMPLES, Speed, fit


def test_the_three_parts_of_a_call_s_time_are_found_again_from_noisy_calls():
    truth = Speed(per_call=0.8, per_input=0.002, per_output=0.05)
    chance = random.Random(3)
    calls = [(chance.randint(50, 3000), chance.randint(5, 400)) for _ in range(60)]
    samples = [(i, o, truth.seconds(1, i, o) * chance.uniform(0.9, 1.1)) for i, o in calls]
    found = fit(samples)
    assert found is not None
    assert found.per_call == pytest.approx(0.8, rel=0.3)
    assert found.per_input == pytest.approx(0.002, rel=0.2)
    assert found.per_output == pytest.approx(0.05, rel=0.1)
    # (short prompts, short replies: the one rate of all tokens put these at several times)
    assert found.seconds(10, 1_000, 200) == pytest.approx(truth.seconds(10, 1_000, 200), rel=0.15)


def test_a_part_the_calls_cannot_show_is_zero_never_negative():
    # (time grows with the reply only, and fewer prompt tokens came with longer replies)
    samples = [(1000 - 10 * o, o, 0.05 * o) for o in range(5, 60, 5)]
    found = fit(samples)
    assert found is not None and min(found.per_call, found.per_input, found.per_output) >= 0
    assert found.seconds(1, 500, 40) == pytest.approx(2.0, rel=0.05)
    assert fit(samples[: MIN_SAMPLES - 1]) is None


def test_the_cache_keeps_a_model_s_recent_calls_and_its_history_fits_them(tmp_path, monkeypatch):
    import longread.store.cache as cache_module

    monkeypatch.setattr(cache_module, "SAMPLES_KEPT", 10)
    cache = ResponseCache(tmp_path / "responses.sqlite")
    for n in range(30):  # (the first 20 slower: only the newest 10 are kept)
        seconds = (5.0 if n < 20 else 1.0) + 0.01 * (100 + n)
        cache.record_call("m", "text", (100 + n, 100 + n, 20), seconds)
    cache.record_call("other", "text", (100, 100, 20), 99.0)
    history = cache.history("m")
    assert history is not None and history.speed is not None
    assert history.seconds(1, 120, 20) == pytest.approx(1.0 + 0.01 * 120, rel=0.1)
    kept = cache._db.execute("SELECT COUNT(*) FROM call_samples WHERE model = 'm'").fetchone()
    assert kept == (10,)
    assert cache.history("other").speed is None  # (one call fits nothing: the one rate is used)
    assert cache.history("other").seconds(1, 100, 20) == pytest.approx(99.0)
    cache.close()


def test_calls_of_one_purpose_are_estimated_by_their_own_speed(tmp_path):
    cache = ResponseCache(tmp_path / "responses.sqlite")
    for n in range(6):  # (long prompts, one at a time: 0.01 s a prompt token)
        cache.record_call("m", "text", (5000 + n * 300, 0, 20), 0.01 * (5000 + n * 300), "answer")
    for n in range(8):  # (a map's passage reads: short prompts, their start already evaluated)
        cache.record_call("m", "json", (100 + n * 10, 0, 20), 0.5, "read_passage")
    history = cache.history("m")
    assert history.seconds(8, 960, 160, "read_passage") == pytest.approx(4.0, rel=0.1)
    assert history.seconds(1, 6000, 20, "answer") == pytest.approx(60.0, rel=0.1)
    assert history.seconds(1, 6000, 20, "never seen") == history.seconds(1, 6000, 20)
    cache.close()


def test_a_speed_is_fitted_again_once_a_tenth_more_calls_were_made(tmp_path):
    cache = ResponseCache(tmp_path / "responses.sqlite")

    def calls(count: int, per_token: float) -> None:
        for n in range(count):
            cache.record_call("m", "text", (100 + n, 100 + n, 20), 0.5 + per_token * (100 + n))

    calls(100, 0.01)
    first = cache.history("m").speed
    calls(9, 0.05)  # (fewer than a tenth of the 100 fitted: the fit stands)
    assert cache.history("m").speed is first
    calls(1, 0.05)
    again = cache.history("m").speed
    assert again is not first and again.seconds(1, 150, 20) > first.seconds(1, 150, 20)
    cache.close()
