"""A folder of documents on the embedded local model, offline: a question whose answer needs two
documents (the ship in one, its captain in another) is answered citing both."""

from __future__ import annotations

import json

import pytest

from test_cli import EXAMPLES, longread

pytestmark = pytest.mark.local_model

QUESTION = "Who captained the ship that carried the royal letters to Norway?"


def test_ask_a_folder_answers_from_two_documents_citing_both():
    harbour = EXAMPLES / "harbour"
    result = longread("ask", str(harbour), QUESTION, "--json", "--no-cache")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert answer["mode"] == "map" and "Silver Heron" in answer["stats"]["second_hop"]
    assert "Ingrid Vale" in answer["text"] and "Silver Heron" in answer["text"]
    cited = {c["doc_id"] for c in answer["citations"]}
    assert {"news/royal-letters.md", "records/crew-register.txt"} <= cited
    for c in answer["citations"]:
        assert (harbour / c["doc_id"]).read_text(encoding="utf-8")[c["start"] : c["end"]] == c[
            "text"
        ]
    assert any("Ingrid Vale" in c["text"] for c in answer["citations"])
