"""A bench script's page in docs/: its title, the command that wrote it and when, its report."""

from __future__ import annotations

import os
import shlex
import sys
from datetime import date
from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"


def written_by() -> str:
    """The line naming the command as it was run, the date, the cores and the load average."""
    script = f"bench/{Path(sys.argv[0]).name}"
    return (
        f"Written by `{shlex.join(['python', script, *sys.argv[1:]])}` on "
        f"{date.today().isoformat()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f} at the end ({script} says what is measured)."
    )


def write_page(name: str, title: str, report: str, section: str | None = None) -> None:
    """Print the report and write it to docs/bench-`name`.md after the line `written_by` gives.
    With `section`, it is the page's `## section`, written anew, the other sections kept: a
    script run in several set-ups keeps one section each."""
    print(report)
    page = DOCS / f"bench-{name}.md"
    body = f"{written_by()}\n\n{report.strip()}\n"
    if section is None:
        page.write_text(f"# {title}\n\n{body}", encoding="utf-8")
        return
    old = page.read_text(encoding="utf-8").split("\n## ")[1:] if page.exists() else []
    sections = {part.split("\n", 1)[0]: part.rstrip() + "\n" for part in old}
    sections[section] = f"{section}\n\n{body}"
    page.write_text(f"# {title}\n" + "".join(f"\n## {s}" for s in sections.values()), "utf-8")
