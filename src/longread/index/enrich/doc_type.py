"""The document type as the sub-model reads a document's opening, where the rules are unsure."""

from __future__ import annotations

from longread.ingest.doctype import DOC_TYPES
from longread.llm.base import LM
from longread.llm.gateway import Gateway
from longread.llm.usage import Purpose

UNSURE = 0.5  # below this confidence the rules' guess is checked with the sub-model
ASK_TYPE = """Here is the beginning of a document:
\"\"\"
{head}
\"\"\"
Which kind of document is it? Reply with one of: {kinds}."""


def ask_doc_type(text: str, guess: str, lm: LM, gateway: Gateway) -> str:
    """The document type as the model reads the opening of the text; `guess` (the rules' answer)
    if the reply names none of DOC_TYPES."""
    kinds = ", ".join(k.replace("_", " ") for k in DOC_TYPES)
    reply = gateway.complete(
        lm, ASK_TYPE.format(head=text[:1_500], kinds=kinds), purpose=Purpose.DOC_TYPE, max_tokens=12
    ).text.lower()
    named = [
        (reply.find(k.replace("_", " ")), k) for k in DOC_TYPES if k.replace("_", " ") in reply
    ]
    return min(named)[1] if named else guess
