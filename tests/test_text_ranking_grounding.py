"""The text functions every citation rests on: BM25 ranking (which passage is read) and grounding
(whether an answer's words are in the passage, and which sentence it rests on)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from longread.text.grounding import grounded_span, is_grounded, says_nothing, supporting_span
from longread.text.rank import bm25_scores, focus_lines, sentences, stem, terms

LEASE = [
    "The tenant pays rent on the first day of each month.",
    "Either party may end this lease by termination notice of ninety days.",
    "The landlord repairs the roof and the heating system.",
    "Rent is paid by bank transfer to the landlord's account.",
]


def best(query: str, texts: list[str]) -> int:
    scores = bm25_scores(query, texts)
    return max(range(len(texts)), key=scores.__getitem__)


def test_the_passage_about_the_question_ranks_first():
    assert best("how can the lease be ended by termination notice", LEASE) == 1
    assert best("who repairs the heating", LEASE) == 2


def test_a_rare_word_outweighs_a_common_one():
    texts = ["rent rent rent rent due", "rent and a deposit", "rent is due", "rent paid"]
    # "rent" is in every text, "deposit" in one: the deposit text wins despite fewer rent words
    assert best("rent deposit", texts) == 1


def test_a_shorter_text_with_the_same_count_scores_higher():
    short, long = "arbitration clause", "arbitration " + "filler words here " * 30
    scores = bm25_scores("arbitration", [short, long, "unrelated text"])
    assert scores[0] > scores[1] > 0 == scores[2]


def test_repeating_a_word_helps_with_diminishing_returns():
    once, twice, ten = bm25_scores(
        "penalty", ["penalty x x x x x x x x x", "penalty penalty x x x x x x x x", "penalty " * 10]
    )
    assert once < twice < ten < 10 * once


def test_stems_and_stop_words():
    assert stem("witches") == "witch" and stem("ordered") == "order" and stem("glass") == "glass"
    assert terms("The witches ordered") == ["witch", "order"]
    assert bm25_scores("the of and which", LEASE) == [0.0] * len(LEASE)
    assert best("witch", ["a wizard", "three witches met", "no one"]) == 1


def test_no_texts_and_no_match():
    assert bm25_scores("anything", []) == []
    assert bm25_scores("zeppelin", LEASE) == [0.0] * len(LEASE)


words = st.sampled_from(
    ["rent", "lease", "notice", "roof", "tenant", "landlord", "bank", "deposit", "clause", "party"]
)
texts_of_words = st.lists(st.lists(words, max_size=12).map(" ".join), min_size=1, max_size=8)


@given(texts_of_words, st.lists(words, min_size=1, max_size=4), st.lists(words, max_size=4))
def test_scores_never_fall_when_a_query_gains_words(texts, query, more):
    before = bm25_scores(" ".join(query), texts)
    after = bm25_scores(" ".join(query + more), texts)
    assert len(before) == len(texts) and all(s >= 0 for s in before)
    assert all(a >= b - 1e-9 for a, b in zip(after, before, strict=True))


@given(texts_of_words, st.lists(words, min_size=1, max_size=4), st.randoms())
def test_scores_do_not_depend_on_the_order_of_the_texts(texts, query, random):
    order = list(range(len(texts)))
    random.shuffle(order)
    scores = bm25_scores(" ".join(query), texts)
    shuffled = bm25_scores(" ".join(query), [texts[i] for i in order])
    assert all(abs(shuffled[n] - scores[i]) < 1e-9 for n, i in enumerate(order))


def test_focus_lines_keeps_the_relevant_sentences_and_drops_headings():
    text = "Payment\n=======\n\nRent is due monthly. The roof leaks.\nThe deposit is two months."
    assert "Payment" not in sentences(text)
    assert focus_lines(text, "how large is the deposit", k=1) == "The deposit is two months."


def test_a_sentence_does_not_end_at_an_abbreviation_or_an_initial():
    text = "The toll at St. Ives was 40 pence. Then Dr. J. Smith came; he left!"
    assert sentences(text) == [
        "The toll at St. Ives was 40 pence.",
        "Then Dr. J. Smith came;",
        "he left!",
    ]


# -- grounding --------------------------------------------------------------------------------
SOURCE = (
    "The parties met in Geneva in March. The agreement runs for five years from signing. "
    "Payments are due in Swiss francs. Disputes go to arbitration in Zurich."
)


def test_replies_that_say_nothing():
    for reply in (
        "NONE",
        "  none.",
        "Not mentioned.",
        "The text does not say.",
        "",
        "No information",
    ):
        assert says_nothing(reply), reply
    for reply in ("Five years.", "Nonetheless, Zurich.", "Zurich"):
        assert not says_nothing(reply), reply


def test_an_answer_is_grounded_only_by_words_in_the_source():
    question = "How long does the agreement run?"
    assert is_grounded("It runs for five years.", SOURCE, question)
    assert not is_grounded("It runs for seven decades in Paris.", SOURCE, question)
    # only the question's own words (and words about reading) are no evidence
    assert not is_grounded("The agreement runs, the text says.", SOURCE, question)


def test_the_span_is_the_supporting_sentence():
    span = grounded_span("Arbitration in Zurich.", SOURCE, "Where do disputes go?")
    assert span is not None
    assert SOURCE[span[0] : span[1]] == "Disputes go to arbitration in Zurich."


def test_words_scattered_far_apart_or_off_topic_are_no_grounding():
    far = "Geneva is lovely. " + "Nothing here. " * 40 + "Francs are money."
    assert grounded_span("Geneva francs", far, "What currency?", window=100) is None
    # the answer's words are present, but nowhere near anything the question asks about
    assert grounded_span("Swiss francs", SOURCE, "Who is the landlord?") is None
    assert grounded_span("Swiss francs", SOURCE, "Which currency are payments due in?") is not None


@given(st.text(alphabet="ab .\n", max_size=80), st.text(alphabet="ab ", min_size=1, max_size=10))
def test_a_supporting_span_is_a_trimmed_piece_of_the_source(source, answer):
    span = supporting_span(answer, source, "")
    if span is not None:
        start, end = span
        assert 0 <= start < end <= len(source)
        assert source[start:end] == source[start:end].strip()
