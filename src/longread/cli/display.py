"""How the CLI shows progress (a live status line fed by events) and answers."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.status import Status
from rich.table import Table
from rich.text import Text

from longread.answer import Answer, Counts, usage_line
from longread.events import Event
from longread.text.claims import CHECKED_CHARS
from longread.text.terminal import escaped_name, for_terminal, json_for_terminal


class SafeConsole(Console):
    """A console that removes escape sequences and other control characters from every string it
    is given (model output, document text, file names), before markup is read."""

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return super().render_str(for_terminal(text), **kwargs)


console = SafeConsole()
INDENT = 2  # an answer's lines start this far in; the tool's own lines start at the margin
MAX_ANSWER_LINES = 2_000  # of an answer printed (as the terminal wraps it); --json holds it all
MAX_WARNINGS = 20  # unsupported claims named under the answer (the rest are counted)
err_console = SafeConsole(stderr=True)


@contextmanager
def progress_bars() -> Iterator[Callable[[Event], None]]:
    """Progress bars fed by `progress` events (task, done, total): one bar per task, drawn again
    at each event (no thread of its own: the index build may fork)."""
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        auto_refresh=False,
    ) as bar:
        tasks: dict[str, TaskID] = {}

        def advance(event: Event) -> None:
            name, done, total = event.data["task"], event.data["done"], event.data["total"]
            if name not in tasks:
                tasks[name] = bar.add_task(name, total=total)
            bar.update(tasks[name], completed=done, total=total, refresh=True)

        yield advance


class ProgressLine:
    """A one-line live status on stderr, updated from run events."""

    def __init__(self, enabled: bool = True):
        self._status: Status | None = err_console.status("starting…") if enabled else None
        self._calls = 0

    def __enter__(self) -> ProgressLine:
        if self._status:
            self._status.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._status:
            self._status.stop()

    def update(self, text: str) -> None:
        if self._status:
            self._status.update(for_terminal(text))

    def note(self, text: str) -> None:
        """A dim line above the status."""
        if self._status:
            self._status.console.print(f"[dim]{escape(text)}[/]", highlight=False)

    def __call__(self, event: Event) -> None:
        d = event.data
        if event.kind == "warning":  # shown even with --quiet and --json (on stderr)
            err_console.print(
                f"[yellow]warning:[/] {escape(d['text'])}", highlight=False, soft_wrap=True
            )
        if self._status is None:
            return
        depth = f"[depth {event.depth}] " if event.depth else ""
        if event.kind == "mode":
            self._status.console.print(
                f"[dim]mode {d['mode']}: {escape(d['reason'])}[/]", highlight=False
            )
        elif event.kind == "llm_start":
            self._calls += 1
            self._status.update(f"{depth}model call {self._calls} ({d['purpose']}, {d['model']})…")
        elif event.kind == "slice":
            self._status.update(f"reading slice {d['index']}/{d['total']} ({d['slice_id']})…")
        elif event.kind == "route":
            self.note(
                f"{'backtracking to' if d.get('backtrack') else 'chosen'}: {', '.join(d['picked'])}"
            )
        elif event.kind == "notice":
            self.note(d["text"])
        elif event.kind == "code":
            self._status.update(f"{depth}turn {d['turn']}: running code block {d['block']}…")
        elif event.kind == "llm_retry":
            self._status.console.print(
                f"[yellow]retrying {d['model']} in {d['delay']} s: {escape(d['error'])}[/]",
                highlight=False,
            )


def print_answer(answer: Answer, as_json: bool = False) -> None:
    """The answer, its citations, and a one-line usage summary (or all of it as JSON). Every line of
    the answer, as the terminal shows it, is indented: a line in it that looks like a citation or
    the usage line cannot pass for the tool's own, which start at the margin. A claim its
    citations do not hold is shown in yellow, marked ⚠ and its number, which the reason's line
    below repeats."""
    if as_json:
        sys.stdout.write(
            json_for_terminal(json.dumps(answer.to_dict(), ensure_ascii=False, indent=2)) + "\n"
        )
        return
    lines = marked_text(answer, MAX_ANSWER_LINES * console.width).wrap(
        console, max(20, console.width - INDENT)
    )
    for line in lines[:MAX_ANSWER_LINES]:
        line.rstrip()
        console.print(Text(" " * INDENT) + line if line.plain else "", soft_wrap=True)
    if len(lines) > MAX_ANSWER_LINES:
        console.print(
            f"[dim]… {len(lines) - MAX_ANSWER_LINES:,} more lines of the answer (--json has all)[/]"
        )
    for number, c in enumerate(answer.citations, 1):
        snippet = " ".join(c.text.split())[:160]
        where = f"{escaped_name(c.doc_id)} [{c.start}:{c.end})"
        where += f" § {escaped_name(c.span_id)}" if c.span_id else ""
        where += f" p. {c.page}" if c.page is not None else ""
        console.print(f"[dim][{number}] {escape(where)}[/] {escape(snippet)}", highlight=False)
    if answer.counts is not None:
        shown = counts_table(answer.counts)
        if shown is not None:
            console.print(shown)
    unsupported = [(n, c) for n, c in enumerate(answer.claims, 1) if not c.supported]
    for number, claim in unsupported[:MAX_WARNINGS]:  # (the reason: model text stays indented)
        reason = " ".join(claim.reason.split())[:200]
        console.print(f"[yellow]⚠{number} unsupported:[/] {escape(reason)}", highlight=False)
    if len(unsupported) > MAX_WARNINGS:
        console.print(f"[yellow]… {len(unsupported) - MAX_WARNINGS:,} more unsupported[/]")
    summary = f"{answer.mode} · {usage_line(answer.usage)}"
    expected = answer.usage.get("estimate")
    if expected:
        summary += (
            f" · estimated {span(expected['calls'])} calls, "
            f"{span(expected['input_tokens'])} in / {span(expected['output_tokens'])} out"
            + ("" if expected["seconds"] is None else f", {span(expected['seconds'], '', 1)} s")
        )
    if answer.claims:
        held = sum(claim.supported for claim in answer.claims)
        summary += f" · {held} of {len(answer.claims)} claims supported"
        if len(answer.text) > CHECKED_CHARS:
            summary += f" (in the first {CHECKED_CHARS:,} of {len(answer.text):,} characters)"
    if answer.stopped_by:
        summary += f" · stopped by {answer.stopped_by}"
    console.print(f"[dim]{summary}[/]", highlight=False, soft_wrap=True)


def counts_table(counts: Counts, limit: int = 10) -> Table | None:
    """A compact table of what a count rests on: each group with its figure (a grouping), else
    the rows counted with their label and place."""
    if counts.groups:
        view = Table(box=None, show_edge=False, pad_edge=False)
        view.add_column(escape(counts.group.replace("_", " ")), max_width=50, overflow="ellipsis")
        view.add_column(escape(counts.figure), justify="right")
        for group, figure in counts.groups[:limit]:
            view.add_row(escape(for_terminal(group)), f"{figure:,}")
    elif counts.rows:
        view = Table(box=None, show_edge=False, pad_edge=False)
        view.add_column(escape(counts.label.replace("_", " ") or "row"), max_width=40)
        view.add_column("where", style="dim")
        for row, label in list(zip(counts.rows, counts.labels, strict=True))[:limit]:
            where = f"{row.doc_id} [{row.start}:{row.end})"
            view.add_row(escape(for_terminal(str(label))), escape(escaped_name(where)))
    else:
        return None
    more = len(counts.groups or counts.rows) - limit
    if more > 0:
        view.caption = f"… {more:,} more (--json has them)"
    return view


def marked_text(answer: Answer, chars: int | None = None) -> Text:
    """The answer's text (its first `chars`), safe for a terminal, each unsupported claim in
    yellow and marked ⚠ with its number (claims are in the order of the text)."""
    text, at = Text(), 0
    shown = answer.text if chars is None else answer.text[:chars]
    for number, claim in enumerate(answer.claims, 1):
        if claim.supported or claim.start < at or claim.end > len(shown):
            continue
        text.append(for_terminal(answer.text[at : claim.start]))
        said = for_terminal(answer.text[claim.start : claim.end])
        text.append(f"{said} ⚠{number}", style="yellow")
        at = claim.end
    text.append(for_terminal(shown[at:]))
    return text


def answer_and_show(
    asker: Any, question: str, dry_run: bool, as_json: bool, export: Path | None = None
) -> None:
    """The answer to `question` with what was estimated before it (and written to `export`, a
    report); with `dry_run`, only the estimates (of every mode, when the mode is `auto`), and no
    model call."""
    modes = None if asker.mode == "auto" else [asker.mode]
    if dry_run:
        print_estimates(asker.estimate(question, modes), as_json)
        return
    from longread.api.asker import answered
    from longread.report import write_report

    answer = answered(asker, question)
    print_answer(answer, as_json)
    if export is not None:
        write_report(export, question, answer)
        if not as_json:
            err_console.print(f"[dim]report written to {escape(str(export))}[/]", highlight=False)


def span(pair: Any, unit: str = "", digits: int = 0) -> str:
    """A (least, most) range as `n`, `n–m`, or `n+` when it has no upper end."""
    least, most = pair
    shown = f"{unit}{least:,.{digits}f}"
    if most == least:
        return shown
    return f"{shown}+" if most is None else f"{shown}–{unit}{most:,.{digits}f}"


def print_estimates(estimates: list[Any], as_json: bool) -> None:
    """Each mode's expected calls, tokens, dollars and seconds (or all of it as JSON)."""
    if as_json:
        sys.stdout.write(json.dumps([e.to_dict() for e in estimates], indent=2) + "\n")
        return
    table = Table(title="Estimate before any model call", title_justify="left")
    for column in ("mode", "calls (sub)", "tokens in", "out", "dollars", "seconds"):
        table.add_column(column, justify="left" if column == "mode" else "right")
    for number, e in enumerate(estimates):
        name = f"auto → {e.mode}" if number == 0 and e.note.startswith("auto") else e.mode
        table.add_row(
            name,
            f"{span(e.calls)} ({span(e.subcalls)})"
            + (f", {e.cached_calls} cached" if e.cached_calls else ""),
            span(e.input_tokens),
            span(e.output_tokens),
            "unknown" if e.cost_usd is None else span(e.cost_usd, "$", 4),
            "unknown" if e.seconds is None else span(e.seconds, "", 1),
        )
    console.print(table)
    for e in estimates:
        if e.note:
            console.print(f"[dim]{escape(e.mode)}: {escape(e.note)}[/]", highlight=False)
