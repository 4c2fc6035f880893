"""A fact question's shape, read by the model that states answers (one short call under a JSON
schema, its instructions kept evaluated from one question to the next): a single fact; a bridge
(a fact about something the question names only through another fact: which thing it is is
found first); a comparison of two named things by one measure, compared by code once both
values are found; or whether two named things are both so, asked of each. Code checks the reading
(each side named in the question, the bridge's second question holding the first one's answer);
a reading that fails its checks is a single fact."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from longread.errors import LongreadError
from longread.llm.base import LM
from longread.llm.jsonio import MalformedJSONError, complete_json
from longread.llm.usage import Purpose
from longread.strategies.common import Run
from longread.text.fold import tokens

HOLE = "#1"  # where a bridge's second question names the first one's answer
SHAPE_TOKENS = 120
SIDE_WORDS = 6  # a longer "side" is a clause of the question, not a thing it names
READ_SHAPE = f"""You read a question about documents and say how to answer it.
"single": the question asks one fact about what it names (who, what, when, whether, how many). \
Most questions are single.
"bridge": the question asks about a thing it does not name, known only through a named thing \
(the company that makes X; X is based on another program: who wrote that program?). "first" is \
the question that finds that thing's name; "then" asks the question about it, {HOLE} standing \
for its name.
"comparison": the question names two things and asks which is earlier, later, more or less by \
one measure (or whether the first one is). "sides": the two things, as the question names \
them; "measure": what is compared of each; "pick": "earlier" or "later" for dates, "more" or \
"less" for amounts; "yes_no": true when the question asks whether the first side is picked.
"both": the question asks whether two named things are both so. "sides": the two things; \
"then": the question asked of each, {HOLE} standing for its name.

Q: When was the Eiffel Tower completed?
{{"shape": "single"}}
Q: Does grep ignore case by default? Yes or no.
{{"shape": "single"}}
Q: Who founded the company that makes the Model S?
{{"shape": "bridge", "first": "Which company makes the Model S?", "then": "Who founded {HOLE}?"}}
Q: Quill is a fork of another editor. Who wrote that editor?
{{"shape": "bridge", "first": "Which editor is Quill a fork of?", "then": "Who wrote {HOLE}?"}}
Q: Does the library that Pidgin uses for chat protocols support IRC?
{{"shape": "bridge", "first": "Which library does Pidgin use for chat protocols?", \
"then": "Does {HOLE} support IRC?"}}
Q: Which river is longer, the Rhine or the Elbe?
{{"shape": "comparison", "sides": ["the Rhine", "the Elbe"], "measure": "length", \
"pick": "more", "yes_no": false}}
Q: Was Hamlet written before Othello? Yes or no.
{{"shape": "comparison", "sides": ["Hamlet", "Othello"], "measure": "year written", \
"pick": "earlier", "yes_no": true}}
Q: Are Nginx and Lighttpd both written in C?
{{"shape": "both", "sides": ["Nginx", "Lighttpd"], "then": "Is {HOLE} written in C?"}}"""


class Kind(StrEnum):
    SINGLE = "single"
    BRIDGE = "bridge"
    COMPARISON = "comparison"
    BOTH = "both"


class Pick(StrEnum):
    EARLIER = "earlier"
    LATER = "later"
    MORE = "more"
    LESS = "less"


SHAPE_SCHEMA = {
    "type": "object",
    "properties": {
        "shape": {"type": "string", "enum": [k.value for k in Kind]},
        "first": {"type": "string", "maxLength": 300},
        "then": {"type": "string", "maxLength": 300},
        "sides": {
            "type": "array",
            "items": {"type": "string", "maxLength": 120},
            "minItems": 2,
            "maxItems": 2,
        },
        "measure": {"type": "string", "maxLength": 80},
        "pick": {"type": "string", "enum": [p.value for p in Pick]},
        "yes_no": {"type": "boolean"},
    },
    "required": ["shape"],
}


@dataclass(frozen=True)
class FactShape:
    """How a fact question is answered: `kind`, and what that kind needs."""

    kind: Kind = Kind.SINGLE
    question: str = ""  # as asked
    first: str = ""  # a bridge's first question
    then: str = ""  # its second, HOLE standing for the first one's answer (both: each side)
    sides: tuple[str, ...] = ()  # a comparison's two things (both: the two asked of)
    measure: str = ""
    pick: Pick | None = None
    yes_no: bool = False

    def second(self, name: str) -> str:
        """A bridge's second question, naming what the first one found (both: a side's)."""
        return self.then.replace(HOLE, name)


SINGLE = FactShape()


def read_fact_shape(question: str, run: Run, writer: LM) -> FactShape:
    """The question's shape as `writer` reads it, checked by code (SINGLE when the call fails or
    its reading does not hold)."""
    try:
        reply = complete_json(
            run.gateway,
            writer,
            f"Q: {question}",
            SHAPE_SCHEMA,
            purpose=Purpose.PLAN,
            system=READ_SHAPE,
            max_tokens=SHAPE_TOKENS,
            keep_prefix=True,
        )
    except (MalformedJSONError, LongreadError):
        return SINGLE
    return checked(question, reply)


def checked(question: str, reply: dict[str, object]) -> FactShape:
    """The reading `reply` gives, where it holds: a comparison's or a both's sides each named in
    the question (their words, SIDE_WORDS at most), and different; a bridge's second question (a
    both's question of each side) holding HOLE and something to ask besides, a bridge's first
    question not the question again. Anything else reads as a single fact."""
    kind = reply.get("shape")
    then = str(reply.get("then", "")).strip()
    asks = HOLE in then and bool(tokens(then.replace(HOLE, "")))
    if kind == Kind.BRIDGE:
        first = str(reply.get("first", "")).strip()
        asked, found = set(tokens(question)), set(tokens(first))
        if found and not asked <= found and asks:
            return FactShape(Kind.BRIDGE, question, first=first, then=then)
    sides = _sides(question, reply)
    if kind == Kind.BOTH and sides and asks:
        return FactShape(Kind.BOTH, question, then=then, sides=sides)
    pick = reply.get("pick")
    if kind == Kind.COMPARISON and sides and pick in set(Pick):
        return FactShape(
            Kind.COMPARISON,
            question,
            sides=sides,
            measure=str(reply.get("measure", "")).strip(),
            pick=Pick(str(pick)),
            yes_no=reply.get("yes_no") is True,
        )
    return SINGLE


def _sides(question: str, reply: dict[str, object]) -> tuple[str, ...]:
    """The reply's two sides where each is named in the question (its words, SIDE_WORDS at most)
    and they differ; () where not."""
    sides = tuple(str(s).strip() for s in reply.get("sides", []) or [])  # type: ignore[attr-defined]
    asked = set(tokens(question))
    named = len(sides) == 2 and all(
        0 < len(tokens(s)) <= SIDE_WORDS and set(tokens(s)) <= asked for s in sides
    )
    return sides if named and set(tokens(sides[0])) != set(tokens(sides[1])) else ()
