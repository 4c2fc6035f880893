"""The core of question answering over records: the plan, the catalog of a source's tables, the
one guarded executor and the checks of a statement a model writes. It reads no question: no
English, no regex, and it imports no reader."""
