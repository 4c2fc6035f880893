"""The document store: exact range reads across blocks, identity by content, sections, FTS, resume."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from longread.store.docstore import DocStore, content_hash

TEXT = "Größe – naïve café ✓ 日本語のテキスト 🚀 " * 40  # multi-byte and astral characters


def test_read_range_returns_exactly_the_characters_across_block_boundaries(tmp_path):
    store = DocStore(tmp_path / "i.sqlite", block_chars=97)
    doc = store.add_document("a.txt", "text", TEXT)
    for start, end in [(0, 10), (90, 200), (96, 97), (97, 98), (500, 1_000), (len(TEXT) - 5, len(TEXT) + 50)]:
        assert store.read_range(doc, start, end) == TEXT[start:end]
    assert store.read_range(doc, 50, 40) == ""
    assert "".join(body for _, body in store.iter_blocks(doc)) == TEXT


@settings(max_examples=60, deadline=None)
@given(text=st.text(min_size=1, max_size=600), a=st.integers(0, 700), b=st.integers(0, 700))
def test_read_range_property(tmp_path_factory, text, a, b):
    store = DocStore(tmp_path_factory.mktemp("s") / "i.sqlite", block_chars=13)
    doc = store.add_document("x", "text", text)
    assert store.read_range(doc, a, b) == text[a:b]


def test_unchanged_text_is_reused_and_changed_text_is_new(tmp_path):
    store = DocStore(tmp_path / "i.sqlite")
    first = store.add_document("a.txt", "text", "version one")
    assert store.add_document("renamed.txt", "text", "version one") == first
    assert store.find(content_hash("version one")) == first
    second = store.add_document("a.txt", "text", "version two")
    assert second != first and store.document(second)["chars"] == len("version two")


def test_sections_search_and_resumable_summaries(tmp_path):
    text = "Intro about nothing. " * 5 + "Termination: either party may end this agreement. " * 3 + "Fees are due monthly. " * 4
    store = DocStore(tmp_path / "i.sqlite")
    doc = store.add_document("c.txt", "text", text)
    intro, term = 105, 105 + 51 * 3
    ids = store.save_sections(doc, [(None, "Contract", 1, 0, len(text)), (0, "Intro", 2, 0, intro),
                                    (0, "Termination", 2, intro, term), (0, "Fees", 2, term, len(text))])
    rows = store.sections(doc)
    assert [r.title for r in rows] == ["Contract", "Intro", "Termination", "Fees"]
    assert rows[2].parent_id == ids[0] and rows[0].parent_id is None
    best = store.search_sections(doc, "terminate agreement termination", k=2)
    assert best[0][0] == ids[2] or best[1][0] == ids[2]
    assert ids[3] not in [sid for sid, _ in best]

    store.put_summary(ids[1], "An introduction.", ["intro"], "local:test")
    store.close()
    reopened = DocStore(tmp_path / "i.sqlite")  # a killed build, run again
    assert [s.title for s in reopened.unsummarized(doc)] == ["Contract", "Termination", "Fees"]
    assert reopened.summaries(doc)[ids[1]] == ("An introduction.", ["intro"])


def test_remove_document_leaves_nothing_behind(tmp_path):
    store = DocStore(tmp_path / "i.sqlite")
    doc = store.add_document("a.txt", "text", "alpha beta gamma")
    ids = store.save_sections(doc, [(None, "All", 1, 0, 16)])
    store.put_summary(ids[0], "s", [], "m")
    store.remove_document(doc)
    counts = [store.db.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
              for t in ("documents", "text_blocks", "sections", "summaries", "section_fts")]
    assert counts == [0, 0, 0, 0, 0]
