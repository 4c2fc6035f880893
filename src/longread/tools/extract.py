"""Records taken from every chunk of a text by the sub-model, kept only where the chunk holds
them word for word, and tallied by code: how a question about the whole text (how many, which
the most, every case) is answered when its records have no structure code can find."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from longread import deadline
from longread.errors import BudgetExceededError, CancelledError

BATCH = 16  # chunks asked about at once (progress and the budget are checked between batches)
ITEM_CHARS = 200  # a longer line is a sentence, not a record
MIN_CHUNK_CHARS = 1_000
EXTRACT_PROMPT = """{instruction}

Copy each one exactly as the passage writes it, one per line, nothing else. Write NONE if the \
passage has none.

Passage:
{chunk}"""
_BULLET = re.compile(r"^\s*(?:[-*•]\s*|\d+[.)]\s+(?=\S))")  # (`12.` alone is a record)
_NONE = {"", "none", "none.", "n/a", "nothing"}


def instruction_for(question: str) -> str:
    """What the sub-model is asked of each chunk for a question counting over the whole text."""
    return (
        f"Question about a long text: {question}\n"
        "This passage is one part of that text. List every name, date, figure or phrase in it "
        "that this question counts or asks about."
    )


@dataclass(frozen=True)
class Failed:
    """A chunk the sub-model did not read: its call failed, or (`unread`) was not made for want
    of budget."""

    reason: str
    unread: bool = False


Ask = Callable[[list[str]], list["str | Failed"]]  # prompts -> replies in order
Read = Callable[[int, int], str]  # (start, end) -> those characters of the text


def asking(
    run_all: Callable[[Callable[[str], str | Failed], list[str]], list[str | Failed]],
    call: Callable[[str], str],
) -> Ask:
    """An Ask making `call(prompt)` for each prompt through `run_all` (several at once): a
    failed call gives Failed in its place, a spent budget Failed(unread=True); a cancel or the
    cell's deadline ends it all."""

    def one(prompt: str) -> str | Failed:
        try:
            return call(prompt)
        except BudgetExceededError as error:
            return Failed(str(error), unread=True)
        except (CancelledError, deadline.DeadlineExceeded):
            raise
        except Exception as error:  # (one failed call does not end the reading)
            return Failed(f"{type(error).__name__}: {error}")

    return lambda prompts: run_all(one, prompts)


@dataclass(frozen=True)
class Found:
    """One record: the text as the source has it, and where (offsets in the text read)."""

    item: str
    start: int
    end: int

    @property
    def key(self) -> str:
        """The record as counted: regardless of case and spacing."""
        return " ".join(self.item.split()).casefold()


@dataclass
class Extraction:
    """The records found, and how every chunk was read: by the sub-model (`asked`), by code
    (`skipped`: none of the words the records must hold), or not (`failed` calls, `unread` once
    the budget ran out). `dropped` counts lines the model gave that its chunk does not hold."""

    found: list[Found] = field(default_factory=list)
    chunks: int = 0
    asked: int = 0
    skipped: int = 0
    failed: int = 0
    unread: int = 0
    dropped: int = 0
    stopped: str = ""  # why reading stopped early, if it did

    @property
    def partial(self) -> bool:
        """Whether some chunk was read neither by the sub-model nor by code."""
        return bool(self.failed or self.unread)

    def summary(self) -> str:
        """How the chunks were read, in one sentence."""
        text = (
            f"{self.chunks:,} chunks: {self.asked:,} read by the sub-model, {self.skipped:,} by "
            f"code (none of the words), {len(self.found):,} records kept"
            + (f", {self.dropped:,} lines dropped as not in their chunk" if self.dropped else "")
        )
        if self.failed:
            text += f"; {self.failed:,} calls failed"
        if self.unread:
            text += f"; {self.unread:,} chunks not read ({self.stopped})"
        return text + "."


def chunk_room(window_chars: int, instruction: str, cap: int) -> int:
    """Characters of text a chunk may hold: what fits beside the prompt, at most `cap`."""
    room = window_chars - len(EXTRACT_PROMPT) - len(instruction)
    return max(MIN_CHUNK_CHARS, min(cap, room))


