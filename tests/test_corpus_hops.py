"""Two hops over a corpus, where a small model and plain ranking go wrong: findings ranked by the
corpus-wide rarity of the question's words they hold (not among themselves), a document holding
a phrase of the question read though ranking alone passes it over, and a second hop's reply that
rests on a sentence not naming what it looked up dropped."""

from __future__ import annotations

import pytest

from longread.api import MultiDocRLM
from longread.llm.gateway import Gateway
from longread.llm.scripted import ScriptedLM
from longread.strategies.corpus_view import candidates, phrased_documents, phrases
from longread.tools.corpus import CorpusTools

COMMON = "The results are based on the data the town keeps. The person in charge is named here.\n\n"


def shown(request) -> list[str]:
    """The sentences a small model is shown, but those of the filler."""
    text = request.messages[-1]["content"].split("Text: ", 1)[1].split("\nAnswer the", 1)[0]
    return [line for line in text.splitlines() if line and line not in COMMON]


def write(folder, docs: dict[str, str], fillers: int = 30, pad: int = 3) -> None:
    folder.mkdir()
    for name, text in docs.items():
        padding = COMMON * pad
        (folder / name).write_text(f"# {name}\n\n{padding}{text}\n\n{padding}", "utf-8")
    for n in range(fillers):  # (words most documents hold: `based`, `town`, `person`)
        (folder / f"filler-{n:02}.md").write_text(f"# Filler {n}\n\n{COMMON * 5}", "utf-8")


def ask(folder, tmp_path, reads, question):
    weak = ScriptedLM(reads, writes_code=False, context_window=2048)
    with MultiDocRLM(folder, weak, weak, store_path=tmp_path / "c.sqlite", cache=False) as rlm:
        return rlm.query(question)


def test_a_finding_holding_the_rare_words_of_the_question_leads_the_bridge(tmp_path):
    folder = tmp_path / "lamps"
    write(
        folder,
        {
            "a.md": "The Kestrel lamp is made by Corvid Foundry.",
            "b.md": "Corvid Foundry is based in Brixham.",
            "c.md": "Alder & Sons is based in Calloway.",
            "d.md": "The Marlin lamp is made by Alder & Sons.",
            "e.md": "The Quill lamp is made by Wick & Wire.",
            "f.md": "The Vesper lamp is made by Pike Brothers.",
            "g.md": "The Zephyr lamp is made by Halden Works.",
            "h.md": "The captain of the Red Kestrel was Emric Hale.",
            "i.md": "The Red Kestrel carried the salt to Halden.",
        },
    )  # (among the findings `kestrel` and `lamp` are common, `based` is not; in the corpus, the
    # other way round)

    def substitutes(request) -> str:  # a tiny model puts the question's words over the passage's
        line = next(iter(shown(request)), "NONE")
        if "based in Calloway" in line and "Known" not in request.messages[-1]["content"]:
            return "The company that makes the Kestrel lamp is based in Calloway."
        return line

    answer = ask(
        folder, tmp_path, substitutes, "Where is the company that makes the Kestrel lamp based?"
    )
    assert answer.stats["second_hop"][0] == "Corvid Foundry"
    assert "Brixham" in answer.text.split("\n\n")[0] and answer.citations[0].doc_id == "b.md"


def test_a_long_document_holding_a_phrase_of_the_question_is_read(tmp_path):
    folder = tmp_path / "repairs"
    long_text = "Flags and options are listed below in the usual order.\n" * 4_000
    docs = {f"r{n}.md": f"The {thing} was repaired by a mason." for n, thing in enumerate(
        ["town well", "old mill", "chapel roof", "grain store", "stone bridge", "harbour wall",
         "clock tower", "east wing", "north gate", "town gate"]
    )}  # fmt: skip
    write(folder, docs)
    (folder / "long.md").write_text(
        f"{long_text}\n\nThe east gate was repaired by Caspar Moll.\n\n{long_text}", "utf-8"
    )
    question = "In which town was the person who repaired the east gate born?"
    lm = ScriptedLM(lambda request: "NONE")
    with MultiDocRLM(folder, lm, lm, store_path=tmp_path / "c.sqlite", cache=False) as rlm:
        rlm.build_index(parallel=False, llm_meta=False)
        tools = CorpusTools(rlm.index, lm, Gateway())
        assert "long.md" not in [d for d, _ in tools.ranked(question, 8)]  # (by words alone)
        assert phrased_documents(tools, question) == ["long.md"]
        ranked, _, chunks = candidates(tools, question, 8, 1_800)
    assert "long.md" in ranked and any("east gate was repaired" in c.text for c in chunks)
    assert phrases("Who sent the barrels of tar to Corrin?") == [
        "sent the barrels",
        "barrels of tar",
        "tar to Corrin",
    ]  # (not `Who sent`: a stop word)


