"""Cross-references inside a document (`see 3.2.1`, `section 4.9`, `Chapter II`, `§ 12(b)`,
`Appendix A`, `in Part Two`, `see Related documents`, `*note Change Logs::`, a Markdown link to a
heading's anchor) found in its text and resolved to the section they name; one naming a section
the document does not hold is kept, unresolved.

What can be named is learned from the document's own headings: their numbers (`3.2.1`), their
kind words with a label (`Chapter II`, `Part Two`: a word heading two sections or more, each with
its own label) and their titles. A number is a reference where the word before it mostly
precedes the document's own section numbers (`see 3.2.1`, `section 4.9`; not `version 3.9.1`);
a title is one where a reader is sent to it (`see`, `*note`, `cf.`, `refer to`)."""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property

from longread import deadline
from longread.ingest.headings import NUMBER_WORDS
from longread.store.rows import SectionRow
from longread.text.rank import terms

_NUMBERED = r"(?:[A-Z]\.)?\d+(?:\.\d+)*"  # `3.2.1`, `A.10.1` (an annex's)
_LABEL = rf"{_NUMBERED}|[IVXLCDM]+|[A-Z]"
_HEADING = re.compile(  # `3.2.1 Types`, `1.4. Related documents`, `Chapter II: Kings`, `PART TWO`
    rf"\s*(?:(?P<word>§|[A-Za-z]+)\.?[ \t]+)?(?P<label>{_LABEL})(?:[.:)][ \t]*|[ \t]+|$)"
    r"(?P<title>.*)|\s*(?P<kind>[A-Z][A-Za-z]*)[ \t]+(?P<named>[A-Z][A-Za-z]*)"
    r"(?:[.:][ \t]*(?P<rest>.*))?"
)
_NUMBER = re.compile(
    rf"(?P<word>§|\b[A-Za-z]+)\.?[ \t]*\(?(?<![\w.])(?P<label>{_NUMBERED})(?!\.?\d)"
    r"(?P<part>\([a-z0-9]{1,3}\))?"
)
_KIND_LABEL = r"[IVXLCDM]+|[A-Z]|[A-Z][a-z]+|[A-Z]+"  # (after a kind word: `II`, `B`, `Two`)
_SENT_TO = re.compile(r"(?:\bsee(?:[ \t]+also)?|\*note|\bcf\.|\brefer[ \t]+to)[ \t\n]+", re.I)
_PHRASE = re.compile(r"(?:[^.,;:()\n]|\n(?!\s*\n)){3,80}?(?=::|[.,;:)])")  # (ended by punctuation)
_CAPTION = re.compile(  # (a line opening `Table 3:`, `Figure 2.`, `Exhibit B:`)
    r"^[ \t]*(?P<word>[A-Z][a-z]+)[ \t]+(?P<label>\d+(?:\.\d+)*|[A-Z])[.:][ \t]+\S", re.M
)
_LINK = re.compile(r"\[(?P<text>[^\]\n]{1,200})\]\(#(?P<anchor>[\w-]{1,200})\)")
_SECTION_WORDS = frozenset(("§", "section", "sections", "clause", "clauses"))
_QUOTES = re.compile(r"[\"“”‘’«»]|(?<!\w)'|'(?!\w)")
_DASHES = str.maketrans("–—", "--")
_CUE_WORDS = ("see", "cf", "note", "to")  # (the words of _SENT_TO, which always refer)
MOSTLY = 0.6  # of the numbers after a word that are the document's own, for it to refer
EVIDENCE = 2  # numbers of a word taken as not its document's own, before any is seen
TITLE_WORDS = 12  # the longest title looked for after `see`
TITLE_LIKE_WORDS = 3  # a title after `see` not capitalized must be this long (`see the same`: no)
MAX_PHRASE_WORDS = 6  # of a phrase after `see` that names a section by the words of its title
MAX_HOLDING = 3  # sections whose titles hold such a phrase's words, for it to name the nearest
MAX_REFERENCES = 10_000  # found in one stretch of text at most
GROUPED_KEPT = 8  # sections of one number or title past which their grouping is kept
SAMPLE_CHARS = 4_000_000  # of a document's text, the words that refer are learned from


