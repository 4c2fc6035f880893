"""Heading lines found by rules: markdown and setext, LaTeX, numbered `1.2.3` (an annex's
`A.1.2`), legal `Article`/`Section`/`§`, `Part`/`Chapter`/`Act`/`Scene`, `Step N`. One compiled
regular expression runs over line starts, so it stays fast on texts of hundreds of megabytes.
Offsets are character offsets into the text."""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from functools import partial

from longread.forking import cores, forked_map
from longread.ingest.loaded import Heading
from longread.ingest.shaped_headings import shaped_headings
from longread.ingest.star_headings import star_headings

MAX_TITLE_CHARS = 120
COMMENT_RUN = 3  # `#` lines in a row that are comments, not headings
PARALLEL_CHARS = 16_000_000  # a text this long is searched for heading lines on every core

_NUMBER_WORDS = (
    "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen"
    "|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty"
)
NUMBER_WORDS = frozenset(_NUMBER_WORDS.split("|"))  # (`Part Two`: a number, written as a word)
_KEYWORD_KIND = {
    "Article": "article",
    "Section": "section",
    "§": "section",
    "Part": "part",
    "Book": "part",
    "Chapter": "chapter",
    "Chapitre": "chapter",
    "Kapitel": "chapter",
    "Capítulo": "chapter",
    "Capitolo": "chapter",
    "Act": "act",
    "Scene": "scene",
    "Step": "step",
}
_KEYWORDS = sorted(
    {w for k in _KEYWORD_KIND if k != "§" for w in (k, k.upper())}, key=len, reverse=True
)
_LINE = (
    r"(?P<fence>[ ]{0,3}(?:```|~~~))"
    r"|(?P<atx>#{1,6})[ \t]+(?P<atx_title>[^\n]*)"
    r"|(?P<rule>={3,}|-{3,})[ \t]*$"
    r"|[ \t]*\\(?P<tex>part|chapter|section|subsection|subsubsection)\*?(?:\[[^\]\n]*\])?\{"
    r"(?P<tex_rest>[^\n]*)"
    r"|(?P<num>(?:[A-Z]\.)?\d{1,3}(?:\.\d{1,3}){0,5})\.?[ \t]+"
    r"(?P<num_title>[\"“‘]?(?![a-z])[^\W\d_][^\n]*)"  # (a title may be quoted: `5.6.5. "Section"`)
    rf"|[ \t]*(?P<kw>(?:{'|'.join(_KEYWORDS)})(?=[ \t])|§)[ \t]*"
    rf"(?P<kw_num>\d+(?:\.\d+)*|[IVXLCDM]+\b|(?i:{_NUMBER_WORDS})\b)(?P<kw_rest>[^\n]*)"
)
# Most lines cannot start a heading; this lookahead rejects them before any alternative is tried
# (possessive: giving back blanks never helps, and not trying saves time on indented text).
_MAY_START = rf"(?=[ \t]*+(?:[`~#=\-\\\d{''.join(sorted({k[0] for k in _KEYWORDS}))}§]|[A-Z]\.\d))"
_AT_START = re.compile(_MAY_START + "(?:" + _LINE + ")", re.MULTILINE)
_AFTER_NEWLINE = re.compile(r"\n" + _MAY_START + "(?:" + _LINE + ")", re.MULTILINE)

_TEX_LEVEL = {"part": 1, "chapter": 2, "section": 3, "subsection": 4, "subsubsection": 5}
_GROUP = {
    "article": "legal",
    "section": "legal",
    "part": "book",
    "chapter": "book",
    "act": "book",
    "scene": "book",
    "step": "step",
    "num": "numbered",
}
_PLAIN_GROUPS = frozenset(_GROUP.values())
_TRUSTED_GROUPS = {
    "book": {"book"},
    "legal": {"legal", "book", "numbered"},
    "manual": {"book", "step", "numbered", "legal"},
}
_NONSPACE = re.compile(r"\S")
_LIST_ITEM = re.compile(r"[ \t]*\d{1,3}[.)][ \t]")
_TOC_ENTRY = re.compile(  # (tried where a run of leaders starts: linear on a line of dots)
    r"(?<!\.)(?<!\. )(?:\.[ ]?){3,}+[ ]*+\d++$|(?<![ \t])[ \t]{3,}+\d++$"
)
_RUN_IN = re.compile(r"\.[ \t]+(?=\S)")
_TEX_COMMAND = re.compile(r"\\[A-Za-z]+\*?|[{}]")
_LOOKBACK = 1000


