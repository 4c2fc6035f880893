"""Counting over a folder of documents, as a user asks it: the plays of a folder (not its
README), those under one subfolder, the play with the most scenes, named by its title. Gold
answers come from the test's own writing of the files."""

from __future__ import annotations

from pathlib import Path

from longread.api import MultiDocRLM
from longread.llm.scripted import ScriptedLM

PLAYS = {  # (folder, title): scenes in each act, speakers
    ("tragedies", "The Lamp of Ivo"): ([3, 2], ["IVO", "MARA"]),
    ("tragedies", "Fenwick"): ([2, 2, 1], ["FENWICK", "GALE", "MARA"]),
    ("comedies", "A Night at Orme"): ([4, 3, 2], ["ORME", "TILDA"]),
    ("comedies", "Two Lutes"): ([2, 1], ["PIP", "ROOK", "MARA"]),
}


def write_plays(folder: Path) -> None:
    for (kind, title), (acts, speakers) in PLAYS.items():
        lines = [f"# {title}", ""]
        for act, scenes in enumerate(acts, 1):
            lines += [f"## ACT {'I' * act}", ""]
            for scene in range(1, scenes + 1):
                lines += [
                    f"### SCENE {scene}. A room.",
                    "",
                    f"_Enter {speakers[scene % len(speakers)]}_",
                    "",
                ]
                for who in speakers:
                    lines += [f"**{who}**", "", f"A line of act {act}, scene {scene}.", ""]
        path = folder / kind / f"{title.lower().replace(' ', '-')}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(lines), encoding="utf-8")
    (folder / "README.md").write_text("# About\n\nPlays written for the test.\n", encoding="utf-8")


def ask(folder: Path, question: str, tmp_path: Path) -> str:
    model = ScriptedLM([], writes_code=False)  # (asked nothing: counted by code)
    rlm = MultiDocRLM(folder, model, model, store_path=tmp_path / "c.sqlite", cache=False)
    answer = rlm.query(question)
    assert answer.mode == "aggregate" and answer.usage["calls"] == 0 and answer.citations
    return answer.text.strip().splitlines()[0]


def test_a_folder_of_plays_is_counted_by_play(tmp_path):
    folder = tmp_path / "plays"
    write_plays(folder)
    assert ask(folder, "How many plays are there?", tmp_path).startswith(f"{len(PLAYS)} plays")
    tragedies = sum(1 for kind, _ in PLAYS if kind == "tragedies")
    said = ask(folder, "How many plays are tragedies?", tmp_path)
    assert said.startswith(f"{tragedies} plays"), said
    (_, title), (acts, _) = max(PLAYS.items(), key=lambda item: sum(item[1][0]))
    said = ask(folder, "Which play has the most scenes?", tmp_path)
    assert said.startswith(f"{title} (") and f": {sum(acts)} scenes, the most" in said, said


def test_a_subfolder_is_where_to_count_and_which_of_its_documents(tmp_path):
    folder = tmp_path / "plays"
    write_plays(folder)
    speeches = {t: sum(acts) * len(who) for (_, t), (acts, who) in PLAYS.items()}
    comedies = sum(speeches[t] for kind, t in PLAYS if kind == "comedies")
    said = ask(folder, "How many speeches are in the comedies?", tmp_path)
    assert said.startswith(f"{comedies} speeches"), said
    tragic = {
        t: n for (kind, t), n in zip(PLAYS, speeches.values(), strict=True) if kind == "tragedies"
    }
    top = max(tragic, key=tragic.__getitem__)
    said = ask(folder, "Which tragedy has the most speeches?", tmp_path)
    assert said.startswith(f"{top} (") and f": {tragic[top]} speeches, the most" in said, said
    mara = sum(1 for _, who in PLAYS.values() if "MARA" in who)
    assert ask(folder, "How many plays does Mara appear in?", tmp_path).startswith(f"{mara} plays")


def test_a_question_naming_nothing_of_the_records_is_not_counted_from_stage_directions(tmp_path):
    folder = tmp_path / "plays"
    write_plays(folder)
    reader = ScriptedLM(lambda request: "NONE", writes_code=False)
    rlm = MultiDocRLM(folder, reader, reader, store_path=tmp_path / "c.sqlite", cache=False)
    assert rlm.query("Which town had the highest ferry toll?").mode != "aggregate"