@dataclass(frozen=True)
class Reference:
    """A reference written at [start, end) of the text, and the section it names (None: the
    document holds no such section)."""

    start: int
    end: int
    text: str
    target: SectionRow | None
    at: int | None = None  # where in its section the named part starts (a table's caption)

    @property
    def opens(self) -> int | None:
        """Where what the reference names starts in the text (None: unresolved)."""
        return self.at if self.at is not None else self.target.start if self.target else None


class ReferenceFinder:
    """The references of one document, found in any stretch of its text (see the module's
    docstring); `sample` is text the words that precede numbers are learned from."""

    def __init__(self, rows: Sequence[SectionRow], sample: str):
        self.rows = list(rows)
        self.numbered: dict[str, list[SectionRow]] = defaultdict(list)
        self.kinded: dict[tuple[str, str], SectionRow] = {}
        self.titled: dict[str, list[SectionRow]] = defaultdict(list)
        self._read_headings(sample)
        self.captions = _captions(sample)
        self._grouped: dict[int, tuple[list[SectionRow], dict[int | None, list[SectionRow]]]] = {}
        self.referring = self._referring_words(sample)

    def _read_headings(self, sample: str) -> None:
        read = {title: _heading(title) for title in {row.title for row in self.rows}}  # (once)
        folded = {title: _folded(read[title][2]) for title in read}
        headed = Counter(word for row in self.rows if (word := read[row.title][0]))
        kinds = {w for w, n in headed.items() if n >= 2 and _as_noun(w, sample)}
        for row in self.rows:
            word, label, _ = read[row.title]
            if word and label and word in kinds:
                self.kinded.setdefault((word, label.lower()), row)
            elif label and not word:
                self.numbered[label].append(row)
            self.titled[folded[row.title]].append(row)

    @cached_property
    def slugs(self) -> dict[str, SectionRow]:
        """The first section of each heading anchor (as Markdown renderers make them)."""
        anchors: dict[str, SectionRow] = {}
        for row in self.rows:
            anchors.setdefault(_slug(row.title), row)
        return anchors

    def _referring_words(self, sample: str) -> frozenset[str]:
        """The words (lower-cased) before numbers that mostly are the document's own section
        numbers of two parts or more."""
        seen: Counter[str] = Counter()
        own: Counter[str] = Counter()
        for found in _NUMBER.finditer(sample):
            if "." in found["label"]:
                word = found["word"].lower()
                seen[word] += 1
                own[word] += found["label"] in self.numbered
        learned = (w for w, n in seen.items() if own[w] >= MOSTLY * (n + EVIDENCE))
        return frozenset((*learned, *_CUE_WORDS))

    def _likeliest(self, rows: list[SectionRow], at: int) -> SectionRow:
        """Of the sections a reference at `at` may name (a number or a title used twice, as in an
        appendix that numbers its own), the first in the part of the document that holds the
        reference (its top-level section), else the first; never the one that holds it, if
        another will do."""
        holder = self._section_at(at)
        same = self._by_top(rows).get(self._tops_of[holder.id] if holder else None, [])
        found = next((r for r in same if not r.start <= at < r.end), None)  # (few hold `at`)
        found = found or next((r for r in rows if not r.start <= at < r.end), None)
        return found or (same or rows)[0]

    def _by_top(self, rows: list[SectionRow]) -> dict[int | None, list[SectionRow]]:
        """The sections of one number or title by their top-level section, in order (grouped
        once: a number a thousand sections share is weighed for each reference to it)."""
        kept = self._grouped.get(id(rows))
        if kept is not None and kept[0] is rows:
            return kept[1]
        grouped: dict[int | None, list[SectionRow]] = {}
        for row in rows:
            grouped.setdefault(self._tops_of[row.id], []).append(row)
        if len(rows) > GROUPED_KEPT:  # (a stored list, kept with its grouping: its id holds)
            self._grouped[id(rows)] = (rows, grouped)
        return grouped

    @cached_property
    def _tops_of(self) -> dict[int, int]:
        """Each section's top-level section (found once: `_likeliest` asks for many)."""
        tops: dict[int, int] = {}
        for row in self.rows:  # (a parent comes before the sections under it)
            parent = self._by_id.get(row.parent_id) if row.parent_id is not None else None
            tops[row.id] = row.id if parent is None else tops.get(parent.id, parent.id)
        return tops

    @cached_property
    def _by_id(self) -> dict[int, SectionRow]:
        return {row.id: row for row in self.rows}

    @cached_property
    def _starts(self) -> list[int]:
        return [row.start for row in self.rows]

    @cached_property
    def _tops(self) -> frozenset[str]:
        return frozenset(label.split(".")[0] for label in self.numbered)

    def _may_be(self, label: str) -> bool:
        """Whether a number of two parts or more may be one of the document's sections: its first
        part is one of theirs, and none of its parts is 0 (`1.0` is a quantity)."""
        parts = label.split(".")
        return len(parts) > 1 and parts[0] in self._tops and "0" not in parts

    @cached_property
    def kind_words(self) -> frozenset[str]:
        return frozenset(word for word, _ in (*self.kinded, *self.captions))

    def _part(self, word: str, label: str) -> tuple[SectionRow | None, int | None]:
        """The section a kind word and a label name (`Chapter II`), or the caption they name
        (`Table 3`: the section holding it, and where it starts)."""
        target = self.kinded.get((word, label.lower()))
        at = self.captions.get((word, label.lower())) if target is None else None
        if at is not None:
            target = self._section_at(at)
        return target, at

    def _section_at(self, at: int) -> SectionRow | None:
        """The innermost section holding offset `at` (the last to start at or before it)."""
        holder = bisect.bisect_right(self._starts, at) - 1
        return self.rows[holder] if holder >= 0 else None

    def find(self, text: str, offset: int = 0, own: bool = True) -> list[Reference]:
        """The references in `text`, in order: in the document's own text starting at `offset`
        (none in a heading's line), or, not `own`, in a text of its own (a reference as written)."""
        starts = self._starts
        found: dict[int, Reference] = {}
        for reference in self._all(text, offset):
            deadline.check()  # (each may weigh many sections of one number: a cell's limit holds)
            heading = bisect.bisect_right(starts, reference.start) - 1
            if (
                own
                and heading >= 0
                and "\n" not in text[max(0, starts[heading] - offset) : reference.start - offset]
                and starts[heading] >= offset
            ):
                continue  # (in the heading's line: its own number or title)
            found.setdefault(reference.start, reference)
            if len(found) >= MAX_REFERENCES:
                break
        return [found[at] for at in sorted(found)]

    def _all(self, text: str, offset: int) -> Iterator[Reference]:
        yield from self._numbers(text, offset)
        yield from self._kinds(text, offset)
        yield from self._titles(text, offset)
        yield from self._links(text, offset)

    def _numbers(self, text: str, offset: int) -> Iterator[Reference]:
        for found in _NUMBER.finditer(text):
            word, label = found["word"].lower(), found["label"]
            target, at = self._part(word, label)
            if at == offset + found.start():
                continue  # (a caption's own line)
            if target is None and word not in self.kind_words:
                dotted = self._may_be(label)  # (`Clause 13` names one; `section 1 man pages` none)
                named = word in _SECTION_WORDS and (dotted or not found["word"][0].islower())
                if named or dotted and word in self.referring:
                    rows = self.numbered.get(label)
                    target = self._likeliest(rows, offset + found.start()) if rows else None
                else:
                    continue
            named = word in self.kind_words or word in _SECTION_WORDS  # (else `see 3.1`: 3.1)
            yield _reference(found, offset, target, 0 if named else found.start("label"), at)

    def _kinds(self, text: str, offset: int) -> Iterator[Reference]:
        if self._kind_pattern is None:
            return
        for found in self._kind_pattern.finditer(text):
            if found["word"][0].islower():  # (`to act I would`: a verb, no part of the text)
                continue
            word, label = found["word"].lower(), found["label"]
            target, at = self._part(word, label)
            if at == offset + found.start():
                continue  # (a caption's own line)
            if target or re.fullmatch(_LABEL, label):
                yield _reference(found, offset, target, 0, at)

    @cached_property
    def _kind_pattern(self) -> re.Pattern[str] | None:
        """`Part Two`, `Appendix B`: a kind word of the document's headings and a label."""
        if not self.kind_words:
            return None
        words = "|".join(map(re.escape, sorted(self.kind_words, key=len, reverse=True)))
        return re.compile(rf"\b(?P<word>(?i:{words}))[ \t]+(?P<label>{_KIND_LABEL})\b")

    def _titles(self, text: str, offset: int) -> Iterator[Reference]:
        for cue in _SENT_TO.finditer(text):
            start = offset + cue.end()
            words = list(re.finditer(r"\S+", text[cue.end() : cue.end() + 400]))[:TITLE_WORDS]
            for count in range(len(words), 0, -1):
                phrase = text[cue.end() : cue.end() + words[count - 1].end()]
                rows = self.titled.get(_folded(phrase))
                if rows and (phrase[0].isupper() or count >= TITLE_LIKE_WORDS):
                    written = phrase.rstrip(" \n.,;:)")
                    yield Reference(
                        start, start + len(written), written, self._likeliest(rows, start)
                    )
                    break
            else:  # (no title starts there: a phrase, up to its end, whose words one title holds)
                ended = _PHRASE.match(text, cue.end())
                target = self._holding(ended[0], start) if ended else None
                if ended and target:
                    yield Reference(start, start + len(ended[0]), ended[0], target)

    def _holding(self, phrase: str, at: int) -> SectionRow | None:
        """The section whose title holds every word of `phrase` (two to six words, stemmed): a
        node named otherwise than its title (`Option Table`: `Table of Long Options`)."""
        wanted = set(terms(phrase))
        if not 2 <= len(wanted) <= MAX_PHRASE_WORDS:
            return None
        rows = [row for words, row in self._title_words if wanted <= words]
        return self._likeliest(rows, at) if 0 < len(rows) <= MAX_HOLDING else None

    @cached_property
    def _title_words(self) -> list[tuple[frozenset[str], SectionRow]]:
        words = {
            title: frozenset(terms(_heading(title)[2])) for title in {r.title for r in self.rows}
        }
        return [(words[row.title], row) for row in self.rows]

    def _links(self, text: str, offset: int) -> Iterator[Reference]:
        for found in _LINK.finditer(text):
            yield _reference(found, offset, self.slugs.get(found["anchor"].lower()))