@dataclass(slots=True)
class _Candidate:
    """A line that looks like a heading, before families are chosen and levels normalized."""

    start: int
    title_end: int  # where the heading text ends; body may follow on the same line
    family: str  # "atx", "setext", "tex", "num" or a keyword kind such as "chapter"
    level: int  # raw level on the family's own scale; 0 for steps (set from context)
    title: str


def _line_matches(text: str, pieces: int | None = None) -> Iterator[tuple[int, re.Match[str]]]:
    """(line start, match) for every line whose start matches the heading-line pattern. A long
    text is searched in `pieces` (default: one per core) by forked copies of this process, which
    say where their matches start; no match runs past its line, so they find what one search
    would."""
    first = _AT_START.match(text)
    if first:
        yield 0, first
    pieces = pieces or (cores() if len(text) >= PARALLEL_CHARS else 1)
    if pieces == 1:
        for m in _AFTER_NEWLINE.finditer(text):
            yield m.start() + 1, m
        return
    bounds = [(len(text) * n // pieces, len(text) * (n + 1) // pieces) for n in range(pieces)]
    for starts in forked_map(partial(_starts_in, text), bounds):
        for at in starts:
            again = _AFTER_NEWLINE.match(text, at)
            assert again is not None  # (it matched there in the copy)
            yield at + 1, again


def _starts_in(text: str, bounds: tuple[int, int]) -> list[int]:
    """Where the heading-line matches starting in [bounds) start."""
    low, high = bounds
    starts = []
    for m in _AFTER_NEWLINE.finditer(text, low):
        if m.start() >= high:
            break
        starts.append(m.start())
    return starts


def _previous_line(text: str, line_start: int) -> tuple[int, str] | None:
    """(start, content) of the line before `line_start`; None at the top or if very long."""
    if line_start == 0:
        return None
    low = max(0, line_start - 1 - _LOOKBACK)
    cut = text.rfind("\n", low, line_start - 1)
    if cut < 0 and low > 0:
        return None
    return cut + 1, text[cut + 1 : line_start - 1]


def _underline(text: str, line_start: int) -> bool:
    """Whether a line of tildes underlines the line above it (a reStructuredText heading, as
    long as its title), rather than opening a code block."""
    end = text.find("\n", line_start)
    line = text[line_start : end if end >= 0 else len(text)].strip()
    previous = _previous_line(text, line_start)
    return (
        set(line) == {"~"}
        and previous is not None
        and abs(len(previous[1].strip()) - len(line)) <= 2
    )


def _blank_before(text: str, line_start: int) -> bool:
    """True at the top of the text or after a whitespace-only line."""
    if line_start == 0:
        return True
    previous = _previous_line(text, line_start)
    return previous is not None and not previous[1].strip()


def _commented(text: str, start: int) -> bool:
    """Whether a `#` line stands in a run of COMMENT_RUN such lines (or more): a block of
    comments, as a data file opens with (a heading stands on its line alone, or beside one)."""
    run, at = 1, start
    while run < COMMENT_RUN and (previous := _previous_line(text, at)) is not None:
        if not previous[1].startswith("#"):
            break
        run, at = run + 1, previous[0]
    end = start
    while run < COMMENT_RUN and (end := text.find("\n", end) + 1) and text.startswith("#", end):
        run += 1
    return run >= COMMENT_RUN


def _atx(start: int, m: re.Match[str]) -> _Candidate | None:
    """A markdown `#` heading; closing hashes dropped, empty titles refused."""
    title = m["atx_title"].strip()
    bare = title.rstrip("#")
    if bare != title and (not bare or bare[-1] in " \t"):
        title = bare.strip()
    return _Candidate(start, m.end(), "atx", len(m["atx"]), title) if title else None


def _setext(text: str, start: int, m: re.Match[str]) -> _Candidate | None:
    """A one-line paragraph underlined by === (level 1) or --- (level 2)."""
    previous = _previous_line(text, start)
    if previous is None:
        return None
    title_start, title = previous[0], previous[1].strip()
    if (
        not title.strip("=-")
        or len(title) > MAX_TITLE_CHARS
        or title.startswith(("```", "~~~"))
        or not _blank_before(text, title_start)
    ):
        return None
    return _Candidate(title_start, m.end(), "setext", 1 if m["rule"][0] == "=" else 2, title)


def _tex(start: int, m: re.Match[str]) -> _Candidate | None:
    """A LaTeX sectioning command; the title is its brace-balanced argument, markup removed."""
    depth, rest = 1, m["tex_rest"]
    for i, char in enumerate(rest):
        depth += (char == "{") - (char == "}")
        if depth == 0:
            rest = rest[:i]
            break
    title = " ".join(_TEX_COMMAND.sub("", rest).split())
    return _Candidate(start, m.end(), "tex", _TEX_LEVEL[m["tex"]], title) if title else None


def _numbered(text: str, start: int, m: re.Match[str]) -> _Candidate | None:
    """`1.2.3 Title`, guarded against list items, prose and contents entries."""
    title = m["num_title"].strip()
    words = title.lstrip('"“‘')
    if (
        not title
        or len(title) > MAX_TITLE_CHARS
        or not words[:1].isalpha()
        or words[0].islower()
        or title[-1] in ".,;:"
        or _TOC_ENTRY.search(title)
        or not _blank_before(text, start)
        or _LIST_ITEM.match(text, m.end() + 1)
    ):
        return None
    line = text[start : m.end()].strip()
    return _Candidate(start, m.end(), "num", 1 + _depth(m["num"]), line)


def _depth(number: str) -> int:
    """How many dotted components a section number has: `4` → 1, `4.2` → 2."""
    return number.count(".") + 1


def _keyword_level(kind: str, number: str) -> int:
    """Raw level on the plain-text scale shared with numbered lines (which sit at 1 + depth):
    Part/Act 1, Chapter/Article 2, Scene 3, Section and § 2 + depth; Steps are placed later."""
    if kind == "section":
        return 2 + _depth(number)
    return {"part": 1, "act": 1, "chapter": 2, "article": 2, "scene": 3, "step": 0}[kind]


def _keyword(start: int, m: re.Match[str]) -> _Candidate | None:
    """`Chapter 3 — Title`, `ARTICLE IV`, `§ 12`, `Step 2:` …; refuses prose like `Part of it`."""
    rest = m["kw_rest"]
    tail = rest.strip()
    if tail and not (
        tail[0] in ".:-–—)"
        or (rest[0] in " \t" and (tail[0].isupper() or tail[0].isdigit() or tail[0] in "\"'“‘(["))
    ):
        return None
    line = m.group(0).strip()
    if _TOC_ENTRY.search(line):
        return None
    kind = _KEYWORD_KIND[m["kw"].capitalize()]
    run_in = _GROUP[kind] == "legal" and _RUN_IN.search(line, len(line) - len(tail) + 1)
    if run_in:
        line = line[: run_in.start()]
    if len(line) > MAX_TITLE_CHARS:
        line = f"{m['kw']} {m['kw_num']}"
    return _Candidate(
        start, m.start("kw") + len(line), kind, _keyword_level(kind, m["kw_num"]), line
    )


def _candidates(text: str) -> list[_Candidate]:
    """Every heading-looking line outside fenced code blocks, in line order. A fence that is
    never closed is taken for a stray line, so the headings after it still count."""
    found: list[_Candidate] = []
    fenced: list[_Candidate] = []
    fence = ""
    for start, m in _line_matches(text):
        if m["fence"]:
            if _underline(text, start):
                continue
            marker = m["fence"].strip()[0]
            if fence == marker:
                fence, fenced = "", []
            else:
                fence = fence or marker
            continue
        cand = _candidate(text, start, m)
        if cand:
            (fenced if fence else found).append(cand)
    return found + fenced


def _candidate(text: str, start: int, m: re.Match[str]) -> _Candidate | None:
    """The heading a non-fence line match stands for, if its guards pass."""
    if m["atx"]:
        return None if _commented(text, start) else _atx(start, m)
    if m["rule"]:
        return _setext(text, start, m)
    if m["tex"]:
        return _tex(start, m)
    if m["num"]:
        return _numbered(text, start, m)
    return _keyword(start, m)


def _choose(cands: list[_Candidate], trusted: Collection[str]) -> list[_Candidate]:
    """One consistent set of families: LaTeX, or markdown, or the plain-text keyword families."""
    tex = [c for c in cands if c.family == "tex"]
    markdown = [c for c in cands if c.family in ("atx", "setext")]
    plain = [c for c in cands if _GROUP.get(c.family) in trusted]
    atx = sum(c.family == "atx" for c in markdown)
    if len(tex) >= 2 and len(tex) >= len(markdown):
        return tex
    if atx >= 2 or len(markdown) >= max(2, len(plain)):
        return markdown
    return plain or tex or markdown


def _place_steps(cands: list[_Candidate]) -> None:
    """Give each Step the level just below the heading that encloses it."""
    enclosing = 0
    for c in cands:
        if c.family == "step":
            c.level = enclosing + 1
        else:
            enclosing = c.level


def _adjacent_runs(text: str, cands: list[_Candidate]) -> Iterator[list[_Candidate]]:
    """Consecutive headings grouped into runs with only whitespace between members."""
    run: list[_Candidate] = []
    for c in cands:
        if run and _NONSPACE.search(text, run[-1].title_end, c.start):
            yield run
            run = []
        run.append(c)
    if run:
        yield run


def _drop_contents_lists(text: str, cands: list[_Candidate]) -> list[_Candidate]:
    """Drop printed tables of contents. In a run of adjacent headings the last one and the
    parents right above it are real; if what precedes them repeats a level, it is a listing."""
    kept: list[_Candidate] = []
    for run in _adjacent_runs(text, cands):
        split = len(run) - 1
        while split > 0 and run[split - 1].level < run[split].level:
            split -= 1
        listing = [c.level for c in run[:split]]
        kept.extend(run[split:] if len(set(listing)) < len(listing) else run)
    return kept


def _ranked(headings: Iterable[Heading]) -> list[Heading]:
    """The same headings with levels renumbered 1, 2, 3 … by rank, keeping their order."""
    headings = list(headings)
    rank = {level: i for i, level in enumerate(sorted({h.level for h in headings}), 1)}
    return [Heading(start, rank[level], title) for start, level, title in headings]


def detect_headings(text: str, doc_type: str | None = None) -> list[Heading]:
    """A Heading (start, level, title) for each heading line, in order; the top level present is 1.

    `doc_type` narrows which plain-text families are trusted (a book ignores `1.2 …` lines and
    Steps; a legal text ignores Steps). Markdown, LaTeX and plain-text families are not mixed.
    A text with no markup and no book divisions may mark more headings by their shape alone.
    """
    starred = star_headings(text)  # (a text that declares itself an outline says so)
    if starred:
        return starred
    trusted = _TRUSTED_GROUPS.get(doc_type or "", _PLAIN_GROUPS)
    chosen = _choose(_candidates(text), trusted)
    if all(_GROUP.get(c.family, "book") != "book" for c in chosen):
        shaped = shaped_headings(text)
        if len(shaped) > len(chosen):
            return _ranked(Heading(h.start, h.level, h.title) for h in shaped)
    if chosen and _GROUP.get(chosen[0].family):
        _place_steps(chosen)
        chosen = _drop_contents_lists(text, chosen)
    chosen.sort(key=lambda c: c.start)
    unique = [c for i, c in enumerate(chosen) if i == 0 or c.start != chosen[i - 1].start]
    return _ranked(Heading(c.start, c.level, c.title) for c in unique)
