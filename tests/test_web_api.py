"""The web API with scripted models: parsing and its limits (413, 415), the bearer token (401), the
analysis JSON and its citations, the order of the stream's events, cancellation when the client
disconnects, budgets per analysis, indexed documents, and model output passed through as data."""

from __future__ import annotations

import http.client
import json
import threading
import time

import pytest
from fastapi.testclient import TestClient

from longread.index.corpus import CorpusIndex
from longread.index.single import SingleDocIndex
from longread.llm.scripted import ScriptedLM
from longread.store.docstore import DocStore
from longread.store.open_corpus import open_corpus_store
from longread.web.progress import PHASES
from test_ingest_documents import write_docx, write_pdf
from webserver import post, response_lines, scripted_app, serving, sse_events

FILLER = "The board reviews the harbour accounts every spring and files the minutes.\n\n"
FACT = "The lighthouse keeper is paid in herring and salt."
TEXT = FILLER * 20 + FACT + "\n\n" + FILLER * 20
QUESTION = "How is the lighthouse keeper paid?"


def reader(request) -> str:
    """A capable sub-model: relevant only where the fact is."""
    prompt = request.messages[-1]["content"]
    if "herring" not in prompt:
        return json.dumps({"relevant": False, "summary": ""})
    return json.dumps(
        {"relevant": True, "summary": "The keeper is paid in herring and salt.", "quote": FACT}
    )


def aggregator(request) -> str:
    return "The keeper is paid in herring and salt [1]."


@pytest.fixture
def client(tmp_path):
    return TestClient(scripted_app(tmp_path, ScriptedLM(aggregator), ScriptedLM(reader)))


def upload_text(client, text=TEXT, name="harbour.txt") -> str:
    response = client.post("/api/parse", files={"files": (name, text.encode(), "text/plain")})
    assert response.status_code == 200, response.text
    return response.json()["documents"][0]["id"]


def body(doc_id, **fields):
    return {
        "question": QUESTION,
        "mode": "map",
        "document_ids": [doc_id],
        "chunkSize": 600,
        **fields,
    }


# --- parsing and its limits ------------------------------------------------------------------


def test_parse_files_and_pasted_text(client, tmp_path):
    pdf = write_pdf(tmp_path / "report.pdf", pages=[["Harbour report", FACT], ["Second page."]])
    docx_file = write_docx(tmp_path / "minutes.docx")
    response = client.post(
        "/api/parse",
        data={"text": "Pasted notes about the pier.", "name": "notes"},
        files=[
            ("files", ("report.pdf", pdf.read_bytes(), "application/pdf")),
            ("files", ("minutes.docx", docx_file.read_bytes(), "application/octet-stream")),
            ("files", ("harbour.md", b"# Harbour\n\nBoats.", "text/markdown")),
        ],
    )
    assert response.status_code == 200
    documents = response.json()["documents"]
    assert [(d["name"], d["kind"], d["pages"]) for d in documents] == [
        ("report.pdf", "pdf", 2),
        ("minutes.docx", "docx", None),
        ("harbour.md", "markdown", None),
        ("notes", "text", None),
    ]
    assert documents[3]["chars"] == len("Pasted notes about the pier.")
    listed = client.get("/api/documents").json()
    assert [d["id"] for d in listed["documents"]] == [d["id"] for d in documents]
    assert listed["older"] == 0
    newest = client.get("/api/documents", params={"limit": 2}).json()  # (a server of thousands)
    assert [d["name"] for d in newest["documents"]] == ["harbour.md", "notes"]
    assert newest["older"] == 2


def test_an_upload_name_is_never_part_of_a_path(client, tmp_path):
    pdf = write_pdf(tmp_path / "report.pdf", pages=[["Harbour report", FACT]])
    for name in ("..", "../../etc/passwd.pdf", "/tmp/x.pdf"):
        response = client.post(
            "/api/parse", files={"files": (name, pdf.read_bytes(), "application/pdf")}
        )
        assert response.status_code == 200, response.text
        assert (
            response.json()["documents"][0]["name"] == name
            and response.json()["documents"][0]["pages"] == 1
        )


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("photo.png", b"\x89PNG\r\n\x1a\n...."),
        ("tool.exe", b"MZ\x90\x00binary"),
        ("archive.zip", b"PK\x03\x04not a docx"),
    ],
)
def test_unsupported_type_is_415(client, name, data):
    response = client.post("/api/parse", files={"files": (name, data, "application/octet-stream")})
    assert response.status_code == 415 and name in response.json()["detail"]
    assert client.get("/api/documents").json()["documents"] == []


