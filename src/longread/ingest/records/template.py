"""The general finder: records of a kind nobody registered. A line is read as a run of atoms,
each a date, a name, an e-mail address, a number, a word, a code (a version, an address) or
punctuation. Lines that open with the same run of atom shapes, some atoms varying and some the
same on every line, repeat one template: its varying atoms are the table's columns, the rest of
the line its text. Where such lines open blocks of other lines (an entry's heading line, then
its items and a closing line), each block is a row, with the columns of the lines most blocks
repeat. A column is named by the word before it on every line (`port 22` → `port`), by the
header line above the records, else by its shape (`date`, `name`, `number`)."""

from __future__ import annotations

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from longread.ingest.records import template_columns
from longread.ingest.records.atoms import MAX_ATOMS, PATTERNS, Atom, atoms
from longread.ingest.records.kind import MIN_ROWS, Taken, lines
from longread.ingest.records.table import Column, Role, Table, build, identifier
from longread.ingest.records.tables import says_who, who_at
from longread.ingest.records.template_growth import KEEP, before_prose, words_to_mark
from longread.ingest.records.template_growth import PROSE as _PROSE
from longread.text.rank import terms

name = "template"
NOUNS = ("entry", "record", "row", "item")  # (what any repeated record may be called)
WHOLE: tuple[str, ...] = ()
_WORDY = frozenset("anm")  # a word, a name, a code: a slot of these runs to a fixed atom after it
_BRACKETS = frozenset("()[]{}<>")
SAMPLE_LINES = 4_000
MIN_SHARE = 0.04  # of the lines read, a template's lines (unless MANY_ROWS)
MANY_ROWS = 100
BLOCK_SHARE = 0.6  # of blocks a line's template must recur in to give the block columns
MAX_TEMPLATES = 4
OPENING_SHARE = 0.8  # of a term's lines, those opening an entry (after a blank line)
KEYED_SHARE = 0.9  # of a template's first words that must differ for the lines to be keyed
KEYED_LINES = 0.5  # of the lines read, those keyed lines must be
CLOSED_SHARE = 0.95  # of a template's lines that must end after it for a line going on to be none


@dataclass
class Template:
    """A run of atom shapes lines open with; `constant[i]` is the text atom i has on every line
    (None where it varies); `closed`: the lines hold nothing more (a subtitle's number alone on
    its line: a line of its text that opens with a number is no record); `keyed`: each line
    opens with its own word, a key (any run of letters and marks, `'bout`)."""

    shapes: tuple[str, ...]
    constant: tuple[str | None, ...]
    spaced: tuple[bool, ...]
    lines: list[int]  # the sample's lines (indexes) it was found on
    closed: bool = False
    keyed: bool = False

    @property
    def slots(self) -> list[int]:
        return [i for i, c in enumerate(self.constant) if c is None]

    def pattern(self) -> re.Pattern[str]:
        """A regular expression matching a line of this template, a group per slot (`s0`…)
        and the rest of the line (`rest`); a slot of words before a fixed atom holds whatever
        words stand before it (`A. S. Byatt`, `Daphne du Maurier` where most names are two
        capitalized words)."""
        parts = [r"^[ \t]*"]
        for i, (shape, fixed) in enumerate(zip(self.shapes, self.constant, strict=True)):
            if i:
                parts.append(r"[ \t]+" if self.spaced[i] else "")
            if fixed is not None:
                ends = i + 1 == len(self.shapes) or self.spaced[i + 1]
                parts.append(
                    re.escape(fixed) + (r"(?!\w)" if ends and fixed[-1:].isalnum() else "")
                )
            elif i == 0 and self.keyed:
                parts.append(r"(?P<s0>\S+)")
            elif shape in _WORDY and i + 1 < len(self.shapes) and self.constant[i + 1]:
                parts.append(f"(?P<s{i}>[^\n]+?)")  # (as many words as reach the next mark)
            else:
                parts.append(f"(?P<s{i}>{PATTERNS.get(shape, re.escape(shape))})")
        parts.append(r"(?P<rest>)[ \t]*$" if self.closed else r"(?:[ \t]*(?P<rest>[^\n]*))")
        return re.compile("".join(parts), re.MULTILINE)


