"""The runs of a question naming documents of the source: a file's name (`hamlet` for
`plays/hamlet.md`); capitalized or after `in`/`of`, its title or the end of its title no other
title shares (`Macbeth` for `The Tragedy of Macbeth`); and a folder holding several (`tragedies`
for every document under `tragedies/`)."""

from __future__ import annotations

import re

from longread.query.core.catalog import Catalog
from longread.query.core.keys import key
from longread.query.readers.rules.spans import ngrams
from longread.text.rank import stem, terms

ALONE = 1.0  # weight the one document's name loses where no `in`/`of` puts it as a place
PLACE_WORD = re.compile(r"(?<![\w-])(?:in|of|from|throughout|across)\s+(?:the\s+)?$", re.I)


def named_documents(
    question: str, catalog: Catalog
) -> list[tuple[tuple[str, ...], int, int, float]]:
    """(the documents named, start, end, weight) of each run of the question naming some."""
    exact: dict[str, set[str]] = {}
    titled: dict[str, set[str]] = {}  # (by a title, or the end of one: capitalized, or placed)
    folders: dict[str, set[str]] = {}
    for name in catalog.documents:
        stem_name = name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        title = catalog.titles.get(name, "")
        for form in (name, stem_name, stem_name.replace("-", " ").replace("_", " ")):
            exact.setdefault(key(form), set()).add(name)
        tokens = key(title).split()
        for at in range(len(tokens)):
            if terms(" ".join(tokens[at:])):
                titled.setdefault(" ".join(tokens[at:]), set()).add(name)
        for folder in name.split("/")[:-1]:
            folders.setdefault(stem(key(folder)), set()).add(name)
    found = []
    for text, start, end in ngrams(question):
        named = PLACE_WORD.search(question[:start]) is not None
        as_title = text[:1].isupper() or named  # (`how many built-in functions`: no title)
        held = exact.get(key(text)) or (titled.get(key(text)) if as_title else None)
        if held and len(held) == 1:
            placed = 1.0 if named else -ALONE if len(catalog.documents) == 1 else 0.0
            weight = 3.0 + placed + 0.5 * len(text.split())
            found.append((tuple(held), start, end, weight))
        elif len(text.split()) == 1 and len(folders.get(stem(key(text)), ())) > 1:
            held = folders[stem(key(text))]  # (`tragedies`: the documents under tragedies/)
            found.append((tuple(sorted(held)), start, end, 3.0 + (1.0 if named else 0.0)))
    return found
