"""Property-based fuzzing of the loaders and of the REPL's frame protocol: a mutated real file
of any kind is loaded or refused in one line, in bounded time and memory, never a traceback; a
frame of any bytes is read or refused as a closed channel, never a hang. (A short run here;
`bench/fuzz.py` runs many more inputs.)"""

from __future__ import annotations

import os
import resource
import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fuzz_inputs import MAX_GROWTH_MB, MUTATIONS, Tried, mutated, seeds
from longread.repl.protocol import ChannelClosed, receive

EXAMPLES = int(os.environ.get("LONGREAD_FUZZ_EXAMPLES", "15"))
SEEDS = seeds()
_FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


@pytest.mark.parametrize("suffix", sorted(SEEDS))
def test_a_mutated_file_is_loaded_or_refused_in_one_line(suffix, tmp_path):
    tried = Tried()
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    @_FUZZ
    @given(mutations=MUTATIONS)
    @example(mutations=[("overwrite", 0.99999, b"\x00\x00\x00\x00")])  # (found: a cut UTF-16 text)
    @example(mutations=[("cut", 0.5, b"\x00")])  # (found: a DOCX seeking before its start)
    @example(mutations=[("overwrite", 0.21875, b"\x00")])  # (found: a PDF filter's name damaged)
    def load(mutations):
        tried.load(mutated(SEEDS[suffix], mutations), Path(suffix).suffix or suffix, tmp_path)

    load()
    assert tried.loaded + tried.refused > 0
    assert tried.peak_mb - baseline <= MAX_GROWTH_MB


@_FUZZ
@given(body=st.binary(max_size=2_000), declared=st.integers(0, 2**32 - 1))
def test_a_frame_of_any_bytes_is_read_or_refused(body, declared):
    read_end, write_end = os.pipe()
    try:
        frame = struct.pack(">I", declared) + body
        os.write(write_end, frame[:60_000])
        os.close(write_end)
        write_end = -1
        try:
            message = receive(read_end, deadline=None, max_bytes=1_000_000, max_containers=1_000)
        except ChannelClosed:
            return  # (refused, or the pipe ended before the frame did)
        assert isinstance(message, dict)
    finally:
        os.close(read_end)
        if write_end >= 0:
            os.close(write_end)
