"""Data files as users are given them: a JSON object wrapping a list of records, codes written
with leading zeros, a server's error log, reviews whose keys are namespaced, a headerless file of
labelled messages, a lock file, JSON lines of nested objects. The statements are the test's,
written by a scripted stand-in for the code model (see statements); gold answers are computed by
the test's own code (the standard library's `json`, `re`)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

from counted import answered, ask
from longread.ingest.records import find_tables
from longread.ingest.records.cells import typed

REGIONS = ["Europe", "Asia", "Africa", "Oceania"]


def write_wrapped(path, count: int = 40) -> list[dict[str, str]]:
    """A standard's list of codes, as iso-codes writes it: one object holding the list."""
    chance = random.Random(9)
    items = [
        {"alpha_3": f"C{n:02}", "name": f"Land {n}", "numeric": f"{n * 7:03}",
         "region": chance.choice(REGIONS)}
        for n in range(count)
    ]  # fmt: skip
    path.write_text(json.dumps({"3166-1": items}, indent=2), encoding="utf-8")
    return items


def test_an_object_wrapping_a_list_is_no_record_its_items_are(tmp_path):
    path = tmp_path / "iso_codes.json"
    items = write_wrapped(path)
    [table] = find_tables(path.read_text(encoding="utf-8"), path.name)
    assert len(table.starts) == len(items)
    numeric = [c.name for c in table.columns].index("numeric")
    assert table.values[numeric] == [item["numeric"] for item in items]  # (codes, as written)
    sql = "SELECT count(*) FROM json"
    assert ask(path, "How many countries are listed?", tmp_path, sql) == str(len(items))
    asia = sum(item["region"] == "Asia" for item in items)
    sql = "SELECT count(*) FROM json WHERE region = 'Asia'"
    assert ask(path, "How many countries are in Asia?", tmp_path, sql) == str(asia)


def test_digits_with_leading_zeros_are_codes_and_other_digits_numbers():
    assert typed(["008", "840", "036", "124"]) == ("text", ["008", "840", "036", "124"])
    assert typed(["8", "840", "36", "0"]) == ("number", [8, 840, 36, 0])


def test_the_clients_of_a_servers_error_log_are_a_column(tmp_path):
    chance = random.Random(4)
    lines = [
        f"[Wed Oct {chance.randint(10, 28)} 10:{n % 60:02}:00 2000] "
        f"[{chance.choice(['error', 'notice'])}]"
        f" [client 10.0.0.{chance.randint(1, 9)}] File does not exist: /var/www/{n}"
        for n in range(80)
    ]
    path = tmp_path / "error_log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    clients = Counter(re.findall(r"\[client ([\d.]+)\]", path.read_text(encoding="utf-8")))
    (top, most), (_, second) = clients.most_common(2)
    sql = "SELECT client, count(*) AS n FROM client GROUP BY client ORDER BY n DESC LIMIT 1"
    answer = answered(path, "Which client appears most often?", tmp_path, sql)
    assert most > second and answer.mode == "aggregate", answer.text
    assert answer.text.splitlines()[0] == top, answer.text
    assert f"{top} | {most}" in answer.text, answer.text  # (the result's row, as code counted)
    assert answer.citations and all(f"[client {top}]" in c.text for c in answer.citations)


def test_fields_keyed_in_a_namespace_are_a_record_s_columns(tmp_path):
    chance = random.Random(12)
    reviews = [
        (
            f"B00{chance.randint(1, 6)}X",
            chance.choice([1.0, 3.0, 5.0, 5.0]),
            chance.choice(["Ann", "Bo"]),
        )
        for _ in range(30)
    ]
    path = tmp_path / "reviews.txt"
    path.write_text(
        "".join(
            f"product/productId: {p}\nreview/profileName: {who}\nreview/score: {score}\n"
            f"review/text: It was fine, and then it was not.\n\n"
            for p, score, who in reviews
        ),
        encoding="utf-8",
    )
    fives = sum(score == 5.0 for _, score, _ in reviews)
    sql = "SELECT count(*) FROM reviews WHERE review_score = 5"
    assert ask(path, "How many reviews gave a score of 5?", tmp_path, sql) == str(fives)
    (top, most), (_, second) = Counter(p for p, _, _ in reviews).most_common(2)
    sql = (
        "SELECT product_productid, count(*) AS n FROM reviews"
        " GROUP BY product_productid ORDER BY n DESC LIMIT 1"
    )
    said = ask(path, "Which product has the most reviews?", tmp_path, sql)
    assert most > second and said == top, said


