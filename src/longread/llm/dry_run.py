"""A stand-in for a model that makes no call: it counts each request's tokens with the model's own
counter and replies with a sentence of the prompt (or JSON of that shape the schema asks for), so
a strategy run against it goes the way a run that finds something goes, and the gateway's ledger
becomes the estimate of the real run."""

from __future__ import annotations

import json
import re
from typing import Any

from longread.llm.base import LM
from longread.llm.types import Completion, Request
from longread.store.cache import ModelHistory
from longread.text.rank import terms

REPLY_SHARE = 4  # a reply is estimated at a quarter of the tokens it may use
_SENTENCE = re.compile(r"[^.!?\n]{20,400}[.!?]")


class DryRunLM(LM):
    """`model`'s name, window and abilities, without its calls. A prompt is counted as the model
    counts it, scaled by what its provider reported for earlier prompts; a reply as the model's
    mean reply to requests of its shape (JSON or text), else a quarter of the tokens allowed."""

    def __init__(
        self,
        model: LM,
        question: str,
        history: ModelHistory | None = None,
        finds: bool = True,
    ):
        self.model = model
        self.finds = finds  # False: every reply says nothing (NONE, or JSON of falses)
        self.json_replies = 0  # asked for JSON: a reply the real model botches is asked again
        self.history = history  # what earlier calls say of the model
        self.name = model.name
        self.context_window = model.context_window
        self.writes_code = model.writes_code
        self.on_cpu = model.on_cpu
        self.question = question.strip()
        self.asked = set(terms(question))

    def count_tokens(self, text: str) -> int:
        return self.model.count_tokens(text)

    def complete(self, request: Request) -> Completion:
        said = self._sentence(request.messages[-1]["content"]) if self.finds else "NONE"
        self.json_replies += request.json_schema is not None
        text = (
            said
            if request.json_schema is None
            else json.dumps(_value(request.json_schema, said, self.finds))
        )
        shape = "text" if request.json_schema is None else "json"
        known = self.history.reply_tokens.get(shape) if self.history else None
        ratio = self.history.token_ratio if self.history else 1.0
        return Completion(
            text=text,
            input_tokens=round(self.model.count_prompt(request.messages) * ratio),
            output_tokens=min(request.max_tokens, known or request.max_tokens // REPLY_SHARE),
            model=self.name,
        )

    def _sentence(self, prompt: str) -> str:
        """The prompt's sentence sharing most words with the question (a finding it could hold),
        the question itself left out."""
        best, most = "The text does not say.", -1
        for match in _SENTENCE.finditer(
            prompt.replace(self.question, " ") if self.question else prompt
        ):
            shared = len(self.asked & set(terms(match.group(0))))
            if shared > most:
                best, most = " ".join(match.group(0).split()), shared
        return best


def _value(schema: dict[str, Any], said: str, finds: bool) -> Any:
    """A value of `schema`'s shape: objects with every property, true, the sentence, 1, [] (or
    false, "", 0 for a reply that finds nothing), an enumeration's first value, arrays as short as
    they may be."""
    if schema.get("enum"):
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object":
        return {key: _value(sub, said, finds) for key, sub in schema.get("properties", {}).items()}
    if kind == "array":  # (as few items as it may hold)
        return [_value(schema.get("items", {}), said, finds)] * schema.get("minItems", 0)
    if not finds:
        return {"boolean": False, "string": "", "integer": 0, "number": 0}.get(str(kind))
    return {"boolean": True, "string": said, "integer": 1, "number": 1}.get(str(kind))
