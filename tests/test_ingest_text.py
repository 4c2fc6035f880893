"""Reading text files: encodings detected, non-text refused with one clear line."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from longread.errors import InputError
from longread.ingest.text import decode, read_text_file


def test_encodings_and_newlines(tmp_path):
    samples = {
        "utf16.txt": "Größe – naïve café ✓\r\nline two".encode("utf-16"),
        "bom.txt": "\ufeffÜber alles\r\nzwei".encode("utf-8"),
        "latin1.txt": "Très élégant, déjà vu à Zürich, naïveté garantie.\n".encode("latin-1") * 5,
    }
    expected = {
        "utf16.txt": "Größe – naïve café ✓\nline two",
        "bom.txt": "Über alles\nzwei",
        "latin1.txt": "Très élégant, déjà vu à Zürich, naïveté garantie.\n" * 5,
    }
    for name, data in samples.items():
        (tmp_path / name).write_bytes(data)
        assert read_text_file(tmp_path / name) == expected[name]


@pytest.mark.parametrize(
    "setup, message",
    [
        (lambda p: None, "no such file"),
        (lambda p: p.mkdir(), "is a directory"),
        (lambda p: p.write_bytes(b""), "is empty"),
        (lambda p: p.write_text("  \n\t \n"), "no text"),
        (lambda p: p.write_bytes(b"%PDF-1.7\n%binary"), "is a PDF"),
        (lambda p: p.write_bytes(b"\x00\x01\x02ELF-ish\x00" * 10), "looks binary"),
    ],
)
def test_bad_files_give_one_clear_error(tmp_path, setup, message):
    path = tmp_path / "input.txt"
    setup(path)
    with pytest.raises(InputError, match=message) as caught:
        read_text_file(path)
    assert "\n" not in str(caught.value)


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\r")))
def test_utf8_round_trips(text):
    assert decode(text.encode("utf-8")) == text