def test_unreadable_or_empty_input_is_422(client):
    assert (
        client.post(
            "/api/parse", files={"files": ("x.pdf", b"%PDF-1.4 broken", "application/pdf")}
        ).status_code
        == 422
    )
    assert client.post("/api/parse", data={"text": "   "}).status_code == 422


def test_upload_over_the_limit_is_413(tmp_path):
    client = TestClient(scripted_app(tmp_path, ScriptedLM([]), max_upload_mb=0.01))  # ~10 KB
    big = b"word " * 5_000
    declared = client.post("/api/parse", files={"files": ("big.txt", big, "text/plain")})
    assert declared.status_code == 413 and "limit" in declared.json()["detail"]
    streamed = client.post(
        "/api/parse",
        content=(big[i : i + 1000] for i in range(0, len(big), 1000)),
        headers={"content-type": "multipart/form-data; boundary=x"},
    )
    assert streamed.status_code == 413
    assert (
        client.post(
            "/api/parse", files={"files": ("ok.txt", b"small text", "text/plain")}
        ).status_code
        == 200
    )


def test_token_guards_every_api_route(tmp_path, monkeypatch):
    monkeypatch.setenv("LONGREAD_TOKEN", "s3cret")
    client = TestClient(_token_app(tmp_path))  # the token comes from $LONGREAD_TOKEN
    routes = [
        ("get", "/api/documents", {}),
        ("get", "/api/config", {}),
        ("post", "/api/parse", {"data": {"text": "hello there"}}),
        ("post", "/api/analyze", {"json": body("doc-1")}),
        ("post", "/api/analyze-stream", {"json": body("doc-1")}),
        ("get", "/api/documents/doc-1/range?start=0&end=1", {}),
    ]
    for method, url, kwargs in routes:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic s3cret"}):
            response = getattr(client, method)(url, headers=headers, **kwargs)
            assert response.status_code == 401, (url, headers)
    ok = {"Authorization": "Bearer s3cret"}
    assert client.post("/api/parse", data={"text": "hello there"}, headers=ok).status_code == 200
    assert client.get("/api/documents", headers=ok).json()["documents"][0]["id"] == "doc-1"
    assert client.get("/").status_code == 200  # the page itself asks for the token


def _token_app(tmp_path):
    from longread.web import create_app
    from longread.web.settings import Settings

    return create_app(
        Settings(
            model="scripted:root",
            resolve=lambda spec: ScriptedLM([]),
            cache=False,
            index_dir=tmp_path / "indexes",
        ),
        model_choices=[],
    )


# --- analysis --------------------------------------------------------------------------------


def test_analyze_map_answers_with_chunk_citations(client):
    doc_id = upload_text(client)
    result = client.post("/api/analyze", json=body(doc_id)).json()
    assert result["mode"] == "map"
    [citation] = result["citations"]
    assert citation["text"] == FACT and citation["document_id"] == doc_id
    assert TEXT[citation["start"] : citation["end"]] == FACT
    assert citation["id"].startswith(f"{doc_id}-chunk-")
    assert result["answer"].startswith(
        f"The keeper is paid in herring and salt [{citation['id']}]."
    )
    assert result["chunks_read"] <= result["chunks_total"] and result["usage"]["calls"] >= 2
    shown = client.get(
        f"/api/documents/{doc_id}/range",
        params={"start": citation["start"], "end": citation["end"]},
    ).json()
    assert (
        shown["text"] == FACT
        and shown["before"].endswith(FILLER)
        and shown["after"].startswith("\n\n")
    )


def test_the_answer_carries_its_claims_placed_in_the_text_shown(tmp_path):
    root = ScriptedLM(lambda r: "The keeper is paid in herring and salt [1]. He owns a boat [1].")
    client = TestClient(scripted_app(tmp_path, root, ScriptedLM(reader)))
    result = client.post("/api/analyze", json=body(upload_text(client))).json()
    [citation] = result["citations"]
    held, unheld = result["claims"]
    for claim in (held, unheld):  # offsets into the answer as shown, marks renamed
        assert result["answer"][claim["start"] : claim["end"]] == claim["text"]
    assert held["text"] == f"The keeper is paid in herring and salt [{citation['id']}]."
    assert held["supported"] and held["citations"] == [citation["id"]]
    assert not unheld["supported"] and "holds" in unheld["reason"]


