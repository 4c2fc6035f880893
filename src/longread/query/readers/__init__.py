"""The readers of a question: a model writing its query (`model`), and the hand-written rules
(`rules`)."""
