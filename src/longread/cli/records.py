"""`longread records FILE|DIR`: the records found in a document or a folder, as tables."""

from __future__ import annotations

import csv
import re
import sys
from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from longread.cli.app import app
from longread.cli.display import console, err_console
from longread.errors import InputError

SAMPLES = 3
FORMULA_FIRST = ("=", "+", "-", "@", "\t", "\r")  # (what makes a spreadsheet read a formula)
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


@app.command()
def records(
    path: Path = typer.Argument(..., help="A file, or a folder of files."),
    as_csv: str | None = typer.Option(
        None, "--csv", metavar="TABLE", help="Write one table's rows as CSV to standard output."
    ),
) -> None:
    """List the kinds of records found in PATH (their columns, how many rows, three sample
    rows), or export one table with --csv TABLE. Indexes PATH first if needed (no model call)."""
    from longread.config import index_path
    from longread.query.core.catalog import corpus_catalog, document_catalog

    with err_console.status(f"finding the records of {escape(str(path))} (once)…"):
        if path.is_dir():
            from longread.index.corpus import CorpusIndex
            from longread.store.open_corpus import open_corpus_store

            corpus = CorpusIndex(path, open_corpus_store(index_path(path)))
            corpus.update()
            catalog = corpus_catalog(corpus)
        else:
            from longread.index.single import SingleDocIndex
            from longread.store.docstore import DocStore

            index = SingleDocIndex.build(path, DocStore(index_path(path)))
            catalog = document_catalog(index, path.name)
    try:
        if as_csv is not None:
            if as_csv not in catalog.tables:
                raise InputError(f"no table {as_csv!r}; {path} has {', '.join(catalog.tables)}")
            writer = csv.writer(sys.stdout)
            for row in catalog.query.rows(as_csv):
                writer.writerow([_inert(cell) for cell in row])
            return
        for table in catalog.tables.values():
            _show(catalog, table.name, table.kinds, table.rows)
        if catalog.skipped:
            console.print(escape(catalog.skipped))
    finally:
        catalog.close()


def _show(catalog: object, name: str, kinds: tuple[str, ...], rows: int) -> None:
    from longread.query.core.catalog import Catalog

    assert isinstance(catalog, Catalog)
    shown = catalog.query.execute(f'SELECT * FROM "{name}" LIMIT {SAMPLES}', max_rows=SAMPLES)
    columns = [c for c in shown.columns if not c.startswith("_")]
    view = Table(title=f"{name} ({', '.join(kinds)}): {rows:,} rows", title_justify="left")
    for column in columns:
        view.add_column(escape(column), overflow="fold", max_width=40)
    for row in shown.rows:
        cells = dict(zip(shown.columns, row, strict=True))
        view.add_row(*(escape(_cell(cells[c])) for c in columns))
    console.print(view)


def _cell(value: object) -> str:
    text = "" if value is None else " ".join(str(value).split())
    return text if len(text) <= 80 else text[:79] + "…"


def _inert(cell: object) -> object:
    """A cell as a spreadsheet opening the CSV reads it: text it would take for a formula (`=`,
    `+`, `-`, `@` first) behind a single quote, the usual guard; a number, negative too, as is."""
    if isinstance(cell, str) and cell.startswith(FORMULA_FIRST) and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell
