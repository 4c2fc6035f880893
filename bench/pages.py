"""A bench script's page in docs/: its title, which script wrote it, and its report."""

from __future__ import annotations

from pathlib import Path

DOCS = Path(__file__).resolve().parents[1] / "docs"


def write_page(name: str, title: str, script: str, report: str) -> None:
    """Print the report and write it to docs/bench-`name`.md."""
    print(report)
    (DOCS / f"bench-{name}.md").write_text(
        f"# {title}\n\nWritten by `python bench/{script}` (see its docstring for what is "
        f"measured), on this machine (2 cores).\n\n{report.rstrip()}\n",
        encoding="utf-8",
    )
