"""The `aggregate` strategy's first way: the question's plan run by code over the source's record
tables (read-only SQL), no model called. The answer leads with the value, then says how it was
counted (the plan, the rows that passed its filters, the groups ranked), and cites the rows
counted."""

from __future__ import annotations

from typing import Any

from longread.answer import Answer, Counts
from longread.events import EventKind
from longread.query.core.catalog import Catalog
from longread.query.core.execute import SHOWN, Counted, Row, execute
from longread.query.core.plan import TEXT, Inner, Operation, Plan
from longread.query.readers.rules import reply_form
from longread.store.record_query import word_pattern
from longread.strategies.common import Run
from longread.strategies.sources import catalog_of, cite
from longread.strategies.sql_answer import run_written

CITED = 3  # rows cited
CITE_CHARS = 200
GROUPS_KEPT = 500  # groups an answer keeps for its table and chart
REASON = "the question counts over the whole text: the source's records counted by code"


def run_counted(plan: Plan, source: object, run: Run) -> Answer:
    """The plan's answer from the source's record tables (PlanError or QueryError when they
    cannot give it)."""
    if plan.sql:
        return run_written(plan, source, run)
    catalog = catalog_of(source)
    counted = execute(plan, catalog)
    run.emit(EventKind.PHASE, name="AGGREGATE", records=counted.matched, sql=counted.sql)
    text = f"{lead(counted, catalog)}\n\n{support(counted, catalog)}"
    rows = [cite(source, row.document, *_span(catalog, row, plan.term)) for row in counted.rows]
    what = _what(plan, catalog)
    counts = Counts(
        label=counted.label or "",
        rows=rows,
        labels=[row.label for row in counted.rows],
        group=(plan.group_by or plan.column or "") if counted.groups else "",
        figure=_figure_noun(plan, what) if counted.groups else "",
        groups=[(named(g, plan, catalog), n) for g, n in counted.groups[:GROUPS_KEPT]],
    )
    return Answer(
        text=text,
        mode="aggregate",
        citations=rows[:CITED],
        counts=counts,
        computed=text,
        usage=run.gateway.usage.to_dict(),
        stats={
            "records": counted.table_rows,
            "counted": counted.matched,
            "groups": len(counted.groups),
        },
        reason=REASON,
    )


def _span(catalog: Catalog, row: Row, term: str | None) -> tuple[int, int]:
    """What to cite of a row: its first CITE_CHARS characters, or from the word it was counted
    for to the end of that line."""
    if term:
        text = catalog.read(row.document, row.start, row.end)
        found = word_pattern(term).search(text)
        if found is not None:
            stop = text.find("\n", found.end())
            end = min(len(text) if stop < 0 else stop, found.start() + CITE_CHARS)
            return row.start + found.start(), row.start + end
    return row.start, min(row.end, row.start + CITE_CHARS)


def lead(counted: Counted, catalog: Catalog) -> str:
    """The direct answer: the value the plan asks for, and what it counts (the filters are said
    in the support)."""
    plan = counted.plan
    what = _what(plan, catalog)
    operation = plan.operation
    if operation is Operation.EXISTS:
        return f"{'Yes' if counted.value else 'No'}: {_many(counted.matched, what)}."
    if operation is Operation.COUNT and plan.group_by is None:
        return f"{_many(counted.value, what)}."
    if operation is Operation.SHARE:
        share = "None" if counted.value is None else f"{shown(counted.value)}%"
        return f"{share}: {counted.matched:,} of the {counted.whole:,} {what}."
    figure = _rounded(counted.value, reply_form.rounding(plan.question))
    if operation in (Operation.SUM, Operation.MEAN, Operation.MEDIAN):
        value = f"{shown(figure)} {_unit(plan)}"
        over = _many(counted.matched, what)
        if operation is Operation.MEDIAN:
            return f"{value}, the median of {over}."
        word = "in all" if operation is Operation.SUM else "on average"
        return f"{value} {word}, over {over}."
    if operation in (Operation.MIN, Operation.MAX):
        row = counted.rows[0] if counted.rows else None
        which = "highest" if operation is Operation.MAX else "lowest"
        named = f"{row.label}: " if row is not None and row.label is not None else ""
        value = f"{shown(figure)} {_unit(plan)}"
        return f"{named}{value}, the {which} of {counted.matched:,} {what}."
    if operation is Operation.NTH:
        if not counted.rows:
            return f"None: no {what}."
        place = "last" if plan.rank < 0 else "first" if plan.rank == 1 else f"number {plan.rank}"
        return f"{counted.value}: the {place} {singular(what)}."
    return _grouped_lead(counted, what, catalog)


def _grouped_lead(counted: Counted, what: str, catalog: Catalog) -> str:
    plan, groups = counted.plan, counted.groups
    if plan.operation is Operation.DISTINCT:
        kind = plan.noun or plural(_column_words(plan.group_by))
        if not groups:
            return f"0 {kind}."
        names = [named(g, plan, catalog) for g, _ in groups]
        more = ", …" if counted.value > SHOWN else ""
        return f"{counted.value:,} {kind}: {', '.join(names[:SHOWN])}{more}."
    if not groups:
        return f"None: no {what}."
    names = [named(g, plan, catalog) for g, _ in groups]
    if plan.operation is Operation.LIST:
        if len(names) == 1:
            return f"{names[0]}, the only one ({_many(groups[0][1], what)})."
        listed = len(names) + counted.more_groups
        more = ", …" if listed > 3 * SHOWN else ""
        return f"{', '.join(names[: 3 * SHOWN])}{more} ({listed:,})."
    if plan.operation is Operation.COUNT:
        return f"{shown(counted.value)} {what} in all; {names[0]} has {shown(groups[0][1])}."
    place = plan.rank - 1
    if place >= len(groups):
        return f"None: only {len(groups)} ranked."
    best, figure = groups[place]
    tied = [named(g, plan, catalog) for g, n in groups if n == figure and g != best]
    which = _ranked_word(plan)
    ordinal = ("second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")
    if plan.rank > 1:
        which = f"{ordinal[plan.rank - 2] if plan.rank <= 8 else plan.rank} {which}"
    more = ", …" if len(tied) > SHOWN else ""
    also = f" (tied with {', '.join(tied[:SHOWN])}{more})" if tied else ""
    shown_best = named(best, plan, catalog)
    return f"{shown_best}: {shown(figure)} {_figure_noun(plan, what)}, the {which}{also}."


