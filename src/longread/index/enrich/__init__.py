"""The model-driven steps of indexing: summaries, smart chunks, the summary tree, LLM metadata."""
