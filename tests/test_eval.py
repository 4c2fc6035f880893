"""`longread eval`: task files, the lead and anywhere scores, tasks generated from plays (their gold
answers checked here by other means), runs over modes and models, and the command itself. A
counting task's statement is the test's, written by a scripted stand-in for the code model (see
statements), or by a scripted OpenAI-compatible server of the test's for the command."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from fake_openai import fake_openai
from longread.answer import Answer, Citation
from longread.errors import InputError
from longread.evals.baseline import best_sentence, source_sentences
from longread.evals.generate import generate
from longread.evals.runner import Result, explained, lost, run_tasks, table
from longread.evals.scoring import cited, lead, score
from longread.evals.tasks import Task, read_tasks, select, write_tasks
from longread.llm.scripted import ScriptedLM
from longread.query.readers.model.question_kind import KIND_PROMPT
from statements import writing
from test_cli import longread

ROLES = ["DUKE", "NURSE", "FIRST LORD", "ROSALIND", "GAOLER", "PAGE"]


def tiny_play(number: int, rng: random.Random) -> str:
    """A play of three acts of two to four scenes, each of speeches by a few of ROLES."""
    text = f"# The Play Number {number}\n\n"
    for act in ("I", "II", "III"):
        text += f"## ACT {act}\n\n"
        for scene in range(rng.randint(2, 4)):
            text += f"### SCENE {'I' * (scene + 1)}. A room.\n\n_Enter all_\n\n"
            for _ in range(rng.randint(4, 12)):
                role = rng.choice(ROLES[: 2 + number % 4])
                text += f"**{role}**  \nA line of act {act}, said with care.  \nAnd one more.\n\n"
    return text


@pytest.fixture
def plays(tmp_path):
    rng = random.Random(3)
    folder = tmp_path / "plays" / "comedies"
    folder.mkdir(parents=True)
    for n in range(12):
        (folder / f"play-{n:02}.md").write_text(tiny_play(n, rng), encoding="utf-8")
    return folder.parent


def test_the_lead_is_what_a_reader_takes_as_the_answer():
    assert lead("Paris. [1]\n“The capital is Paris.”\n\nOther findings: …") == (
        "Paris. [1]\n“The capital is Paris.”"
    )
    assert lead("[1] (a) First.\n[2] (b) Second.") == "[1] (a) First.\n"
    assert len(lead("x" * 1_000)) == 300


@pytest.mark.parametrize(
    ("scorer", "gold", "reply", "expected"),
    [
        ("contains", "Ingrid Vale", "It was ingrid  Vale, the captain.", 1.0),
        ("contains", "Vale", "Valerie", 0.0),
        ("contains", "-t|--list", "Use --list to see them.", 1.0),
        ("contains", "-t|--list", "Use -l to see them.", 0.0),
        ("exact", "Act III", "act iii.", 1.0),
        ("exact", "Act III", "Act III, mostly", 0.0),
        ("number", "1511", "HAMLET: 1,511 lines spoken", 1.0),
        ("number", "15", "151 speeches", 0.0),
        ("set-f1", "Anne; Ben", "Anne, Ben", 1.0),
        ("set-f1", "Anne; Ben", "Anne, Carl", 0.5),
        ("set-f1", "Anne; Ben", "Dora", 0.0),
    ],
)
def test_scorers(scorer, gold, reply, expected):
    assert score(scorer, gold, reply) == pytest.approx(expected)


def test_a_citation_holds_the_gold_or_not():
    answer = Answer("x", "map", [Citation("d", 0, 9, "Ingrid Vale sailed")])
    assert cited(answer, "ingrid vale") and not cited(answer, "Hugh")


def test_task_files_are_read_with_paths_from_their_folder_and_bad_lines_named(tmp_path):
    path = tmp_path / "tasks.jsonl"
    write_tasks([Task("doc.md", "Who?", "Anne", "contains", "mine")], path)
    (task,) = read_tasks(path)
    assert task.path == str(tmp_path / "doc.md") and task.family == "mine"
    path.write_text('{"path": "a", "question": "q", "answer": "a"}\n{"path": "a"}\n')
    with pytest.raises(InputError, match=r"tasks.jsonl:2: not a task"):
        read_tasks(path)
    path.write_text('{"path": "a", "question": "q", "answer": "a", "scorer": "vibes"}\n')
    with pytest.raises(InputError, match="unknown scorer 'vibes'"):
        read_tasks(path)
    many = [Task("p", f"q{i}", "a", family=f) for i, f in enumerate("aabbbc")]
    assert [t.question for t in select(many, ["b", "c"], 2)] == ["q2", "q3", "q5"]


def test_generated_tasks_have_gold_answers_their_files_bear_out(plays, tmp_path):
    tasks = generate(plays, tmp_path / "out")
    assert len(tasks) >= 60
    assert Counter(t.family for t in tasks).keys() == {
        "needle",
        "aggregation",
        "aggregation-blind",
        "multi-hop",
        "synthesis",
    }
    for task in tasks:
        if task.family == "synthesis":
            synthesis_holds(task)
        elif task.family == "needle":
            thing = re.match(r"Who hid the (.+)\?", task.question).group(1)
            text = Path(task.path).read_text(encoding="utf-8")
            assert f"The {thing} was hidden by {task.answer}." in text
        elif "sealed with" in task.question:
            seal = re.search(r"sealed with (.+) born\?", task.question).group(1)
            scenes = {
                p.name: p.read_text(encoding="utf-8")
                for p in (tmp_path / "out" / "scenes").iterdir()
            }
            assert len(scenes) > 12 and all(  # (a file a scene, under its play's title)
                t.startswith("# ") and len(re.findall(r"^#+ SCENE ", t, re.M)) == 1
                for t in scenes.values()
            )
            (writer,) = {
                m.group(1)
                for t in scenes.values()
                for m in re.finditer(rf"sealed with {seal} was written by (.+?)\.", t)
            }
            born = [n for n, t in scenes.items() if f"{writer} was born in {task.answer}." in t]
            assert len(born) == 1
        elif task.family == "multi-hop":
            cargo = re.search(r"carried the (.+)\?", task.question).group(1)
            files = {
                p.name: p.read_text(encoding="utf-8")
                for p in (tmp_path / "out" / "corpus").iterdir()
            }
            ship = next(
                m.group(1)
                for t in files.values()
                for m in re.finditer(rf"The (.+?) carried the {cargo}\.", t)
            )
            holding = [
                n for n, t in files.items() if f"The captain of the {ship} was {task.answer}." in t
            ]
            carrying = [n for n, t in files.items() if f"The {ship} carried" in t]
            assert len(holding) == len(carrying) == 1 and holding != carrying
        elif task.scorer == "number" and "speeches does" in task.question:
            who = re.search(r"speeches does (.+) have", task.question).group(1).upper()
            text = Path(task.path).read_text(encoding="utf-8")
            assert text.count(f"**{who}**") == int(task.answer)
    again = generate(plays, tmp_path / "again")  # (the same seed: the same tasks)
    assert [(t.question, t.answer) for t in again] == [(t.question, t.answer) for t in tasks]


def synthesis_holds(task: Task) -> None:
    """A synthesis task's gold is what its folder's records give, each record in its own document
    while there are enough."""
    files = [p.read_text(encoding="utf-8") for p in Path(task.path).iterdir()]
    tolls = {
        m.group(1) or m.group(3) or m.group(5): int(m.group(2) or m.group(4) or m.group(6))
        for text in files
        for m in re.finditer(
            r"The ferry toll at (\w+) was (\d+) pence\.|At (\w+) the ferry toll came to (\d+) "
            r"pence\.|crossing at (\w+) paid a ferry toll of (\d+) pence\.",
            text,
        )
    }
    assert len(tolls) >= 5 and 3 <= len(files) <= 24
    if "highest" in task.question:
        assert task.answer == max(tolls, key=tolls.__getitem__)
    elif "lowest" in task.question:
        assert task.answer == min(tolls, key=tolls.__getitem__)
    elif "add up" in task.question:
        assert int(task.answer) == sum(tolls.values())
    else:
        guild = re.search(r"guild of (\w+)\?", task.question).group(1)
        members = {
            name
            for text in files
            for m in re.finditer(
                rf"(\w+ \w+) joined the guild of {guild}\.|(\w+ \w+) was admitted to the "
                rf"guild of {guild}\.|guild of {guild} took (\w+ \w+) as",
                text,
            )
            for name in m.groups()
            if name
        }
        assert set(task.answer.split("; ")) == members and len(members) == 3


def statement(task: Task) -> str:
    """The statement a model writes for a generated task over a play's speeches: how many a
    speaker has (a number's), or the act they speak most in."""
    (who,) = [role for role in ROLES if role.title() in task.question]
    if task.scorer == "number":
        return f"SELECT count(*) FROM dialogue WHERE speaker = '{who}'"
    assert task.answer.startswith("Act "), task
    return (
        f"SELECT act, count(*) AS n FROM dialogue WHERE speaker = '{who}' "
        "GROUP BY act ORDER BY n DESC LIMIT 1"
    )


def test_a_run_scores_each_task_and_a_failed_one_says_why(plays, tmp_path):
    tasks = [t for t in generate(plays, tmp_path / "out") if t.family == "aggregation"][:6]
    model = writing({t.question: statement(t) for t in tasks})
    tasks.append(Task(str(tmp_path / "missing.md"), "How many scenes?", "3", "number", "broken"))
    everything = run_tasks(tasks, ["aggregate"], [model])
    baseline = [r for r in everything if r.mode == "baseline"]
    results = [r for r in everything if r.mode != "baseline"]
    assert len(baseline) == len(results) == 7 and all(r.calls == 0 for r in baseline)
    assert [r.lead for r in results[:6]] == [1.0] * 6
    assert [r.calls for r in results] == [2] * 6 + [0]  # (the question's kind, its statement)
    assert results[-1].lead == 0 and "missing.md" in results[-1].error
    shown = table(everything)
    assert "| aggregation | baseline | no model | 6 |" in shown
    assert "| aggregation | aggregate | scripted:test | 6 | 6.0/6 | 6.0/6 |" in shown
    assert "| all | aggregate | scripted:test | 7 | 6.0/7 |" in shown
    slow = ScriptedLM(lambda request: "Later.", latency=0.4)
    needle = next(t for t in generate(plays, tmp_path / "out") if t.family == "needle")
    (_, late) = run_tasks([needle], ["map"], [slow], max_seconds=0.2)
    assert late.lead == 0 and "budget" in late.error


def test_the_command_runs_a_task_file_saves_and_compares(plays, tmp_path):
    """The model writes each question's query on a server of the test's own (no network), and
    aggregate mode answers by running it."""
    tasks = [t for t in generate(plays, tmp_path / "out") if t.family == "aggregation"][:3]
    write_tasks(tasks, tmp_path / "tasks.jsonl")
    statements = {t.question: statement(t) for t in tasks}

    def writes(messages: list[dict]) -> str:
        if messages[0]["content"].startswith(KIND_PROMPT):
            return json.dumps({"answer": "rows"})
        return json.dumps({"sql": statements[messages[-1]["content"]]})

    args = ["eval", str(tmp_path / "tasks.jsonl"), "--mode", "aggregate", "--model", "openai:x"]
    with fake_openai([writes] * 100) as server:
        env = {
            "OPENAI_API_KEY": "sk-test",
            "OPENAI_BASE_URL": server.url,
            "LONGREAD_CACHE_DIR": str(tmp_path / "cache"),
            "LONGREAD_READER": "auto",  # (the hosted model writes the queries)
        }
        first = longread(*args, "--json", str(tmp_path / "before.json"), env=env)
        assert first.returncode == 0, first.stderr
        assert len(server.requests) == 2 * len(tasks)  # (each question's kind, its statement)
        assert "| aggregation | aggregate | openai:x | 3 | 3.0/3 |" in first.stdout
        assert len(json.loads((tmp_path / "before.json").read_text())) == 6  # (the baseline's too)
        again = longread(*args, "--compare", str(tmp_path / "before.json"), env=env)
        assert "| aggregation | aggregate | openai:x | 3.0/3 | 3.0/3 |" in again.stdout
    both = longread("eval", env=env)
    assert both.returncode != 0 and "give a task file, or --generate FOLDER" in both.stderr


def test_the_no_model_baseline_reads_one_sentence_of_the_whole_source(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.txt").write_text("The harbour opens at dawn. Boats leave the harbour at noon.\n")
    (folder / "b.txt").write_text("The lighthouse keeper is paid in salt. Salt is dear.\n")
    (folder / "c.bin").write_bytes(b"\x00\x01binary")  # not readable: skipped
    said = best_sentence("How is the lighthouse keeper paid?", source_sentences(folder))
    assert said == "The lighthouse keeper is paid in salt."
    assert best_sentence("Who rules Mars?", source_sentences(folder)) == ""
    task = Task(str(folder), "How is the lighthouse keeper paid?", "salt", family="facts")
    miss = Task(str(folder), "When do boats leave?", "midnight", family="facts")
    results = run_tasks([task, miss], [], [])
    assert [(r.mode, r.lead, r.cited) for r in results] == [
        ("baseline", 1.0, True),
        ("baseline", 0.0, False),
    ]


def test_explain_says_at_which_stage_the_gold_was_lost():
    task = Task("x.md", "Who holds the keys?", "night porter")

    def answered(text: str, *cited: str) -> Answer:
        return Answer(text, "map", [Citation("x.md", 0, len(c), c) for c in cited])

    porter = "The keys are held by the night porter."
    assert lost(task, answered(f"{porter} [1]", porter), []) == ""
    assert lost(task, answered("The keys hang in the hall. [1]", porter), []) == "answer"
    other = "The keys hang in the hall."
    assert lost(task, answered(f"{other} [1]", other, porter), []) == "ranking"
    assert lost(task, answered("Not found.", other), [f"Text: {porter}"]) == "reader"
    assert lost(task, answered("Not found."), ["Text: the hall"]) == "retrieval"
    results = [
        Result("facts", "map", "m", "q", 0, 0, False, 1, 1, 0.0, 1.0, lost=at)
        for at in ("", "answer", "ranking", "reader", "retrieval")
    ]
    assert "| facts | map | m | 5 | 4/5 | 3/5 | 2/5 | 1/5 |" in explained(results)
