"""Records taken from every chunk of a text by the sub-model, kept only where the chunk holds
them word for word, and tallied by code: how a question about the whole text (how many, which
the most, every case) is answered when its records have no structure code can find."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from longread.errors import BudgetExceededError

Ask = Callable[[list[str]], list[str]]  # prompts -> replies in order (a failed one: "error: …",
# one not asked for want of budget: UNREAD and why)
UNREAD = "unread:"
Read = Callable[[int, int], str]  # (start, end) -> those characters of the text
BATCH = 16  # chunks asked about at once (progress and the budget are checked between batches)
ITEM_CHARS = 200  # a longer line is a sentence, not a record
EXTRACT_PROMPT = """{instruction}

Copy each one exactly as the passage writes it, one per line, nothing else. Write NONE if the \
passage has none.

Passage:
{chunk}"""
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s*")
_NONE = {"", "none", "none.", "n/a", "nothing"}


@dataclass(frozen=True)
class Found:
    """One record: the text as the source has it, and where (offsets in the text read)."""

    item: str
    start: int
    end: int


@dataclass
class Extraction:
    """The records found, and how every chunk was read: by the sub-model (`asked`), by code
    (`skipped`: none of the words the records must hold), or not (`failed` calls, `unread` after
    the budget ran out). `dropped` counts lines the model gave that its chunk does not hold."""

    found: list[Found] = field(default_factory=list)
    chunks: int = 0
    asked: int = 0
    skipped: int = 0
    failed: int = 0
    unread: int = 0
    dropped: int = 0
    stopped: str = ""  # why reading stopped early, if it did

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
    must_contain: list[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Extraction:
    """Ask the sub-model, for every chunk of the text holding any of `must_contain` (word
    starts, any case; every chunk without it), to list what `instruction` asks for; keep each
    line the chunk holds."""
    words = [w for w in (must_contain or []) if w.strip()]
    holds = re.compile("|".join(rf"(?<!\w){re.escape(w.strip())}" for w in words), re.I)
    result = Extraction()
    waiting: list[tuple[int, str]] = []
    for start, text in chunks(length, chunk_chars, read):
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
    _ask(waiting, instruction, ask, result)
    return result


def _ask(waiting: list[tuple[int, str]], instruction: str, ask: Ask, result: Extraction) -> None:
    if not waiting:
        return
    if result.stopped:
        result.unread += len(waiting)
        return
    prompts = [EXTRACT_PROMPT.format(instruction=instruction, chunk=text) for _, text in waiting]
    try:
        replies = ask(prompts)
    except BudgetExceededError as error:
        result.stopped, result.unread = str(error), result.unread + len(waiting)
        return
    for (start, text), reply in zip(waiting, replies, strict=True):
        if reply.startswith(UNREAD):
            result.stopped, result.unread = reply[len(UNREAD) :].strip(), result.unread + 1
            continue
        if reply.startswith("error:"):
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
        match = re.compile(rf"(?<!\w){pattern}(?!\w)", re.I).search(text, taken.get(pattern, 0))
        if match is None:
            result.dropped += 1
            continue
        taken[pattern] = match.end()
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
