"""Regular expressions written by model code, run on the host in bounded time. RE2 (linear time,
no catastrophic backtracking) runs every pattern it can express; the `regex` module runs the rest
(backreferences, lookaround) in a helper process killed at the current deadline, else after
`FALLBACK_SECONDS` of wall time (`slow_regex`).
RE2's `\\w`, `\\d`, `\\s` and `\\b` know only ASCII, so a pattern using them is run by RE2 on ASCII
text only and by `regex` (Python's meaning) on other text."""

from __future__ import annotations

import re
import re._constants as _c
import re._parser as _re_parser
from collections.abc import Iterator
from typing import NamedTuple

import re2
import regex

from longread import deadline
from longread.text.slow_regex import slow_matches

FALLBACK_SECONDS = 10.0
MAX_PATTERN_CHARS = 2_000  # compiling is not bounded by the deadline: the pattern's size is
MAX_EXPANDED = (
    10_000  # the fallback engine unrolls counted repeats: (((.{100}){100}){100}) is 10**6
)
_ASCII_CLASSES = re.compile(r"\\[wWdDsSbB]")
_REPEATS = (_c.MAX_REPEAT, _c.MIN_REPEAT, _c.POSSESSIVE_REPEAT)


class SearchPattern:
    """One case-insensitive pattern; `finditer(text)` yields (start, end, matched text)."""

    def __init__(self, pattern: str):
        if len(pattern) > MAX_PATTERN_CHARS:
            raise ValueError(
                f"a pattern of {len(pattern):,} characters is over the {MAX_PATTERN_CHARS:,} "
                "allowed; search for fewer alternatives at a time"
            )
        self.pattern = pattern
        self._re2 = _re2_or_none(pattern)
        self._ascii_classes = bool(_ASCII_CLASSES.search(pattern))
        self._fallback: regex.Pattern | None = None
        if self._re2 is None:
            self._fallback = self._compile_fallback()

    def _compile_fallback(self) -> regex.Pattern:
        try:
            size = _expanded_size(_re_parser.parse(self.pattern))
        except (re.error, RecursionError, OverflowError) as error:
            raise ValueError(
                f"invalid regular expression {self.pattern[:200]!r}: {error}"
            ) from None
        if size > MAX_EXPANDED:
            raise ValueError(
                f"the pattern {self.pattern[:100]!r} unrolls to over {MAX_EXPANDED:,} steps "
                "(nested counted repeats); use smaller counts"
            )
        try:
            return regex.compile(self.pattern, regex.IGNORECASE | regex.V0)
        except regex.error as error:
            raise ValueError(
                f"invalid regular expression {self.pattern[:200]!r}: {error}"
            ) from None

    def finditer(self, text: str) -> Iterator[tuple[int, int, str]]:
        if self._re2 is not None and not (self._ascii_classes and not text.isascii()):
            for m in self._re2.finditer(text):
                yield m.start(), m.end(), m.group(0)
            return
        self._fallback = self._fallback or self._compile_fallback()  # (checked here, run there)
        left = deadline.remaining()
        try:
            yield from slow_matches(self.pattern, text, FALLBACK_SECONDS if left is None else left)
        except TimeoutError:
            raise deadline.DeadlineExceeded(
                f"the pattern {self.pattern[:100]!r} took too long (backreferences and lookaround "
                "are not linear-time); simplify it"
            ) from None


def _re2_or_none(pattern: str) -> re2._Regexp | None:
    options = re2.Options()
    options.case_sensitive = False
    options.log_errors = False
    try:
        return re2.compile(pattern, options)
    except re2.error:
        return None


def _expanded_size(items: _re_parser.SubPattern | list) -> int:
    """How many steps a parsed pattern has once its counted repeats are unrolled."""
    size = 0
    for op, arg in items:
        if op in _REPEATS:
            low, high, inner = arg
            size += max(high if high != _c.MAXREPEAT else low, 1) * _expanded_size(inner)
        elif op is _c.SUBPATTERN:
            size += _expanded_size(arg[-1])
        elif op is _c.BRANCH:
            size += sum(_expanded_size(branch) for branch in arg[1])
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            size += _expanded_size(arg[1])
        elif op is _c.ATOMIC_GROUP:
            size += _expanded_size(arg)
        elif op is _c.GROUPREF_EXISTS:
            size += sum(_expanded_size(part) for part in arg[1:] if part is not None)
        else:
            size += 1
    return size


def compile_search(pattern: str) -> SearchPattern:
    """The SearchPattern for `pattern` (ValueError if no engine accepts it). Not cached: a cache
    would keep what model code compiled after its run."""
    return SearchPattern(pattern)


_TOKEN = re.compile(r"[A-Za-z0-9]+")
_SEPARATOR = re.compile(r"[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]")  # ASCII, not a letter or digit


class IndexTerm(NamedTuple):
    """A word every match of a pattern holds as a full-text index holds it: lower-case ASCII
    letters and digits, a token of its own (`whole`) or else the start of one."""

    word: str
    whole: bool


MIN_PREFIX = 3  # a shorter start of a word begins too many words to narrow a search


def index_terms(pattern: str) -> list[IndexTerm]:
    """The words every match of `pattern` holds where a full-text index (which splits text at
    every character but letters and digits) has them: ASCII letters and digits the pattern spells
    out right after another literal character that is not one, so each starts a token; whole when
    such a character follows them too (as `RARE` in `-RARE-`), else the token's start (as `treaty`
    in ` treaty\\w*`). None when the pattern cannot be read, or spells none out that way."""
    try:
        runs = list(_literal_runs(_re_parser.parse(pattern)))
    except (re.error, RecursionError, OverflowError):
        return []
    terms: list[IndexTerm] = []
    for run in runs:
        for match in _TOKEN.finditer(run):
            before = run[match.start() - 1 : match.start()]
            whole = bool(_SEPARATOR.fullmatch(run[match.end() : match.end() + 1]))
            if _SEPARATOR.fullmatch(before) and (whole or len(match.group(0)) >= MIN_PREFIX):
                terms.append(IndexTerm(match.group(0).lower(), whole))
    return list(dict.fromkeys(terms))


def _literal_runs(items: _re_parser.SubPattern) -> Iterator[str]:
    """The runs of literal characters that follow one another in every match (top level, and
    inside plain groups)."""
    run: list[str] = []
    for op, arg in items:
        if op is _c.LITERAL:
            run.append(chr(arg))
            continue
        if op is _c.SUBPATTERN and not run:  # (a group starts a run of its own)
            yield from _literal_runs(arg[-1])
            continue
        if run:
            yield "".join(run)
        run = []
    if run:
        yield "".join(run)
