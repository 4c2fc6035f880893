"""The JSON helper: extraction from messy replies, validation, one retry with the error shown."""

from __future__ import annotations

import pytest

from longread.llm.gateway import Gateway
from longread.llm.jsonio import MalformedJSONError, complete_json, extract_json
from longread.llm.scripted import ScriptedLM

SCHEMA = {
    "type": "object",
    "properties": {"relevant": {"type": "boolean"}, "n": {"type": "integer"}},
    "required": ["relevant", "n"],
}


@pytest.mark.parametrize(
    "text",
    [
        '{"relevant": true, "n": 2}',
        'Sure! Here it is:\n```json\n{"relevant": true, "n": 2}\n```\nHope that helps.',
        'The answer is {"relevant": true, "n": 2} as requested.',
    ],
)
def test_extract_json_from_clean_fenced_and_chatty_replies(text):
    assert extract_json(text) == {"relevant": True, "n": 2}


def test_extract_json_rejects_prose():
    with pytest.raises(ValueError):
        extract_json("I could not decide.")


def test_invalid_reply_is_retried_with_the_error_shown():
    lm = ScriptedLM(['{"relevant": "maybe", "n": 1}', '{"relevant": false, "n": 0}'])
    value = complete_json(Gateway(), lm, "Is it relevant?", SCHEMA, purpose="test")
    assert value == {"relevant": False, "n": 0}
    retry_prompt = lm.requests[1].messages[-1]["content"]
    assert "not valid" in retry_prompt and "'maybe' is not of type 'boolean'" in retry_prompt
    assert lm.requests[0].json_schema == SCHEMA


def test_two_bad_replies_raise():
    lm = ScriptedLM(["no json here", "still none"])
    with pytest.raises(MalformedJSONError, match="did not return valid JSON"):
        complete_json(Gateway(), lm, "q", SCHEMA, purpose="test")
