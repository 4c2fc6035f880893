"""How the general finder grows a template over its lines: a run of words up to a mark taken as
one slot (`**Load balancer**`, `:chad box:`), and where the lines' words turn into prose (the
template stops there: the rest is text)."""

from __future__ import annotations

from collections import Counter

from longread.ingest.records.atoms import Atom

KEEP = 0.8  # a template grows by an atom while that keeps this share of its lines
PROSE = frozenset(".,;!?'\"()")  # sentence punctuation: no template rests on it alone
WORD_RUN = 4  # words a slot before a mark may run to (`Blue-green deployment`)
PROSE_WORDS = 3  # words after a varying word on most of a template's lines: prose begins


def words_to_mark(
    read: dict[int, list[Atom]], members: list[int], depth: int
) -> tuple[dict[int, list[Atom]], list[int]] | None:
    """The lines with a run of words (from `depth`, or the slot before it) up to a mark KEEP of
    them reach within WORD_RUN words made one atom, and those lines; None where no mark is so
    reached (`**Badger Cactus** (…)`, `**Abacus** (…)`: one slot)."""
    words = ("a", "n", "A")
    at_depth = all(len(read[i]) > depth and read[i][depth].shape in words for i in members)
    first = depth if at_depth else depth - 1
    if first < 1 or any(read[i][first].shape not in words for i in members):
        return None
    reached: dict[int, int] = {}
    for i in members:
        at = first + 1
        while at < min(len(read[i]), first + WORD_RUN) and read[i][at].shape in words:
            at += 1
        if at < len(read[i]) and not read[i][at].shape.isalnum():
            reached[i] = at
    marks = Counter(read[i][at].text for i, at in reached.items())
    if not marks:
        return None
    mark, count = marks.most_common(1)[0]
    shapes = {read[i][first].shape for i in members}
    if count < KEEP * len(members) or mark in PROSE:
        return None
    if all(at == first + 1 for at in reached.values()) and len(shapes) == 1:
        return None  # (nothing to join: the slot is one word on every line)
    kept = [i for i in members if i in reached and read[i][reached[i]].text == mark]
    shape = shapes.pop() if len(shapes) == 1 else "a"
    joined = {}
    for i in kept:
        run = read[i][first : reached[i]]
        one = Atom(shape, " ".join(w.text for w in run), run[0].start, run[-1].end, run[0].spaced)
        joined[i] = [*read[i][:first], one, *read[i][reached[i] :]]
    return joined, kept


def before_prose(read: dict[int, list[Atom]], members: list[int], depth: int) -> int:
    """The depth at which the lines' words turn into prose: the first run of spaced words that
    vary, one of which most lines follow with PROSE_WORDS more words (`A decent and customary…`
    after `ABASEMENT, n.`); the given depth where there is none."""
    runs = 0
    for k in range(1, depth):
        first = read[members[0]][k]
        if first.shape != "a" or not first.spaced or len({read[i][k].text for i in members}) < 2:
            runs = 0
            continue
        runs += 1
        wordy = sum(1 for i in members if words_after(read[i], k) >= PROSE_WORDS)
        if wordy > len(members) / 2:
            return k + 1 - runs
    return depth


def words_after(line: list[Atom], k: int) -> int:
    return next((n for n, a in enumerate(line[k + 1 :]) if a.shape != "a"), len(line) - k - 1)
