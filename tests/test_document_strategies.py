"""Answering about an indexed document: map, tree, rlm over the document tools, base, the mode gate,
page numbers in citations, and the SingleDocRLM API (all with scripted models)."""

from __future__ import annotations

import json
import re

import pytest

from longread.api import SingleDocRLM
from longread.errors import BudgetExceededError, InputError
from longread.index.single import SingleDocIndex
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.llm.usage import Budget
from longread.store.docstore import DocStore
from longread.strategies import modes
from longread.strategies.common import Run, RunOptions
from longread.strategies.reading import chunk_plan
from longread.tools.single_doc import SingleDocTools
from test_ingest_documents import write_pdf

FILLER = "The parties keep records of meetings and file them in the archive each quarter.\n\n"
SECTIONS = {
    "1 Definitions": "A business day is any day banks in Oslo are open.",
    "2 Payment": "Invoices are payable within 45 days of receipt.",
    "3 Termination": (
        "Either party may end the agreement with a cure period of thirty days after notice."
    ),
    "4 Liability": "Liability is capped at the fees paid in the previous year.",
}
FACT = SECTIONS["3 Termination"]
FACTS = set(SECTIONS.values())


def write_contract(path, fillers: int = 6):
    """The agreement of SECTIONS, each fact between `fillers` filler paragraphs each side."""
    body = "".join(
        f"## {title}\n\n{FILLER * fillers}{fact}\n\n{FILLER * fillers}"
        for title, fact in SECTIONS.items()
    )
    path.write_text(f"# Service Agreement\n\n{body}", encoding="utf-8")
    return path


@pytest.fixture
def contract(tmp_path):
    return write_contract(tmp_path / "contract.md")


def tools_for(path, tmp_path, sub):
    index = SingleDocIndex.build(path, DocStore(tmp_path / "index.sqlite"))
    return SingleDocTools(index, sub, Gateway())


def run_with(root, sub, **options):
    budget = options.pop("budget", Budget())
    return Run(root, sub, Gateway(budget=budget), RunOptions(**options))


def reads_the_fact(request) -> str:
    """A small model that answers only when the cure-period sentence is in front of it."""
    prompt = request.messages[-1]["content"]
    return "The cure period is thirty days after notice." if "cure period" in prompt else "NONE"


def cites_the_fact(answer, path):
    text = path.read_text(encoding="utf-8")
    assert answer.citations, answer.text
    for citation in answer.citations:
        assert text[citation.start : citation.end] == citation.text
    assert any("thirty days" in c.text and c.span_id == "3 Termination" for c in answer.citations)


def test_map_reads_the_best_passages_and_cites_the_sentence(contract, tmp_path):
    sub = ScriptedLM(reads_the_fact, writes_code=False, context_window=2048)
    tools = tools_for(contract, tmp_path, sub)
    answer = modes.answer("How long is the cure period after notice?", tools, run_with(sub, sub))
    assert answer.mode == "map" and "thirty days" in answer.text
    cites_the_fact(answer, contract)
    assert answer.stats["findings"] == 1 and 1 <= answer.stats["chunks_read"] <= 8


def test_a_model_on_this_cpu_reads_few_passages_a_line_each_though_it_writes_code(
    contract, tmp_path
):
    sub = ScriptedLM(reads_the_fact, context_window=2048)
    assert chunk_plan(run_with(sub, sub))[1] == 24  # (a hosted model that writes code)
    sub.on_cpu = True
    assert chunk_plan(run_with(sub, sub))[1] == 8
    tools = tools_for(contract, tmp_path, sub)
    answer = modes.answer("How long is the cure period?", tools, run_with(sub, sub), mode="map")
    assert "thirty days" in answer.text and sub.requests
    assert all(r.json_schema is None for r in sub.requests[:-1])  # one line each, not JSON


def test_map_drops_a_finding_the_passage_does_not_support(contract, tmp_path):
    sub = ScriptedLM(
        lambda r: "The cure period is ninety weeks, per the annex.",
        writes_code=False,
        context_window=2048,
    )
    tools = tools_for(contract, tmp_path, sub)
    answer = modes.answer("How long is the cure period?", tools, run_with(sub, sub, max_slices=3))
    assert "ninety" not in answer.text  # the invented reply is dropped; what leads is the
    assert answer.text.startswith("Either party may end the agreement")  # floor's own sentence
    cites_the_fact(answer, contract)
    assert answer.stats["ungrounded"] == answer.stats["chunks_read"] > 0


