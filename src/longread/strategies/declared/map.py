"""`map`: a fixed map-reduce over the best passages, for any model."""

from longread.strategies.mode import Mode

_RUNNERS = "longread.strategies.map"
MODE = Mode(
    name="map",
    summary="the sub-model reads the best passages in parallel; the root joins the findings",
    serves="facts and chains of facts in a text too long to read whole, by models that cannot "
    "write code (every local one)",
    runners={
        "texts": f"{_RUNNERS}:map_texts",
        "document": f"{_RUNNERS}:run_map",
        "corpus": f"{_RUNNERS}:run_corpus_map",
    },
    cites_by_number=True,
    order=30,
    seconds=(600.0, 900.0),  # (default budget: on this CPU, hosted)
)