def find(text: str, taken: Taken, file_name: str = "") -> list[Table]:
    """Tables of the templates repeated by the text's lines (those not taken by another kind),
    none named by a word of the file's name (the document itself: `grep` of `grep.NEWS`)."""
    spans = _sample(text, taken)
    if len(spans) < MIN_ROWS:
        return []
    read = [atoms(text[s:e]) for s, e in spans]
    templates = []
    left = set(range(len(read)))
    claimed: set[int] = set()  # (the lines an earlier template took: no line is two records)
    for _ in range(MAX_TEMPLATES):
        template = _best(read, left)
        if template is None:
            break
        left -= set(template.lines)
        matches = [m for m in _matches(text, template, taken) if m.start() not in claimed]
        if len(matches) >= MIN_ROWS and (not _entries(template) or _open(text, matches)):
            templates.append((template, matches))
            claimed.update(m.start() for m in matches)
    templates.sort(key=lambda found: found[1][0].start())  # (an opening line comes first)
    matched = {m.start() for _, matches in templates for m in matches}
    tables: list[Table] = []
    used: set[int] = set()
    own = frozenset(re.split(r"[\W_]+", file_name.lower()))
    for n, (template, matches) in enumerate(templates):
        if n in used:
            continue
        used.add(n)
        blocks = _blocks(text, matches, matched, taken)
        inner = []
        for k, (other, found) in enumerate(templates):
            if blocks is not None and k not in used and _recurs(found, blocks):
                inner.append(other)
                used.add(k)
        tables.append(_table(text, template, matches, blocks, inner, len(tables), own))
    return tables


def _open(text: str, matches: list[re.Match[str]]) -> bool:
    """Whether OPENING_SHARE of the lines open an entry: a blank line, or another of them, is
    the line before (a term in capitals shouted inside a paragraph opens none)."""
    starts = {m.start() for m in matches}
    opening = 0
    for m in matches:
        before = text.rfind("\n", 0, max(0, m.start() - 1)) + 1
        opening += m.start() == 0 or before in starts or not text[before : m.start()].strip()
    return opening >= OPENING_SHARE * len(matches)


def _sample(text: str, taken: Taken) -> list[tuple[int, int]]:
    """The lines read to find templates, of those no kind took and not blank: the first half of
    SAMPLE_LINES, then as many spread evenly over the rest (all, in a shorter text)."""
    half = SAMPLE_LINES // 2
    first = list(itertools.islice(_lines_left(text, taken.gaps(len(text))), half))
    if len(first) < half:
        return first
    after = first[-1][1]
    rest = [(max(s, after), e) for s, e in taken.gaps(len(text)) if e > after]
    totals = list(itertools.accumulate(e - s for s, e in rest))
    spread: list[tuple[int, int]] = []
    for i in range(half):
        at = bisect.bisect_right(totals, i * totals[-1] / half) if totals else 0
        if at >= len(rest):
            break
        start, end = rest[at]
        offset = end - int(totals[at] - i * totals[-1] / half)
        line = next(_lines_left(text, [(text.rfind("\n", start, offset) + 1 or start, end)]), None)
        if line is not None and (not spread or line[0] > spread[-1][0]):
            spread.append(line)
    return first + spread