def test_the_estimate_makes_no_call_and_its_calls_are_the_runs(tmp_path):
    root, sub = ScriptedLM(aggregator), ScriptedLM(reader)
    client = TestClient(scripted_app(tmp_path, root, sub))
    doc_id = upload_text(client)
    for mode in ("base", "retrieval", "map"):
        expected = client.post("/api/estimate", json=body(doc_id, mode=mode)).json()
        assert root.requests == [] and sub.requests == [], mode
        result = client.post("/api/analyze", json=body(doc_id, mode=mode)).json()
        low, high = expected["calls"]  # (exact, but for a JSON reply that must be asked again)
        assert low == result["usage"]["calls"] <= high, mode
        assert result["estimate"] == {**expected, "seconds": result["estimate"]["seconds"]}
        root.requests.clear(), sub.requests.clear()
    refused = client.post("/api/estimate", json=body(doc_id, mode="nonsense"))
    assert refused.status_code == 422


def test_a_follow_up_in_the_conversation_is_answered_from_what_the_first_answer_cited(tmp_path):
    def root(request) -> str:
        if "New question:" in request.messages[-1]["content"]:
            return "The keeper is paid in salt as well as herring [1]."
        return aggregator(request)

    client = TestClient(scripted_app(tmp_path, ScriptedLM(root), ScriptedLM(reader)))
    doc_id = upload_text(client)
    first = client.post("/api/analyze", json=body(doc_id)).json()
    follow = body(
        doc_id, question="Is the keeper paid in salt?", conversation=first["conversation"]
    )
    second = client.post("/api/analyze", json=follow).json()
    [citation] = second["citations"]
    assert second["mode"] == "recall" and second["usage"]["calls"] == 1
    assert second["conversation"] == first["conversation"]
    assert FACT in citation["text"] and second["answer"].endswith(f"[{citation['id']}].")
    assert TEXT[citation["start"] : citation["end"]] == citation["text"]  # its sentences around
    assert [c["supported"] for c in second["claims"]] == [True]
    other = upload_text(client, name="other.txt")
    elsewhere = client.post("/api/analyze", json={**follow, "document_ids": [other]})
    assert elsewhere.status_code == 422 and "documents of its conversation" in elsewhere.text
    ended = client.post("/api/analyze", json={**follow, "conversation": "no-such-id"})
    assert ended.status_code == 404 and "ask the question afresh" in ended.text


def test_a_conversation_s_repl_and_its_variables_outlive_the_request_that_started_them(tmp_path):
    def root(request) -> str:
        prompt = request.messages[-1]["content"]
        if "New question:" in prompt:
            return "NOT IN THE PASSAGES"
        if "Question: What did you note" in prompt:  # (its variable, if the REPL is the same)
            return "```repl\nhits = search('herring', k=1)\nFINAL(notes)\n```"
        if "Output of block" in prompt:
            return "```repl\nFINAL('Paid in herring.')\n```"
        return "```repl\nnotes = 'herring, and salt in winter'\nprint(len(context))\n```"

    client = TestClient(scripted_app(tmp_path, ScriptedLM(root), ScriptedLM(reader)))
    doc_id = upload_text(client)
    first = client.post("/api/analyze", json=body(doc_id, mode="rlm")).json()
    assert first["answer"].startswith("Paid in herring"), first
    time.sleep(0.3)  # (the first request's thread has ended by now)
    follow = body(
        doc_id,
        mode="rlm",
        question="What did you note about the pay?",
        conversation=first["conversation"],
    )
    second = client.post("/api/analyze", json=follow).json()
    assert second["answer"].startswith("herring, and salt in winter"), second


def test_a_conversation_lives_until_it_is_idle_then_its_repl_is_stopped():
    from longread.repl.sandbox import Sandbox
    from longread.web.conversations import Conversations, UnknownConversationError

    conversations = Conversations(idle_seconds=0.5)
    with conversations.using(None, ["doc-1"]) as (kept, conversation):
        conversation.repl = Sandbox({}, cell_timeout=5)
        conversation.repl.start()
        worker = conversation.repl._process
    assert conversations.expire_idle() == 0  # (used just now)
    conversations.check(kept, ["doc-1"])
    time.sleep(0.6)
    assert conversations.expire_idle() == 1 and worker.poll() is not None
    with pytest.raises(UnknownConversationError):
        conversations.check(kept, ["doc-1"])


