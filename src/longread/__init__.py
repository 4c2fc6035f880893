"""longread: answer questions about documents far larger than any context window."""

__version__ = "0.1.0"