def _reference(
    found: re.Match[str],
    offset: int,
    target: SectionRow | None,
    skip: int = 0,
    at: int | None = None,
) -> Reference:
    start = skip or found.start()
    written = found.string[start : found.end()]
    return Reference(offset + start, offset + found.end(), written, target, at)


def _captions(sample: str) -> dict[tuple[str, str], int]:
    """(kind, label) -> where its caption line starts, for the lines that open `Table 3:` or
    `Figure 2.` with a word two such lines or more open, each with a label of its own, and that the
    text also writes in lower case (`the table below`)."""
    found: dict[str, dict[str, int]] = defaultdict(dict)
    for line in _CAPTION.finditer(sample):
        found[line["word"].lower()].setdefault(line["label"].lower(), line.start("word"))
    return {
        (word, label): at
        for word, labels in found.items()
        if len(labels) >= 2 and _as_noun(word, sample)
        for label, at in labels.items()
    }


def _as_noun(word: str, sample: str) -> bool:
    """Whether the text writes `word` in lower case somewhere (`this chapter`, `the act`): a kind
    of part, where a name with a number (`Henry V`, `Richard III`) is never written so."""
    deadline.check()  # (a search of the whole sample, for each kind of heading)
    return word == "§" or re.search(rf"\b{re.escape(word)}\b", sample) is not None