def test_map_with_a_capable_model_uses_json_and_verifies_the_quote(contract, tmp_path):
    def snippet(request):
        prompt = request.messages[-1]["content"]
        chunk_id = re.search(r"Snippet (chunk-\d+)", prompt).group(1)
        if "cure period" not in prompt:
            return "this is not json"  # malformed, twice: the chunk is skipped and counted
        return json.dumps(
            {
                "relevant": True,
                "summary": "Thirty days after notice.",
                "citations": [chunk_id],
                "quote": "a cure period of thirty days after notice",
            }
        )

    sub = ScriptedLM(snippet)
    root = ScriptedLM(lambda r: "The cure period is thirty days after notice [1].")
    tools = tools_for(contract, tmp_path, sub)
    answer = modes.answer(
        "How long is the cure period?", tools, run_with(root, sub, max_slices=4), mode="map"
    )
    assert answer.text == "The cure period is thirty days after notice [1]."
    assert answer.citations[0].text == (  # the quote, widened to its sentence
        "Either party may end the agreement with a cure period of thirty days after notice."
    )
    assert answer.stats["malformed"] == answer.stats["chunks_read"] - 1
    aggregate = root.requests[-1].messages[-1]["content"]
    assert "[1] (3 Termination) Thirty days after notice." in aggregate


def test_a_small_models_map_answer_leads_with_its_best_finding_and_the_sentence_it_rests_on(
    contract, tmp_path
):
    reads_cure, reads_invoices = (
        "The cure period is thirty days after notice.",
        "Invoices are payable within 45 days of receipt.",
    )

    def reads(request) -> str:
        shown = request.messages[-1]["content"].split("Text:", 1)[1]
        if "cure period" in shown:
            return reads_cure
        return reads_invoices if "Invoices" in shown else "NONE"

    weak = ScriptedLM(reads, writes_code=False, context_window=2048)
    tools = tools_for(contract, tmp_path, weak)
    question = "How long is the cure period after notice, and when are invoices payable?"
    answer = modes.answer(question, tools, run_with(weak, weak), mode="map")
    lead, rest = answer.text.split("\n\n", 1)
    first, quote = lead.splitlines()
    assert first.endswith(" [1]") and first[: -len(" [1]")] in (reads_cure, reads_invoices)
    cited = answer.citations[0]
    assert quote == f"“{cited.text}” ({tools.section_at(cited.start)})" and cited.text in FACTS
    other = reads_invoices if first.startswith(reads_cure) else reads_cure
    assert rest.startswith("Other findings:\n[2] (") and rest.endswith(other)


def test_map_budget_stop_keeps_what_was_found(contract, tmp_path):
    sub = ScriptedLM(reads_the_fact, writes_code=False, context_window=2048)
    tools = tools_for(contract, tmp_path, sub)
    with pytest.raises(BudgetExceededError) as stop:
        modes.answer(
            "Where are the records of meetings filed?",
            tools,
            run_with(sub, sub, budget=Budget(max_subcalls=1)),
        )
    assert stop.value.partial.stopped_by == "max_subcalls"
    assert stop.value.partial.usage["subcalls"] == 1


def test_tree_follows_the_root_models_pick_and_adds_searchs_best(contract, tmp_path):
    def root(request):
        menu = request.messages[-1]["content"]
        return "2" if "4 Liability" in menu else "1"  # picks "2 Payment" under the agreement

    sub = ScriptedLM(reads_the_fact, writes_code=False, context_window=2048)
    tools = tools_for(contract, tmp_path, sub)
    answer = modes.answer(
        "How long is the cure period after notice?",
        tools,
        run_with(ScriptedLM(root, writes_code=False), sub),
        mode="tree",
    )
    chosen = answer.stats["sections_chosen"]
    assert chosen[0] == "Service Agreement" and {"2 Payment", "3 Termination"} <= set(chosen)
    assert "4 Liability" not in chosen
    cites_the_fact(answer, contract)


def test_tree_survives_a_root_model_that_names_no_section(contract, tmp_path):
    sub = ScriptedLM(reads_the_fact, writes_code=False, context_window=2048)
    tools = tools_for(contract, tmp_path, sub)
    root = ScriptedLM(lambda r: "I think the answer is in the middle somewhere.", writes_code=False)
    answer = modes.answer(
        "How long is the cure period after notice?", tools, run_with(root, sub), mode="tree"
    )
    assert "3 Termination" in answer.stats["sections_chosen"]
    assert "thirty days" in answer.text


