"""The runs of a question naming documents of the source: a file's name (`hamlet` for
`plays/hamlet.md`), its title, or, capitalized, the end of its title no other title shares
(`Macbeth` for `The Tragedy of Macbeth`); and a folder holding several (`tragedies` for every
document under `tragedies/`)."""

from __future__ import annotations

import re

from longread.query.catalog import Catalog
from longread.query.spans import key, ngrams
from longread.text.rank import stem, terms

PLACE_WORD = re.compile(r"\b(?:in|of|from|throughout|across)\s+(?:the\s+)?$", re.I)


def named_documents(
    question: str, catalog: Catalog
) -> list[tuple[tuple[str, ...], int, int, float]]:
    """(the documents named, start, end, weight) of each run of the question naming some."""
    exact: dict[str, set[str]] = {}
    partial: dict[str, set[str]] = {}
    folders: dict[str, set[str]] = {}
    for name in catalog.documents:
        stem_name = name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        title = catalog.titles.get(name, "")
        for form in (name, stem_name, stem_name.replace("-", " ").replace("_", " "), title):
            if form:
                exact.setdefault(key(form), set()).add(name)
        tokens = key(title).split()
        for at in range(1, len(tokens)):
            if terms(" ".join(tokens[at:])):
                partial.setdefault(" ".join(tokens[at:]), set()).add(name)
        for folder in name.split("/")[:-1]:
            folders.setdefault(stem(key(folder)), set()).add(name)
    found = []
    for text, start, end in ngrams(question):
        held = exact.get(key(text)) or (partial.get(key(text)) if text[:1].isupper() else None)
        named = PLACE_WORD.search(question[:start]) is not None
        if held and len(held) == 1:
            weight = 3.0 + (1.0 if named else 0.0) + 0.5 * len(text.split())
            found.append((tuple(held), start, end, weight))
        elif len(text.split()) == 1 and len(folders.get(stem(key(text)), ())) > 1:
            held = folders[stem(key(text))]  # (`tragedies`: the documents under tragedies/)
            found.append((tuple(sorted(held)), start, end, 3.0 + (1.0 if named else 0.0)))
    return found
