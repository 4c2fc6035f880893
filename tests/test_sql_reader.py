"""A model writes the query: a scripted model stands in for the code model (its statements are
the test's), and what code does with them is checked: the statement checked and run, its values
taken as the columns hold them, a failed or doubtful statement sent back with what was wrong, the
answer's first line the value alone, the rows it rests on cited, and no figure stated as the
answer where the statement could not match the question (a value no row holds, a word of the
question taken for a stray name, a category the question names left out). Gold comes from the
test's own rows."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections import Counter
from functools import partial
from pathlib import Path

import pytest

from longread.api import SingleDocRLM
from longread.errors import ModelError
from longread.index.single import SingleDocIndex
from longread.llm.jsonio import MalformedJSONError
from longread.llm.scripted import ScriptedLM
from longread.llm.types import Request
from longread.query.core.catalog import document_catalog
from longread.query.core.plan import Plan, Shape
from longread.query.read import read_written
from longread.query.readers.model.question_kind import KIND_PROMPT, KIND_SCHEMA
from longread.store.docstore import DocStore

UPLOADS = [  # (name, urgency, year)
    *[("Ada Brant", "low", 2019 + n % 4) for n in range(9)],
    *[("Will", "high", 2020)],
    *[("Cole Ryder", "medium", 2021 + n % 2) for n in range(4)],
    *[("Ada Brant", "high", 2022) for _ in range(2)],
    *[(f"Uploader {n:02}", "low", 2019) for n in range(45)],  # (a column of many names)
]
TABLE = "| name | urgency | year |\n|---|---|---|\n" + "".join(
    f"| {name} | {urgency} | {year} |\n" for name, urgency, year in UPLOADS
)


@pytest.fixture(autouse=True)
def _model_reads(monkeypatch):
    monkeypatch.setenv("LONGREAD_READER", "auto")  # (the scripted model writes the queries)


def writer(*statements: str | Exception) -> ScriptedLM:
    """A model that writes these statements in turn (as a hosted model does, in JSON)."""
    replies = [s if isinstance(s, Exception) else json.dumps({"sql": s}) for s in statements]
    return reading_rows(replies)


def written(model: ScriptedLM) -> list[Request]:
    """The requests to write a query (not those asking what the question asks for)."""
    return [r for r in model.requests if r.json_schema != KIND_SCHEMA]


def reading_rows(replies) -> ScriptedLM:
    """A model that writes queries: `replies` in turn (or a function of the request), having read
    the question as asking for rows, when asked what it asks for."""
    script = None if callable(replies) else list(replies)

    def respond(request: Request) -> str:
        if request.json_schema == KIND_SCHEMA:
            return json.dumps({"answer": "rows"})
        reply = replies(request) if script is None else (script.pop(0) if script else "")
        if isinstance(reply, Exception):
            raise reply
        return reply

    return ScriptedLM(respond, writes_queries=True, writes_code=False)


def ask(tmp_path: Path, question: str, model: ScriptedLM) -> str:
    path = tmp_path / "uploads.md"
    path.write_text(f"# Uploads\n\n{TABLE}", encoding="utf-8")
    with SingleDocRLM(path, model, model, store_path=tmp_path / "u.sqlite", cache=False) as doc:
        answer = doc.query(question)
    assert answer.mode == "aggregate"
    return answer.text


def test_the_statement_runs_and_its_value_alone_leads(tmp_path):
    model = writer("SELECT count(*) FROM uploads WHERE urgency = 'high'")
    said = ask(tmp_path, "How many uploads were urgent? Answer with a number.", model)
    first, rest = said.split("\n\n", 1)
    assert first == str(sum(1 for _, u, _ in UPLOADS if u == "high"))
    assert "SELECT COUNT(*) FROM uploads WHERE urgency = 'high'" in rest
    assert "written by scripted:test, checked by code" in rest
    request = written(model)[0]
    assert request.json_schema is not None and "sql" in request.json_schema["properties"]
    shown = request.messages[0]["content"]  # (the tables as a person would want them)
    assert 'CREATE TABLE "uploads"' in shown and "'high' (3)" in shown, shown
    assert '"year" NUMERIC,  -- 4 values' in shown or '"year" NUMERIC  -- 4 values' in shown


def test_a_value_is_taken_as_the_column_holds_it(tmp_path):
    model = writer("SELECT count(*) FROM uploads WHERE name = 'ada brant'")
    said = ask(tmp_path, "How many did Ada Brant upload?", model)
    assert said.startswith(f"{sum(1 for n, _, _ in UPLOADS if n == 'Ada Brant')}\n")
    assert "'ada brant' is read as name holds it: 'Ada Brant'" in said


def test_the_top_group_leads_and_its_rows_are_cited(tmp_path):
    model = writer("SELECT name, count(*) AS n FROM uploads GROUP BY name ORDER BY n DESC LIMIT 1")
    path = tmp_path / "uploads.md"
    path.write_text(f"# Uploads\n\n{TABLE}", encoding="utf-8")
    with SingleDocRLM(path, model, model, store_path=tmp_path / "u.sqlite", cache=False) as doc:
        answer = doc.query("Who uploaded the most? Name only.")
    assert answer.text.split("\n\n")[0] == "Ada Brant"
    assert answer.citations and all("Ada Brant" in c.text for c in answer.citations)


def test_a_group_named_by_its_alias_cites_the_rows_of_the_group(tmp_path):
    years = Counter(year for _, _, year in UPLOADS)
    ((top, _), (_, second)) = years.most_common(2)
    assert years[top] > second  # (one group leads)
    model = writer(
        "SELECT 'in ' || year AS era, count(*) AS n FROM uploads GROUP BY era ORDER BY n DESC"
    )
    path = tmp_path / "uploads.md"
    path.write_text(f"# Uploads\n\n{TABLE}", encoding="utf-8")
    with SingleDocRLM(path, model, model, store_path=tmp_path / "u.sqlite", cache=False) as doc:
        answer = doc.query("Which year saw the most uploads?")
    assert answer.text.startswith(f"in {top}, ")
    assert answer.citations and all(f"| {top} |" in c.text for c in answer.citations)
    assert answer.counts is not None and answer.counts.groups[0] == (f"in {top}", years[top])


def test_an_error_goes_back_to_the_model_with_its_message(tmp_path):
    model = writer(
        "SELECT count(*) FROM uploads WHERE priority = 'high'",
        "SELECT count(*) FROM uploads WHERE urgency = 'medium'",
    )
    said = ask(tmp_path, "How many uploads were of medium urgency?", model)
    assert said.startswith("4\n")
    again = written(model)[1].messages
    assert again[-2]["role"] == "assistant" and "priority" in again[-2]["content"]
    assert "no such column: priority" in again[-1]["content"]
    assert "(the columns of uploads: name, urgency, year" in again[-1]["content"]


def test_the_codes_a_question_names_are_shown_with_the_columns_holding_them(tmp_path):
    """A code of the question (`1d6b`, `046d:c52b`) held as a whole value is shown to the model
    with the column holding it and its rows; a word that is no code, or a code no row holds, is
    not."""
    path = tmp_path / "ids.csv"
    rows = [("1d6b", "Linux Foundation"), ("046d", "Logitech"), ("c52b", "Receiver")]
    rows += [(f"{n:04x}", f"Vendor {n}") for n in range(100, 160)]
    path.write_text("id,name\n" + "".join(f"{i},{n}\n" for i, n in rows), encoding="utf-8")
    model = reading_rows(lambda request: json.dumps({"sql": "SELECT name FROM ids"}))
    ask_file(
        path, "Who is 1d6b, and who is 046d:c52b or 9z9z? Answer with the Logitech name.", model
    )
    asked = written(model)[0].messages[-1]["content"]
    assert "'1d6b' is a value of ids.id (1 row)" in asked, asked
    assert "'046d' is a value of ids.id (1 row)" in asked and "'c52b' is a value" in asked
    assert "9z9z" not in asked.split("\n\n", 1)[1] and "Logitech'" not in asked


def test_a_value_no_row_holds_is_told_and_no_figure_stated(tmp_path):
    """A filter that matches nothing the table holds: the model is told what the column holds;
    where it writes it again, the answer says what it could not match, not a count of 0."""
    statement = "SELECT count(*) FROM uploads WHERE urgency = 'critical'"
    model = writer(statement, statement, statement)
    said = ask(tmp_path, "How many critical uploads were there?", model)
    assert said.startswith("Not stated: no row's urgency is 'critical'")
    assert "'low', 'medium', 'high'" in said or "'low', 'high', 'medium'" in said
    assert "it holds" in written(model)[1].messages[-1]["content"]


def test_a_word_taken_for_a_stray_name_states_no_figure(tmp_path):
    """`will` of the question matched to the one row whose name is Will."""
    statement = "SELECT count(*) FROM uploads WHERE name = 'will' AND year = 2020"
    model = writer(statement, statement, statement)
    said = ask(tmp_path, "How many uploads will show the year 2020?", model)
    assert said.startswith("Not stated: “will” is a word of the question"), said


def test_a_category_the_question_names_left_out_states_no_figure(tmp_path):
    statement = "SELECT count(*) FROM uploads WHERE name = 'Ada Brant'"
    model = writer(statement, statement, statement)
    said = ask(tmp_path, "How many low uploads did Ada Brant make?", model)
    assert said.startswith("Not stated: the question says “low”, and urgency holds 'low'"), said
    good = writer(
        statement, "SELECT count(*) FROM uploads WHERE name = 'Ada Brant' AND urgency = 'low'"
    )
    said = ask(tmp_path, "How many low uploads did Ada Brant make?", good)
    assert said.startswith("9\n")


def test_none_kept_and_all_kept_are_said(tmp_path):
    none = writer("SELECT count(*) FROM uploads WHERE year = 2030")
    said = ask(tmp_path, "How many uploads were in 2030?", none)
    assert said.startswith("0\n") and "No row passes the query's filter." in said
    every = writer("SELECT count(*) FROM uploads WHERE year >= 2019")
    said = ask(tmp_path, "How many uploads since 2019?", every)
    assert said.startswith(f"{len(UPLOADS)}\n")
    assert f"Every row of the {len(UPLOADS)} passes the query's filter." in said


@pytest.mark.parametrize(
    "replies",
    [
        ["DROP TABLE uploads"] * 3,
        ["not a query at all"] * 3,
        [ModelError("the server closed the connection")],
    ],
)
def test_no_query_that_runs_states_no_figure_and_says_why(tmp_path, replies):
    model = reading_rows(
        [r if isinstance(r, Exception) else json.dumps({"sql": r}) for r in replies]
    )
    path = tmp_path / "uploads.md"
    path.write_text(f"# Uploads\n\n{TABLE}", encoding="utf-8")
    with SingleDocRLM(path, model, model, store_path=tmp_path / "u.sqlite", cache=False) as doc:
        answer = doc.query("How many uploads did Cole Ryder make?")
    assert answer.mode != "aggregate" and not answer.text.startswith("4")  # (nothing counted)
    assert "the model wrote no query that runs" in answer.reason


def test_the_local_writer_is_held_to_one_statement_by_a_grammar(tmp_path):
    from longread.strategies.query_writer import writing

    seen: list[Request] = []

    class Local(ScriptedLM):
        on_cpu = True

    def reply(request: Request) -> str:
        seen.append(request)
        return "SELECT count(*) FROM uploads"

    from longread.llm.gateway import Gateway
    from longread.strategies.common import Run

    model = Local(reply, writes_code=False)
    write = writing(Run(model, model, Gateway()), model)
    assert write([{"role": "user", "content": "how many?"}]) == "SELECT count(*) FROM uploads"
    assert seen[0].grammar is not None and seen[0].grammar.startswith("root ::=")
    assert seen[0].json_schema is None and seen[0].keep_prefix


COMMITS = [
    (hashlib.sha1(str(n).encode()).hexdigest(), ["Ada Brant", "Cole Ryder", "Mina Olsen"][n % 3])
    for n in range(40)
]
LOG = "".join(
    f"commit {h}\nAuthor: {who} <{who.split()[0].lower()}@example.org>\n"
    f"Date:   Mon Mar {1 + n % 28} 10:00:00 2024 +0000\n\n    Change number {n}.\n\n"
    for n, (h, who) in enumerate(COMMITS)
)


def test_a_record_named_by_a_hash_prefix_is_looked_up_in_the_tables(tmp_path):
    """No word asks to count, but a word starts one row's value (a hash prefix): the model
    writes the lookup, its first message kept for the next question on the log."""
    wanted, who = COMMITS[17]
    path = tmp_path / "log.txt"
    path.write_text(LOG, encoding="utf-8")
    model = reading_rows(
        lambda request: json.dumps(
            {"sql": f'SELECT author FROM "commit" WHERE "commit" LIKE \'{wanted[:8]}%\''}
        )
    )
    with SingleDocRLM(path, model, model, store_path=tmp_path / "l.sqlite", cache=False) as doc:
        answer = doc.query(f"Who wrote {wanted[:8]}?", mode="aggregate")
    assert answer.text.split("\n\n")[0].startswith(who), answer.text
    assert any(r.keep_prefix for r in written(model))


def test_a_table_or_column_named_by_an_sql_keyword_is_read_as_a_name(tmp_path):
    """A git log's table is `commit`: a model writes `FROM commit`, which SQLite reads as the
    keyword (a syntax error in every try); each such name is quoted before the statement runs."""
    path = tmp_path / "log.txt"
    path.write_text(LOG, encoding="utf-8")
    model = writer("SELECT count(commit) FROM commit WHERE commit LIKE '%'")
    with SingleDocRLM(path, model, model, store_path=tmp_path / "l.sqlite", cache=False) as doc:
        answer = doc.query("How many commits are in this log?")
    assert answer.text.split("\n")[0] == str(len(COMMITS)), answer.text
    assert 'FROM "commit"' in answer.text and len(written(model)) == 1


def test_a_hash_prefix_compared_with_equals_stands_for_the_hash_it_starts(tmp_path):
    wanted, who = COMMITS[17]
    path = tmp_path / "log.txt"
    path.write_text(LOG, encoding="utf-8")
    model = writer(f"SELECT author FROM commit WHERE commit = '{wanted[:8]}'")
    with SingleDocRLM(path, model, model, store_path=tmp_path / "l.sqlite", cache=False) as doc:
        answer = doc.query(f"Who wrote commit {wanted[:8]}?", mode="aggregate")
    assert answer.text.split("\n\n")[0].startswith(who), answer.text
    assert f"'{wanted}'" in answer.text and len(written(model)) == 1


RELEASES = [  # (version, codename, released, notes)
    (
        f"{year}.{month:02}{' LTS' if month == 4 and year % 2 == 0 else ''}",
        f"{name} {kind}",
        f"20{year}-{month:02}-1{n % 9}",
        f"Note {n}: "
        + "the release went out as planned, with its images built and its mirrors synced. " * 2,
    )
    for n, (year, month, name, kind) in enumerate(
        (
            10 + y,
            m,
            ["Amber", "Birch", "Cedar", "Dune", "Elm", "Fern"][y],
            ["Adder", "Badger"][m // 10],
        )
        for y in range(6)
        for m in (4, 10)
    )
]


def releases(tmp_path: Path) -> Path:
    path = tmp_path / "releases.csv"
    rows = "".join(f'{v},{c},{r},"{n}"\n' for v, c, r, n in RELEASES)
    path.write_text("version,codename,released,notes\n" + rows, encoding="utf-8")
    return path


def ask_file(path: Path, question: str, model: ScriptedLM):
    with SingleDocRLM(
        path, model, model, store_path=path.with_suffix(".sqlite"), cache=False
    ) as doc:
        return doc.query(question)


def test_a_value_that_starts_held_values_and_a_like_without_wildcards_are_read_as_held(tmp_path):
    """`version = '14.04'` where the column holds '14.04 LTS'; `LIKE 'LTS'` where 'LTS' is a word
    inside values: each taken as the column holds it, and said."""
    path = releases(tmp_path)
    model = writer("SELECT released FROM releases WHERE version = '14.04'")
    answer = ask_file(path, "When did 14.04 come out?", model)
    wanted = next(r for v, _, r, _ in RELEASES if v == "14.04 LTS")
    assert answer.mode == "aggregate" and answer.text.startswith(f"{wanted}\n"), answer.text
    assert "'14.04' is read as version holds it: '14.04 LTS'" in answer.text
    shown = written(model)[0].messages[0]["content"]
    lts = sum(v.endswith("LTS") for v, *_ in RELEASES)
    assert f"within values: 'LTS' ({lts} rows)" in shown, shown
    assert 'CREATE TABLE "documents"' not in shown  # (one document: nothing to join)
    statement = "SELECT count(*) FROM releases WHERE version = '14'"  # (not 14.04 nor 14.10)
    said = ask_file(
        path, "How many releases were 14?", writer(statement, statement, statement)
    ).text
    assert said.startswith("Not stated: no row's version is '14'"), said
    model = writer("SELECT count(*) FROM releases WHERE version LIKE 'LTS'")
    said = ask_file(path, "How many long-term releases are there?", model).text
    assert said.startswith(f"{lts}\n") and "'LTS' is read as version holds it: '%LTS%'" in said


def test_conditions_that_keep_rows_alone_but_none_together_go_back_with_what_fits(tmp_path):
    path = releases(tmp_path)
    model = writer(
        "SELECT count(*) FROM releases WHERE codename = 'Birch Adder' AND version = '12.10'",
        "SELECT count(*) FROM releases WHERE codename = 'Cedar Badger' AND version = '12.10'",
    )
    said = ask_file(path, "How many releases were Cedar Badger and 12.10?", model).text
    told = written(model)[1].messages[-1]["content"]
    assert told.startswith("No row passes") and "together" in told, told
    assert "where codename = 'Birch Adder', version holds '11.04'" in told, told
    assert said.startswith("1\n"), said


def test_a_fact_asked_of_a_data_file_is_looked_up_in_its_tables_unless_they_answer_with_passages(
    tmp_path,
):
    path = releases(tmp_path)
    newest = max(RELEASES, key=lambda r: r[2])
    model = writer("SELECT codename FROM releases ORDER BY released DESC LIMIT 1")
    answer = ask_file(path, "What is the codename of the newest release?", model)
    assert answer.mode == "aggregate" and answer.text.startswith(f"{newest[1]}\n"), answer.text

    def reply(request: Request) -> str:
        if request.json_schema is not None and "sql" in request.json_schema.get("properties", {}):
            return json.dumps({"sql": "SELECT notes FROM releases WHERE codename = 'Cedar Adder'"})
        return "FINAL(The images were built.)"

    model = reading_rows(reply)
    answer = ask_file(path, "What happened with the Cedar Adder release?", model)
    assert answer.mode != "aggregate", answer.text  # (a passage: the text path reads it)
    assert any(
        r.json_schema and "sql" in r.json_schema.get("properties", {}) for r in written(model)
    )


def test_a_fact_asked_of_a_play_is_not_looked_up_in_its_speeches(tmp_path):
    """A play is mostly records too, but of passages: its facts are read from the text, and no
    query writer is asked (nor, on the local set-up, fetched)."""

    def reply(request: Request) -> str:
        return "Birnam wood is coming to Dunsinane."

    model = reading_rows(reply)
    play = Path(__file__).resolve().parents[1] / "examples" / "macbeth.md"
    with SingleDocRLM(play, model, model, store_path=tmp_path / "m.sqlite", cache=False) as doc:
        answer = doc.query("What is Birnam wood doing?")
    assert answer.mode != "aggregate"
    asked = [r for r in written(model) if r.json_schema and "sql" in r.json_schema["properties"]]
    assert not asked, asked[0].messages[-1]


def test_a_condition_on_a_value_the_question_does_not_name_is_left_out_and_said(tmp_path):
    """A small model copies listed values and a sample row's numbers into its filter: code
    leaves those conditions out, keeps the ones the question names, and says what it left."""
    statement = (
        "SELECT count(*) FROM uploads WHERE (urgency = 'medium' OR urgency = 'high') "
        "AND year = 2019 AND name IN ('Ada Brant', 'Cole Ryder')"
    )
    said = ask(tmp_path, "How many uploads did Ada Brant make in 2019?", writer(statement))
    wanted = sum(1 for n, _, y in UPLOADS if n == "Ada Brant" and y == 2019)
    assert said.startswith(f"{wanted}\n"), said
    assert "Left out of the query, as the question names none of it:" in said
    assert "urgency = 'medium'" in said and "'Cole Ryder'" in said
    copied = "SELECT count(*) FROM uploads WHERE name LIKE '%Ada Brant%' AND year = 2019"
    said = ask(tmp_path, "How many uploads did Ada Brant make?", writer(copied))
    assert said.startswith(f"{sum(1 for n, _, _ in UPLOADS if n == 'Ada Brant')}\n"), said
    kept = "SELECT count(*) FROM uploads WHERE urgency = 'low' AND year > 2020"
    said = ask(tmp_path, "How many low uploads were made after 2020?", writer(kept))
    assert said.startswith(f"{sum(1 for _, u, y in UPLOADS if u == 'low' and y > 2020)}\n")
    assert "Left out" not in said


SHOWN = """
import sys
from pathlib import Path
from longread.index.single import SingleDocIndex
from longread.query.core.catalog import document_catalog
from longread.query.readers.model.sql_reader import system_prompt
from longread.store.docstore import DocStore
path = Path(sys.argv[1])
index = SingleDocIndex.build(path, DocStore(Path(sys.argv[2])))
print(system_prompt(document_catalog(index, path.name)))
"""


def test_the_tables_are_shown_alike_in_every_process_so_a_kept_prefix_is_found(tmp_path):
    """Values of tied counts (words recurring within values) are shown in one order whatever
    the process's hash seed: the prompt's first message, the key of its kept evaluation, is the
    same for every question on the source."""
    path = tmp_path / "packages.csv"
    pairs = ["alpha beta", "gamma delta", "kappa omega"]  # (words of one value: tied counts)
    rows = "".join(f"pkg{n},{pairs[n % 3]} v{n}\n" for n in range(60))
    path.write_text("name,tags\n" + rows, encoding="utf-8")
    shown = []
    for seed in ("1", "2", "3"):
        store = tmp_path / f"s{seed}.sqlite"
        env = {"PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"}
        done = subprocess.run(
            [sys.executable, "-c", SHOWN, str(path), str(store)],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr[-2000:]
        shown.append(done.stdout)
    assert "within values:" in shown[0], shown[0]
    assert shown[0] == shown[1] == shown[2]


class _TablesRead(Exception):
    """The reading went on to the source's tables."""


