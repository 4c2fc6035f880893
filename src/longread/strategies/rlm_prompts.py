"""What the code-writing RLM loop says to the root model: its instructions, the first step, and
its answers to a reply without code, a repeated cell, a FINAL before any code looked, and the
end of its turns."""

NO_CODE = (
    "Your reply had no ```repl code block, so nothing ran. If that reply is your final answer, "
    "send it like this:\n```repl\nFINAL({answer!r})\n```\n"
    "Otherwise go on exploring in a ```repl block."
)

NO_CODE_YET = (
    "Your reply had no ```repl code block, so nothing ran, and nothing has looked at the "
    "document yet. Run this first:\n```repl\n{example}\n```"
)

UNSEEN = """FINAL was refused: no code has looked at the document yet, so that answer is a guess.
Search it first, for example:
```repl
{example}
```
then read what you find."""

FIRST_STEP = """Question: {question}

The document is too long to read at once. I searched it for key words of the question:
```repl
{example}
```
Output:
{output}
Go on from here in a ```repl block: read or ask about what looks relevant, search again with other
words if nothing does, then call FINAL(answer)."""

EARLIER = """Earlier in this conversation:
{history}

The REPL is the one those questions used; what they computed is still there:
```repl
SHOW_VARS()
```
Output:
{variables}

"""

COUNTING = """
This question counts over the whole text, and a search sees only part of it. Read every chunk:
```repl
records = map_chunks({instruction!r}, must_contain={words!r})
print(len(records), tally(records)[:10])
```"""

REPEATED = (
    "You already ran exactly this code; its output is above. Do something new: read what you "
    "found or call FINAL(answer)."
)

REPEATED_OFFER = (
    "You already ran exactly this code. If the last output answers the question, send it:\n"
    "```repl\nFINAL({answer!r})\n```\nOtherwise do something new."
)

OUT_OF_TURNS = (
    "You have used all your turns. Reply now with your best answer to the question "
    "as plain text, without code."
)

SYSTEM = """{intro}
Write Python in ```repl blocks. I run each block and show you what it printed; variables persist.
Never print a whole document: print short pieces, counts and search results.

The RLM core, in every REPL:
{core}

Functions for this source:
{tools}

{guide}"""
COUNTED = """
This question counts over the whole text, and a search sees only part of it. I counted with
code, by the text's structure, reading all of it:
{lead}
If that answers the question, send it:
```repl
FINAL({lead!r})
```
Otherwise read what it counted, or count another way with map_chunks(instruction) and
tally(records)."""
