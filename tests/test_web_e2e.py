"""End-to-end: the web UI in real headless Chromium (Debian's, fetched by scripts/fetch-chromium.sh;
never `playwright install`) against a real server on 127.0.0.1. Scripted-model tests check the UI
itself; `local_model` tests upload a real PDF and run each mode on the embedded local model.
Screenshots go to test-artifacts/."""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest

from longread.index.single import SingleDocIndex
from longread.llm.scripted import ScriptedLM
from longread.store.docstore import DocStore
from longread.web import create_app
from longread.web.runs import RunLog
from longread.web.settings import Settings
from statements import writing
from test_ingest_documents import write_pdf
from test_web_api import index_corpus
from webserver import scripted_app, serving

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--headless=new",
]
PAGES = [
    [
        "Skarv Island Lighthouse Report",
        "The lighthouse on Skarv Island was built in 1887.",
        "Its lamp burns whale oil and can be seen for twenty miles.",
    ],
    [
        "Staff",
        "The keeper of the lighthouse is paid in herring and salt.",
        "A supply boat visits the island every second Tuesday.",
    ],
]
QUESTION = "What is the keeper of the lighthouse paid in?"
FACT = "The keeper of the lighthouse is paid in herring and salt."


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')"
    )
    fetched = subprocess.run(
        [str(ROOT / "scripts" / "fetch-chromium.sh")], capture_output=True, text=True, timeout=900
    )
    if fetched.returncode != 0:
        pytest.skip(f"Debian's chromium could not be fetched: {fetched.stderr.strip()[-300:]}")
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=fetched.stdout.strip().splitlines()[-1], args=CHROMIUM_ARGS
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    assert errors == [], errors  # no script error on the page