def _heading(title: str) -> tuple[str | None, str | None, str]:
    """A heading's kind word (lower case) if it has one, its label, and its title without them:
    `Chapter II: Kings` ('chapter', 'II', 'Kings'), `3.2.1 Types` (None, '3.2.1', 'Types'),
    `PART TWO` ('part', 'TWO', 'PART TWO'), `Related documents` and `King Lear` (None, None,
    itself)."""
    found = _HEADING.fullmatch(title)
    if found is None:
        return None, None, title
    if found["label"]:
        word = found["word"]
        return word.lower() if word else None, found["label"], found["title"] or title
    if found["named"].lower() not in NUMBER_WORDS:  # (`King Lear`: a name, no numbered part)
        return None, None, title
    return found["kind"].lower(), found["named"], found["rest"] or title


def _folded(title: str) -> str:
    """A title as compared: lower case, without quotes, one kind of dash, one space between words,
    no closing punctuation."""
    plain = _QUOTES.sub("", title.lower()).replace("--", "-").translate(_DASHES)
    return " ".join(plain.split()).rstrip(".,;:)").removesuffix("::")


def _slug(heading: str) -> str:
    """A heading's anchor as Markdown renderers make it: lower case, punctuation dropped, spaces
    become hyphens."""
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", heading.strip().lower()))
