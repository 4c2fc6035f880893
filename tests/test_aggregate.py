"""Questions whose answer depends on the whole text: read by rules (what they count, grouped by
what), answered by counting every record of the source by code (speeches, lines spoken,
mentions, sections), checked against counts made here independently, with no model called."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from longread.api import MultiDocRLM, SingleDocRLM
from longread.errors import InputError
from longread.llm.scripted import ScriptedLM
from longread.text.questions import Aggregate, aggregate_question, numeral, sections_named
from longread.text.records import mentions, speeches

MACBETH = Path(__file__).resolve().parents[1] / "examples" / "macbeth.md"
TEXT = MACBETH.read_text(encoding="utf-8")
SPEAKER = re.compile(r"^\*\*(.+?)\*\*\s*$", re.MULTILINE)


def never_called(request) -> str:
    raise AssertionError("a count must not call a model")


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Who speaks the most in Macbeth?", Aggregate("most", "speeches", "speaker")),
        ("How many speeches does Lady Macbeth have?", Aggregate("count", "speeches")),
        ("In which act does Banquo speak most?", Aggregate("most", "speeches", "act")),
        ("Which of the characters has the fewest lines?", Aggregate("least", "lines", "speaker")),
        ("How many times is the word 'blood' used?", Aggregate("count", "mentions", None, "blood")),
        ("How many times is Banquo mentioned?", Aggregate("count", "mentions", None, "Banquo")),
        ("How many times does Banquo speak?", Aggregate("count", "speeches")),
        ("How many scenes are in Act II?", Aggregate("count", "sections", None, "scene")),
        ("Which act has the most scenes?", Aggregate("most", "sections", "act", "scene")),
        ("Which play has the most scenes?", Aggregate("most", "sections", "document", "scene")),
        ("List every character who speaks in Act I.", Aggregate("list", "speeches", "speaker")),
        ("Who speaks more, Banquo or Lady Macbeth?", Aggregate("most", "speeches", "speaker")),
        ("How many characters speak in Act I?", Aggregate("distinct", "speeches", "speaker")),
        ("How many speaking roles are there?", Aggregate("distinct", "speeches", "speaker")),
        ("Name the character who speaks most.", Aggregate("most", "speeches", "speaker")),
        ("What is the shortest scene by speeches?", Aggregate("least", "speeches", "scene")),
        ("What is the number of scenes in Act 2?", Aggregate("count", "sections", None, "scene")),
        (
            "In how many scenes does Banquo appear?",
            Aggregate("count", "speeches", across="scene"),
        ),
        (
            "Which character appears in the most scenes?",
            Aggregate("most", "speeches", "speaker", across="scene"),
        ),
        (
            "Who is the second most frequent speaker?",
            Aggregate("most", "speeches", "speaker", rank=2),
        ),
        (
            "Which act has the 3rd-fewest scenes?",
            Aggregate("least", "sections", "act", "scene", rank=3),
        ),
        ("Which act has the most characters?", Aggregate("most", "speakers", "act")),
        ("Which play is the longest?", Aggregate("most", "words", "document")),
        ("Who speaks the last line of the play?", Aggregate("last", "speeches")),
        ("Who speaks first?", Aggregate("first", "speeches")),
        ("Who has the longest speech?", Aggregate("longest", "lines")),
        (
            "In how many plays does the word 'crown' appear?",
            Aggregate("count", "mentions", None, "crown", across="play"),
        ),
        (
            "Which character appears in the most plays?",
            Aggregate("most", "speeches", "speaker", across="play"),
        ),
        ("Does Banquo speak more in Act I or Act III?", Aggregate("most", "speeches", "act")),
        ("How many acts is Banquo in?", Aggregate("count", "speeches", across="act")),
        ("How many scenes feature Lady Macbeth?", Aggregate("count", "speeches", across="scene")),
        (
            "How many plays mention Rome?",
            Aggregate("count", "mentions", None, "Rome", across="play"),
        ),
        ("Who speaks the most words?", Aggregate("most", "words spoken", "speaker")),
        ("How many scenes are there in Act II?", Aggregate("count", "sections", None, "scene")),
        ("Which scene is shorter, Scene 1 or Scene 2?", Aggregate("least", "words", "scene")),
        ("How many times does Macbeth say blood?", Aggregate("count", "mentions", None, "blood")),
        ("Who says 'blood' most often?", Aggregate("most", "mentions", "speaker", "blood")),
        ("How many times is blood mentioned?", Aggregate("count", "mentions", None, "blood")),
        ("Who says the most?", Aggregate("most", "speeches", "speaker")),  # (no word counted)
        ("Which plays mention Rome?", Aggregate("list", "mentions", "document", "Rome")),
        (
            "In which play does the word 'sleep' appear?",
            Aggregate("list", "mentions", "document", "sleep"),
        ),
        ("Who is the last character to speak?", Aggregate("last", "speeches")),
        ("Which character speaks first?", Aggregate("first", "speeches")),
        ("How many speeches are longer than 10 lines?", None),
        ("How many characters speak only once?", None),  # (a bound not applied)
        ("Who killed Duncan?", None),
        ("What does the porter say about the knocking?", None),
    ],
)
def test_a_question_is_read_as_the_aggregate_it_asks_for(question, expected):
    assert aggregate_question(question) == expected


def test_sections_are_named_by_kind_and_number_in_either_numeral():
    assert [numeral(w) for w in ("3", "III", "iv", "XIV", "Act")] == [3, 3, 4, 14, None]
    assert sections_named("What happens in Act 3?", "act") == {3}
    assert sections_named("in scene ii of act i", "scene") == {2}
    assert sections_named("in Act 3 or Act IV", "act") == {3, 4}
    assert sections_named("the scenes of the second act", "act") == {2}
    assert sections_named("in Act the Third", "act") == {3}
    assert sections_named("in the final scene", "scene") == {-1}  # (the last)
    assert sections_named("who acts first?", "act") == set()


def test_speeches_are_the_labelled_units_of_a_script_and_nothing_else_is():
    found = speeches(TEXT)
    assert [u.label for u in found] == [
        " ".join(m.group(1).split()) for m in SPEAKER.finditer(TEXT)
    ]
    assert all(TEXT[u.start : u.end].startswith(f"**{u.label}**") for u in found)
    assert "\n#" not in "".join(TEXT[u.start : u.end - 1] for u in found)  # (a heading ends one)
    caps = "".join(
        f"{name}. Line {n} of the scene.\nAnd one more.\n\n"
        for n, name in enumerate(["HAMLET", "HORATIO", "KING LEAR"] * 10)
    )
    assert Counter(u.label for u in speeches(caps)) == {
        "HAMLET": 10,
        "HORATIO": 10,
        "KING LEAR": 10,
    }
    assert {u.lines for u in speeches(caps)} == {2}
    prose = "Plain prose.\n\n**Note**\nOne bold line is no script.\n" * 3
    assert speeches(prose) == []
    assert mentions("Blood, blood! bloodless BLOOD-red", "blood") == [(0, 5), (7, 12), (24, 29)]


@pytest.fixture
def macbeth(tmp_path):
    rlm = SingleDocRLM(
        MACBETH,
        ScriptedLM(never_called),
        ScriptedLM(never_called),
        store_path=tmp_path / "i.sqlite",
        cache=False,
    )
    yield rlm
    rlm.close()


def test_who_speaks_most_is_counted_over_every_speech_and_cites_them(macbeth):
    counts = Counter(" ".join(m.group(1).split()) for m in SPEAKER.finditer(TEXT))
    ((best, most),) = counts.most_common(1)
    answer = macbeth.query("Who speaks the most in the play?")
    assert answer.mode == "aggregate" and "counted by code" in answer.reason
    assert answer.text.splitlines()[0] == f"{best}: {most:,} speeches, the most."
    assert answer.stats["records"] == sum(counts.values())  # every speech of the text was read
    assert answer.citations and all(c.text.startswith(f"**{best}**") for c in answer.citations)
    assert answer.usage["calls"] == 0


def test_a_count_keeps_to_the_speaker_and_the_act_the_question_names(macbeth):
    acts = re.split(r"^## ACT ", TEXT, flags=re.MULTILINE)
    in_act = {f"ACT {a.split()[0]}": Counter(SPEAKER.findall(a)) for a in acts[1:]}
    lady = {act: c["LADY MACBETH"] for act, c in in_act.items()}
    answer = macbeth.query("How many speeches does Lady Macbeth have?")
    assert answer.text.startswith(f"{sum(lady.values())} speeches.")  # not Macbeth's as well
    best = max(lady, key=lady.get)
    answer = macbeth.query("In which act does Lady Macbeth speak most?")
    assert answer.text.startswith(f"{best}: {lady[best]} speeches, the most")
    act_two = sum(in_act["ACT II"].values())
    assert macbeth.query("How many speeches are there in Act 2?").text.startswith(f"{act_two} ")


def test_two_speakers_compared_and_the_speakers_of_an_act_counted(macbeth):
    counts = Counter(" ".join(m.group(1).split()) for m in SPEAKER.finditer(TEXT))
    banquo, lady = counts["BANQUO"], counts["LADY MACBETH"]
    more = "BANQUO" if banquo > lady else "LADY MACBETH"
    answer = macbeth.query("Who speaks more, Banquo or Lady Macbeth?")
    assert answer.text.startswith(f"{more}: {max(banquo, lady)} speeches, the most.")
    act_one = re.split(r"^## ACT ", TEXT, flags=re.MULTILINE)[1]
    speakers = set(SPEAKER.findall(act_one))
    answer = macbeth.query("How many characters speak in Act I?")
    assert answer.text.startswith(f"{len(speakers)}: ")


def test_a_ranking_answers_the_place_it_asks_for(macbeth):
    ranked = Counter(" ".join(m.group(1).split()) for m in SPEAKER.finditer(TEXT)).most_common()
    figures = Counter(n for _, n in ranked)
    place = next(i for i, (_, n) in enumerate(ranked) if i >= 2 and figures[n] == 1)
    name, count = ranked[place]
    ordinal = ("third", "fourth", "fifth", "sixth")[place - 2]
    answer = macbeth.query(f"Who has the {ordinal} most speeches?")
    assert answer.text.startswith(f"{name}: {count:,} speeches, the {ordinal} most.")
    assert answer.citations and all(c.text.startswith(f"**{name}**") for c in answer.citations)
    second = ranked[1]
    lead = macbeth.query("Who is the second most frequent speaker?").text.splitlines()[0]
    assert f"{second[1]:,} speeches, the second most" in lead and second[0] in lead  # (or tied)
    tied = [n for n, c in ranked if c == second[1]]
    assert all(n in lead for n in tied)


def test_the_first_and_last_speakers_and_two_acts_compared(macbeth):
    speakers = SPEAKER.findall(TEXT)
    answer = macbeth.query("Who speaks first in the play?")
    assert answer.text.startswith(f"{speakers[0]}: the first speech.")
    assert answer.citations[0].text.startswith(f"**{speakers[0]}**")
    assert macbeth.query("Who speaks the last line?").text.startswith(f"{speakers[-1]}: the last")
    marks = list(SPEAKER.finditer(TEXT))
    spoken = [
        sum(1 for line in body.split("\n#")[0].splitlines() if line.strip()[:1] not in ("", "_"))
        for body in (
            TEXT[m.end() : n.start() if n else len(TEXT)]
            for m, n in zip(marks, [*marks[1:], None], strict=True)
        )
    ]
    at = spoken.index(max(spoken))  # (the first of a tie)
    answer = macbeth.query("Who has the longest speech?")
    assert answer.text.startswith(f"{marks[at].group(1)}: the longest speech, {spoken[at]} lines.")
    assert answer.citations[0].start == marks[at].start()
    acts = re.split(r"^## ACT ", TEXT, flags=re.MULTILINE)
    one, three = (Counter(SPEAKER.findall(acts[n]))["BANQUO"] for n in (1, 3))
    lead = macbeth.query("Does Banquo speak more in Act I or Act III?").text.splitlines()[0]
    assert lead.startswith(f"ACT {'I' if one > three else 'III'}: {max(one, three)} speeches")
    assert "ACT II:" not in lead and "ACT IV" not in lead


def test_words_spoken_and_the_scenes_a_speaker_is_in(macbeth):
    words: Counter[str] = Counter()
    marks = list(SPEAKER.finditer(TEXT))
    for mark, after in zip(marks, [*marks[1:], None], strict=True):
        body = TEXT[mark.end() : after.start() if after else len(TEXT)]
        words[mark.group(1)] += len(body.split("\n#")[0].split())
    answer = macbeth.query("How many words does Lady Macbeth speak?")
    assert answer.text.startswith(f"{words['LADY MACBETH']:,} words spoken.")
    (best, most), _ = words.most_common(2)
    assert macbeth.query("Who speaks the most words?").text.startswith(f"{best}: {most:,} words")
    scenes = re.split(r"^#+ SCENE ", TEXT, flags=re.MULTILINE)[1:]
    present = sum("**BANQUO**" in scene for scene in scenes)
    answer = macbeth.query("How many scenes does Banquo appear in?")
    assert answer.text.startswith(f"{present} scenes.")


def test_sections_and_mentions_are_counted(macbeth):
    scenes = re.split(r"^## ACT ", TEXT, flags=re.MULTILINE)
    act_one = len(re.findall(r"^#+ SCENE ", scenes[1], flags=re.MULTILINE))
    assert macbeth.query("How many scenes are in Act I?").text.startswith(f"{act_one} scenes.")
    blood = len(re.findall(r"(?<!\w)blood(?!\w)", TEXT, flags=re.IGNORECASE))
    answer = macbeth.query("How many times is the word 'blood' mentioned?")
    assert answer.text.startswith(f"{blood} mentions")
    assert all(c.text.lower().startswith("blood") for c in answer.citations)


def said_by(word: str) -> Counter[str]:
    """How often each speaker says the word in the lines they speak (stage directions not)."""
    said: Counter[str] = Counter()
    speaker = ""
    for line in TEXT.splitlines():
        label = SPEAKER.match(line)
        if label or line.startswith("#"):
            speaker = label.group(1) if label else ""
        elif speaker and not line.strip().startswith("_"):
            said[speaker] += len(re.findall(rf"(?<!\w){word}(?!\w)", line, re.IGNORECASE))
    return said


def test_a_word_is_counted_in_what_a_speaker_says(macbeth):
    blood, banquo = said_by("blood"), said_by("banquo")
    answer = macbeth.query("How many times does Macbeth say blood?")
    assert answer.text.startswith(f"{blood['MACBETH']} mentions")  # (not his speeches)
    assert all(c.text.lower().startswith("blood") for c in answer.citations)
    answer = macbeth.query("How many times does Lady Macbeth say blood?")
    assert answer.text.startswith(f"{blood['LADY MACBETH']} mentions")
    answer = macbeth.query("How many times does Macbeth mention Banquo?")  # (not `_GHOST OF…_`)
    assert answer.text.startswith(f"{banquo['MACBETH']} mentions")
    (best, most), _ = blood.most_common(2)
    answer = macbeth.query("Who says blood most often?")
    assert answer.text.startswith(f"{best}: {most} mentions of “blood”, the most.")
    assert blood["BANQUO"] == 0  # (a speaker compared who never says it: at 0)
    ((name, times),) = said_by("duncan").most_common(1)  # (not DUNCAN by his own labels)
    answer = macbeth.query("Who mentions Duncan most often?")
    assert answer.text.startswith(f"{name}: {times} mentions of “Duncan”, the most.")
    answer = macbeth.query("Who says blood less often, Lady Macbeth or Banquo?")
    assert answer.text.startswith("BANQUO: 0 mentions of “blood”, the fewest.")
    answer = macbeth.query("Does Lady Macbeth or Macbeth say blood more?")  # (both named)
    assert answer.text.startswith(f"MACBETH: {blood['MACBETH']} mentions")
    assert f"- LADY MACBETH: {blood['LADY MACBETH']}" in answer.text.splitlines()


def test_a_section_is_named_by_its_place_in_the_play_or_in_its_act(macbeth):
    acts = re.split(r"^## ACT ", TEXT, flags=re.MULTILINE)[1:]
    scenes = [re.split(r"^#+ SCENE ", act, flags=re.MULTILINE)[1:] for act in acts]

    def most(text: str) -> str:
        ((name, count),) = Counter(SPEAKER.findall(text)).most_common(1)
        return f"{name}: {count} speeches, the most"

    assert macbeth.query("Who speaks the most in the last act?").text.startswith(most(acts[-1]))
    first = macbeth.query("Who speaks the most in the first scene?").text  # (Act I's, only)
    assert first.startswith(most(scenes[0][0]))
    answer = macbeth.query("Who speaks the most in Scene 2 of Act 3?")
    assert answer.text.startswith(most(scenes[2][1]))
    last = len(SPEAKER.findall(scenes[-1][-1]))
    answer = macbeth.query("How many speeches are in the final scene of Act 5?")
    assert answer.text.startswith(f"{last} speeches.")


def test_a_speaker_is_known_by_rank_and_number_and_a_title_is_no_section(tmp_path):
    speeches = ["KING HENRY IV"] * 4 + ["PRINCE HENRY"] * 9 + ["LADY PERCY"] * 7
    play = tmp_path / "henry.md"
    play.write_text(
        "# Henry IV, Part I\n\n## ACT I\n\n### SCENE I. London.\n\n"
        + "".join(f"**{name}**  \nA line of verse.\n\n" for name in speeches),
        encoding="utf-8",
    )
    lm = ScriptedLM(never_called)
    with SingleDocRLM(play, lm, lm, store_path=tmp_path / "h.sqlite", cache=False) as rlm:
        answer = rlm.query("How many speeches does Lady Percy have in Henry IV, Part I?")
        assert answer.text.startswith("7 speeches.")  # (not King Henry IV's too; no `Part I`)
        assert rlm.query("Who speaks the most in Henry IV, Part I?").text.startswith(
            "PRINCE HENRY: 9 speeches, the most."
        )
        assert rlm.query("How many speeches does King Henry have?").text.startswith("4 ")


def test_a_fact_question_or_nothing_to_count_goes_to_the_other_modes(tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nThe harbour opened in 1820.\n" * 5, encoding="utf-8")
    reader = ScriptedLM(lambda request: "NONE", writes_code=False)
    with SingleDocRLM(notes, reader, reader, store_path=tmp_path / "i.sqlite", cache=False) as rlm:
        assert rlm.query("Who speaks the most?").mode != "aggregate"  # (not a script)
        with pytest.raises(InputError, match="no speeches to count"):
            rlm.query("Who speaks the most?", mode="aggregate")
        assert rlm.query("Which chapter is the longest?").mode != "aggregate"  # (no chapters)
        with pytest.raises(InputError, match="no chapter in the source to group by"):
            rlm.query("Which chapter is the longest?", mode="aggregate")


def test_a_corpus_of_plays_is_counted_document_by_document(tmp_path):
    folder = tmp_path / "plays"
    folder.mkdir()
    (folder / "macbeth.md").write_text(TEXT, encoding="utf-8")
    short = (
        "# Brief Play\n\n## ACT I\n\n### SCENE I. A room.\n\n"
        + "**ANNE**  \nHello.\n\n**BEN**  \nHi.\n\n" * 30
        + "**MACBETH**  \nWrong play.\n"
    )
    (folder / "brief-play.md").write_text(short, encoding="utf-8")
    scenes = len(re.findall(r"^#+ SCENE ", TEXT, flags=re.MULTILINE))
    lm = ScriptedLM(never_called)
    with MultiDocRLM(folder, lm, lm, store_path=tmp_path / "c.sqlite", cache=False) as rlm:
        rlm.build_index(parallel=False, llm_meta=False)
        answer = rlm.query("Which play has the most scenes?")
        assert answer.text.startswith(f"Macbeth (macbeth.md): {scenes} scenes, the most")
        cast = len(set(SPEAKER.findall(TEXT)))
        answer = rlm.query("Which play has the fewest characters?")  # (each speaker once)
        assert answer.text.startswith("Brief Play (brief-play.md): 3 characters speaking, the")
        assert f"- Macbeth (macbeth.md): {cast}" in answer.text
        words = len(TEXT.split())
        answer = rlm.query("Which play is the longest?")
        assert answer.text.startswith(f"Macbeth (macbeth.md): {words:,} words, the longest.")
        answer = rlm.query("In how many plays does the word 'hello' appear?")
        assert answer.text.startswith("1 plays.")  # (30 mentions, all in one play)
        answer = rlm.query("Which play mentions hello?")
        assert answer.text.startswith("Brief Play (brief-play.md), the only one (30 mentions")
        blood = len(re.findall(r"(?<!\w)blood(?!\w)", TEXT, flags=re.IGNORECASE))
        answer = rlm.query("Which plays mention blood?")  # (not Brief Play)
        assert answer.text.startswith(f"Macbeth (macbeth.md), the only one ({blood} mentions")
        answer = rlm.query("Which character appears in the most plays?")
        assert answer.text.startswith("MACBETH: 2 plays, the most.")
        acts = {f"ACT {a.split()[0]}": len(a.split()) for a in TEXT.split("## ACT ")[1:]}
        longest = max(acts, key=acts.get)
        answer = rlm.query("Which act is the longest?")  # (not Macbeth's ACT I and Brief Play's)
        assert answer.text.startswith(f"Macbeth (macbeth.md), {longest}: ")
        answer = rlm.query("Which play is shorter, Brief Play or Macbeth?")
        assert answer.text.startswith(f"Brief Play (brief-play.md): {len(short.split()):,} words")
        rlm.index._levels.clear()  # (each document's own index, built when first needed)
        answer = rlm.query("How many speeches does Anne have in Brief Play?")
        assert answer.text.startswith("30 speeches.")
        assert not rlm.index._levels  # speeches are counted without any document's headings
        answer = rlm.query("How many speeches does Anne have in Act 1 of Brief Play?")
        assert answer.text.startswith("30 speeches.") and rlm.index._levels  # (an act named)


def test_plays_in_one_file_are_counted_play_by_play_and_a_long_file_whole(tmp_path):
    short = "# Brief Play\n\n## ACT I\n\n### SCENE I. A room.\n\n" + (
        "**ANNE**  \nHello.\n\n**BEN**  \nHi.\n\n" * 30
    )
    epilogue = "# EPILOGUE\n\n**ANNE**  \nFarewell.\n\n"
    joined = tmp_path / "plays.md"
    ben = (
        "# Ben\n\n## ACT I\n\n### SCENE I. A field.\n\n"
        + "**ANNE**  \nYes.\n\n**BEN**  \nNo.\n\n" * 5
    )
    joined.write_text(f"{TEXT}\n\n{ben}\n{short}\n{epilogue}", encoding="utf-8")
    lm = ScriptedLM(never_called)
    with SingleDocRLM(joined, lm, lm, store_path=tmp_path / "j.sqlite", cache=False) as rlm:
        most = rlm.query("Which play has the most speeches?")
        assert most.text.startswith(f"Macbeth: {len(SPEAKER.findall(TEXT))} speeches, the most")
        assert "EPILOGUE" not in most.text  # (a heading over no acts or scenes is no play)
        anne = rlm.query("How many speeches does Anne have in Brief Play?")
        assert anne.text.startswith("31 speeches.")  # (the epilogue's is Brief Play's too)
        in_ben = rlm.query("How many speeches does Anne have in Ben?")  # (Ben: the play here)
        assert in_ben.text.startswith("5 speeches.")
    body = TEXT.split("\n", 1)[1]  # the play without its title, ten times: 1.08 M characters
    long = tmp_path / "long.md"
    long.write_text("# Macbeth\n" + body * 10, encoding="utf-8")
    counts = Counter(" ".join(m.group(1).split()) for m in SPEAKER.finditer(body))
    ((best, most_count),) = counts.most_common(1)
    with SingleDocRLM(long, lm, lm, store_path=tmp_path / "l.sqlite", cache=False) as rlm:
        answer = rlm.query("Who speaks the most?")
    assert answer.text.startswith(f"{best}: {10 * most_count:,} speeches, the most.")


def test_a_play_named_after_its_hero_is_the_play_unless_the_hero_is_asked_about(macbeth, tmp_path):
    acts = re.split(r"^## ACT ", TEXT, flags=re.MULTILINE)[1:]
    every = {f"ACT {a.split()[0]}": len(SPEAKER.findall(a)) for a in acts}
    his = {f"ACT {a.split()[0]}": SPEAKER.findall(a).count("MACBETH") for a in acts}
    best = max(every, key=every.get)
    answer = macbeth.query("Which act has the most speeches in Macbeth?")  # (the play's)
    assert answer.text.startswith(f"{best}: {every[best]} speeches, the most")
    answer = macbeth.query("How many speeches does Macbeth have in Macbeth?")  # (the hero's)
    assert answer.text.startswith(f"{sum(his.values())} speeches.")
    play = tmp_path / "king-ben.md"
    play.write_text(
        "# King Ben\n\n" + "**BEN**  \nNo.\n\n**ANNE**  \nYes.\n\n" * 40 + "**ANNE**  \nOh.\n"
    )
    lm = ScriptedLM(never_called)
    with SingleDocRLM(play, lm, lm, store_path=tmp_path / "k.sqlite", cache=False) as rlm:
        assert rlm.query("How many speeches does Anne have in King Ben?").text.startswith("41 ")


def test_the_scenes_a_speaker_appears_in_are_counted_once_each(macbeth):
    scenes: dict[str, set[int]] = {}
    for at, scene in enumerate(re.split(r"^#+ SCENE ", TEXT, flags=re.MULTILINE)[1:]):
        for name in SPEAKER.findall(scene):
            scenes.setdefault(" ".join(name.split()), set()).add(at)
    answer = macbeth.query("In how many scenes does Banquo appear?")
    assert answer.text.startswith(f"{len(scenes['BANQUO'])} scenes.")
    widest = min(scenes, key=lambda name: (-len(scenes[name]), name))
    answer = macbeth.query("Which character appears in the most scenes?")
    assert answer.text.startswith(f"{widest}: {len(scenes[widest])} scenes, the most")
    second = re.split(r"^## ACT ", TEXT, flags=re.MULTILINE)[2]
    act_two = len(re.findall(r"^#+ SCENE ", second, flags=re.MULTILINE))
    assert macbeth.query("How many scenes make up the second act?").text.startswith(
        f"{act_two} scenes."
    )


@pytest.mark.parametrize("in_code", [True, False], ids=["FINAL", "said plainly"])
def test_rlm_on_a_counting_question_starts_from_the_count_and_cites_its_records(tmp_path, in_code):
    counts = Counter(" ".join(m.group(1).split()) for m in SPEAKER.finditer(TEXT))
    ((best, most),) = counts.most_common(1)
    lead = f"{best}: {most:,} speeches, the most."

    def root(request) -> str:  # (a small model: it sends the count it was shown)
        shown = request.messages[-1]["content"]
        assert lead in shown and "map_chunks(" in shown  # (another way is still offered)
        return f"```repl\nFINAL({lead!r})\n```" if in_code else lead

    scripted = ScriptedLM(root)
    with SingleDocRLM(
        MACBETH, scripted, ScriptedLM(never_called), store_path=tmp_path / "i.sqlite", cache=False
    ) as rlm:
        answer = rlm.query("Who speaks the most in the play?", mode="rlm")
    assert answer.mode == "rlm" and answer.text == lead and len(scripted.requests) == 1
    assert answer.citations and all(c.text.startswith(f"**{best}**") for c in answer.citations)
    [claim] = answer.claims  # (the records do not state the count; the count does)
    assert claim.supported and "counted over the whole text" in claim.reason


def test_a_count_restated_wrong_is_not_supported_by_it(tmp_path):
    wrong = "MACBETH: 146 speeches, the most."
    scripted = ScriptedLM([wrong] * 2 + ["```repl\nFINAL('MACBETH: 146 speeches')\n```"] * 20)
    with SingleDocRLM(
        MACBETH, scripted, ScriptedLM(never_called), store_path=tmp_path / "i.sqlite", cache=False
    ) as rlm:
        answer = rlm.query("Who speaks the most in the play?", mode="rlm")
    assert "146" in answer.text and not any(c.supported for c in answer.claims)


@pytest.mark.parametrize(
    ("reply", "sent"),
    [
        ("Macbeth speaks the most.", True),  # the count's speaker, named: the count is sent
        ("Lady Macbeth speaks the most in the play.", False),  # another group of the count
        ("Macbeth speaks the most, 150 times.", False),  # another figure
        ("Banquo speaks the most.", False),
    ],
)
def test_a_plain_reply_is_taken_for_the_count_only_where_it_says_it(tmp_path, reply, sent):
    scripted = ScriptedLM([reply] * 30)
    with SingleDocRLM(
        MACBETH, scripted, ScriptedLM(never_called), store_path=tmp_path / "i.sqlite", cache=False
    ) as rlm:
        answer = rlm.query("Who speaks the most in the play?", mode="rlm")
    counted = Counter(" ".join(m.group(1).split()) for m in SPEAKER.finditer(TEXT))
    ((best, most),) = counted.most_common(1)
    if sent:
        assert answer.text == f"{best}: {most:,} speeches, the most."
        assert len(scripted.requests) == 1
    else:  # the model's own answer, taken when it says it again (not after every turn)
        assert answer.text == reply and len(scripted.requests) == 2
