"""`tree`: a walk down a document's summary tree."""

from longread.strategies.mode import Mode

MODE = Mode(
    name="tree",
    summary="a walk down the summary tree (or the table of contents)",
    serves="a fact that one part of a long structured document holds, found by its summaries",
    runners={"document": "longread.strategies.tree:run_tree"},
    cites_by_number=True,
    order=40,
    seconds=(900.0, 900.0),  # (default budget: on this CPU, hosted)
)
