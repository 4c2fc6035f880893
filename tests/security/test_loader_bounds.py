"""Hostile files given to `longread index`, as a user runs it: loaders count the bytes they decode,
not the sizes a file declares. A page showing one large picture many times, a picture that is a
FIFO: each ends within its time limit under 600 MB, with one line where something is refused or
left out, and the rest of the document is indexed."""

from __future__ import annotations

import base64
import io
import os
from pathlib import Path

from PIL import Image as Picture

from cli import LONGREAD
from fake_openai import fake_openai
from security.harness import measured

LIMIT_MB = 600
SAID = "A field of grey noise."


def index(path: Path, tmp_path: Path, *extra: str, **env: str):
    """`longread index PATH --no-summaries` with the cache in the test's folder: (the run, its
    peak MB)."""
    return measured(
        [LONGREAD, "index", str(path), "--no-summaries", *extra],
        tmp_path,
        LONGREAD_CACHE_DIR=str(tmp_path / "cache"),
        OPENAI_API_KEY="sk-test",
        **env,
    )


def noise_png(side: int = 1150) -> bytes:
    """A PNG of random pixels (it does not compress): about 4 MB at the default side."""
    out = io.BytesIO()
    Picture.frombytes("RGB", (side, side), os.urandom(side * side * 3)).save(out, format="PNG")
    return out.getvalue()


def page_showing(folder: Path, source: str, times: int) -> Path:
    folder.mkdir(exist_ok=True)
    page = folder / "page.html"
    pictures = f'<img alt="Noise" src="{source}"><br>' * times
    page.write_text(
        f"<html><body><h1>Tides</h1><p>The harbour master keeps the tide tables.</p>{pictures}"
        "</body></html>"
    )
    return page


def shown_pictures(messages) -> list[bytes]:
    """The pictures a vision request shows, decoded."""
    parts = messages[-1]["content"]
    return [
        base64.b64decode(p["image_url"]["url"].split(",", 1)[1])
        for p in parts
        if p["type"] == "image_url"
    ]


def test_a_page_showing_one_large_picture_500_times_is_indexed_small(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    picture = folder / "noise.png"
    picture.write_bytes(noise_png())
    assert picture.stat().st_size > 3_900_000
    page = page_showing(folder, "noise.png", 500)
    assert page.stat().st_size < 20_000
    done, peak = index(page, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr and peak < LIMIT_MB, (peak, done.stderr)
    with fake_openai([]) as server:
        server.last = lambda messages: (
            SAID if shown_pictures(messages) == [picture.read_bytes()] else "wrong"
        )
        done, peak = index(
            page, tmp_path, "--rebuild", "--vision-model", "openai:vision",
            OPENAI_BASE_URL=server.url,
        )  # fmt: skip
        asked = len(server.requests)
        server.requests.clear()  # (the pictures sent are large: not kept past the count)
    assert done.returncode == 0, done.stderr
    assert peak < LIMIT_MB, (peak, done.stderr)
    assert asked == 1  # (one picture, one caption: described once, the description shared)


def test_a_picture_that_is_a_fifo_does_not_hang_indexing(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    os.mkfifo(folder / "pipe.png")
    page = page_showing(folder, "pipe.png", 1)
    done, _ = index(page, tmp_path)
    assert done.returncode == 0, done.stderr
    with fake_openai([SAID]) as server:
        done, _ = index(
            page, tmp_path, "--rebuild", "--vision-model", "openai:vision",
            OPENAI_BASE_URL=server.url,
        )  # fmt: skip
    assert done.returncode == 0, done.stderr  # (not None: it ended, well within its time)
    assert server.requests == []  # (nothing read, nothing sent)
    [line] = [line for line in done.stderr.splitlines() if "pipe.png" in line]
    assert "not a regular file" in line and "Traceback" not in done.stderr