def test_more_chunks_than_max_subcalls_are_chosen_by_bm25_and_the_answer_says_so(client):
    doc_id = upload_text(client, TEXT.replace("harbour", "keeper"))  # every chunk matches a little
    result = client.post("/api/analyze", json=body(doc_id, maxSubcalls=3)).json()
    assert result["chunks_read"] == 3 < result["chunks_total"]
    assert f"Read 3 of {result['chunks_total']} candidate passages" in result["answer"]
    assert result["citations"][0]["text"] == FACT  # the best match was among the three read


@pytest.mark.parametrize(
    ("fields", "status", "needle"),
    [
        ({"mode": "rlm"}, 422, "writes code"),
        ({"mode": "tree"}, 422, "unknown mode"),
        ({"document_ids": ["doc-99"]}, 404, "doc-99"),
        ({"model": "openai:gpt-4o"}, 422, "not offered"),
        ({"chunkSize": 10}, 422, "chunkSize"),
        ({"question": ""}, 422, "question"),
    ],
)
def test_bad_requests_fail_before_any_model_call(tmp_path, fields, status, needle):
    root = ScriptedLM(aggregator, writes_code=False)
    client = TestClient(scripted_app(tmp_path, root, ScriptedLM(reader)))
    doc_id = upload_text(client)
    for url in ("/api/analyze", "/api/analyze-stream"):
        response = client.post(url, json=body(doc_id, **fields))
        assert response.status_code == status and needle in response.text
    assert root.requests == []


def test_each_analysis_has_its_own_budget(tmp_path):
    sub = ScriptedLM(lambda r: json.dumps({"relevant": False, "summary": ""}))
    client = TestClient(scripted_app(tmp_path, ScriptedLM(aggregator), sub, max_subcalls=2))
    doc_id = upload_text(client, TEXT.replace("harbour", "keeper"))
    for _ in range(2):
        result = client.post("/api/analyze", json=body(doc_id, concurrency=1)).json()
        assert result["stopped_by"] == "max_subcalls" and result["usage"]["subcalls"] == 2
    assert len(sub.requests) == 4


def test_script_in_an_answer_is_passed_as_data(tmp_path):
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    client = TestClient(scripted_app(tmp_path, ScriptedLM(lambda r: evil)))
    doc_id = upload_text(client)
    response = client.post("/api/analyze", json=body(doc_id, mode="base"))
    assert response.headers["content-type"] == "application/json"
    assert response.json()["answer"] == evil
    page = client.get("/")
    assert "script-src 'self'" in page.headers["content-security-policy"]  # no inline script runs
    script = client.get("/static/app.js")
    assert (
        script.status_code == 200
        and "textContent" in script.text
        and "innerHTML" not in script.text
    )


# --- the stream ------------------------------------------------------------------------------


def stream(client, payload) -> list[tuple[str, dict]]:
    with client.stream("POST", "/api/analyze-stream", json=payload) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        return list(sse_events(response.iter_lines()))


@pytest.mark.parametrize("mode", ["map", "base", "retrieval"])
def test_stream_sends_phases_in_order_then_one_answer(client, mode):
    doc_id = upload_text(client)
    events = stream(client, body(doc_id, mode=mode))
    kinds = [kind for kind, _ in events]
    assert kinds[-1] == "answer" and kinds.count("answer") == 1 and "error" not in kinds
    assert [data["name"] for kind, data in events if kind == "phase"] == list(PHASES)
    first_log = kinds.index("log")
    assert first_log < kinds.index("answer")
    answer = events[-1][1]
    assert answer["mode"] == mode and {
        "answer",
        "citations",
        "usage",
        "chunks_total",
        "chunks_read",
    } <= set(answer)
    subcalls = [data for kind, data in events if kind == "subcall"]
    if mode == "map":
        starts = [s["chunk_id"] for s in subcalls if s["status"] == "start"]
        ends = [s["chunk_id"] for s in subcalls if s["status"] == "end"]
        assert (
            starts
            and sorted(starts) == sorted(ends)
            and all(c.startswith(f"{doc_id}-chunk-") for c in starts)
        )
        assert kinds.index("subcall") > [d.get("name") for _, d in events].index("SUBCALL")
    else:
        assert subcalls == []
        skipped = {data["name"] for kind, data in events if kind == "phase" and data["skipped"]}
        assert skipped == {"SUBCALL", "AGGREGATE"}


