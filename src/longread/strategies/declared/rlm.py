"""`rlm`: the root model writes Python in a sandboxed REPL over the source."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from longread.strategies.mode import Mode

if TYPE_CHECKING:
    from longread.answer import Answer
    from longread.strategies.common import Run
    from longread.strategies.texts import InMemory, TextDocs

MODE = Mode(
    name="rlm",
    summary="the root model writes Python in a sandboxed REPL over the source",
    serves="anything a program can find or compute over the text, with a root model that "
    "writes code",
    runners={
        "context": f"{__name__}:context",
        "texts": f"{__name__}:texts",
        "document": f"{__name__}:indexed",
        "corpus": f"{__name__}:indexed",
    },
    order=60,
    seconds=(600.0, 900.0),  # (default budget: on this CPU, hosted)
)


def context(question: str, source: InMemory, run: Run) -> Answer:
    from longread.strategies.rlm import RLMLoop

    return RLMLoop(run, source.value, doc_id=source.doc_id).answer(question)


def texts(question: str, docs: TextDocs, run: Run) -> Answer:
    from longread.strategies.rlm import RLMLoop

    value = docs.docs[0].text if len(docs.docs) == 1 else {d.doc_id: d.text for d in docs.docs}
    answer = RLMLoop(run, value, doc_id=docs.docs[0].doc_id).answer(question)
    answer.citations = [docs.locate(c) for c in answer.citations]
    return answer


def indexed(question: str, tools: Any, run: Run) -> Answer:
    """A document's or a corpus's tools, in the REPL."""
    from longread.strategies.rlm import RLMLoop

    return RLMLoop(run, tools=tools).answer(question)
