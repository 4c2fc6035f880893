"""Grep over many documents: the candidates a joined search finds include every document a search
of each document alone would match, whatever the pattern and wherever windows and blocks fall."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from longread.text.grep import candidate_documents
from longread.text.patterns import IndexTerm, compile_search, index_terms

PATTERNS = ["a", "ab", "a.b", r"b\s+a", "x*", "[^y]+y", "(?s)a.*b", "xa$", "^b"]
documents = st.lists(st.text(alphabet="ab\n xyé", max_size=30), min_size=1, max_size=12)


def rows(texts: list[str], block: int) -> list[tuple[str, int, str]]:
    """(doc id, offset, block) rows of the texts, cut into blocks of `block` characters."""
    return [
        (f"d{n:02d}", start, text[start : start + block])
        for n, text in enumerate(texts)
        for start in range(0, max(len(text), 1), block)
        if text
    ]


@settings(max_examples=300)
@given(documents, st.sampled_from(PATTERNS), st.integers(1, 9), st.integers(1, 40))
def test_candidates_cover_every_matching_document_in_order(texts, pattern, block, window):
    regex = compile_search(pattern)
    table = rows(texts, block)
    matching = [  # (grep reports no empty match)
        f"d{n:02d}"
        for n, text in enumerate(texts)
        if any(e > s for s, e, _ in regex.finditer(text))
    ]
    candidates = list(candidate_documents(regex, table, window_chars=window))
    assert candidates == sorted(set(candidates))  # in order, each once
    assert set(matching) <= set(candidates)  # (a search of each document alone finds no more)


def test_a_rare_literal_in_many_documents_leaves_few_candidates():
    texts = ["plain words here"] * 500 + ["the quokka-zeppelin treaty"] + ["more words"] * 500
    regex = compile_search("QUOKKA-ZEPPELIN")
    assert list(candidate_documents(regex, rows(texts, 7), window_chars=1_000)) == ["d500"]
    regex = compile_search(r"quokka-\w+ treaty")
    assert list(candidate_documents(regex, rows(texts, 7), window_chars=1_000)) == ["d500"]


def test_index_terms_are_the_words_a_full_text_index_holds_in_every_match():
    whole = lambda *words: [IndexTerm(w, True) for w in words]  # noqa: E731
    assert index_terms(r"QZX-\d{4}-RARE-TOKEN-\d{4}") == whole("rare", "token")  # not QZX: "aQZX"
    assert index_terms(r"the (quokka)-zeppelin treaty") == [
        IndexTerm("zeppelin", True),
        IndexTerm("treaty", False),  # the start of a word: "treatyx" holds it too
    ]
    assert index_terms(r" Porter\.") == whole("porter")
    assert index_terms(r" Porter.") == [IndexTerm("porter", False)]  # (`.` may be a letter)
    assert index_terms(r" ca\w") == []  # (too short a start to narrow a search)
    assert index_terms("-a_b-") == whole("a", "b")  # (an index splits words at `_`)
    assert index_terms("-AbC-?") == [IndexTerm("abc", False)]  # (the second `-` may be absent)
    for pattern in ["x|-y-", "éRAREé", "(?:-ab-)*", "[", r"\p{L}"]:
        assert index_terms(pattern) == [], pattern