def test_stream_reports_a_model_failure_as_one_error_event(tmp_path):
    from longread.errors import ModelError

    client = TestClient(scripted_app(tmp_path, ScriptedLM([ModelError("boom")])))
    doc_id = upload_text(client)
    events = stream(client, body(doc_id, mode="base"))
    assert events[-1] == ("error", {"message": "boom"})
    assert [kind for kind, _ in events].count("error") == 1


def test_disconnecting_from_the_stream_stops_the_sub_calls(tmp_path):
    sub = ScriptedLM(lambda r: json.dumps({"relevant": False, "summary": ""}), latency=0.2)
    app = scripted_app(tmp_path, ScriptedLM(aggregator), sub)
    text = "".join(f"Paragraph {n} about harbour keeper wages and herring.\n\n" for n in range(400))
    client = TestClient(app)
    doc_id = client.post("/api/parse", data={"text": text}).json()["documents"][0][
        "id"
    ]  # same app state
    payload = body(doc_id, maxSubcalls=40, concurrency=2, chunkSize=300)
    with serving(app) as base:
        with post(f"{base}/api/analyze-stream", payload) as response:
            for kind, data in sse_events(response_lines(response)):
                if kind == "subcall" and data["status"] == "end":
                    break  # leave after the first sub-call finished
        at_close = len(sub.requests)
        time.sleep(1.5)  # long enough for several more sub-calls, had they gone on
        after = len(sub.requests)
    assert after <= at_close + 2  # at most the calls already in flight
    assert after < 12
    assert threading.active_count() < 50


def test_leaving_a_plain_analyze_request_stops_the_sub_calls(tmp_path):
    sub = ScriptedLM(lambda r: json.dumps({"relevant": False, "summary": ""}), latency=0.2)
    app = scripted_app(tmp_path, ScriptedLM(aggregator), sub)
    text = "".join(f"Paragraph {n} about harbour keeper wages and herring.\n\n" for n in range(400))
    client = TestClient(app)
    doc_id = client.post("/api/parse", data={"text": text}).json()["documents"][0]["id"]
    with serving(app) as base:
        connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=10)
        connection.request(
            "POST",
            "/api/analyze",
            json.dumps(body(doc_id, maxSubcalls=40, concurrency=2, chunkSize=300)),
            {"Content-Type": "application/json"},
        )
        time.sleep(1.0)  # sub-calls under way
        connection.close()  # the client leaves without the answer
        time.sleep(0.5)  # (the server notices at once)
        at_close = len(sub.requests)
        time.sleep(1.5)  # long enough for several more sub-calls, had they gone on
        after = len(sub.requests)
    assert at_close >= 2 and after <= at_close + 2 and after < 20  # 40 were allowed


# --- documents indexed on the server ---------------------------------------------------------


def test_indexed_documents_are_listed_and_analyzed_through_their_index(tmp_path):
    path = tmp_path / "harbour.md"
    path.write_text(
        f"# Harbour\n\n## Wages\n\n{FILLER * 5}{FACT}\n\n## Boats\n\n{FILLER * 5}", encoding="utf-8"
    )
    index = SingleDocIndex.build(path, DocStore(tmp_path / "indexes" / "harbour.sqlite"))
    index.store.close()
    (tmp_path / "indexes" / "broken.sqlite").write_bytes(b"not a database")  # left alone
    client = TestClient(scripted_app(tmp_path, ScriptedLM(aggregator), ScriptedLM(reader)))
    [listed] = client.get("/api/documents").json()["documents"]
    assert listed["source"] == "index" and listed["name"] == "harbour.md"
    result = client.post("/api/analyze", json=body(listed["id"], mode="map")).json()
    [citation] = result["citations"]
    assert citation["document_id"] == listed["id"] and citation["text"] == FACT
    assert citation["section"] == "Wages" and result["answer"].startswith("The keeper is paid")
    shown = client.get(
        f"/api/documents/{listed['id']}/range",
        params={"start": citation["start"], "end": citation["end"]},
    ).json()
    assert shown["text"] == FACT
    upload_text(client)
    mixed = client.post(
        "/api/analyze", json={**body(listed["id"]), "document_ids": ["doc-1", listed["id"]]}
    )
    assert mixed.status_code == 422 and "analyzed alone" in mixed.json()["detail"]


