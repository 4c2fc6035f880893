"""Measuring answer quality: task files, the scores, tasks generated from real text, and runs of
modes and models over them (`longread eval`)."""
