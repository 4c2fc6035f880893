"""Following a passage's cross-references in `map` and `tree`: where a passage a finding cites
sends the reader elsewhere (`see 3.2.1`, `see Related documents`), the section it names is read
too, and what it says is kept right after the finding that sent the reader there, so the answer
cites both."""

from __future__ import annotations

from collections import defaultdict

from longread.store.rows import SectionRow
from longread.strategies.common import Run
from longread.strategies.reading import Chunk, ChunkReader, Finding
from longread.text.grounding import grounded_span
from longread.tools.single_doc import SingleDocTools

AFTER_CHARS = 600  # of a passage after the cited sentence, where its references are looked for
MAX_FOLLOWED = 3  # sections read because a finding's passage names them, each time
FOLLOWED_CHARS = 1_800  # of a named section read, where the reader read no chunk to size it by


class FollowingReader(ChunkReader):
    """A chunk reader over one indexed document that, once its chunks are read, reads the
    opening of each section (MAX_FOLLOWED at most) the cited passages of its findings name and no
    chunk read holds; what each such section says, read now or before, is kept after the finding
    that named it."""

    def __init__(self, question: str, run: Run, source: SingleDocTools) -> None:
        super().__init__(question, run, source)
        self.index = source.index
        self.referrers: dict[str, Finding] = {}
        self._followed: set[int] = set()  # sections read because a passage named them

    def read_all(self, chunks: list[Chunk]) -> None:
        super().read_all(chunks)
        size = max((c.end - c.start for c in chunks), default=FOLLOWED_CHARS)
        unread: list[tuple[Chunk, Finding, int]] = []
        for target, (referrer, opens) in self._named().items():
            held = [f for f in self.findings if opens <= f.span[0] < target.end]
            for finding in held:  # (read already, kept after what named its section)
                self.referrers.setdefault(finding.chunk.chunk_id, referrer)
            if held or target.id in self._followed or any(c.start <= opens < c.end for c in chunks):
                continue
            stop = min(target.end, opens + size)
            text = self.index.read_range(opens, stop)
            chunk = Chunk(f"reference-{target.id}", target.name, opens, stop, text)
            unread.append((chunk, referrer, target.id))
        followed = unread[:MAX_FOLLOWED]
        for chunk, referrer, target_id in followed:
            self.referrers[chunk.chunk_id] = referrer
            self._followed.add(target_id)
        super().read_all([chunk for chunk, _, _ in followed])

    def _named(self) -> dict[SectionRow, tuple[Finding, int]]:
        """Each section the passages of the findings name, with the first finding naming it and
        where in it the named part starts (its heading, or a table's caption)."""
        named: dict[SectionRow, tuple[Finding, int]] = {}
        for finding in list(self.findings):
            start, end = finding.span
            for reference in self.index.references(
                start, min(end + AFTER_CHARS, finding.chunk.end)
            ):
                target, opens = reference.target, reference.opens
                if (
                    target is not None
                    and opens is not None
                    and not target.start <= start < target.end
                ):
                    named.setdefault(target, (finding, opens))
        return named

    def grounded(self, claim: str, chunk: Chunk) -> tuple[int, int] | None:
        """As a chunk reader grounds a reply; in a section read because a passage named it, the
        reference is what ties it to the question, which its words need not share."""
        if chunk.chunk_id in self.referrers:
            return grounded_span(claim, chunk.text, "")
        return super().grounded(claim, chunk)

    def arranged(self, ranked: list[Finding]) -> list[Finding]:
        return after_referrers(ranked, self.findings, self.referrers)


def after_referrers(
    ranked: list[Finding], found: list[Finding], referrers: dict[str, Finding]
) -> list[Finding]:
    """`ranked` with each finding of a section another finding named put right after that one,
    unless it ranks before it already (a finding left out, for all its naming, stays out where
    what named it is left out too)."""
    following: dict[int, list[Finding]] = defaultdict(list)
    for finding in found:
        referrer = referrers.get(finding.chunk.chunk_id)
        if referrer is not None and referrer is not finding:
            following[id(referrer)].append(finding)
    ordered: list[Finding] = []
    placed: set[int] = set()
    for finding in ranked:
        if id(finding) in placed:
            continue
        ordered.append(finding)
        placed.add(id(finding))
        for follower in following.get(id(finding), []):
            if id(follower) not in placed:
                ordered.append(follower)
                placed.add(id(follower))
    return ordered