def test_a_first_row_whose_value_recurs_below_is_data_not_a_header(tmp_path):
    chance = random.Random(13)
    labels = [chance.choice(["ham"] * 5 + ["spam"]) for _ in range(60)]
    path = tmp_path / "SMSSpamCollection"
    path.write_text("".join(f"{label}\tSee you at {n} then.\n" for n, label in enumerate(labels)))
    sql = "SELECT count(*) FROM smsspamcollection"
    said = ask(path, "How many messages are in the collection?", tmp_path, sql)
    assert said == str(len(labels)), said
    sql = "SELECT count(*) FROM smsspamcollection WHERE category = 'spam'"
    assert ask(path, "How many messages are spam?", tmp_path, sql) == str(labels.count("spam"))


def write_lock(path) -> dict[str, dict[str, dict[str, str]]]:
    """A lock file as pipenv writes it: packages kept under their names, in two maps."""
    chance = random.Random(14)
    names = [
        f"{a}{b}"
        for a in ("py", "lib", "django-", "sphinx-")
        for b in ("asn1", "yaml", "six", "ext")
    ]
    names += [f"{name}-extra{n}" for n, name in enumerate(names)]  # (enough for a count by code)
    lock: dict[str, dict[str, dict[str, str]]] = {"default": {}, "develop": {}}
    for n, package in enumerate(names):
        entry = {"version": f"=={chance.randint(0, 9)}.{n}", "hashes": ["sha256:ab", "sha256:cd"]}
        if chance.random() < 0.5:
            entry["index"] = "pypi"
        lock["default" if n < 2 else "develop"][package] = entry
    meta = {"hash": {"sha256": "ef"}, "requires": {"python_version": "3.6"}, "sources": []}
    path.write_text(json.dumps({"_meta": meta, **lock}, indent=4), encoding="utf-8")
    return lock


def test_objects_kept_under_their_names_are_rows_named_so(tmp_path):
    path = tmp_path / "Pipfile.lock"
    lock = write_lock(path)
    [table] = find_tables(path.read_text(encoding="utf-8"), path.name)
    names = table.values[[c.name for c in table.columns].index("name")]
    assert names == [*lock["default"], *lock["develop"]]  # (the small map joins the large)
    pinned = len(lock["default"]) + len(lock["develop"])
    sql = "SELECT count(*) FROM develop"
    assert ask(path, "How many packages are pinned in the lock file?", tmp_path, sql) == str(pinned)
    sql = "SELECT count(*) FROM develop WHERE \"group\" = 'develop'"
    said = ask(path, "How many packages are in the develop section?", tmp_path, sql)
    assert said == str(len(lock["develop"])), said


def test_a_line_whose_fields_are_all_objects_is_still_one_record():
    lines = "".join(
        json.dumps({"user": {"id": n, "name": f"u{n}"}, "geo": {"lat": n}}) + "\n" for n in range(8)
    )
    [table] = find_tables(lines, "events.jsonl")
    assert len(table.starts) == 8
    assert table.values[[c.name for c in table.columns].index("user_name")] == [
        f"u{n}" for n in range(8)
    ]


def test_an_object_longer_than_the_window_it_is_first_read_from_is_read_whole():
    long_note = "x" * 70_000  # (past the first window a value is read from)
    items = [{"id": n, "note": long_note if n == 2 else f"n{n}"} for n in range(8)]
    text = "[\n" + ",\n".join(json.dumps(item) for item in items) + "\n]\n"
    [table] = find_tables(text, "items.json")
    assert len(table.starts) == len(items)
    note = [c.name for c in table.columns].index("note")
    assert table.values[note][2] == long_note