def named(value: Any, plan: Plan, catalog: Catalog) -> str:
    """A group as the answer names it: a document by its title and file, a section with its
    document's (`Macbeth (macbeth.md), ACT III`)."""
    if isinstance(value, tuple):
        return f"{catalog.display(str(value[0]))}, {value[1]}"
    if plan.group_by == "document":
        return catalog.display(str(value))
    return str(value)


def _ranked_word(plan: Plan) -> str:
    most = plan.operation is Operation.ARGMAX
    if plan.inner in (Inner.MAX, Inner.MIN):
        return "highest" if most else "lowest"
    return "most" if most else "fewest"


def _figure_noun(plan: Plan, what: str) -> str:
    if plan.term:
        return f"mentions of “{plan.term}”"
    if plan.inner is Inner.DISTINCT and plan.column:
        return plan.noun or plural(_column_words(plan.column))
    if plan.inner is not Inner.COUNT and plan.column:
        return _unit(plan)
    return what


def _many(count: Any, what: str) -> str:
    """`count` of what the rows are, one as one (`1 message`, `2 messages`)."""
    return f"{shown(count)} {what if count != 1 else singular(what)}"


def _unit(plan: Plan) -> str:
    """What the plan's column measures: its name as words."""
    return _column_words(plan.column)


def _column_words(column: str | None) -> str:
    """A column's name as words (`body_mass_g` → `body mass g`)."""
    return (column or "value").replace("_", " ")


def _what(plan: Plan, catalog: Catalog) -> str:
    """What the plan's rows are called (`speeches`, `messages`, `rows`)."""
    if plan.term and plan.table == TEXT:
        return f"mentions of “{plan.term}”"
    if plan.term and plan.operation is Operation.COUNT and plan.group_by is None:
        return f"mentions of “{plan.term}”"
    return _rows_noun(plan, catalog)


def _rows_noun(plan: Plan, catalog: Catalog) -> str:
    """What the rows of the plan's table are called: as the question calls them, else as the
    table's kind does."""
    if plan.noun:
        return plan.noun if plan.noun.endswith("s") else plural(plan.noun)
    table = catalog.tables.get(plan.table or "")
    noun = table.nouns[0] if table is not None and table.nouns else f"{plan.table} row"
    return plural(noun)


def _where(plan: Plan) -> str:
    return "where " + " and ".join(f.described() for f in plan.filters)


def support(counted: Counted, catalog: Catalog) -> str:
    """How it was counted, and the first groups with their figures."""
    plan = counted.plan
    where = (
        f"{len(catalog.documents):,} documents" if len(catalog.documents) > 1 else "the whole text"
    )
    lines = [
        f"Counted by code over {where}: {plan.described()}; {counted.matched:,} of the "
        f"{counted.table_rows:,} {_rows_noun(plan.with_(noun=None), catalog)} passed its filters "
        f"(the question read by the {plan.reader})."
    ]
    if counted.groups and plan.operation is not Operation.LIST:
        lines += [f"- {named(g, plan, catalog)}: {shown(n)}" for g, n in counted.groups[:SHOWN]]
        if len(counted.groups) > SHOWN:
            lines.append(f"- … {len(counted.groups) - SHOWN:,} more")
    return "\n".join(lines)


def _rounded(value: Any, places: int | None) -> Any:
    """A figure rounded as the question asks (a whole number for `rounded`)."""
    if places is None or isinstance(value, bool) or not isinstance(value, int | float):
        return value
    return round(value, places) if places else round(value)


def shown(value: Any) -> str:
    """A number as a reader writes it (`1,250`, `5,076.02`); anything else as it is."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return str(value)
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.2f}".rstrip("0").rstrip(".")


_SAME_PLURAL = frozenset(  # English nouns whose plural is not made with `s` (or is the noun)
    "people men women children data media criteria feet teeth mice geese series species sheep "
    "fish deer staff police cattle".split()
)


def singular(noun: str) -> str:
    """The singular of an English plural this module makes (`speeches` → `speech`)."""
    words = noun.split()
    last = words[-1] if words else noun
    if last.lower() in _SAME_PLURAL:
        return noun
    if last.endswith("ies"):
        last = last[:-3] + "y"
    elif last.endswith(("ses", "xes", "ches", "shes")):
        last = last[:-2]
    elif last.endswith("s"):
        last = last[:-1]
    return " ".join([*words[:-1], last])


def plural(noun: str) -> str:
    """An English noun's plural (`speech` → `speeches`, `entry` → `entries`, `people`)."""
    words = noun.split()
    last = words[-1] if words else noun
    if last.lower() in _SAME_PLURAL:
        return noun
    if last.endswith(("s", "x", "ch", "sh")):
        last += "es"
    elif last.endswith("y") and last[-2:-1] not in "aeiou":
        last = last[:-1] + "ies"
    else:
        last += "s"
    return " ".join([*words[:-1], last])