def test_a_cited_passage_comes_with_the_sections_it_refers_to(tmp_path):
    path = tmp_path / "harbour.md"
    path.write_text(
        f"# Harbour\n\n## 1 Wages\n\n{FACT} (see 2.1)\n\n## 2 Boats\n\n{FILLER}"
        f"### 2.1 Hulls\n\nTarred every spring.\n",
        encoding="utf-8",
    )
    SingleDocIndex.build(path, DocStore(tmp_path / "indexes" / "harbour.sqlite")).store.close()
    client = TestClient(scripted_app(tmp_path, ScriptedLM([])))
    [listed] = client.get("/api/documents").json()["documents"]
    at = path.read_text(encoding="utf-8").index(FACT)
    shown = client.get(
        f"/api/documents/{listed['id']}/range", params={"start": at, "end": at + len(FACT)}
    ).json()
    [reference] = shown["references"]
    assert (reference["text"], reference["target"]) == ("2.1", "2.1 Hulls")
    hulls = path.read_text(encoding="utf-8").index("### 2.1 Hulls")
    assert reference["target_start"] <= hulls + 4 < reference["target_end"]


def index_corpus(tmp_path, name="harbour", fact=FACT, shards=None):
    """A folder of two files indexed as a corpus in the server's index folder (in one store, or
    in `shards`); one states `fact`."""
    folder = tmp_path / name
    (folder / "records").mkdir(parents=True)
    (folder / "records" / "wages.txt").write_text(
        f"Harbour wages.\n\n{FILLER * 3}{fact}\n", encoding="utf-8"
    )
    (folder / "boats.txt").write_text(f"Harbour boats.\n\n{FILLER * 4}", encoding="utf-8")
    store = open_corpus_store(tmp_path / "indexes" / f"{name}-1a2b.sqlite", shards)
    CorpusIndex(folder, store).update(parallel=False)
    store.close()
    return folder


def test_a_watched_folder_is_offered_and_kept_fresh_while_the_server_runs(tmp_path):
    folder = tmp_path / "harbour"
    (folder / "records").mkdir(parents=True)
    (folder / "records" / "wages.txt").write_text(f"Harbour wages.\n\n{FACT}\n")
    app = scripted_app(tmp_path, ScriptedLM([]), watch=(folder,))

    def listed() -> dict | None:
        return next(iter(client.get("/api/documents").json()["documents"]), None)

    with TestClient(app) as client:  # (the app's lifespan: the watch runs inside it)
        assert client.get("/api/config").json()["watching"] == [str(folder)]
        started = time.monotonic()
        while not (listed() or {}).get("documents") and time.monotonic() - started < 10:
            time.sleep(0.05)
        first = listed()
        assert (first["name"], first["documents"], first["kind"]) == ("harbour/", 1, "corpus")
        (folder / "boats.txt").write_text("Harbour boats.\n\nTwelve boats.\n")
        while listed()["documents"] == 1 and time.monotonic() - started < 10:
            time.sleep(0.05)
        now = listed()
        assert now["documents"] == 2 and now["updated"] > first["updated"]
        assert now["chars"] > first["chars"]


