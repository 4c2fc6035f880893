"""Counting over a folder of documents: the plays of a folder (not its README), those under one
subfolder, the play with the most scenes, each play's records under its path. The statements are
the test's, written by a scripted stand-in for the code model; gold answers come from the test's
own writing of the files."""

from __future__ import annotations

from pathlib import Path

from counted import ask
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


def play_path(kind: str, title: str) -> str:
    """The play's document, as the folder's records name it."""
    return f"{kind}/{title.lower().replace(' ', '-')}.md"


def test_a_folder_of_plays_is_counted_by_play(tmp_path):
    folder = tmp_path / "plays"
    write_plays(folder)
    said = ask(
        folder,
        "How many plays are there?",
        tmp_path,
        "SELECT count(DISTINCT document) FROM dialogue",
    )
    assert said == str(len(PLAYS)), said
    tragedies = sum(1 for kind, _ in PLAYS if kind == "tragedies")
    said = ask(
        folder,
        "How many plays are tragedies?",
        tmp_path,
        "SELECT count(DISTINCT document) FROM dialogue WHERE document LIKE 'tragedies/%'",
    )
    assert said == str(tragedies), said
    ranked = sorted(PLAYS.items(), key=lambda item: -sum(item[1][0]))
    assert sum(ranked[0][1][0]) > sum(ranked[1][1][0])  # (one play has the most scenes)
    (kind, title), _ = ranked[0]
    said = ask(
        folder,
        "Which play has the most scenes?",
        tmp_path,
        "SELECT document, count(*) FROM sections WHERE kind = 'scene' GROUP BY document "
        "ORDER BY count(*) DESC LIMIT 1",
    )
    assert said == play_path(kind, title), said


def test_a_subfolder_is_where_to_count_and_which_of_its_documents(tmp_path):
    folder = tmp_path / "plays"
    write_plays(folder)
    speeches = {t: sum(acts) * len(who) for (_, t), (acts, who) in PLAYS.items()}
    comedies = sum(speeches[t] for kind, t in PLAYS if kind == "comedies")
    said = ask(
        folder,
        "How many speeches are in the comedies?",
        tmp_path,
        "SELECT count(*) FROM dialogue WHERE document LIKE 'comedies/%'",
    )
    assert said == str(comedies), said
    tragic = {
        t: n for (kind, t), n in zip(PLAYS, speeches.values(), strict=True) if kind == "tragedies"
    }
    top = max(tragic, key=tragic.__getitem__)
    assert sorted(tragic.values())[-2] < tragic[top]  # (one tragedy has the most speeches)
    said = ask(
        folder,
        "Which tragedy has the most speeches?",
        tmp_path,
        "SELECT document, count(*) FROM dialogue WHERE document LIKE 'tragedies/%' "
        "GROUP BY document ORDER BY count(*) DESC LIMIT 1",
    )
    assert said == play_path("tragedies", top), said
    mara = sum(1 for _, who in PLAYS.values() if "MARA" in who)
    said = ask(
        folder,
        "How many plays does Mara appear in?",
        tmp_path,
        "SELECT count(DISTINCT document) FROM dialogue WHERE speaker = 'MARA'",
    )
    assert said == str(mara), said


def test_a_question_naming_nothing_of_the_records_is_not_counted_from_stage_directions(tmp_path):
    folder = tmp_path / "plays"
    write_plays(folder)
    reader = ScriptedLM(lambda request: "NONE", writes_code=False)
    rlm = MultiDocRLM(folder, reader, reader, store_path=tmp_path / "c.sqlite", cache=False)
    assert rlm.query("Which town had the highest ferry toll?").mode != "aggregate"
