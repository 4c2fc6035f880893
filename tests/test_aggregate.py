"""Counting questions about a play, answered by code from the play's records (speeches as rows,
its acts and scenes as columns, its sections and its text), checked against counts made here
independently, line by line, with no model called."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from longread.api import MultiDocRLM, SingleDocRLM
from longread.errors import InputError
from longread.llm.scripted import ScriptedLM
from longread.strategies.aggregate import plural, singular

MACBETH = Path(__file__).resolve().parents[1] / "examples" / "macbeth.md"
TEXT = MACBETH.read_text(encoding="utf-8")
SPEAKER = re.compile(r"^\*\*(.+?)\*\*\s*$", re.MULTILINE)


def never_called(request) -> str:
    raise AssertionError("a count must not call a model")


def speeches(text: str = TEXT) -> list[tuple[str, list[str]]]:
    """(speaker, lines spoken) of each speech, walking the text: a label starts one, a heading
    ends it, a stage direction (a line in underscores) is not spoken."""
    found: list[tuple[str, list[str]]] = []
    directing = False  # (inside a stage direction, which may run over lines)
    for line in text.splitlines():
        label = SPEAKER.match(line)
        if label:
            found.append((" ".join(label.group(1).split()), []))
        elif line.startswith("#"):
            found.append(("", []))
        elif line.strip().startswith("_") or directing:
            directing = not line.strip().endswith("_") or line.strip() == "_"
        elif found and line.strip():
            found[-1][1].append(line.strip())
    return [(name, lines) for name, lines in found if name]


def by_act(text: str = TEXT) -> dict[str, list[tuple[str, list[str]]]]:
    parts = re.split(r"^## (ACT [IVX]+)\s*$", text, flags=re.MULTILINE)
    return {parts[i]: speeches(parts[i + 1]) for i in range(1, len(parts), 2)}


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
    counts = Counter(name for name, _ in speeches())
    ((best, most),) = counts.most_common(1)
    answer = macbeth.query("Who speaks the most in the play?")
    assert answer.mode == "aggregate" and "counted by code" in answer.reason
    assert answer.text.splitlines()[0] == f"{best}: {most:,} speeches, the most."
    assert answer.stats["records"] == sum(counts.values())  # every speech of the text was read
    assert answer.citations and all(c.text.startswith(f"**{best}**") for c in answer.citations)
    assert answer.usage["calls"] == 0


def test_a_count_keeps_to_the_speaker_and_the_act_the_question_names(macbeth):
    acts = by_act()
    lady = {act: sum(n == "LADY MACBETH" for n, _ in found) for act, found in acts.items()}
    answer = macbeth.query("How many speeches does Lady Macbeth have?")
    assert answer.text.startswith(f"{sum(lady.values())} speeches.")  # not Macbeth's as well
    best = max(lady, key=lady.__getitem__)
    answer = macbeth.query("In which act does Lady Macbeth speak most?")
    assert answer.text.startswith(f"{best}: {lady[best]} speeches, the most")
    act_two = len(acts["ACT II"])
    assert macbeth.query("How many speeches are there in Act 2?").text.startswith(f"{act_two} ")


def test_two_speakers_compared_and_the_speakers_of_an_act_counted(macbeth):
    counts = Counter(name for name, _ in speeches())
    banquo, lady = counts["BANQUO"], counts["LADY MACBETH"]
    more = "BANQUO" if banquo > lady else "LADY MACBETH"
    answer = macbeth.query("Who speaks more, Banquo or Lady Macbeth?")
    assert answer.text.startswith(f"{more}: {max(banquo, lady)} speeches, the most.")
    speakers = {name for name, _ in by_act()["ACT I"]}
    answer = macbeth.query("How many characters speak in Act I?")
    assert answer.text.startswith(f"{len(speakers)} ")
    only_once = sum(1 for n in counts.values() if n == 1)
    answer = macbeth.query("How many characters speak only once?")
    assert answer.text.startswith(f"{only_once} characters")
    twice = sum(1 for n in counts.values() if n == 2)
    assert twice != only_once  # (else the count asked for could not be told from another)
    answer = macbeth.query("How many characters have exactly two speeches?")
    assert answer.text.startswith(f"{twice} characters")


def test_which_one_asks_for_the_things_named_before_it(macbeth):
    acts = {act: len(found) for act, found in by_act().items()}
    best = max(acts, key=acts.__getitem__)
    answer = macbeth.query("Of all the acts, which one has the greatest number of speeches?")
    assert answer.text.startswith(f"{best}: {acts[best]} speeches, the most")


def test_a_ranking_answers_the_place_it_asks_for(macbeth):
    ranked = Counter(name for name, _ in speeches()).most_common()
    figures = Counter(n for _, n in ranked)
    place = next(i for i, (_, n) in enumerate(ranked) if i >= 2 and figures[n] == 1)
    name, count = ranked[place]
    ordinal = ("third", "fourth", "fifth", "sixth")[place - 2]
    answer = macbeth.query(f"Who has the {ordinal} most speeches?")
    assert answer.text.startswith(f"{name}: {count:,} speeches, the {ordinal} most.")
    assert answer.citations and all(c.text.startswith(f"**{name}**") for c in answer.citations)
    second = ranked[1]
    lead = macbeth.query("Who is the second most frequent speaker?").text.splitlines()[0]
    assert f"{second[1]:,} speeches, the second most" in lead
    tied = [n for n, c in ranked if c == second[1]]
    assert all(n in lead for n in tied)


def test_the_first_and_last_speakers_the_longest_speech_and_two_acts_compared(macbeth):
    found = speeches()
    answer = macbeth.query("Who speaks first in the play?")
    assert answer.text.startswith(f"{found[0][0]}: the first speech.")
    assert answer.citations[0].text.startswith(f"**{found[0][0]}**")
    assert macbeth.query("Who speaks the last line?").text.startswith(f"{found[-1][0]}: the last")
    longest = max(len(lines) for _, lines in found)
    holders = sorted({name for name, lines in found if len(lines) == longest})
    lead = macbeth.query("Who has the longest speech?").text.splitlines()[0]
    assert lead.startswith(f"{holders[0]}: {longest} lines") and all(h in lead for h in holders)
    acts = by_act()
    one, three = (sum(n == "BANQUO" for n, _ in acts[a]) for a in ("ACT I", "ACT III"))
    lead = macbeth.query("Does Banquo speak more in Act I or Act III?").text.splitlines()[0]
    assert lead.startswith(f"ACT {'I' if one > three else 'III'}: {max(one, three)} speeches")
    long_ones = sum(1 for _, lines in found if len(lines) > 10)
    answer = macbeth.query("How many speeches are longer than 10 lines?")
    assert answer.text.startswith(f"{long_ones} speeches.")


def test_words_spoken_and_the_scenes_a_speaker_is_in(macbeth):
    words: Counter[str] = Counter()
    for name, lines in speeches():
        words[name] += len(" ".join(lines).split())
    answer = macbeth.query("How many words does Lady Macbeth speak?")
    assert answer.text.startswith(f"{words['LADY MACBETH']:,} words")
    (best, most), _ = words.most_common(2)
    assert macbeth.query("Who speaks the most words?").text.startswith(f"{best}: {most:,} words")
    scenes = re.split(r"^#+ SCENE ", TEXT, flags=re.MULTILINE)[1:]
    present = sum("**BANQUO**" in scene for scene in scenes)
    answer = macbeth.query("How many scenes does Banquo appear in?")
    assert answer.text.startswith(f"{present} scenes")


def test_sections_and_mentions_are_counted(macbeth):
    acts = re.split(r"^## ACT ", TEXT, flags=re.MULTILINE)
    act_one = len(re.findall(r"^#+ SCENE ", acts[1], flags=re.MULTILINE))
    assert macbeth.query("How many scenes are in Act I?").text.startswith(f"{act_one} scenes.")
    blood = len(re.findall(r"(?<!\w)blood(?!\w)", TEXT, flags=re.IGNORECASE))
    answer = macbeth.query("How many times is the word 'blood' mentioned?")
    assert answer.text.startswith(f"{blood} mentions")
    assert all(c.text.lower().startswith("blood") for c in answer.citations)
    most_scenes = max(
        (len(re.findall(r"^#+ SCENE ", act, flags=re.MULTILINE)), f"ACT {act.split()[0]}")
        for act in acts[1:]
    )
    answer = macbeth.query("Which act has the most scenes?")
    assert answer.text.startswith(f"{most_scenes[1]}: {most_scenes[0]} scenes, the most")


def said_by(word: str) -> Counter[str]:
    """How often each speaker says the word in the lines they speak (stage directions not)."""
    said: Counter[str] = Counter()
    for name, lines in speeches():
        said[name] += sum(
            len(re.findall(rf"(?<!\w){word}(?!\w)", line, re.IGNORECASE)) for line in lines
        )
    return said


def test_a_word_is_counted_in_what_a_speaker_says(macbeth):
    blood, banquo = said_by("blood"), said_by("banquo")
    answer = macbeth.query("How many times does Macbeth say blood?")
    assert answer.text.startswith(f"{blood['MACBETH']} mentions")  # (not his speeches)
    assert all("blood" in c.text.lower() for c in answer.citations)
    answer = macbeth.query("How many times does Macbeth mention Banquo?")  # (not `_GHOST OF…_`)
    assert answer.text.startswith(f"{banquo['MACBETH']} mentions")
    (best, most), _ = blood.most_common(2)
    answer = macbeth.query("Who says blood most often?")
    assert answer.text.startswith(f"{best}: {most} mentions of “blood”, the most.")
    ((name, times),) = said_by("duncan").most_common(1)  # (not DUNCAN by his own labels)
    answer = macbeth.query("Who mentions Duncan most often?")
    assert answer.text.startswith(f"{name}: {times} mentions of “Duncan”, the most.")
    assert blood["BANQUO"] == 0  # (a speaker compared who never says it: at 0)
    answer = macbeth.query("Who says blood less often, Lady Macbeth or Banquo?")
    assert answer.text.startswith("BANQUO: 0 mentions of “blood”, the fewest.")
    answer = macbeth.query("Does Lady Macbeth or Macbeth say blood more?")  # (both named)
    assert answer.text.startswith(f"MACBETH: {blood['MACBETH']} mentions")
    assert f"- LADY MACBETH: {blood['LADY MACBETH']}" in answer.text.splitlines()


def test_a_section_is_named_by_its_place_in_the_play_or_in_its_act(macbeth):
    acts = re.split(r"^## ACT ", TEXT, flags=re.MULTILINE)[1:]
    scenes = [re.split(r"^#+ SCENE ", act, flags=re.MULTILINE)[1:] for act in acts]

    def most(text: str) -> str:
        ((name, count),) = Counter(n for n, _ in speeches(text)).most_common(1)
        return f"{name}: {count} speeches, the most"

    assert macbeth.query("Who speaks the most in the last act?").text.startswith(most(acts[-1]))
    first = macbeth.query("Who speaks the most in the first scene?").text  # (Act I's, only)
    assert first.startswith(most(scenes[0][0]))
    answer = macbeth.query("Who speaks the most in Scene 2 of Act 3?")
    assert answer.text.startswith(most(scenes[2][1]))
    last = len(speeches(scenes[-1][-1]))
    answer = macbeth.query("How many speeches are in the final scene of Act 5?")
    assert answer.text.startswith(f"{last} speeches.")
    act_two = len(scenes[1])
    assert macbeth.query("How many scenes make up the second act?").text.startswith(f"{act_two} ")


def test_a_speaker_is_known_by_a_part_of_the_name_no_other_shares(tmp_path):
    names = ["KING HENRY IV"] * 4 + ["PRINCE HENRY"] * 9 + ["LADY PERCY"] * 7 + ["KING LEAR"] * 3
    play = tmp_path / "henry.md"
    play.write_text(
        "# Henry IV, Part I\n\n## ACT I\n\n### SCENE I. London.\n\n"
        + "".join(f"**{name}**  \nA line of verse.\n\n" for name in names),
        encoding="utf-8",
    )
    lm = ScriptedLM(never_called)
    with SingleDocRLM(play, lm, lm, store_path=tmp_path / "h.sqlite", cache=False) as rlm:
        answer = rlm.query("How many speeches does Lady Percy have in Henry IV, Part I?")
        assert answer.text.startswith("7 speeches.")  # (not King Henry IV's too)
        assert rlm.query("Who speaks the most in Henry IV, Part I?").text.startswith(
            "PRINCE HENRY: 9 speeches, the most."
        )
        assert rlm.query("How many speeches does Lear have?").text.startswith("3 speeches")


def test_whether_someone_speaks_somewhere_is_answered_from_the_speeches(macbeth):
    acts = by_act()
    for name, act in (("Banquo", "ACT IV"), ("Macbeth", "ACT V"), ("Lady Macbeth", "ACT IV")):
        held = sum(1 for who, _ in acts[act] if who == name.upper())
        answer = macbeth.query(f"Does {name} speak in Act {act.split()[1]}?")
        said = f"Yes: {held} speeches" if held else "No: 0 speeches"
        assert answer.mode == "aggregate" and answer.text.startswith(said), answer.text


def test_a_share_of_an_acts_speeches(macbeth):
    first = by_act()["ACT I"]
    his = sum(1 for who, _ in first if who == "MACBETH")
    answer = macbeth.query("What percentage of speeches in Act 1 are by Macbeth?")
    share = round(100 * his / len(first), 1)
    assert answer.text.startswith(f"{share:g}%: {his} of the {len(first)} speeches"), answer.text


def test_a_fact_question_or_nothing_to_count_goes_to_the_other_modes(tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("# Notes\n\nThe harbour opened in 1820.\n" * 5, encoding="utf-8")
    reader = ScriptedLM(lambda request: "NONE", writes_code=False)
    with SingleDocRLM(notes, reader, reader, store_path=tmp_path / "i.sqlite", cache=False) as rlm:
        assert rlm.query("Who speaks the most?").mode != "aggregate"  # (not a script)
        assert rlm.query("Who opened the harbour?").mode != "aggregate"
        assert rlm.query("Is the harbour open?").mode != "aggregate"  # (asking whether of no rows)
        asked = len(reader.requests)
        with pytest.raises(InputError, match="asks for no count"):
            rlm.query("Who opened the harbour?", mode="aggregate")  # (said at once)
        assert len(reader.requests) == asked


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
        cast = len({name for name, _ in speeches()})
        answer = rlm.query("Which play has the fewest characters?")
        assert answer.text.startswith("Brief Play (brief-play.md): 3 ")
        assert f"- Macbeth (macbeth.md): {cast}" in answer.text
        words = len(TEXT.split())
        answer = rlm.query("Which play is the longest?")
        assert answer.text.startswith(f"Macbeth (macbeth.md): {words:,} words")
        answer = rlm.query("In how many plays does the word 'hello' appear?")
        assert answer.text.startswith("1 play")  # (30 mentions, all in one play)
        answer = rlm.query("Which play mentions hello?")
        assert answer.text.startswith("Brief Play (brief-play.md), the only one (30 mentions")
        assert rlm.query("How many plays are there?").text.startswith("2 plays")
        answer = rlm.query("Which character appears in the most plays?")
        assert answer.text.startswith("MACBETH: 2 plays, the most.")
        acts = {f"ACT {a.split()[0]}": len(a.split()) for a in TEXT.split("## ACT ")[1:]}
        longest = max(acts, key=acts.__getitem__)
        answer = rlm.query("Which act is the longest?")  # (not Macbeth's ACT I and Brief Play's)
        assert answer.text.startswith(f"Macbeth (macbeth.md), {longest}: ")
        answer = rlm.query("Which play is shorter, Brief Play or Macbeth?")
        assert answer.text.startswith(f"Brief Play (brief-play.md): {len(short.split()):,} words")
        answer = rlm.query("How many speeches does Anne have in Brief Play?")
        assert answer.text.startswith("30 speeches.")
        answer = rlm.query("Who speaks the most in Macbeth?")  # (the play, not the speaker)
        assert answer.text.startswith("MACBETH: 145 speeches")


def test_plays_in_one_file_are_counted_play_by_play(tmp_path):
    short = "# Brief Play\n\n## ACT I\n\n### SCENE I. A room.\n\n" + (
        "**ANNE**  \nHello.\n\n**BEN**  \nHi.\n\n" * 30
    )
    ben = (
        "# Ben\n\n## ACT I\n\n### SCENE I. A field.\n\n"
        + "**ANNE**  \nYes.\n\n**BEN**  \nNo.\n\n" * 5
    )
    joined = tmp_path / "plays.md"
    joined.write_text(f"{TEXT}\n\n{ben}\n{short}", encoding="utf-8")
    lm = ScriptedLM(never_called)
    with SingleDocRLM(joined, lm, lm, store_path=tmp_path / "j.sqlite", cache=False) as rlm:
        most = rlm.query("Which play has the most speeches?")
        assert most.text.startswith(f"Macbeth: {len(speeches())} speeches, the most")
        anne = rlm.query("How many speeches does Anne have in Brief Play?")
        assert anne.text.startswith("30 speeches.")
        in_ben = rlm.query("How many speeches does Anne have in Ben?")  # (Ben: the play here)
        assert in_ben.text.startswith("5 speeches.")
        scenes = rlm.query("How many scenes are in Act 1 of Brief Play?")
        assert scenes.text.startswith("1 scene.")  # (one as one)


@pytest.mark.parametrize("in_code", [True, False], ids=["FINAL", "said plainly"])
def test_rlm_on_a_counting_question_starts_from_the_count_and_cites_its_records(tmp_path, in_code):
    ((best, most),) = Counter(name for name, _ in speeches()).most_common(1)
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
    ((best, most),) = Counter(name for name, _ in speeches()).most_common(1)
    if sent:
        assert answer.text == f"{best}: {most:,} speeches, the most."
        assert len(scripted.requests) == 1
    else:  # the model's own answer, taken when it says it again (not after every turn)
        assert answer.text == reply and len(scripted.requests) == 2


def test_counted_nouns_are_written_as_english_writes_them():
    assert [plural(n) for n in ("speech", "entry", "people", "fish")] == [
        "speeches",
        "entries",
        "people",
        "fish",
    ]
    assert [singular(n) for n in ("speeches", "entries", "species")] == [
        "speech",
        "entry",
        "species",
    ]
