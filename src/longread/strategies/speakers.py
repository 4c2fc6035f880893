"""How a question names the speakers and the documents of a source read for counting: a
speaker by the label of its speeches, or without its rank or regnal number; a document by its
file name, its title or the titles of the works it holds."""

from __future__ import annotations

import re

from longread.strategies.source_parts import Part
from longread.text.questions import names, numeral, without
from longread.text.rank import keywords

_RANKS = {"king", "queen", "prince", "princess", "duke", "duchess", "earl", "lord", "sir"}


def speakers_named(question: str, parts: list[Part], term: str | None = None) -> set[str]:
    """The speakers of the parts' scripts the question names, a longer name first (`Lady
    Macbeth` is not also `Macbeth`, unless he is named too), but for a name standing only in a
    play's title or as the `term` counted (`How many times is Banquo mentioned?`)."""
    titles = [t for p in parts for t in titles_of(p)]
    called: dict[str, set[str]] = {}  # how a question may call a speaker -> the speakers
    for label in {unit.label for part in parts for unit in part.speeches}:
        for name in _names_for(label):
            called.setdefault(name.casefold(), set()).add(label)
    named, rest = set(), question
    for name in sorted(called, key=lambda name: (-len(name), name)):
        if not keywords(name) and not names(rest, name.title(), case=True):
            continue  # (`ALL`, `BOTH`: a speaker only as `All`, not in `across all the plays`)
        if names(rest, name) and not _only_as_title(rest, name, titles):
            named |= called[name]
            rest = without(rest, name)
    return {name for name in named if not (term and names(term, name))}


def _names_for(label: str) -> set[str]:
    """What a question may call a speaker: the label, without its regnal number (`King Henry`
    for `KING HENRY IV`) or rank (`Lear` for `KING LEAR`; not `Macbeth` for his lady)."""
    words = label.split()
    forms = {label}
    if len(words) > 1 and numeral(words[-1]) is not None:
        forms.add(" ".join(words[:-1]))
    for form in list(forms):
        rank, _, name = form.partition(" ")
        if rank.lower() in _RANKS and name:
            forms.add(name)
    return forms


def _only_as_title(question: str, name: str, titles: list[str]) -> bool:
    """Whether a speaker's name stands in the question only within the title of a play (`the
    most speeches in Macbeth`, `Doctor … in King Lear`; not `does Othello speak in Othello`)."""
    rest = question
    for title in titles:
        if names(title, name):
            words = r"\s+".join(map(re.escape, title.split()))
            rest = re.sub(rf"\b(?:in|of|from)\s+{words}(?!\w|'s)", " ", rest, flags=re.I)
    return rest != question and not names(rest, name)


def titles_of(part: Part) -> list[str]:
    """How a question may name a document: its file name (`plays/hamlet.md` → `hamlet`), its
    title, the titles of the works it holds."""
    stem = part.name.rsplit("/", 1)[-1].rsplit(".", 1)[0]
    titles = [stem.replace("-", " ").replace("_", " "), *([part.title] if part.title else [])]
    return titles + [title for title, _ in part.works]
