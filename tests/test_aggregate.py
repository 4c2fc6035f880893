"""Counting questions about a play, answered by code from the play's records (speeches as rows,
with their speaker, act, scene, words and lines; its sections and its documents), checked against
counts made here independently, line by line. The statements are the test's, written by a
scripted stand-in for the code model (see statements); a quoted word's mentions over the whole
text are still counted by the rules, with no model called."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from counted import answered, ask
from longread.api import RunOptions, SingleDocRLM
from longread.errors import InputError
from longread.llm.scripted import ScriptedLM
from statements import writing

MACBETH = Path(__file__).resolve().parents[1] / "examples" / "macbeth.md"
TEXT = MACBETH.read_text(encoding="utf-8")
SPEAKER = re.compile(r"^\*\*(.+?)\*\*\s*$", re.MULTILINE)
MOST = "Who speaks the most in the play?"
MOST_SQL = "SELECT speaker, count(*) AS n FROM dialogue GROUP BY speaker ORDER BY n DESC LIMIT 1"


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


def unique_best(counts: dict[str, int], fewest: bool = False) -> str:
    """The key of the highest (or lowest) count, which no other key shares (else the statement's
    first row could be either, and the test could not tell them apart)."""
    pick = min if fewest else max
    best = pick(counts, key=counts.__getitem__)
    assert list(counts.values()).count(counts[best]) == 1, counts
    return best


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


def test_who_speaks_most_is_counted_over_every_speech_and_cites_them(tmp_path):
    counts = Counter(name for name, _ in speeches())
    best = unique_best(counts)
    answer = answered(MACBETH, MOST, tmp_path, MOST_SQL)
    assert answer.mode == "aggregate" and "run by code" in answer.reason
    assert answer.text.splitlines()[0] == best
    assert f"- {best} | {counts[best]}" in answer.text.splitlines()
    assert answer.citations and all(c.text.startswith(f"**{best}**") for c in answer.citations)
    assert answer.usage["calls"] == 2  # (the question's kind, then the statement)
    every = "How many speeches are there in the play?"
    assert ask(MACBETH, every, tmp_path, "SELECT count(*) FROM dialogue") == str(len(speeches()))


def test_a_speech_is_counted_in_its_speakers_rows_and_its_acts(tmp_path):
    acts = by_act()
    lady = {act: sum(n == "LADY MACBETH" for n, _ in found) for act, found in acts.items()}
    sql = "SELECT count(*) FROM dialogue WHERE speaker = 'LADY MACBETH'"
    said = ask(MACBETH, "How many speeches does Lady Macbeth have?", tmp_path, sql)
    assert said == str(sum(lady.values()))  # (not Macbeth's as well)
    best = unique_best(lady)
    sql = (
        "SELECT act, count(*) AS n FROM dialogue WHERE speaker = 'LADY MACBETH' "
        "GROUP BY act ORDER BY n DESC LIMIT 1"
    )
    answer = answered(MACBETH, "In which act does Lady Macbeth speak most?", tmp_path, sql)
    assert answer.text.splitlines()[0] == best
    assert f"- {best} | {lady[best]}" in answer.text.splitlines()
    assert answer.citations and all(c.text.startswith("**LADY MACBETH**") for c in answer.citations)
    sql = "SELECT count(*) FROM dialogue WHERE act = 'ACT II'"
    said = ask(MACBETH, "How many speeches are there in Act 2?", tmp_path, sql)
    assert said == str(len(acts["ACT II"]))


def test_two_speakers_compared_and_the_speakers_of_an_act_counted(tmp_path):
    counts = Counter(name for name, _ in speeches())
    banquo, lady = counts["BANQUO"], counts["LADY MACBETH"]
    assert banquo != lady
    more, less = ("BANQUO", "LADY MACBETH") if banquo > lady else ("LADY MACBETH", "BANQUO")
    sql = (
        "SELECT speaker, count(*) AS n FROM dialogue WHERE speaker IN ('BANQUO', 'LADY MACBETH') "
        "GROUP BY speaker ORDER BY n DESC"
    )
    answer = answered(MACBETH, "Who speaks more, Banquo or Lady Macbeth?", tmp_path, sql)
    lines = answer.text.splitlines()
    assert lines[0] == f"{more}, {less}"
    assert f"- {more} | {counts[more]}" in lines and f"- {less} | {counts[less]}" in lines
    speakers = {name for name, _ in by_act()["ACT I"]}
    sql = "SELECT count(DISTINCT speaker) FROM dialogue WHERE act = 'ACT I'"
    assert ask(MACBETH, "How many characters speak in Act I?", tmp_path, sql) == str(len(speakers))
    only_once = sum(1 for n in counts.values() if n == 1)
    twice = sum(1 for n in counts.values() if n == 2)
    assert twice != only_once  # (else the count asked for could not be told from another)
    for question, times, gold in (
        ("How many characters speak only once?", 1, only_once),
        ("How many characters have exactly two speeches?", 2, twice),
    ):
        sql = (
            "SELECT count(*) FROM (SELECT speaker FROM dialogue GROUP BY speaker "
            f"HAVING count(*) = {times})"
        )
        answer = answered(MACBETH, question, tmp_path, sql)  # (nested: no row cited)
        assert answer.mode == "aggregate" and answer.text.splitlines()[0] == str(gold)


def test_a_ranking_cites_the_rows_of_the_place_it_gives(tmp_path):
    ranked = Counter(name for name, _ in speeches()).most_common()
    figures = Counter(n for _, n in ranked)
    place = next(i for i, (_, n) in enumerate(ranked) if i >= 2 and figures[n] == 1)
    name, count = ranked[place]
    ordinal = ("third", "fourth", "fifth", "sixth")[place - 2]
    sql = f"{MOST_SQL.removesuffix(' LIMIT 1')} LIMIT 1 OFFSET {place}"
    answer = answered(MACBETH, f"Who has the {ordinal} most speeches?", tmp_path, sql)
    assert answer.text.splitlines()[0] == name
    assert f"- {name} | {count}" in answer.text.splitlines()
    assert answer.citations and all(c.text.startswith(f"**{name}**") for c in answer.citations)


def test_the_first_and_last_speakers_the_longest_speech_and_two_acts_compared(tmp_path):
    found = speeches()
    sql = "SELECT speaker FROM dialogue ORDER BY _start LIMIT 1"
    answer = answered(MACBETH, "Who speaks first in the play?", tmp_path, sql)
    assert answer.text.splitlines()[0] == found[0][0]
    assert answer.citations[0].text.startswith(f"**{found[0][0]}**")
    sql = "SELECT speaker FROM dialogue ORDER BY _start DESC LIMIT 1"
    answer = answered(MACBETH, "Who speaks the last line?", tmp_path, sql)
    assert answer.text.splitlines()[0] == found[-1][0]
    assert answer.citations[0].text.startswith(f"**{found[-1][0]}**")
    longest = max(len(lines) for _, lines in found)
    holders = [name for name, lines in found if len(lines) == longest]  # (in the play's order)
    sql = (
        "SELECT speaker, lines FROM dialogue WHERE lines = (SELECT max(lines) FROM dialogue) "
        "ORDER BY _start"
    )
    assert ask(MACBETH, "Who has the longest speech?", tmp_path, sql) == ", ".join(holders)
    acts = by_act()
    one, three = (sum(n == "BANQUO" for n, _ in acts[a]) for a in ("ACT I", "ACT III"))
    assert one != three
    sql = (
        "SELECT act, count(*) AS n FROM dialogue WHERE speaker = 'BANQUO' "
        "AND act IN ('ACT I', 'ACT III') GROUP BY act ORDER BY n DESC"
    )
    answer = answered(MACBETH, "Does Banquo speak more in Act I or Act III?", tmp_path, sql)
    lines = answer.text.splitlines()
    assert lines[0] == ("ACT I, ACT III" if one > three else "ACT III, ACT I")
    assert f"- ACT I | {one}" in lines and f"- ACT III | {three}" in lines
    long_ones = sum(1 for _, lines in found if len(lines) > 10)
    sql = "SELECT count(*) FROM dialogue WHERE lines > 10"
    assert ask(MACBETH, "How many speeches are longer than 10 lines?", tmp_path, sql) == str(
        long_ones
    )


def test_words_spoken_and_the_scenes_a_speaker_is_in(tmp_path):
    words: Counter[str] = Counter()
    for name, lines in speeches():
        words[name] += len(" ".join(lines).split())
    sql = "SELECT sum(words) FROM dialogue WHERE speaker = 'LADY MACBETH'"
    said = ask(MACBETH, "How many words does Lady Macbeth speak?", tmp_path, sql)
    assert said == str(words["LADY MACBETH"])
    best = unique_best(words)
    sql = "SELECT speaker, sum(words) AS n FROM dialogue GROUP BY speaker ORDER BY n DESC LIMIT 1"
    answer = answered(MACBETH, "Who speaks the most words?", tmp_path, sql)
    assert answer.text.splitlines()[0] == best
    assert f"- {best} | {words[best]}" in answer.text.splitlines()
    scenes = re.split(r"^#+ SCENE ", TEXT, flags=re.MULTILINE)[1:]
    present = sum("**BANQUO**" in scene for scene in scenes)
    sql = "SELECT count(DISTINCT act || ' ' || scene) FROM dialogue WHERE speaker = 'BANQUO'"
    said = ask(MACBETH, "How many scenes does Banquo appear in?", tmp_path, sql)
    assert said == str(present)


def test_the_scenes_of_an_act_are_counted(tmp_path):
    acts = re.split(r"^## ACT ", TEXT, flags=re.MULTILINE)[1:]
    scenes = {f"ACT {act.split()[0]}": len(re.findall(r"^#+ SCENE ", act, re.M)) for act in acts}
    sql = "SELECT count(DISTINCT scene) FROM dialogue WHERE act = 'ACT I'"
    said = ask(MACBETH, "How many scenes are in Act I?", tmp_path, sql)
    assert said == str(scenes["ACT I"])
    best = unique_best(scenes)
    sql = (
        "SELECT act, count(DISTINCT scene) AS n FROM dialogue GROUP BY act ORDER BY n DESC LIMIT 1"
    )
    answer = answered(MACBETH, "Which act has the most scenes?", tmp_path, sql)
    assert answer.text.splitlines()[0] == best
    assert f"- {best} | {scenes[best]}" in answer.text.splitlines()


def said_by(word: str) -> Counter[str]:
    """How often each speaker says the word in the lines they speak (stage directions not)."""
    said: Counter[str] = Counter()
    for name, lines in speeches():
        said[name] += sum(
            len(re.findall(rf"(?<!\w){word}(?!\w)", line, re.IGNORECASE)) for line in lines
        )
    return said


def test_a_word_is_counted_in_what_a_speaker_says(tmp_path):
    blood, banquo = said_by("blood"), said_by("banquo")
    sql = "SELECT sum(mentions(text, 'blood')) FROM dialogue WHERE speaker = 'MACBETH'"
    answer = answered(MACBETH, "How many times does Macbeth say blood?", tmp_path, sql)
    assert answer.text.splitlines()[0] == str(blood["MACBETH"])  # (not his speeches)
    assert answer.citations and all(c.text.startswith("**MACBETH**") for c in answer.citations)
    sql = "SELECT sum(mentions(text, 'Banquo')) FROM dialogue WHERE speaker = 'MACBETH'"
    said = ask(MACBETH, "How many times does Macbeth mention Banquo?", tmp_path, sql)
    assert said == str(banquo["MACBETH"])  # (not `_GHOST OF BANQUO…_`, a stage direction)
    for question, word, counts in (
        ("Who says blood most often?", "blood", blood),
        ("Who mentions Duncan most often?", "Duncan", said_by("duncan")),  # (not by his labels)
    ):
        best = unique_best(counts)
        sql = (
            f"SELECT speaker, sum(mentions(text, '{word}')) AS n FROM dialogue "
            "GROUP BY speaker ORDER BY n DESC LIMIT 1"
        )
        answer = answered(MACBETH, question, tmp_path, sql)
        assert answer.text.splitlines()[0] == best
        assert f"- {best} | {counts[best]}" in answer.text.splitlines()
    assert blood["BANQUO"] == 0 < blood["LADY MACBETH"]  # (a speaker who never says it: at 0)
    sql = (
        "SELECT speaker, sum(mentions(text, 'blood')) AS n FROM dialogue "
        "WHERE speaker IN ('LADY MACBETH', 'BANQUO') GROUP BY speaker ORDER BY n"
    )
    answer = answered(MACBETH, "Who says blood less often, Lady Macbeth or Banquo?", tmp_path, sql)
    lines = answer.text.splitlines()
    assert lines[0] == "BANQUO, LADY MACBETH"
    assert "- BANQUO | 0" in lines and f"- LADY MACBETH | {blood['LADY MACBETH']}" in lines


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
    texts = {"macbeth.md": TEXT, "brief-play.md": short}
    titles = {name: re.search(r"^# (.+)$", text, re.M).group(1) for name, text in texts.items()}
    scenes = {name: len(re.findall(r"^#+ SCENE ", text, re.M)) for name, text in texts.items()}
    casts = {name: {who for who, _ in speeches(text)} for name, text in texts.items()}
    words = {titles[name]: len(text.split()) for name, text in texts.items()}
    hello = {name: len(re.findall(r"(?<!\w)hello(?!\w)", t, re.I)) for name, t in texts.items()}

    def lines(question: str, sql: str) -> list[str]:
        answer = answered(folder, question, tmp_path, sql)
        assert answer.mode == "aggregate" and answer.citations, answer.text
        return answer.text.splitlines()

    best = unique_best(scenes)
    sql = (
        "SELECT document, count(*) AS n FROM sections WHERE kind = 'scene' "
        "GROUP BY document ORDER BY n DESC LIMIT 1"
    )
    said = lines("Which play has the most scenes?", sql)
    assert said[0] == best and f"- {best} | {scenes[best]}" in said
    sql = "SELECT document, count(DISTINCT speaker) AS n FROM dialogue GROUP BY document ORDER BY n"
    said = lines("Which play has the fewest characters?", sql)
    assert said[0] == ", ".join(sorted(casts, key=lambda name: len(casts[name])))
    assert all(f"- {name} | {len(cast)}" in said for name, cast in casts.items())
    longest = unique_best(words)
    sql = "SELECT title, words FROM documents ORDER BY words DESC LIMIT 1"
    said = lines("Which play is the longest?", sql)
    assert said[0] == longest and f"- {longest} | {words[longest]}" in said
    shorter = unique_best(words, fewest=True)
    sql = (
        "SELECT title, words FROM documents WHERE title IN ('Brief Play', 'Macbeth') "
        "ORDER BY words LIMIT 1"
    )
    said = lines("Which play is shorter, Brief Play or Macbeth?", sql)
    assert said[0] == shorter and f"- {shorter} | {words[shorter]}" in said
    sql = "SELECT count(DISTINCT document) FROM dialogue WHERE mentions(text, 'hello') > 0"
    said = lines("In how many plays does the word 'hello' appear?", sql)
    assert said[0] == str(sum(1 for n in hello.values() if n))
    sql = (
        "SELECT document, sum(mentions(text, 'hello')) AS n FROM dialogue GROUP BY document "
        "HAVING n > 0"
    )
    said = lines("Which play mentions hello?", sql)
    assert said[0] == ", ".join(name for name, n in hello.items() if n)
    assert all(f"- {name} | {n}" in said for name, n in hello.items() if n)
    plays = "How many plays are there?"
    assert lines(plays, "SELECT count(*) FROM documents")[0] == str(len(texts))
    cast_in = Counter(who for cast in casts.values() for who in cast)
    best = unique_best(cast_in)
    sql = (
        "SELECT speaker, count(DISTINCT document) AS n FROM dialogue GROUP BY speaker "
        "ORDER BY n DESC LIMIT 1"
    )
    said = lines("Which character appears in the most plays?", sql)
    assert said[0] == best and f"- {best} | {cast_in[best]}" in said
    acts = {f"ACT {a.split()[0]}": len(a.split()) for a in TEXT.split("## ACT ")[1:]}
    longest = unique_best(acts)
    sql = (
        "SELECT title, document, words FROM sections WHERE title LIKE 'ACT %' "
        "ORDER BY words DESC LIMIT 1"
    )
    said = lines("Which act is the longest?", sql)  # (not Macbeth's ACT I and Brief Play's)
    assert said[0] == longest and any(s.startswith(f"- {longest} | macbeth.md | ") for s in said)
    sql = "SELECT count(*) FROM dialogue WHERE speaker = 'ANNE' AND document = 'brief-play.md'"
    said = lines("How many speeches does Anne have in Brief Play?", sql)
    assert said[0] == str(sum(who == "ANNE" for who, _ in speeches(short)))
    counts = Counter(who for who, _ in speeches())
    best = unique_best(counts)
    sql = (
        "SELECT speaker, count(*) AS n FROM dialogue WHERE document = 'macbeth.md' "
        "GROUP BY speaker ORDER BY n DESC LIMIT 1"
    )
    said = lines("Who speaks the most in Macbeth?", sql)  # (the play, not the speaker)
    assert said[0] == best and f"- {best} | {counts[best]}" in said  # (not Brief Play's too)


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
    plays = {"Macbeth": speeches(), "Ben": speeches(ben), "Brief Play": speeches(short)}
    sql = "SELECT work, count(*) AS n FROM dialogue GROUP BY work ORDER BY n DESC LIMIT 1"
    answer = answered(joined, "Which play has the most speeches?", tmp_path, sql)
    best = unique_best({play: len(found) for play, found in plays.items()})
    assert answer.text.splitlines()[0] == best
    assert f"- {best} | {len(plays[best])}" in answer.text.splitlines()
    for play in ("Brief Play", "Ben"):  # (Ben: the play here, not the speaker)
        sql = f"SELECT count(*) FROM dialogue WHERE speaker = 'ANNE' AND work = '{play}'"
        said = ask(joined, f"How many speeches does Anne have in {play}?", tmp_path, sql)
        assert said == str(sum(who == "ANNE" for who, _ in plays[play]))
    sql = "SELECT count(DISTINCT scene) FROM dialogue WHERE act = 'Brief Play, ACT I'"
    said = ask(joined, "How many scenes are in Act 1 of Brief Play?", tmp_path, sql)
    assert said == str(len(re.findall(r"^#+ SCENE ", short, re.M)))


@pytest.mark.parametrize("in_code", [True, False], ids=["FINAL", "said plainly"])
def test_rlm_on_a_counting_question_starts_from_the_count_and_cites_its_records(tmp_path, in_code):
    ((best, _),) = Counter(name for name, _ in speeches()).most_common(1)
    shown: list[str] = []

    def root(request) -> str:  # (a small model: it sends the count it was shown)
        shown.append(request.messages[-1]["content"])
        return f"```repl\nFINAL({best!r})\n```" if in_code else best

    scripted = writing({MOST: MOST_SQL}, other=root)
    with SingleDocRLM(
        MACBETH,
        scripted,
        ScriptedLM(never_called),
        store_path=tmp_path / "i.sqlite",
        cache=False,
        options=RunOptions(reader="auto"),
    ) as rlm:
        answer = rlm.query(MOST, mode="rlm")
    assert best in shown[0] and "map_chunks(" in shown[0]  # (another way is still offered)
    assert answer.mode == "rlm" and answer.text == best and len(shown) == 1
    assert answer.citations and all(c.text.startswith(f"**{best}**") for c in answer.citations)
    [claim] = answer.claims  # (the records do not state the count; the count does)
    assert claim.supported and "counted over the whole text" in claim.reason


def test_a_count_restated_wrong_is_not_supported_by_it(tmp_path):
    ((best, most),) = Counter(name for name, _ in speeches()).most_common(1)
    wrong = f"{best}: {most + 1} speeches, the most."
    replies = [wrong] * 2 + [f"```repl\nFINAL({f'{best}: {most + 1} speeches'!r})\n```"] * 20
    scripted = writing({MOST: MOST_SQL}, other=lambda request: replies.pop(0))
    with SingleDocRLM(
        MACBETH,
        scripted,
        ScriptedLM(never_called),
        store_path=tmp_path / "i.sqlite",
        cache=False,
        options=RunOptions(reader="auto"),
    ) as rlm:
        answer = rlm.query(MOST, mode="rlm")
    assert f"- {best} | {most}" in answer.computed.splitlines()  # (the count was made)
    assert str(most + 1) in answer.text and not any(c.supported for c in answer.claims)


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
    asked: list[str] = []

    def root(request) -> str:
        asked.append(request.messages[-1]["content"])
        return reply

    scripted = writing({MOST: MOST_SQL}, other=root)
    with SingleDocRLM(
        MACBETH,
        scripted,
        ScriptedLM(never_called),
        store_path=tmp_path / "i.sqlite",
        cache=False,
        options=RunOptions(reader="auto"),
    ) as rlm:
        answer = rlm.query(MOST, mode="rlm")
    ((best, _),) = Counter(name for name, _ in speeches()).most_common(1)
    if sent:
        assert answer.text == best and len(asked) == 1  # (the count's answer, as code gave it)
    else:  # the model's own answer, taken when it says it again (not after every turn)
        assert answer.text == reply and len(asked) == 2
