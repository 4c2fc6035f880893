"""The hand-written reader of questions: English words and constructions read into a plan."""
