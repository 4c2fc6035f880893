"""`--export report.md|report.html`: the answer written out to keep, with its claims, citations
and usage; a report of another kind is refused before any work; model text is escaped. The count's
statement is the test's, written by a scripted OpenAI-compatible server of its own standing in
for the code model."""

from __future__ import annotations

import json
import os
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from cli import LONGREAD
from fake_openai import fake_openai
from longread.answer import Answer, Citation, Claim
from longread.errors import InputError
from longread.query.readers.model.question_kind import KIND_PROMPT
from longread.report import markdown, page, write_report

LEDGER = """# Orders

| order | customer | item | quantity |
|---|---|---|---|
| 1 | Ada | deck paint | 4 |
| 2 | Bob | bilge pump | 1 |
| 3 | Ada | rope | 10 |
| 4 | Cy | deck paint | 6 |
| 5 | Ada | deck paint | 4 |
"""
QUESTION = "How many orders did each customer place?"
SQL = "SELECT customer, count(*) AS orders FROM orders GROUP BY customer ORDER BY orders DESC"


def writes(messages: list[dict]) -> str:
    """The model's reply: the question read as asking for rows, then its statement."""
    if messages[0]["content"].startswith(KIND_PROMPT):
        return json.dumps({"answer": "rows"})
    return json.dumps({"sql": SQL})


def _run(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    ledger = tmp_path / "ledger.md"
    ledger.write_text(LEDGER, encoding="utf-8")
    env = {**os.environ, "LONGREAD_CACHE_DIR": str(tmp_path / "cache"), "OPENAI_API_KEY": "sk-t"}
    with fake_openai([writes] * 8) as server:
        model = ["--model", "openai:scripted", "--base-url", server.url, "--reader", "auto"]
        command = [LONGREAD, "ask", str(ledger), QUESTION, "--mode", "aggregate", *model, *extra]
        return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)


def test_both_formats_hold_the_answer_claims_citations_and_usage(tmp_path):
    for name in ("report.md", "report.html"):
        done = _run(tmp_path, "--export", str(tmp_path / name))
        assert done.returncode == 0, done.stderr
        assert "report written to" in done.stderr
    orders = Counter(line.split(" | ")[1] for line in LEDGER.splitlines() if line[2:3].isdigit())
    ((most, n),) = orders.most_common(1)
    md = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert md.startswith(f"# {QUESTION}\n")
    assert f"\n{most}, " in md and f"- {most} | {n}" in md  # (the answer, the rows it rests on)
    assert "## Claims" in md and "(supported" in md
    assert "> | 1 | Ada | deck paint | 4 |" in md  # (a citation's text, quoted)
    assert "aggregate · 2 calls" in md  # (the question's kind, then the statement)
    html = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<script" not in html and "http" not in html.split("<body>")[1]  # (nothing fetched)
    assert f"- {most} | {n}" in html
    assert f"| {most} | {n} |" in md  # (the groups counted, as a table)
    assert f'<td class="n">{n}</td>' in html


def test_a_report_of_another_kind_is_refused_before_the_run(tmp_path):
    done = _run(tmp_path, "--export", str(tmp_path / "report.pdf"))
    assert done.returncode != 0
    assert "report.pdf: a report is written as .md or .html" in done.stderr
    assert not (tmp_path / "cache").exists() or not any((tmp_path / "cache").rglob("*.sqlite"))


def test_model_text_is_escaped_in_the_page_and_kept_in_markdown(tmp_path):
    said = 'The wall <img src=x onerror="alert(1)"> holds [1].'
    answer = Answer(
        said,
        "retrieval",
        citations=[Citation("a.md", 0, 9, "<b>wall</b>")],
        claims=[Claim(said, 0, len(said), [1], False, "the text <i>says</i> otherwise")],
        usage={"calls": 1},
    )
    html = page("Is it <safe>?", answer)
    assert "<img" not in html and "&lt;img src=x" in html
    assert "<b>wall" not in html and "&lt;i&gt;says" in html
    assert "<title>Is it &lt;safe&gt;?</title>" in html
    assert said in markdown("q", answer) and "(not supported, [1])" in markdown("q", answer)
    with pytest.raises(InputError, match="no such folder"):
        write_report(tmp_path / "missing" / "r.md", "q", answer)


def test_in_a_notebook_an_answer_renders_itself_and_ask_works_inside_a_running_loop(tmp_path):
    import asyncio

    import longread as lr
    from longread.llm.scripted import ScriptedLM

    doc = tmp_path / "harbour.md"
    doc.write_text("# Harbour\n\nThe harbour opens at dawn <sharp>.\n", encoding="utf-8")
    model = ScriptedLM(lambda request: "It opens at dawn [1].")

    async def cell() -> Answer:  # (Jupyter runs each cell inside its event loop)
        with lr.open(doc, model, cache=False, store_path=tmp_path / "i.sqlite") as source:
            return source.ask("When does the harbour open?", mode="retrieval")

    answer = asyncio.run(cell())
    shown = answer._repr_html_()
    assert shown.startswith('<div class="answer"') and "It opens at dawn [1]." in shown
    assert "&lt;sharp&gt;" in shown and "<sharp>" not in shown  # (the cited text, escaped)
    assert f'id="longread-{id(answer):x}-1"' in shown
