"""An answer written out to keep: the question, the answer, each claim with whether its citations
hold it, each citation with the text it cites, what a count was counted over, and the usage line;
as Markdown, or as one self-contained HTML page (no script, no external resource)."""

from __future__ import annotations

import html
from pathlib import Path

from longread.answer import Answer, Citation, Counts, usage_line
from longread.errors import InputError

FORMATS = {".md": "markdown", ".markdown": "markdown", ".html": "html", ".htm": "html"}
ROWS_SHOWN = 50  # groups or rows of a count a report lists
_STYLE = """
body { font: 16px/1.5 system-ui, sans-serif; max-width: 52rem; margin: 2rem auto; padding: 0 1rem;
       color: #1d1d1f; }
.answer { white-space: pre-wrap; background: #f5f5f7; padding: 1rem; border-radius: 6px; }
.held { color: #1b6e2e; } .unheld { color: #a15c00; }
blockquote { margin: 0.3rem 0 1rem; padding-left: 0.8rem; border-left: 3px solid #ccc;
             white-space: pre-wrap; }
table { border-collapse: collapse; }
td, th { padding: 0.2rem 0.8rem; border-bottom: 1px solid #ddd; }
td.n { text-align: right; } .usage { color: #666; font-size: 0.9rem; }
"""


def check_report_path(path: Path) -> str:
    """The report's format, from its suffix; InputError for another suffix or a missing folder
    (said before any work is done)."""
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise InputError(f"{path.name}: a report is written as .md or .html")
    if not path.parent.is_dir():
        raise InputError(f"{path.parent}: no such folder to write the report in")
    return kind


def write_report(path: str | Path, question: str, answer: Answer) -> None:
    """Write the report in the format the file's suffix names (`.md`, `.html`)."""
    path = Path(path)
    kind = check_report_path(path)
    text = markdown(question, answer) if kind == "markdown" else page(question, answer)
    path.write_text(text, encoding="utf-8")


def _where(citation: Citation) -> str:
    where = f"{citation.doc_id} [{citation.start}:{citation.end})"
    where += f", § {citation.span_id}" if citation.span_id else ""
    return where + (f", p. {citation.page}" if citation.page is not None else "")


def _claim_state(supported: bool) -> str:
    return "supported" if supported else "not supported"


def _count_rows(counts: Counts) -> tuple[tuple[str, str], list[tuple[str, str]]]:
    """(headers, rows) of what a count rests on: its groups, else its rows counted."""
    if counts.groups:
        headers = (counts.group.replace("_", " "), counts.figure)
        return headers, [(g, f"{n:,}") for g, n in counts.groups[:ROWS_SHOWN]]
    rows = list(zip(counts.rows, counts.labels, strict=True))[:ROWS_SHOWN]
    return (counts.label or "row", "where"), [(str(label), _where(row)) for row, label in rows]


def _cell(text: str) -> str:
    """Text for a Markdown table's cell (its bars escaped, on one line)."""
    return " ".join(text.split()).replace("|", "\\|")


def markdown(question: str, answer: Answer) -> str:
    """The report as Markdown."""
    lines = [f"# {question}", "", answer.text, ""]
    if answer.claims:
        lines += ["## Claims", ""]
        for claim in answer.claims:
            cited = ", ".join(f"[{n}]" for n in claim.citations)
            lines.append(
                f"- {claim.text} ({_claim_state(claim.supported)}{', ' + cited if cited else ''})"
            )
            if not claim.supported and claim.reason:
                lines.append(f"  - {claim.reason}")
        lines.append("")
    if answer.counts is not None and (answer.counts.groups or answer.counts.rows):
        (first, second), rows = _count_rows(answer.counts)
        lines += ["## Counted over", "", f"| {first} | {second} |", "|---|---|"]
        lines += [f"| {_cell(a)} | {_cell(b)} |" for a, b in rows]
        lines.append("")
    if answer.citations:
        lines += ["## Citations", ""]
        for number, citation in enumerate(answer.citations, 1):
            quoted = "\n".join(f"> {line}" for line in citation.text.splitlines() or [""])
            lines += [f"[{number}] {_where(citation)}", "", quoted, ""]
    lines.append(f"_{answer.mode} · {usage_line(answer.usage)}_")
    return "\n".join(lines) + "\n"


def page(question: str, answer: Answer) -> str:
    """The report as one HTML page, every piece of text escaped."""
    e = html.escape
    head = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">",
        f"<title>{e(question)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{e(question)}</h1>",
    ]
    return "\n".join([*head, fragment(answer), "</body></html>"]) + "\n"


def fragment(answer: Answer, anchor: str = "c") -> str:
    """The answer as HTML to place in a page (a notebook's output): its text, claims, what it
    counted, citations and usage; `anchor` starts the citations' element ids."""
    e = html.escape
    parts = [f'<div class="answer" style="white-space: pre-wrap">{e(answer.text)}</div>']
    if answer.claims:
        parts.append("<h2>Claims</h2><ul>")
        for claim in answer.claims:
            state = "held" if claim.supported else "unheld"
            cited = " ".join(f'<a href="#{anchor}{n}">[{n}]</a>' for n in claim.citations)
            why = f"<br><small>{e(claim.reason)}</small>" if not claim.supported else ""
            parts.append(
                f'<li>{e(claim.text)} <span class="{state}">({_claim_state(claim.supported)})'
                f"</span> {cited}{why}</li>"
            )
        parts.append("</ul>")
    if answer.counts is not None and (answer.counts.groups or answer.counts.rows):
        (first, second), rows = _count_rows(answer.counts)
        parts.append(
            f"<h2>Counted over</h2><table><tr><th>{e(first)}</th><th>{e(second)}</th></tr>"
        )
        parts += [f'<tr><td>{e(a)}</td><td class="n">{e(b)}</td></tr>' for a, b in rows]
        parts.append("</table>")
    if answer.citations:
        parts.append("<h2>Citations</h2>")
        for number, citation in enumerate(answer.citations, 1):
            parts.append(
                f'<p id="{anchor}{number}"><b>[{number}]</b> {e(_where(citation))}</p>'
                f"<blockquote>{e(citation.text)}</blockquote>"
            )
    parts.append(f'<p class="usage">{e(answer.mode)} · {e(usage_line(answer.usage))}</p>')
    return "\n".join(parts)