def shot(tab, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    tab.screenshot(path=str(path), full_page=True)
    return path


def upload_pdf(tab, tmp_path) -> None:
    pdf = write_pdf(tmp_path / "skarv-report.pdf", pages=PAGES)
    tab.set_input_files("#files", str(pdf))
    tab.wait_for_selector("#documents tbody tr")
    row = tab.locator("#documents tbody tr").first
    assert "skarv-report.pdf" in row.inner_text() and row.locator("td").nth(4).inner_text() == "2"


def ask(tab, mode: str) -> None:
    tab.keyboard.press("Alt+2")
    tab.fill("#question", QUESTION)
    tab.select_option("#mode", mode)
    tab.focus("#question")
    tab.keyboard.press("Control+Enter")


def watch_order(tab) -> None:
    """Record when the first terminal line and the answer appear (checked by `order_seen`)."""
    tab.evaluate("""() => {
        const seen = window.seen = {};
        const terminal = document.querySelector('#terminal'), \
answer = document.querySelector('#answer');
        new MutationObserver(() => {
            const now = performance.now();
            if (!seen.armed) {  // from when the new run has cleared the panel
                seen.armed = terminal.childElementCount === 0 && answer.hidden;
                if (!seen.armed) return;
            }
            if (!seen.line && terminal.querySelector('.line')) seen.line = now;
            if (!seen.answer && !answer.hidden) seen.answer = now;
        }).observe(document.body, {subtree: true, childList: true, attributes: true});
    }""")


def open_citation(tab, buttons: str) -> tuple[str, str]:
    """Click the first of the citation `buttons`: (the highlighted text, where the viewer says it
    is)."""
    tab.locator(buttons).first.click()
    tab.wait_for_selector("#viewer:not([hidden])")
    return tab.locator("#viewer mark").inner_text(), tab.locator(
        "#viewer .viewer-where"
    ).inner_text()


def order_seen(tab) -> dict:
    return tab.evaluate("window.seen")


# --- the UI with scripted models --------------------------------------------------------------

EVIL = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">'


def scripted_models():
    def sub(request):
        prompt = request.messages[-1]["content"]
        if "herring" not in prompt:
            return json.dumps({"relevant": False, "summary": ""})
        return json.dumps({"relevant": True, "summary": "Paid in herring and salt.", "quote": FACT})

    root = ScriptedLM(lambda r: f"The keeper is paid in herring and salt [1]. {EVIL}")
    return root, ScriptedLM(sub, latency=0.3)


def test_upload_analyze_and_open_a_citation(page, tmp_path):
    root, sub = scripted_models()
    with serving(scripted_app(tmp_path, root, sub)) as base:
        page.goto(base)
        upload_pdf(page, tmp_path)
        watch_order(page)
        ask(page, "map")
        page.wait_for_selector("#answer:not([hidden])", timeout=30_000)
        seen = order_seen(page)
        assert seen["line"] < seen["answer"]  # progress lines came first
        lines = page.locator("#terminal .line").all_inner_texts()
        assert any("sub-call doc-1-chunk-1" in line for line in lines)
        assert not any("herring" in line for line in lines)  # (replies: in the run viewer)
        assert (
            page.locator("#phases li.done").count() == 5
        )  # AGGREGATE too: the root joined the findings
        answer = page.locator("#answer .answer-text")
        assert EVIL in answer.text_content()  # shown as text...
        assert page.evaluate("window.pwned") is None  # ...and never run
        assert page.locator("#answer .answer-text img, #answer script").count() == 0
        unsupported = page.locator("#answer .answer-text span.unsupported")  # the EVIL "claim"
        assert unsupported.count() == 1 and "pwned" in unsupported.text_content()
        states = page.locator("#answer .claims li .claim-state").all_inner_texts()
        assert states == ["✓ supported", "⚠ unsupported"]
        assert "1 of 2 claims supported" in page.locator("#answer .usage").inner_text()
        cited, where = open_citation(page, "#answer .answer-text button.cite")
        assert cited == FACT and "page 2" in where
        shot(page, "scripted-map-citation")


def test_a_follow_up_is_answered_below_the_thread_of_earlier_questions(page, tmp_path):
    _, sub = scripted_models()

    def root(request):
        if "New question:" in request.messages[-1]["content"]:
            return "Yes: the keeper is paid in salt and herring [1]."
        return f"The keeper is paid in herring and salt [1]. {EVIL}"

    with serving(scripted_app(tmp_path, ScriptedLM(root), sub)) as base:
        page.goto(base)
        upload_pdf(page, tmp_path)
        ask(page, "map")
        page.wait_for_selector("#follow-up-form:not([hidden])", timeout=30_000)
        assert page.locator("#thread").is_hidden()
        page.fill("#follow-up", "Is the keeper paid in salt?")
        page.keyboard.press("Enter")
        page.wait_for_selector("#answer .mode-tag:text('(recall)')", timeout=30_000)
        assert page.locator("#asked").inner_text() == "Q: Is the keeper paid in salt?"
        [earlier] = page.locator("#thread .turns li").all_inner_texts()
        assert QUESTION in earlier and "herring and salt" in earlier
        assert page.evaluate("window.pwned") is None  # the earlier answer moved up as text
        assert (
            page.locator("#answer .answer-text")
            .inner_text()
            .startswith("Yes: the keeper is paid in salt and herring")
        )
        assert page.locator("#answer .usage").inner_text().startswith("1 calls (")
        cited, _ = open_citation(page, "#answer .answer-text button.cite")
        assert FACT in cited and len(cited) > len(FACT)  # with the sentences around it
        page.wait_for_selector("#follow-up-form:not([hidden])")
        page.keyboard.press("Alt+2")
        page.focus("#question")
        page.keyboard.press("Control+Enter")  # a new question from Configure: a new thread
        page.wait_for_selector("#answer .mode-tag:text('(map)')", timeout=30_000)
        assert page.locator("#thread").is_hidden()
        shot(page, "scripted-follow-up")


def test_files_upload_when_chosen_and_a_notice_goes_when_its_cause_does(page, tmp_path):
    root, sub = scripted_models()
    with serving(scripted_app(tmp_path, root, sub)) as base:
        page.goto(base)
        assert page.locator("#upload-form button").count() == 0  # one way to upload: choose
        upload_pdf(page, tmp_path)
        assert page.locator("#notice").inner_text().startswith("Added skarv-report.pdf")
        page.keyboard.press("Alt+2")
        assert page.locator("#notice").is_hidden()  # it was about the step left behind
        page.keyboard.press("Alt+1")
        page.locator("#documents tbody input[type=checkbox]").uncheck()
        page.keyboard.press("Alt+2")
        page.fill("#question", QUESTION)
        page.click("#analyze-form button[type=submit]")
        notice = page.locator("#notice")
        assert notice.inner_text() == "Choose at least one document first."
        assert page.locator("#step-documents").is_visible()  # shown where it can be fixed
        page.locator("#documents tbody input[type=checkbox]").check()
        assert notice.is_hidden()  # its cause is gone
        page.keyboard.press("Alt+2")
        page.fill("#question", "")
        page.focus("#question")
        page.keyboard.press("Control+Enter")
        assert notice.inner_text() == "Write a question first."
        page.keyboard.type("Who keeps the light?")
        assert notice.is_hidden()


def test_the_configure_step_shows_the_cost_before_anything_is_spent(page, tmp_path):
    root, sub = scripted_models()
    with serving(scripted_app(tmp_path, root, sub)) as base:
        page.goto(base)
        upload_pdf(page, tmp_path)
        page.keyboard.press("Alt+2")
        page.fill("#question", QUESTION)
        page.select_option("#mode", "map")
        estimate = page.locator("#estimate")
        page.locator("#estimate", has_text="Estimate (map").wait_for()
        shown = estimate.inner_text()
        assert "Estimate (map)" in shown and "calls" in shown and "$0.0000" in shown
        assert root.requests == [] and sub.requests == []  # nothing spent
        page.select_option("#mode", "base")  # the estimate follows the settings
        page.locator("#estimate", has_text="Estimate (base").wait_for()
        assert "1 calls (1 sub)" in estimate.inner_text()
        each = page.locator("#model-costs li[data-model]")  # the models on offer, each priced
        page.locator("#model-costs li[data-model='scripted:sub']", has_text="1 calls").wait_for()
        assert each.count() == 2 and "$0.0000" in each.nth(0).inner_text()
        assert root.requests == [] and sub.requests == []
        page.select_option("#mode", "auto")  # why auto picks its mode, said in words
        page.locator("#estimate", has_text="auto answers in").wait_for()
        assert re.search(r"auto answers in \w+ because \w", estimate.inner_text())
        page.select_option("#mode", "base")
        page.locator("#estimate", has_text="Estimate (base").wait_for()
        page.focus("#question")
        page.keyboard.press("Control+Enter")
        page.wait_for_selector("#answer:not([hidden])", timeout=30_000)
        assert "estimated 1 calls" in page.locator("#answer .usage").inner_text()
        shot(page, "scripted-estimate")


def test_the_run_viewer_shows_each_run_step_by_step(page, tmp_path):
    root, sub = scripted_models()
    with serving(scripted_app(tmp_path, root, sub)) as base:
        page.goto(base)
        upload_pdf(page, tmp_path)
        ask(page, "map")
        page.wait_for_selector("#answer:not([hidden])", timeout=30_000)
        page.keyboard.press("Alt+4")
        page.locator("#runs tbody tr").first.wait_for()
        row = page.locator("#runs tbody tr").first
        assert QUESTION in row.inner_text() and "map" in row.inner_text()
        row.locator("button").click()
        page.wait_for_selector("#timeline:not([hidden])")
        kinds = page.locator("#timeline .events li").evaluate_all(
            "rows => rows.map(r => r.dataset.kind)"
        )
        assert kinds[0] == "run" and kinds[-1] == "final" and "llm_end" in kinds
        assert "mode" in kinds[1:3]  # (after the records a `what` question looks a fact up in)
        reply = page.locator("#timeline li[data-kind=llm_end]").last
        reply.locator("summary").click()
        assert EVIL in reply.locator("pre").inner_text()  # the model's reply, as text
        assert page.evaluate("window.pwned") is None
        spent = page.locator("#timeline li[data-kind=final] .spent").inner_text()
        assert spent.startswith(f"{len(root.requests) + len(sub.requests)} calls")
        shot(page, "scripted-run-viewer")


def test_trace_view_opens_on_the_runs_of_the_trace(page, tmp_path):
    trace = tmp_path / "run.jsonl"
    events = [
        {"t": 1.0, "kind": "run", "depth": 0, "question": "How many ships?"},
        {"t": 1.2, "kind": "root_turn", "depth": 0, "turn": 1, "reply": f"```repl\n{EVIL}\n```"},
        {
            "t": 1.5,
            "kind": "code",
            "depth": 0,
            "turn": 1,
            "block": 1,
            "code": "print(len(context))",
        },
        {"t": 1.6, "kind": "output", "depth": 0, "turn": 1, "block": 1, "output": "4200"},
    ]
    trace.write_text("".join(json.dumps(e) + "\n" for e in events), encoding="utf-8")
    app = create_app(Settings(token=None, cache=False), runs=RunLog.from_trace(trace))
    with serving(app) as base:
        page.goto(f"{base}/#runs")
        page.locator("#runs tbody tr", has_text="How many ships?").locator("button").click()
        page.wait_for_selector("#timeline:not([hidden])")
        assert page.locator("#timeline [data-kind=code] pre").inner_text() == "print(len(context))"
        assert page.locator("#timeline [data-kind=output] pre").inner_text() == "4200"
        assert EVIL in page.locator("#timeline [data-kind=root_turn] pre").inner_text()
        assert page.evaluate("window.pwned") is None


def test_compare_runs_every_mode_side_by_side(page, tmp_path):
    root = ScriptedLM(lambda r: "Herring and salt.", writes_code=False)
    sub = ScriptedLM(
        lambda r: FACT if "herring" in r.messages[-1]["content"] else "NONE", writes_code=False
    )
    with serving(scripted_app(tmp_path, root, sub)) as base:
        page.goto(base)
        upload_pdf(page, tmp_path)
        assert page.locator('#mode option[value="rlm"]').is_disabled()
        assert "cannot write code" in page.locator("#mode-note").inner_text()
        page.keyboard.press("Alt+2")
        page.fill("#question", QUESTION)
        page.click("#compare")
        for mode in ("base", "retrieval", "map"):
            page.wait_for_selector(
                f'[data-mode="{mode}"] .answer-card:not([hidden])', timeout=30_000
            )
        assert "unavailable" in page.locator('[data-mode="rlm"] .terminal').inner_text()
        mapped = page.locator('[data-mode="map"] .answer-text').inner_text()
        assert mapped.startswith(FACT)  # the finding is its sentence: said once, not quoted again
        assert mapped.count(FACT) == 1
        shot(page, "scripted-compare")


def test_an_indexed_corpus_is_analyzed_and_its_citations_open(page, tmp_path):
    index_corpus(tmp_path, fact=FACT)
    root, sub = scripted_models()
    with serving(scripted_app(tmp_path, root, sub)) as base:
        page.goto(base)
        row = page.locator("#documents tbody tr").first
        assert "harbour/" in row.inner_text() and "indexed corpus" in row.inner_text()
        assert row.locator("td").nth(4).inner_text() == "2 documents"
        row.locator("input[type=checkbox]").check()
        page.keyboard.press("Alt+2")
        assert page.locator('#mode option[value="base"]').is_disabled()
        assert page.locator('#mode option[value="tree"]').is_disabled()
        assert page.locator('#mode option[value="aggregate"]').is_enabled()
        assert "not used for a corpus" in page.locator("#mode-note").inner_text()
        page.fill("#question", QUESTION)
        page.click("#compare")
        page.wait_for_selector('[data-mode="map"] .answer-card:not([hidden])', timeout=30_000)
        assert "not used for a corpus" in page.locator('[data-mode="base"] .terminal').inner_text()
        cited, where = open_citation(page, '[data-mode="map"] .answer-text button.cite')
        assert cited == FACT and "records/wages.txt" in where
        shot(page, "scripted-corpus-citation")


def test_a_cited_passages_reference_opens_the_section_it_names(page, tmp_path):
    path = tmp_path / "lighthouse.md"
    path.write_text(
        f"# Lighthouse\n\n## 1 Pay\n\n{FACT} The rates are set by the board (see 2.1).\n\n"
        "## 2 Board\n\nThe board meets twice a year.\n\n### 2.1 Rates\n\n"
        "Rates are reviewed each March by the harbour board.\n",
        encoding="utf-8",
    )
    SingleDocIndex.build(path, DocStore(tmp_path / "indexes" / "lighthouse.sqlite")).store.close()
    root, sub = scripted_models()
    with serving(scripted_app(tmp_path, root, sub)) as base:
        page.goto(base)
        page.locator("#documents tbody tr input[type=checkbox]").first.check()
        page.keyboard.press("Alt+2")
        page.fill("#question", QUESTION)
        page.select_option("#mode", "map")
        page.focus("#question")
        page.keyboard.press("Control+Enter")
        page.wait_for_selector("#answer .answer-text button.cite", timeout=30_000)
        cited, _ = open_citation(page, "#answer .answer-text button.cite")
        assert FACT in cited
        reference = page.locator("#viewer .viewer-references button")
        assert reference.inner_text() == "2.1 → 2.1 Rates"
        reference.click()
        page.wait_for_function(
            "() => document.querySelector('#viewer mark').textContent.includes('reviewed')"
        )
        assert "2.1 Rates" in page.locator("#viewer .viewer-where").inner_text()


def test_analyze_during_a_comparison_ends_the_comparison(page, tmp_path):
    sub = ScriptedLM(
        lambda r: "NONE", writes_code=False, latency=1.0
    )  # map is still reading when Analyze is pressed
    with serving(
        scripted_app(tmp_path, ScriptedLM(lambda r: "Herring.", writes_code=False), sub)
    ) as base:
        page.goto(base)
        upload_pdf(page, tmp_path)
        page.keyboard.press("Alt+2")
        page.fill("#question", QUESTION)
        page.select_option("#mode", "base")
        page.click("#compare")
        page.wait_for_selector('[data-mode="base"] .answer-card:not([hidden])', timeout=30_000)
        page.keyboard.press("Alt+2")
        page.click("#analyze-form button[type=submit]")  # while retrieval or map runs
        page.wait_for_selector("#answer:not([hidden])", timeout=30_000)
        time.sleep(1.5)
        assert page.locator(
            '[data-mode="map"] .answer-card'
        ).is_hidden()  # the comparison went no further
        assert not page.locator('[data-mode="rlm"] .terminal').inner_text()


def test_cancel_stops_the_run_on_the_server(page, tmp_path):
    sub = ScriptedLM(lambda r: "NONE", writes_code=False, latency=0.3)
    text = "".join(
        f"Paragraph {n}: the keeper of the lighthouse is paid every month.\n\n" for n in range(200)
    )
    with serving(scripted_app(tmp_path, ScriptedLM(lambda r: "-", writes_code=False), sub)) as base:
        page.goto(base)
        page.fill("#paste-text", text)
        page.click("#paste-form button")
        page.wait_for_selector("#documents tbody tr")
        page.keyboard.press("Alt+2")
        page.fill("#question", QUESTION)
        page.select_option("#mode", "map")
        page.fill("#maxSubcalls", "60")
        page.fill("#concurrency", "1")
        page.click("#analyze-form button[type=submit]")
        page.wait_for_selector("#terminal .line:has-text('done in')")
        page.keyboard.press("Escape")
        page.wait_for_selector("#terminal .line:has-text('cancelled')")
        at_cancel = len(sub.requests)
        time.sleep(1.2)
        assert len(sub.requests) <= at_cancel + 1 < 20
        assert page.locator("#answer").is_hidden() and page.locator("#cancel").is_disabled()


def test_the_page_asks_for_the_token(page, tmp_path, monkeypatch):
    monkeypatch.setenv("LONGREAD_TOKEN", "t0ken")
    root, sub = scripted_models()
    app = scripted_app(tmp_path, root, sub)
    app.state.settings.token = "t0ken"
    with serving(app) as base:
        page.goto(base)
        page.wait_for_selector("#token-form:not([hidden])")
        page.fill("#token", "t0ken")
        page.keyboard.press("Enter")
        page.wait_for_selector("#token-form[hidden]", state="attached")
        upload_pdf(page, tmp_path)


# --- each mode on the local model -------------------------------------------------------------


@pytest.mark.local_model
def test_each_mode_on_the_local_model(page, tmp_path):
    from longread.web import create_app
    from longread.web.settings import Settings

    app = create_app(
        Settings(model="local", token=None, index_dir=tmp_path / "indexes", cache=False),
        model_choices=[],
    )
    with serving(app) as base:
        page.goto(base)
        upload_pdf(page, tmp_path)
        page.keyboard.press("Alt+2")
        assert page.locator('#mode option[value="rlm"]').is_disabled()  # SmolLM2 cannot write code
        page.fill("#maxSubcalls", "4")
        for mode in ("base", "retrieval", "map"):
            started = time.monotonic()
            watch_order(page)
            ask(page, mode)
            page.wait_for_selector("#answer:not([hidden])", timeout=180_000)
            seen = order_seen(page)
            assert seen["line"] < seen["answer"], mode
            assert page.locator("#answer .mode-tag").inner_text() == f"({mode})"
            assert page.locator("#phases li.done").count() >= 3
            if mode == "map" or page.locator("#answer button.cite").count():
                cited, _ = open_citation(page, "#answer button.cite")
                assert (
                    cited
                    and cited in " ".join(" ".join(p) for p in PAGES).replace("  ", " ") + FACT
                )
            shot(page, f"local-{mode}")
            print(f"{mode}: {time.monotonic() - started:.1f} s")


QWEN = Path.home() / ".cache" / "longread" / "models" / "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf"


@pytest.mark.local_model
@pytest.mark.skipif(
    not QWEN.is_file(),
    reason="the optional local:qwen2.5-coder-0.5b (491 MB) is not fetched; "
    "`longread ask FILE Q --model local:qwen2.5-coder-0.5b` fetches it once",
)
def test_rlm_mode_on_the_local_code_writing_model(page, tmp_path):
    from longread.web import create_app
    from longread.web.settings import Settings

    spec = f"local:{QWEN}"  # the cached file itself: the test's cache folder is empty
    app = create_app(
        Settings(
            model=spec, sub_model=spec, token=None, index_dir=tmp_path / "indexes", cache=False
        ),
        model_choices=[],
    )
    with serving(app) as base:
        page.goto(base)
        upload_pdf(page, tmp_path)
        page.keyboard.press("Alt+2")
        assert not page.locator('#mode option[value="rlm"]').is_disabled()
        watch_order(page)
        ask(page, "rlm")
        page.wait_for_selector("#answer:not([hidden])", timeout=900_000)
        seen = order_seen(page)
        assert seen["line"] < seen["answer"]
        assert page.locator("#answer .mode-tag").inner_text() == "(rlm)"
        assert (
            "turn 1" in page.locator("#terminal").inner_text()
        )  # the root's turns streamed as they ran
        assert "herring" in page.locator("#answer .answer-text").inner_text().lower()
        shot(page, "local-rlm")


def test_an_exported_report_reads_offline_with_its_links_working(browser, tmp_path):
    from longread.answer import Answer, Citation, Claim, Counts
    from longread.report import write_report

    cited = Citation("ledger.md", 40, 68, "| 1 | Ada | deck paint | 4 |")
    said = "Ada placed 3 orders [1]."
    answer = Answer(
        said,
        "aggregate",
        citations=[cited],
        claims=[Claim(said, 0, len(said), [1], True)],
        usage={"calls": 0},
        counts=Counts("customer", [cited], ["Ada"], "customer", "orders", [("Ada", 3), ("Bob", 1)]),
    )
    report = tmp_path / "report.html"
    write_report(report, "Who ordered most?", answer)
    context = browser.new_context(offline=True)
    asked: list[str] = []

    def only_the_file(route) -> None:
        asked.append(route.request.url)
        (route.continue_ if route.request.url.startswith("file:") else route.abort)()

    context.route("**/*", only_the_file)
    tab = context.new_page()
    tab.goto(report.as_uri())
    assert tab.title() == "Who ordered most?"
    assert tab.locator(".answer").inner_text() == said
    assert tab.locator("table tr").nth(1).inner_text().split() == ["Ada", "3"]
    tab.locator('a[href="#c1"]').click()
    assert tab.evaluate("location.hash") == "#c1"
    assert "deck paint" in tab.locator("#c1 + blockquote").inner_text()
    assert asked == [report.as_uri()]
    context.close()


def test_a_count_shows_its_rows_and_a_chart_whose_bars_match_the_answer(
    page, tmp_path, monkeypatch
):
    """The count's statement is the test's, written by a scripted stand-in for the code model
    (see statements)."""
    orders = [("Ada", 4), ("Bob", 1), ("Ada", 10), ("Cy", 6), ("Ada", 4), ("Bob", 2)]
    lines = ["# Orders", "", "| order | customer | quantity |", "|---|---|---|"]
    lines += [f"| {n} | {who} | {q} |" for n, (who, q) in enumerate(orders, 1)]
    ledger = tmp_path / "ledger.md"
    ledger.write_text("\n".join(lines) + "\n", encoding="utf-8")
    gold = {"Ada": 3, "Bob": 2, "Cy": 1}
    question = "How many orders did each customer place?"
    sql = "SELECT customer, count(*) AS n FROM orders GROUP BY customer ORDER BY n DESC"
    model = writing({question: sql})
    monkeypatch.setenv("LONGREAD_READER", "auto")  # (the model writes the queries)

    with serving(scripted_app(tmp_path, model, model)) as base:
        page.goto(base)
        page.set_input_files("#files", str(ledger))
        page.wait_for_selector("#documents tbody tr")
        page.keyboard.press("Alt+2")
        assert page.locator('#mode option[value="tree"]').is_disabled()  # (an upload has no tree)
        page.fill("#question", question)
        page.select_option("#mode", "aggregate")
        page.focus("#question")
        page.keyboard.press("Control+Enter")
        page.wait_for_selector("#answer:not([hidden])", timeout=30_000)
        lead = ", ".join(sorted(gold, key=gold.__getitem__, reverse=True))  # (Ada, Bob, Cy)
        assert page.locator("#answer .answer-text").inner_text().startswith(lead)
        page.wait_for_selector("#answer .counts:not([hidden])", timeout=5_000)
        bars = page.evaluate("""() => {
            const chart = Chart.getChart(document.querySelector('#answer .counts-chart'));
            const meta = chart.getDatasetMeta(0);
            return chart.data.labels.map((label, i) => [label, chart.data.datasets[0].data[i],
                                                        meta.data[i].height]);
        }""")
        assert {label: n for label, n, _ in bars} == gold
        heights = {label: height for label, _, height in bars}  # (drawn in proportion)
        assert heights["Ada"] == pytest.approx(3 * heights["Cy"], rel=0.02)
        assert heights["Bob"] == pytest.approx(2 * heights["Cy"], rel=0.02)
        rows = page.locator("#answer .counts-rows tbody tr")
        assert rows.count() == len(orders)
        page.locator("#answer .counts-rows th button").first.click()  # sorted by customer
        assert [rows.nth(i).locator("td").first.inner_text() for i in range(3)] == ["Ada"] * 3
        rows.nth(0).click()
        page.wait_for_selector("#viewer:not([hidden])")
        assert "| Ada |" in page.locator("#viewer mark").inner_text()
        answer_box = page.locator("#answer").bounding_box()
        viewer_box = page.locator("#viewer").bounding_box()
        assert viewer_box["x"] >= answer_box["x"] + answer_box["width"] - 1  # beside, not below
        assert viewer_box["y"] < answer_box["y"] + answer_box["height"]
        shot(page, "counts")
        with page.expect_download() as saved:
            page.click("#answer .download-report")
        report = Path(saved.value.path()).read_text(encoding="utf-8")
        assert f"<h1>{question}</h1>" in report
        assert lead in report and "<script" not in report
        marks = page.locator("#answer .citations button.cite").all_inner_texts()
        assert marks == [f"[{n}]" for n in range(1, len(marks) + 1)] and marks
