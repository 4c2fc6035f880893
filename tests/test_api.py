"""The public API RLM users expect: RLM_REPL(model=..., recursive_model=...).completion(...)."""

from __future__ import annotations

import json

from longread.api import RLM_REPL
from longread.llm.scripted import ScriptedLM


def repl(code: str) -> str:
    return f"```repl\n{code}\n```"


def test_dict_context_is_sliced_by_key(tmp_path):
    root = ScriptedLM([repl("FINAL(list_slices())")])
    context = {
        "documentation": "API docs",
        "code_examples": "x = 1",
        "chat_history": [{"role": "user"}],
    }
    rlm = RLM_REPL(model=root, recursive_model=ScriptedLM([]), mode="rlm", cache=False)
    assert json.loads(rlm.completion(context, "What is there?")) == [
        "dict_documentation",
        "dict_code_examples",
        "dict_chat_history",
    ]
    assert rlm.last_answer.mode == "rlm" and rlm.last_answer.usage["calls"] == 1


def test_list_context_and_the_recursive_model_answers_sub_calls():
    root = ScriptedLM([repl("FINAL(llm_query('Summarize', slice_id='item_1'))")])
    sub = ScriptedLM(
        lambda request: "sub read: " + request.messages[-1]["content"].split('"""')[1].strip()
    )
    rlm = RLM_REPL(model=root, recursive_model=sub, mode="rlm", cache=False)
    assert rlm.completion(["first", "second", "third"], "q") == "sub read: second"
    assert len(sub.requests) == 1 and len(root.requests) == 1


def test_slicing_can_be_switched_off():
    root = ScriptedLM([repl("FINAL(len(list_slices()))")])
    rlm = RLM_REPL(model=root, recursive_model=root, mode="rlm", cache=False)
    assert rlm.completion("some text " * 100, "q", enable_slicing=False) == "0"


def test_enable_logging_prints_events(capsys):
    root = ScriptedLM([repl("FINAL(context)")])
    RLM_REPL(
        model=root, recursive_model=root, mode="rlm", enable_logging=True, cache=False
    ).completion("t", "q")
    printed = capsys.readouterr().out
    assert "[root_turn]" in printed and "[final]" in printed


def test_one_settings_object_serves_every_entry_point_and_a_change_names_a_field(tmp_path):
    import pytest

    import longread as lr

    root = ScriptedLM([repl("FINAL(context.upper())")])
    settings = lr.AskSettings(root_model=root, mode="rlm", cache=False)
    assert lr.RLM_REPL(settings=settings).ask("from the settings", "q").text == "FROM THE SETTINGS"
    with pytest.raises(TypeError, match="unknown setting max_cost"):
        lr.RLM_REPL(settings=settings, max_cost=1.0)
    changed = settings.changed(mode="map", root_model=None)  # (None keeps the model set)
    assert changed.mode == "map" and changed.root_model is root and settings.mode == "rlm"


def test_open_gives_a_document_for_a_file_and_a_corpus_for_a_folder(tmp_path):
    import pytest

    import longread as lr
    from longread.errors import InputError

    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.md").write_text("# A\n\nThe gate code is 4417.\n", encoding="utf-8")
    reply = "The gate code is 4417."
    with lr.open(folder / "a.md", ScriptedLM(lambda _: reply), mode="base", cache=False) as doc:
        answer = doc.ask("What is the gate code?")
        assert isinstance(doc, lr.SingleDocRLM) and "4417" in answer.text
        assert doc.query("What is the gate code?").text == answer.text  # (the old name)
    with lr.open(folder, store_path=tmp_path / "corpus.sqlite", cache=False) as corpus:
        assert isinstance(corpus, lr.MultiDocRLM) and corpus.settings.mode == "auto"
    with pytest.raises(InputError, match="no such file or folder"):
        lr.open(tmp_path / "missing.pdf")
