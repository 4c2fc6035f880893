"""What the REPL's `references` and `follow` do over one indexed document: the cross-references
written in a section, each with the section it names, and the text of the section a reference
names (given as references() lists it, or as written: `3.2.1`, `Section 4.2`, `Related
documents`)."""

from __future__ import annotations

from typing import Any

from longread import deadline
from longread.errors import LongreadError
from longread.index.corpus import CorpusIndex
from longread.index.references import Reference
from longread.index.single import SingleDocIndex
from longread.store.rows import SectionRow
from longread.tools.bounds import READ_LIMIT

MAX_LISTED = 500  # references one call lists at most
WINDOW_CHARS = 1_000_000  # of the text read and searched at a time
OVERLAP = 400  # characters a window reads past its end, for a reference across it
REFERENCE_CHARS = 300  # of a reference model code passes follow(): none is longer


def listed(
    index: SingleDocIndex, section: SectionRow | None, document: str | None = None
) -> list[dict[str, Any]]:
    """The references in `section` (None: the whole document), at most MAX_LISTED, each a dict:
    text, start, end, target (the named section's name, None if the document has none such),
    and `document` when given (a corpus's)."""
    start, end = (0, index.total_chars) if section is None else (section.start, section.end)
    found: list[Reference] = []
    for at in range(start, end, WINDOW_CHARS):  # (a huge document a window at a time, timed)
        deadline.check()
        stop = min(end, at + WINDOW_CHARS)
        found += [r for r in index.references(at, min(end, stop + OVERLAP)) if r.start < stop]
        if len(found) >= MAX_LISTED:
            break
    return [shown(r, document) for r in found[:MAX_LISTED]]


def followed(index: SingleDocIndex, reference: Any) -> str:
    """The text of what `reference` names, from where it starts (a section's heading, a table's
    caption) to its section's end (its first READ_LIMIT characters)."""
    found = _target(index, reference)
    if found is None:
        raise LongreadError(f"{_written(reference)!r} names no section of this document")
    target, opens = found
    return index.read_range(opens, min(target.end, opens + READ_LIMIT))


def _target(index: SingleDocIndex, reference: Any) -> tuple[SectionRow, int] | None:
    """The section `reference` names and where in it the named part starts."""
    written = _written(reference)
    if isinstance(reference, dict) and reference.get("target") is not None:
        named = next((row for row in index.rows if row.name == reference["target"]), None)
        if named is None:
            return None
        opens = reference.get("opens")
        if isinstance(opens, int) and named.start <= opens < named.end:
            return named, opens
        return named, named.start
    named = next((row for row in index.rows if row.name == written), None)
    if named is not None:
        return named, named.start
    for text in (written, f"see {written}"):  # (a title is a reference where one is sent to it)
        references = index.reference_finder.find(text, own=False)
        hit = next((r for r in references if r.target is not None), None)
        if hit is not None and hit.target is not None and hit.opens is not None:
            return hit.target, hit.opens
    return None


def _written(reference: Any) -> str:
    """A reference as written (a dict of references() gives its `text`), of bounded length."""
    if isinstance(reference, dict):
        written = str(reference.get("text", ""))
    elif isinstance(reference, str):
        written = reference.strip()
    else:
        raise LongreadError("follow() takes a reference from references(), or one as written")
    if len(written) > REFERENCE_CHARS:
        raise LongreadError(f"a reference is at most {REFERENCE_CHARS} characters, as written")
    return written


def shown(reference: Reference, document: str | None = None) -> dict[str, Any]:
    """A reference as a dict: text, start, end, target (the name of the section it names),
    opens (where what it names starts), and `document` when given."""
    shown: dict[str, Any] = {
        "text": reference.text,
        "start": reference.start,
        "end": reference.end,
        "target": reference.target.name if reference.target is not None else None,
        "opens": reference.opens,  # (where what it names starts: a heading, a caption)
    }
    if document is not None:
        shown["document"] = document
    return shown


class ReferenceNavigation:
    """references and follow over one document, mixed into SingleDocTools (which provides
    `index` and `_row`)."""

    REFERENCE_TOOLS = ("references", "follow")
    index: SingleDocIndex

    def _row(self, section_name: str) -> SectionRow:
        raise NotImplementedError

    def references(self, section_name: str | None = None) -> list[dict]:
        """The cross-references written in a section (the whole document if None), in order:
        text, start, end and target (the name of the section it names; None if the document has
        none such)."""
        return listed(self.index, None if section_name is None else self._row(section_name))

    def follow(self, reference: Any) -> str:
        """The text of the section a reference names: one of references()'s dicts, or one as
        written ('see 3.2.1', 'Section 4.2', 'Related documents')."""
        return followed(self.index, reference)


class CorpusReferenceNavigation:
    """references and follow over a corpus's documents, mixed into CorpusTools (which provides
    `index`)."""

    REFERENCE_TOOLS = ("references", "follow")
    index: CorpusIndex

    def references(self, doc_id: str, section_name: str | None = None) -> list[dict]:
        """The cross-references written in a document (in one of its sections, if named), in
        order: text, start, end, target (the name of the section of that document it names;
        None if it has none such) and document."""
        level2 = self.index.document_index(doc_id)
        section = None
        if section_name is not None:
            section = next((row for row in level2.rows if row.name == section_name), None)
            if section is None:
                raise KeyError(f"no section {section_name!r} in {doc_id}")
        return listed(level2, section, doc_id)

    def follow(self, reference: Any, doc_id: str | None = None) -> str:
        """The text of the section a reference names: one of references()'s dicts, or one as
        written ('Section 4.2') in the document `doc_id`."""
        document = reference.get("document") if isinstance(reference, dict) else doc_id
        if not document:
            raise LongreadError(
                "name the document the reference is written in: follow(ref, doc_id)"
            )
        return followed(self.index.document_index(document), reference)