def test_rlm_over_the_index_sees_the_toc_and_the_document_functions(contract, tmp_path):
    steps = iter(
        [
            (
                "```repl\nprint(doc_type, total_chars, section_names[:2])\n"
                "hits = search('cure period', k=2)\nprint(hits)\n```"
            ),
            (
                "```repl\n"
                "FINAL(ask_about_section('How long is the cure period?', hits[0]['section']))\n```"
            ),
        ]
    )
    root = ScriptedLM(lambda r: next(steps))
    sub = ScriptedLM(lambda r: "The cure period is thirty days after notice.")
    tools = tools_for(contract, tmp_path, sub)
    answer = modes.answer("How long is the cure period?", tools, run_with(root, sub), mode="rlm")
    system = root.requests[0].messages[0]["content"]
    assert "TABLE OF CONTENTS:\nService Agreement\n  1 Definitions" in system
    assert "read_section_chunk(section_name" in system and "Path: contract.md" in system
    output = root.requests[1].messages[-1]["content"]
    assert "markdown" in output and "['Service Agreement', '1 Definitions']" in output
    assert "'section': '3 Termination'" in output
    assert answer.text == "The cure period is thirty days after notice."
    cites_the_fact(answer, contract)


def test_the_system_prompt_stays_small_for_a_huge_toc(tmp_path):
    path = tmp_path / "huge.md"
    path.write_text(
        "".join(f"## Clause {n}\n\nClause {n} text.\n\n" for n in range(10_000)), encoding="utf-8"
    )
    tools = tools_for(path, tmp_path, ScriptedLM([]))
    brief = tools.brief("Which clause covers fees?")
    assert len(tools.names) >= 10_000 and len(brief.intro) < 6_000
    assert "more sections" in brief.intro


def test_auto_mode_picks_base_map_or_rlm(contract, tmp_path):
    small = ScriptedLM(lambda r: "NONE", writes_code=False, context_window=2048)
    tools = tools_for(contract, tmp_path, small)
    assert modes.answer("q?", tools, run_with(small, small)).mode == "map"
    big = ScriptedLM(
        lambda r: "The agreement names four sections.", writes_code=False, context_window=200_000
    )
    assert modes.answer("q?", tools, run_with(big, big)).mode == "base"
    coder = ScriptedLM(["```repl\nprint(search('cure'))\nFINAL('done')\n```"], context_window=2048)
    answer = modes.answer("q?", tools, run_with(coder, coder))
    assert answer.mode == "rlm" and "writes code" in answer.reason
    with pytest.raises(InputError, match="unknown mode 'magic'"):
        modes.answer("q?", tools, run_with(small, small), mode="magic")


def test_base_shows_all_that_fits_the_root_models_window(tmp_path):
    path = write_contract(tmp_path / "long.md", fillers=120)  # ~40,000 characters
    text = path.read_text(encoding="utf-8")
    big = ScriptedLM(lambda r: "Liability is capped at last year's fees.", context_window=200_000)
    answer = modes.answer(
        "What caps liability?", tools_for(path, tmp_path, big), run_with(big, big)
    )
    prompt = big.requests[-1].messages[-1]["content"]
    assert answer.mode == "base" and len(text) > 30_000
    assert text[-2_000:].strip() in prompt and "truncated" not in prompt  # the whole text
    small = ScriptedLM(lambda r: "Not shown.", writes_code=False, context_window=4_096)
    cut = modes.answer("q?", tools_for(path, tmp_path, small), run_with(small, small), mode="base")
    shown = small.requests[-1].messages[-1]["content"]
    assert "truncated" in shown and "Only the first" in cut.text and len(shown) < 12_000


def test_pdf_citations_carry_their_page(tmp_path):
    path = write_pdf(tmp_path / "paper.pdf", outline=True)
    sub = ScriptedLM(
        lambda r: "Every page is read." if "every page" in r.messages[-1]["content"] else "NONE",
        writes_code=False,
        context_window=2048,
    )
    answer = SingleDocRLM(path, sub, sub, cache=False, store_path=tmp_path / "i.sqlite").query(
        "How many pages do the methods read?"
    )
    assert answer.citations and answer.citations[0].page == 3
    assert "We read every page" in answer.citations[0].text