@pytest.mark.parametrize("garble", [True, False])
def test_a_second_hop_reply_not_naming_what_it_looked_up_is_dropped(tmp_path, garble):
    folder = tmp_path / "ships"
    write(
        folder,
        {
            "a.md": "The Iron Gull carried the chests of tea to Penhallow.\n\n"
            "Tea was scarce that winter in every port.",
            "b.md": "The captain of the Iron Gull was Nell Ashgrove.",
            "c.md": "The captain of the Amber Swift was Caspar Moll.",
        },
        pad=30,  # (the second hop reads other passages of a.md than the first round)
    )

    def reads(request) -> str:
        line = next(iter(shown(request)), "NONE")
        if garble and "(Known:" in request.messages[-1]["content"] and "carried" in line:
            return "Tea was scarce that winter in every port."  # (true, and off the point)
        return line

    question = "Who was the captain of the ship that carried the chests of tea to Penhallow?"
    answer = ask(folder, tmp_path, reads, question)
    assert answer.text.splitlines()[0] == "The captain of the Iron Gull was Nell Ashgrove. [1]"
    assert all("scarce" not in c.text for c in answer.citations)


def test_a_long_section_is_read_where_it_holds_the_question_not_from_its_start(tmp_path):
    folder = tmp_path / "logs"
    verse = "The captain walked the ship from stem to stern and back again.\n" * 300
    write(folder, {}, fillers=3)
    (folder / "log.md").write_text(
        f"# Log\n\n## One long watch\n\n{verse}The North Wren carried the barrels of tar to "
        f"Corrin.\n\n{verse}",
        "utf-8",
    )
    question = "Who was the captain of the ship that carried the barrels of tar to Corrin?"
    lm = ScriptedLM(lambda request: "NONE")
    with MultiDocRLM(folder, lm, lm, store_path=tmp_path / "c.sqlite", cache=False) as rlm:
        rlm.build_index(parallel=False, llm_meta=False)
        tools = CorpusTools(rlm.index, lm, Gateway())
        spans = tools.passages("log.md", question, 4 * 1_800)
        text = (folder / "log.md").read_text("utf-8")
    assert sum(e - s for s, e in spans) <= 4 * 1_800
    assert any("barrels of tar" in text[s:e] for s, e in spans)


def test_a_tiny_models_not_that_its_sentence_does_not_say_gives_way_to_the_sentence(tmp_path):
    folder = tmp_path / "ships"
    write(folder, {"a.md": "The captain of the North Wren was Ruan Vesey."})

    def denies(request) -> str:
        return "The captain of the North Wren was not Ruan Vesey."

    answer = ask(folder, tmp_path, denies, "Who was the captain of the North Wren?")
    assert answer.text.splitlines()[0] == "The captain of the North Wren was Ruan Vesey. [1]"


def test_the_chain_holding_the_question_leads_with_its_answering_side(tmp_path):
    """The first round reads a captain's sentence and a ship named like the cargo (`Salt Finch`);
    the chain whose two sentences hold the question (the Red Kestrel's) wins, and of its two
    sentences the one that answers (its captain) leads."""
    folder = tmp_path / "ships"
    write(
        folder,
        {
            "a.md": "The captain of the Red Kestrel was Mara Quell.",
            "b.md": "The captain of the Salt Finch was Bria Tolland.",
            "c.md": "The Salt Finch carried the kegs of nails to Ostley.",
            "d.md": "The Red Kestrel carried the sacks of salt to Tarrow.",
        },
        pad=30,
    )

    def misses_d_at_first(request) -> str:  # (the first round reads d.md as saying nothing)
        line = next(iter(shown(request)), "NONE")
        known = "(Known:" in request.messages[-1]["content"]
        return "NONE" if "sacks of salt" in line and not known else line

    question = "Who was the captain of the ship that carried the sacks of salt to Tarrow?"
    answer = ask(folder, tmp_path, misses_d_at_first, question)
    assert set(answer.stats["second_hop"]) >= {"Red Kestrel", "Salt Finch"}
    assert answer.text.splitlines()[0] == "The captain of the Red Kestrel was Mara Quell. [1]"


def test_a_first_hop_passage_a_model_finds_no_answer_in_still_leads_the_chain(tmp_path):
    """A model that answers only what a passage settles says NONE of every passage of the first
    round (none names the captain of the ship that carried the tea): for a chain question, the
    passage's sentence holding most of the question stands in, and the second hop, knowing the
    ship, follows it to its captain."""
    folder = tmp_path / "ships"
    write(
        folder,
        {
            "a.md": "The Iron Gull carried the chests of tea to Penhallow.",
            "b.md": "The captain of the Iron Gull was Nell Ashgrove.",
            "c.md": "The captain of the Amber Swift was Caspar Moll.",
            "d.md": "The Amber Swift carried the bales of wool to Penhallow.",
        },
        pad=30,
    )

    def strict(request) -> str:  # (a captain's sentence once the ship is known, else nothing)
        if "(Known:" not in request.messages[-1]["content"]:
            return "NONE"
        return next((line for line in shown(request) if "captain" in line), "NONE")

    question = "Who was the captain of the ship that carried the chests of tea to Penhallow?"
    answer = ask(folder, tmp_path, strict, question)
    assert answer.stats["second_hop"][0] == "Iron Gull"
    assert answer.text.splitlines()[0] == "The captain of the Iron Gull was Nell Ashgrove. [1]"
