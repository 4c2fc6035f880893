"""A code model reads the question: it writes one SELECT over the source's record tables."""
