"""`retrieval`: classic retrieval-augmented generation."""

from longread.strategies.mode import Mode

_RUNNERS = "longread.strategies.retrieval"
MODE = Mode(
    name="retrieval",
    summary="the passages BM25 ranks best, in one prompt",
    serves="a fact stated in a few passages that share the question's words",
    runners={
        "context": f"{_RUNNERS}:retrieve_context",
        "texts": f"{_RUNNERS}:retrieve_texts",
        "document": f"{_RUNNERS}:retrieve_document",
        "corpus": f"{_RUNNERS}:retrieve_corpus",
    },
    cites_by_number=True,
    order=20,
    seconds=(300.0, 300.0),  # (default budget: on this CPU, hosted)
)