def test_single_doc_rlm_builds_saves_loads_and_opens_a_repl(contract, tmp_path, monkeypatch):
    sub = ScriptedLM(lambda r: "Summary of the section.", writes_code=False, context_window=2048)
    rlm = SingleDocRLM(contract, sub, sub, cache=False, store_path=tmp_path / "a.sqlite")
    index = rlm.build_index()
    assert len(index.summaries) == len(index.rows) == 5
    rlm.save_index(tmp_path / "contract.index.json")
    other = SingleDocRLM(contract, sub, sub, cache=False, store_path=tmp_path / "b.sqlite")
    loaded = other.load_index(tmp_path / "contract.index.json")
    assert loaded.summaries == index.summaries and loaded.names == index.names
    seen = {}
    monkeypatch.setattr(
        "code.interact", lambda banner, local, exitmsg: seen.update(local, banner=banner)
    )
    other.repl()
    assert seen["read_section"]("3 Termination").strip().endswith(FILLER.strip())
    assert seen["total_chars"] == index.total_chars and "5 sections" in seen["banner"]
    with pytest.raises(InputError):
        SingleDocRLM(
            contract, sub, sub, mode="refine", cache=False, store_path=tmp_path / "c.sqlite"
        )


def test_the_sub_model_settles_the_document_type_when_the_rules_are_unsure(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text(
        "# Notes\n\nSome text about things.\n\n## More\n\nAbstract thoughts. Chapter and verse.\n"
        * 3,
        encoding="utf-8",
    )
    sub = ScriptedLM(
        lambda r: (
            "It is a report."
            if "Which kind of document" in r.messages[-1]["content"]
            else "A summary."
        ),
        writes_code=False,
    )
    rlm = SingleDocRLM(path, sub, sub, cache=False, store_path=tmp_path / "i.sqlite")
    assert rlm.index.doc_type == "markdown"  # the rules' guess (confidence 0.42)
    assert rlm.build_index().doc_type == "report"
    assert sum("Which kind of document" in r.messages[-1]["content"] for r in sub.requests) == 1
    without_model = SingleDocRLM(path, sub, sub, cache=False, store_path=tmp_path / "j.sqlite")
    assert (
        without_model.build_index(summaries=False).doc_type == "markdown"
    )  # no model call: no change
    assert sum("Which kind of document" in r.messages[-1]["content"] for r in sub.requests) == 1


def test_drop_index_forgets_the_stored_index(contract, tmp_path):
    rlm = SingleDocRLM(contract, ScriptedLM([]), cache=False, store_path=tmp_path / "i.sqlite")
    digest = rlm.store.documents.get(rlm.index.store_id)["content_hash"]
    rlm.drop_index()
    assert rlm.store.documents.find(digest) is None
    assert (
        rlm.index.names[1] == "1 Definitions"
        and rlm.store.documents.find(digest) == rlm.index.store_id
    )


def test_rlm_starts_from_the_sentences_a_search_finds_and_may_answer_from_them(contract, tmp_path):
    root = ScriptedLM(["```repl\nFINAL('Thirty days after notice.')\n```"] * 2)
    tools = tools_for(contract, tmp_path, ScriptedLM([]))
    answer = modes.answer("How long is the cure period?", tools, run_with(root, root), mode="rlm")
    first = root.requests[0].messages[-1]["content"]
    assert "for hit in search('long cure period', k=3):" in first
    assert "Output:\n3 Termination" in first and "cure period of thirty days" in first
    assert answer.stats["turns"] == 1 and len(root.requests) == 1  # (the sentence was read)
    assert answer.text == "Thirty days after notice." and answer.citations


def test_a_local_root_model_s_run_has_a_time_budget_when_none_is_given(
    contract, tmp_path, monkeypatch
):
    from longread.api import asker

    monkeypatch.setattr(asker, "default_seconds", lambda mode, root: 0.2 if root.on_cpu else 900)
    slow = ScriptedLM(reads_the_fact, writes_code=False, latency=0.3)
    slow.on_cpu = True  # (as a model of this CPU is)
    question = "Where are the records of meetings filed?"

    def opened(budget: Budget = Budget()) -> SingleDocRLM:  # (one passage read at a time)
        options = RunOptions(concurrency=1)
        return SingleDocRLM(
            contract, slow, slow, mode="map", cache=False, store_path=tmp_path / "i",
            budget=budget, options=options,
        )  # fmt: skip

    with pytest.raises(BudgetExceededError) as stopped:
        opened().query(question)
    assert stopped.value.limit == "max_seconds" and stopped.value.partial is not None
    assert opened(Budget(max_seconds=60)).query(question).stopped_by is None  # (its own)