def _lines_left(text: str, gaps: Iterable[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """The [start, end) of each line in these stretches that is not blank."""
    for gap in gaps:
        for s, e in lines(text, *gap):
            if s < e and not text[s:e].isspace():
                yield s, e


def _best(read: list[list[Atom]], left: set[int]) -> Template | None:
    """The template covering the most of the `left` lines, grown from each of the commonest
    first shapes and first words; None if no template has typed atoms and enough lines."""
    starts: dict[tuple[str, str], list[int]] = {}
    for i in left:
        if read[i]:
            first = read[i][0]
            starts.setdefault(("shape", first.shape), []).append(i)
            if first.shape == "a" and _capitals(first.text):
                starts.setdefault(("shape", "A"), []).append(i)
            starts.setdefault(("text", first.text), []).append(i)
    best: Template | None = None
    for _, members in sorted(starts.items(), key=lambda item: -len(item[1]))[:10]:
        template = _grown(read, members)
        if template is not None and (best is None or _worth(template) > _worth(best)):
            best = template
    needed = MIN_ROWS if len(read) < MANY_ROWS else max(MIN_ROWS, MIN_SHARE * len(read))
    if best is None or len(best.lines) < (MIN_ROWS if _entries(best) else min(needed, MANY_ROWS)):
        return None  # (entries, their lines checked to open them, may be rare among the lines)
    return best


def _entries(template: Template) -> bool:
    """Whether the template's lines open entries: a term between marks (`:chad box:`) or in
    capitals (`ABASEMENT, n.`), where a blank line before them is to be checked."""
    return template.shapes[0] == "A" or _enclosed(template)


def _worth(template: Template) -> int:
    return len(template.lines) * (1 + len(template.slots))


def _grown(lines_read: list[list[Atom]], members: list[int]) -> Template | None:
    """The longest run of shapes that KEEP of the lines at each step open with (a run of words
    before a mark taken as one slot: `**Load balancer**`, `:chad box:`)."""
    read = {i: lines_read[i] for i in members}
    depth = 1
    while True:
        following = Counter(read[i][depth].shape for i in members if len(read[i]) > depth)
        if not following:
            break
        shape, count = following.most_common(1)[0]
        if count < KEEP * len(members):
            merged = words_to_mark(read, members, depth)
            if merged is None:
                break
            read, members = merged
            continue
        members = [i for i in members if len(read[i]) > depth and read[i][depth].shape == shape]
        depth += 1
    depth = before_prose(read, members, depth)
    shapes = tuple(a.shape for a in read[members[0]][:depth])
    if shapes[0] == "a" and all(_capitals(read[i][0].text) for i in members):
        shapes = ("A", *shapes[1:])  # (a term in capitals opens each line: `ABASEMENT, n.`)
    constant = tuple(
        texts.pop() if len(texts := {read[i][k].text for i in members}) == 1 else None
        for k in range(depth)
    )
    spaced = tuple(
        Counter(read[i][k].spaced for i in members).most_common(1)[0][0] for k in range(depth)
    )
    ended = sum(1 for i in members if len(read[i]) == depth < MAX_ATOMS)  # (a line read whole)
    closed = ended >= CLOSED_SHARE * len(members)
    typed = any(shape in ("d", "@", "9", "m") for shape in shapes) or (
        shapes[0] == "A" and constant[0] is None
    )
    marked = any(c is not None and c[:1].isalpha() for c in constant) and any(
        not shape.isalnum() and shape not in _PROSE for shape in shapes
    )
    keyed = not (typed or marked) and shapes[0] == "a" and constant[0] is None
    keyed = keyed and _keyed(read, members, len(lines_read))
    template = Template(shapes, constant, spaced, members, closed, keyed)
    accepted = typed or marked or keyed or _enclosed(template)
    return template if accepted and template.slots else None


def _keyed(read: dict[int, list[Atom]], members: list[int], lines: int) -> bool:
    """Whether the lines `members` (of `lines` read), opening with a word, are keyed: many, most
    of the lines, nearly each one's word its own (a pronouncing dictionary's `tomato T AH0 M
    EY1 T OW2`; the words prose's lines open with repeat, `the`, `and`)."""
    firsts = {read[i][0].text for i in members}
    many = len(members) >= max(MANY_ROWS, KEYED_LINES * lines)
    return many and len(firsts) >= KEYED_SHARE * len(members)


def _enclosed(template: Template) -> bool:
    """Whether a slot stands between the same mark on both sides (`:term:`, `**term**`), or a
    word of the line's opening between two marks that are no brackets (`.. function::`)."""
    if any(
        template_columns.between_marks(template, k) and template.constant[k - 1] not in _PROSE
        for k in template.slots
    ):
        return True
    marks = template.constant[:3]
    return (
        len(marks) == 3
        and marks[1] is None
        and all(_mark(m) for m in (marks[0], marks[2]))
        and template.shapes[1] in ("a", "A")
    )


def _mark(atom: str | None) -> bool:
    """Whether a constant atom is a mark of markup: no word, no sentence punctuation, no
    bracket (a bracket holds a name or an aside: `[ Name ]`)."""
    return (
        atom is not None and not atom.isalnum() and atom not in _PROSE and not set(atom) & _BRACKETS
    )


def _capitals(word: str) -> bool:
    return len(word) > 1 and word.isupper()


def _table(
    text: str,
    template: Template,
    matches: list[re.Match[str]],
    blocks: list[tuple[int, int]] | None,
    inner: list[Template],
    number: int,
    own: frozenset[str] = frozenset(),
) -> Table:
    """The template's records: a row a line, or a row a block its line opens (with the slots of
    the `inner` templates' lines in it)."""
    names = template_columns.names(template, text, matches[0].start())
    headers = [template_columns.column(template.shapes[i], names[i]) for i in template.slots]
    headers.append(Column("text", role=Role.BODY))
    for each in inner:
        inner_names = template_columns.names(each, text, -1)
        headers += [template_columns.column(each.shapes[i], inner_names[i]) for i in each.slots]
    ends = [b[1] for b in blocks] if blocks is not None else [m.end() for m in matches]
    patterns = [each.pattern() for each in inner]
    cells: list[tuple[int, int, list[str | None]]] = []
    for match, end in zip(matches, ends, strict=True):
        body = text[match.end() : end] if blocks is not None else ""
        extra: list[str | None] = []
        for each, pattern in zip(inner, patterns, strict=True):
            found = pattern.search(text, match.end(), end)
            extra += [found.group(f"s{i}") if found else None for i in each.slots]
            if found:
                body = body.replace(found.group(), "", 1)
        rest = " ".join(f"{match.group('rest') or ''} {body}".split()) or None
        cells.append(
            (match.start(), end, [*(match.group(f"s{i}") for i in template.slots), rest, *extra])
        )
    headers = template_columns.versions(headers, cells)
    title = next(
        (
            c
            for c in template.constant
            if c and c[0].isalpha() and terms(c) and c.lower() not in own
        ),
        "records",
    )
    title = title if number == 0 else f"{title} {number + 1}"
    table = build(identifier(title), name, template_columns.unique(headers), cells, NOUNS)
    if any(c.role is Role.WHO for c in table.columns):
        return table
    labels = [  # (`[00:01:05] Bob: …`: the name before a colon says who)
        n
        for n, i in enumerate(template.slots)
        if i + 1 < len(template.constant) and template.constant[i + 1] == ":"
    ]
    at = next((n for n in labels if says_who(table.values[n])), None)
    return table if at is None else who_at(table, at)


def _matches(text: str, template: Template, taken: Taken) -> list[re.Match[str]]:
    """The template's lines among those no kind took (only the stretches between taken spans are
    searched: a log's lines, all taken, are not read again)."""
    pattern = template.pattern()
    return [
        m
        for start, end in taken.gaps(len(text))
        for m in pattern.finditer(text, start, end)
        if not taken.overlaps(m.start(), m.end() + 1)
    ]


def _blocks(
    text: str, matches: list[re.Match[str]], matched: set[int], taken: Taken
) -> list[tuple[int, int]] | None:
    """Where the template's lines open blocks (most gaps between them hold a line no template
    matched and no kind took), each block's [start, end): to the next block or the first line a
    kind took, the last as long as the longest."""
    gaps = [(a.end(), b.start()) for a, b in zip(matches, matches[1:], strict=False)]
    free = sum(1 for start, end in gaps if _has_free_line(text, start, end, matched, taken))
    if not gaps or free < BLOCK_SHARE * len(gaps):
        return None
    blocks = [
        (a.start(), _until_taken(a, b.start(), taken)) for a, b in itertools.pairwise(matches)
    ]
    longest = max(end - start for start, end in blocks)
    last = matches[-1].start()
    end = text.find("\n\n\n", matches[-1].end())
    end = min(len(text), last + longest, end if end >= 0 else len(text))
    blocks.append((last, _until_taken(matches[-1], end, taken)))
    return [(start, _trimmed(text, start, end)) for start, end in blocks]


def _until_taken(opening: re.Match[str], end: int, taken: Taken) -> int:
    """Where a block opened by this line ends: at `end`, or where a kind's records start."""
    first = next(taken.gaps(end, opening.end()), None)
    return first[1] if first is not None and first[0] == opening.end() else opening.end()


def _has_free_line(text: str, start: int, end: int, matched: set[int], taken: Taken) -> bool:
    return any(
        text[s:e].strip() and s not in matched
        for gap in taken.gaps(end, start)
        for s, e in lines(text, *gap)
    )


def _recurs(found: list[re.Match[str]], blocks: list[tuple[int, int]]) -> bool:
    """Whether the lines `found` stand in BLOCK_SHARE of the blocks, once in each at most."""
    starts = [start for start, _ in blocks]
    held = Counter(bisect.bisect_right(starts, m.start()) - 1 for m in found)
    held.pop(-1, None)
    once = sum(1 for n in held.values() if n == 1)
    return once >= BLOCK_SHARE * len(blocks) and once >= 0.9 * len(held)


def _trimmed(text: str, start: int, end: int) -> int:
    while end > start and text[end - 1] in "\n \t":
        end -= 1
    return end
