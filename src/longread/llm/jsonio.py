"""Ask a model for JSON, pull it out of fenced or chatty replies, validate it, retry once."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from longread.errors import ModelError
from longread.llm.base import LM
from longread.llm.gateway import Gateway, Prompt, as_messages
from longread.llm.usage import Purpose

_FENCE = re.compile(r"```(?:json)?\s*\n(.*?)```", re.DOTALL)


class MalformedJSONError(ModelError):
    """The model did not produce JSON matching the schema, even after being shown its mistake."""


def extract_json(text: str) -> Any:
    """The first JSON object or array in `text`: the whole text, a fenced block, or embedded."""
    text = text.strip()
    candidates = [text] + [m.group(1) for m in _FENCE.finditer(text)]
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            pass
    decoder = json.JSONDecoder()
    for match in re.finditer(r"[{\[]", text):
        try:
            return decoder.raw_decode(text, match.start())[0]
        except json.JSONDecodeError:
            continue
    raise ValueError("no JSON object found in the reply")


def _parse(text: str, schema: str) -> Any:
    """The reply's JSON value; ValueError saying what is wrong if there is none or it does not
    match `schema` (as JSON text)."""
    from jsonschema.exceptions import best_match

    value = extract_json(text)
    error = best_match(_validator(schema).iter_errors(value))
    if error is not None:
        raise ValueError(error.message)
    return value


@lru_cache(maxsize=64)
def _validator(schema: str) -> Any:
    """A checked validator of the schema (given as JSON text), made once per schema: checking
    the schema itself costs more than validating a reply against it."""
    import jsonschema  # (a tenth of a second to load: only runs that ask for JSON need it)

    parsed = json.loads(schema)
    validator = jsonschema.validators.validator_for(parsed)
    validator.check_schema(parsed)
    return validator(parsed)


def complete_json(
    gateway: Gateway,
    lm: LM,
    prompt: Prompt,
    schema: dict[str, Any],
    *,
    purpose: Purpose,
    system: str | None = None,
    max_tokens: int = 512,
    label: str | None = None,
    keep_prefix: bool = False,
) -> Any:
    """A value matching `schema`. The request carries the schema (for servers that can constrain
    decoding); a reply that fails is shown back to the model once with the error. `keep_prefix`:
    the first message (`system`) starts later prompts too (a local model keeps its evaluation)."""
    schema_text = json.dumps(schema)
    messages = list(as_messages(prompt, system))
    told = 0 if keep_prefix else -1  # (the schema is said where it is kept evaluated)
    messages[told] = {
        **messages[told],
        "content": messages[told]["content"]
        + "\n\nReply with JSON only, matching this schema:\n"
        + schema_text,
    }
    reply = gateway.complete(
        lm,
        messages,
        purpose=purpose,
        max_tokens=max_tokens,
        json_schema=schema,
        label=label,
        keep_prefix=keep_prefix,
    )
    try:
        return _parse(reply.text, schema_text)
    except ValueError as error:
        problem = str(error)
    messages += [
        {"role": "assistant", "content": reply.text},
        {
            "role": "user",
            "content": f"That reply is not valid: {problem}. "
            "Reply again with only the corrected JSON.",
        },
    ]
    retry = gateway.complete(
        lm, messages, purpose=purpose, max_tokens=max_tokens, json_schema=schema, label=label
    )
    try:
        return _parse(retry.text, schema_text)
    except ValueError as error:
        raise MalformedJSONError(
            f"{lm.name} did not return valid JSON for {purpose}: {error}"
        ) from error