@pytest.mark.parametrize("shards", [None, 3])
def test_an_indexed_corpus_is_listed_and_analyzed_citing_its_documents(tmp_path, shards):
    index_corpus(tmp_path, shards=shards)
    gone = index_corpus(tmp_path, "moved", shards=shards)
    for path in sorted(
        gone.rglob("*"), reverse=True
    ):  # a corpus whose folder is gone is not offered
        path.unlink() if path.is_file() else path.rmdir()
    gone.rmdir()
    empty = tmp_path / "nothing-readable"  # (a folder of nothing readable is not offered)
    empty.mkdir()
    (empty / "picture.bin").write_bytes(bytes(range(256)))
    store = open_corpus_store(tmp_path / "indexes" / "nothing-readable-3c4d.sqlite", shards)
    CorpusIndex(empty, store).update(parallel=False)
    store.close()
    client = TestClient(scripted_app(tmp_path, ScriptedLM(aggregator), ScriptedLM(reader)))
    [corpus] = client.get("/api/documents").json()["documents"]
    assert (
        corpus
        == {
            "id": "corpus-harbour-1a2b",
            "name": "harbour/",
            "kind": "corpus",
            "documents": 2,
            "chars": corpus["chars"],
            "pages": None,
            "updated": corpus["updated"],
            "source": "index",
        }
        and corpus["chars"] > 400
        and time.time() - 60 < corpus["updated"] <= time.time()
    )
    events = stream(client, body(corpus["id"], mode="map"))
    assert [d["name"] for k, d in events if k == "phase"] == list(PHASES)
    assert any(k == "log" and "indexed corpus, 2 documents" in d["line"] for k, d in events)
    result = events[-1][1]
    [citation] = result["citations"]
    assert citation["document_id"] == corpus["id"] and citation["path"] == "records/wages.txt"
    assert citation["text"] == FACT and f"[{citation['id']}]" in result["answer"]
    assert result["chunks_total"] >= result["chunks_read"] >= 1
    shown = client.get(
        f"/api/documents/{corpus['id']}/range",
        params={"start": citation["start"], "end": citation["end"], "path": citation["path"]},
    ).json()
    assert (
        shown["text"] == FACT
        and shown["before"].startswith("Harbour wages.")
        and shown["path"] == "records/wages.txt"
    )
    no_path = client.get(f"/api/documents/{corpus['id']}/range", params={"start": 0, "end": 5})
    assert no_path.status_code == 422 and "path" in no_path.json()["detail"]
    assert (
        client.get(
            f"/api/documents/{corpus['id']}/range",
            params={"start": 0, "end": 5, "path": "../secret.txt"},
        ).status_code
        == 404
    )
    base = client.post("/api/analyze", json=body(corpus["id"], mode="base"))
    assert base.status_code == 422 and "retrieval, map, rlm" in base.json()["detail"]


def test_stream_of_an_rlm_run_reports_its_sub_calls(tmp_path):
    root = ScriptedLM(
        [
            '```repl\nprint(llm_query("How is the keeper paid? " + context[-300:]))\n```',
            "```repl\nFINAL('In herring and salt.')\n```",
        ]
    )
    client = TestClient(scripted_app(tmp_path, root, ScriptedLM(lambda r: "In herring and salt.")))
    doc_id = upload_text(client, FILLER * 3 + FACT)
    events = stream(client, body(doc_id, mode="rlm"))
    phases = [(data["name"], data["skipped"]) for kind, data in events if kind == "phase"]
    assert phases == [
        ("INIT", False),
        ("CHUNK", False),
        ("SUBCALL", False),
        ("AGGREGATE", True),
        ("RESPOND", False),
    ]
    assert [d["status"] for k, d in events if k == "subcall"] == ["start", "end"]
    assert any(k == "log" and d["line"].startswith("run code:") for k, d in events)
    answer = events[-1][1]
    assert answer["mode"] == "rlm" and answer["answer"] == "In herring and salt."
    assert answer["citations"] and answer["citations"][0]["document_id"] == doc_id
    assert answer["citations"][0]["id"].startswith(f"{doc_id}-chunk-")


def test_a_failing_model_is_a_502_from_analyze(tmp_path):
    from longread.errors import ModelError

    client = TestClient(scripted_app(tmp_path, ScriptedLM([ModelError("provider down")])))
    doc_id = upload_text(client)
    response = client.post("/api/analyze", json=body(doc_id, mode="base"))
    assert response.status_code == 502 and response.json()["detail"] == "provider down"


def test_the_documents_held_are_bounded_in_characters_oldest_dropped_first():
    from longread.ingest.loaded import LoadedDocument
    from longread.web.documents import DocumentStore

    store = DocumentStore(max_chars=25)
    added = [store.add(f"n{i}", LoadedDocument(f"n{i}", "text", "x" * 10)) for i in range(4)]
    assert [d.name for d in store.newest(10)[0]] == ["n2", "n3"]
    assert store.remove(added[3].id) and not store.remove(added[3].id)
    store.add("big", LoadedDocument("big", "text", "y" * 15))  # (10 + 15 held: all fit)
    assert [d.name for d in store.newest(10)[0]] == ["n2", "big"]