def _tables():
    raise _TablesRead


@pytest.mark.parametrize(
    ("reading", "counted"),
    [
        ({"answer": "text"}, False),
        ({"answer": "rows"}, True),
        ({"kind": "text"}, True),  # (no reading: the rules' count stands)
        (MalformedJSONError("not JSON, twice"), True),
    ],
)
def test_a_question_the_rules_would_count_is_a_fact_where_the_model_reads_it_so(reading, counted):
    asked = []

    def ask(instructions, prompt, schema):
        asked.append(prompt)
        assert instructions == KIND_PROMPT  # (the same for every question: kept evaluated)
        if isinstance(reading, Exception):
            raise reading
        return reading

    question = "Did Cole Ryder upload anything in 2019?"
    read = partial(read_written, question, _tables, lambda messages: "", "scripted", ask=ask)
    if counted:
        with pytest.raises(_TablesRead):
            read()
    else:
        assert read().shape is Shape.FACT
    assert asked and question in asked[0]
    assert read_written("Who is Cole Ryder?", _tables, lambda m: "", "s", ask=ask).shape is (
        Shape.FACT
    )
    assert len(asked) == 1  # (a fact the rules read is not asked about)


def test_a_question_no_statement_answers_is_a_fact_unless_its_words_count(tmp_path):
    path = tmp_path / "uploads.md"
    path.write_text(f"# Uploads\n\n{TABLE}", encoding="utf-8")
    index = SingleDocIndex.build(path, DocStore(tmp_path / "u.sqlite"))
    catalog = document_catalog(index, path.name)

    def read(question: str) -> Plan:
        return read_written(question, lambda: catalog, lambda messages: "no query", "scripted")

    whether = read("Did Cole Ryder upload anything in 2019?")
    assert whether.shape is Shape.FACT and whether.operation is None  # (the text answers it)
    assert whether.notes and "wrote no query that runs" in whether.notes[0]
    counted = read("How many uploads did Cole Ryder make?")
    assert counted.operation is not None and not counted.sql and counted.notes
    catalog.close()
