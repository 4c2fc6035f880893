"""A counting question in the rlm loop: the count code makes by the text's structure, shown in the
first step (so a small root model need not write the program), and whether a reply says it back."""

from __future__ import annotations

from dataclasses import dataclass

from longread.answer import Answer
from longread.errors import InputError
from longread.query.core.plan import Plan
from longread.strategies.common import Run
from longread.strategies.sql_answer import run_written
from longread.text.claims import numbers
from longread.text.rank import terms


@dataclass
class ShownCount:
    """The count by structure a first step shows: the answer code made, and the words naming
    its groups (the one it leads with first), the question's own words left out."""

    answer: Answer
    groups: list[set[str]]
    asked: set[str]

    @classmethod
    def made(cls, plan: Plan, source: object, run: Run) -> ShownCount | None:
        """The count of what the question counts, by the source's records (no model), where the
        plan names a record table of the source."""
        if not plan.sql:
            return None
        try:
            answer = run_written(plan, source, run)
        except InputError:
            return None
        asked = set(plan.words)
        groups = [g for g, _ in answer.counts.groups] if answer.counts else [lead_of(answer.text)]
        return cls(answer, [set(terms(group)) - asked for group in groups], asked)

    @property
    def lead(self) -> str:
        """The count's first paragraph: its result (`PRINCE HENRY`, `170`)."""
        return lead_of(self.answer.text)

    def said_in(self, text: str) -> bool:
        """Whether `text` says what the count says: its figures, or, with no other figure, the
        group it leads with, named best of its groups by the share of that group's words it
        states, and no name it writes with a capital outside that group (`The prince` for
        `PRINCE HENRY`, asked of `Henry IV`; not `Lady Macbeth` for `MACBETH`)."""
        figures, stated = numbers(self.lead), numbers(text)
        if figures and figures <= stated:
            return True
        said = set(terms(text))
        capitals = set(terms(" ".join(w for w in text.split() if w[:1].isupper()))) - self.asked
        shares = [(len(g & said) / len(g), len(g & said)) if g else (0.0, 0) for g in self.groups]
        best = max(range(len(shares)), key=shares.__getitem__, default=None)
        named = best == 0 and shares[0][1] > 0 and shares.count(shares[0]) == 1
        return named and capitals <= self.groups[0] and stated <= figures


def lead_of(text: str) -> str:
    """An answer's first paragraph."""
    return text.strip().split("\n\n", 1)[0]