def chunks(length: int, size: int, read: Read) -> Iterator[tuple[int, str]]:
    """(start, text) of consecutive chunks of at most `size` characters covering the text, each
    ended at a line break where one falls in its second half."""
    start = 0
    while start < length:
        text = read(start, min(length, start + size))
        if start + len(text) < length:
            cut = text.rfind("\n", size // 2)
            text = text[: cut + 1] if cut > 0 else text
        if not text:
            return
        yield start, text
        start += len(text)


def extract(
    length: int,
    read: Read,
    instruction: str,
    ask: Ask,
    *,
    chunk_chars: int,
    must_contain: Sequence[str] = (),
    progress: Callable[[int, int], None] | None = None,
) -> Extraction:
    """Ask the sub-model, for every chunk of the text holding any of `must_contain` (word
    starts, any case; every chunk without it), to list what `instruction` asks for; keep each
    line the chunk holds. Reading stops when the budget runs out (the rest counted unread)."""
    words = [w.strip() for w in must_contain if w.strip()]
    holds = re.compile("|".join(rf"(?<!\w){re.escape(w)}" for w in words), re.I)
    result = Extraction()
    waiting: list[tuple[int, str]] = []
    for start, text in chunks(length, chunk_chars, read):
        deadline.check()
        result.chunks += 1
        if words and not holds.search(text):
            result.skipped += 1
            continue
        waiting.append((start, text))
        if len(waiting) == BATCH:
            _ask(waiting, instruction, ask, result)
            waiting = []
            if progress:
                progress(start + len(text), length)
            if result.stopped:  # (the rest is not read, only counted)
                result.unread += math.ceil((length - start - len(text)) / chunk_chars)
                result.chunks += math.ceil((length - start - len(text)) / chunk_chars)
                break
    _ask(waiting, instruction, ask, result)
    return result


def _ask(waiting: list[tuple[int, str]], instruction: str, ask: Ask, result: Extraction) -> None:
    if not waiting:
        return
    prompts = [EXTRACT_PROMPT.format(instruction=instruction, chunk=text) for _, text in waiting]
    for (start, text), reply in zip(waiting, ask(prompts), strict=True):
        if isinstance(reply, Failed):
            if reply.unread:
                result.stopped, result.unread = reply.reason, result.unread + 1
            else:
                result.failed += 1
            continue
        result.asked += 1
        _keep(reply, text, start, result)


def _keep(reply: str, text: str, base: int, result: Extraction) -> None:
    """The reply's lines that the chunk holds, each at its next occurrence not yet taken."""
    taken: dict[str, int] = {}
    for line in reply.splitlines():
        item = _BULLET.sub("", line).strip().strip("\"'“”‘’").strip()
        if item.lower() in _NONE or len(item) > ITEM_CHARS:
            continue
        pattern = r"\s+".join(map(re.escape, item.split()))
        key = " ".join(item.split()).casefold()  # (the pattern matches in any case)
        match = re.compile(rf"(?<!\w){pattern}(?!\w)", re.I).search(text, taken.get(key, 0))
        if match is None:
            result.dropped += 1
            continue
        taken[key] = match.end()
        result.found.append(Found(match.group(0), base + match.start(), base + match.end()))


def tally_values(values: list[str]) -> list[tuple[str, int]]:
    """Each value (told apart regardless of case and spacing, shown as most often written) with
    how often it occurs, the most frequent first (ties in alphabetical order)."""
    counts: Counter[str] = Counter()
    forms: dict[str, Counter[str]] = {}
    for value in values:
        key = " ".join(str(value).split()).casefold()
        counts[key] += 1
        forms.setdefault(key, Counter())[" ".join(str(value).split())] += 1
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return [(forms[key].most_common(1)[0][0], n) for key, n in ranked]


def least(ranked: list[tuple[str, int]]) -> tuple[str, int]:
    """Of a tally, the value counted least often (the first in alphabetical order on a tie)."""
    fewest = min(n for _, n in ranked)
    return next(item for item in ranked if item[1] == fewest)
