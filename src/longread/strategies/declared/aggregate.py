"""`aggregate`: counts over the whole text, by code."""

from longread.strategies.mode import SOURCE_KINDS, Mode

MODE = Mode(
    name="aggregate",
    summary="counts over the whole text by code: the records indexing found, figures and names "
    "stated, or what the sub-model lists from every chunk",
    serves="how many, which the most or the fewest, a total, a mean, the first or last, every "
    "case: questions whose answer depends on all of the text",
    runners=dict.fromkeys(SOURCE_KINDS, "longread.strategies.extracted:run_aggregate"),
    order=70,
    seconds=(300.0, 600.0),  # (default budget: on this CPU, hosted)
)
