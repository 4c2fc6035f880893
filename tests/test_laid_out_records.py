"""Records laid out as engineers' files lay them out: columns aligned by spaces under a header (a
command's output), a checklist, `key: value` fields inside log lines, a config file aligned by
tabs with `#` comments, a table of one row under a rule, an HTML table with a header row. Each
asked as a user would, the statement the test's, written by a scripted stand-in for the code model
(see statements); every gold answer is computed here by string code of the test's own."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from counted import answered, ask
from longread.ingest.html import load_html
from longread.ingest.records import find_tables

STATES = ["Running"] * 5 + ["Pending", "CrashLoopBackOff", "Completed"]


def write_pods(path: Path) -> list[tuple[str, str, int]]:
    """`kubectl get pods` as it prints them; the (name, status, restarts) it wrote."""
    chance = random.Random(3)
    pods = [
        (f"{chance.choice(['api', 'web', 'db'])}-{n:04x}-{chance.randrange(16**5):05x}",
         chance.choice(STATES), chance.choice([0, 0, 1, 3, 12, 40]))
        for n in range(30)
    ]  # fmt: skip
    lines = ["NAME                  READY   STATUS             RESTARTS   AGE"]
    lines += [f"{n:<22}{'1/1':<8}{s:<19}{r:<11}{r + 2}d" for n, s, r in pods]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return pods


def write_processes(path: Path) -> list[str]:
    """`ps aux` as it prints it (a right-set number under each number's name, a command with
    spaces last); the users it wrote, a row each."""
    users = ["root"] * 6 + ["www-data"] * 3 + ["postgres"] * 2
    lines = ["USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND"]
    for n, user in enumerate(users):
        pid = 10 ** (n % 5) + n
        lines.append(
            f"{user:<9}{pid:>7}  0.{n}  1.{n} {1000 * n:>6} {90 * n:>5} ?        Ss   Nov26"
            f"   0:0{n % 10} /usr/bin/worker --queue q{n} --verbose"
        )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return users


def test_columns_aligned_under_a_header_are_a_table_each_field_under_its_name(tmp_path):
    listing = tmp_path / "processes.txt"
    users = write_processes(listing)
    [table] = find_tables(listing.read_text(encoding="utf-8"), listing.name)
    names = [c.name for c in table.columns]
    assert names[:3] == ["user", "pid", "cpu"] and names[-1] == "command"
    assert table.values[0] == users
    assert table.values[names.index("command")][4] == "/usr/bin/worker --queue q4 --verbose"
    assert table.values[1][3] == 1003  # (a number set right, wider than its name)
    (top, most), (_, second) = Counter(users).most_common(2)
    sql = "SELECT user, count(*) AS n FROM processes GROUP BY user ORDER BY n DESC LIMIT 1"
    said = ask(listing, "Which user runs the most processes?", tmp_path, sql)
    assert most > second and said == top, said


def test_prose_of_capitalized_words_is_no_aligned_table():
    prose = "The Old Harbour Road\n" + "It runs along the water and past the mill to town.\n" * 8
    assert find_tables(prose, "notes.txt") == []


def _most_restarted(pods: list[tuple[str, str, int]]) -> set[str]:
    most = max(restarts for _, _, restarts in pods)
    return {name for name, _, restarts in pods if restarts == most}


@pytest.mark.parametrize(
    ("question", "sql", "gold"),
    [
        (
            "How many pods are Running?",
            "SELECT count(*) FROM pods WHERE status = 'Running'",
            lambda pods: {str(sum(s == "Running" for _, s, _ in pods))},
        ),
        (
            "Which pod has the most restarts?",
            "SELECT name FROM pods ORDER BY restarts DESC LIMIT 1",
            _most_restarted,  # (any of those tied at the most)
        ),
    ],
)
def test_a_command_s_output_is_counted_by_its_columns(tmp_path, question, sql, gold):
    listing = tmp_path / "pods.txt"
    pods = write_pods(listing)
    assert ask(listing, question, tmp_path, sql) in gold(pods)


def test_a_checklist_s_tasks_are_rows_done_or_open_and_whose(tmp_path):
    items = [("x", "Write the parser", "@ana"), (" ", "Fix the login", "@ben")]
    items += [("x", "Update the docs", "@ben"), (" ", "Add an export", "@ana")]
    items += [("X", "Rotate the keys", "@chloe"), ("x", "Plan the sprint", "@ana")]
    board = tmp_path / "board.md"
    board.write_text(
        "# Sprint\n\n" + "\n".join(f"- [{m}] {t} {w}" for m, t, w in items) + "\n",
        encoding="utf-8",
    )
    done = sum(m.lower() == "x" for m, _, _ in items)
    sql = "SELECT count(*) FROM task WHERE status = 'done'"
    assert ask(board, "How many tasks are done?", tmp_path, sql) == str(done)
    ana = sum(w == "@ana" for _, _, w in items)
    sql = "SELECT count(*) FROM task WHERE who = '@ana'"
    assert ask(board, "How many tasks are assigned to @ana?", tmp_path, sql) == str(ana)


def test_key_value_fields_inside_log_lines_are_columns(tmp_path):
    log = tmp_path / "error.log"
    lines = [
        f"2024/03/{1 + n % 28:02d} 10:{n % 60:02d}:00 [{'error' if n % 3 else 'warn'}] 77#0: "
        f'*{n} open() "/srv/{n}.js" failed (2: No such file), client: 10.0.0.{n % 4}, '
        f"server: example.org"
        for n in range(40)
    ]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [table] = find_tables(log.read_text(encoding="utf-8"), log.name)
    assert {"client", "server"} <= {c.name for c in table.columns}
    clients = Counter(line.split("client: ")[1].split(",")[0] for line in lines)
    most = max(clients.values())
    sql = "SELECT client, count(*) AS n FROM log GROUP BY client ORDER BY n DESC LIMIT 1"
    answer = answered(log, "Which client made the most failed requests?", tmp_path, sql)
    top = answer.text.splitlines()[0]
    assert answer.mode == "aggregate" and clients[top] == most, answer.text  # (any tied)
    assert f"{top} | {most}" in answer.text, answer.text  # (the result's row, as code counted)
    errors = sum("[error]" in line and "client: 10.0.0.3," in line for line in lines)
    question = "How many errors did client 10.0.0.3 get?"
    sql = "SELECT count(*) FROM log WHERE client = '10.0.0.3' AND level = 'error'"
    assert ask(log, question, tmp_path, sql) == str(errors)


def test_a_file_aligned_by_tabs_with_comments_is_a_table(tmp_path):
    rows = [("echo", "7/tcp", ""), ("echo", "7/udp", ""), ("discard", "9/tcp", "sink null")]
    rows += [("ssh", "22/tcp", ""), ("domain", "53/udp", ""), ("ntp", "123/udp", "")]
    rows += [("snmp", "161/udp", ""), ("https", "443/tcp", "")]
    lines = ["# Network services", "#"]
    lines += [
        f"{a}\t\t{p}" + (f"\t\t{x}" if x else "") + f"\t\t# the {a} service" for a, p, x in rows
    ]
    lines.append("afs3-fileserver 7000/udp")  # (a line parted by spaces among them)
    services = tmp_path / "services.txt"
    services.write_text("\n".join(lines) + "\n", encoding="utf-8")
    [table] = find_tables(services.read_text(encoding="utf-8"), services.name)
    assert [c.name for c in table.columns][-1] == "comment" and len(table) == len(rows) + 1
    udp = sum(line.split("#")[0].rstrip().split()[1].endswith("/udp") for line in lines[2:])
    sql = "SELECT count(*) FROM services WHERE path LIKE '%/udp'"
    assert ask(services, "How many services use udp?", tmp_path, sql) == str(udp)


def test_a_table_under_a_rule_is_a_table_at_any_size():
    text = "Some words first.\n\n| name | size |\n|---|---|\n| alpha | 3 |\n| beta | 4 |\n"
    [table] = find_tables(text, "notes.md")
    assert [c.name for c in table.columns] == ["name", "size"] and table.values[1] == [3, 4]
    assert find_tables("| a | b |\n| c | d |\n| e | f |\n", "notes.md") == []  # (no rule)


def test_an_html_table_s_header_row_names_its_columns_and_its_unit_is_left_out(tmp_path):
    countries = [("Norway", 5.5), ("Sweden", 10.5), ("Iceland", 0.4)]
    cells = "".join(f"<tr><td>{c}</td><td>{p}</td></tr>" for c, p in countries)
    page = tmp_path / "states.html"
    page.write_text(
        "<table><thead><tr><th>Country</th><th>Population (millions)</th></tr></thead>"
        f"<tbody>{cells}</tbody></table>",
        encoding="utf-8",
    )
    [table] = find_tables(load_html(page).text, page.name)
    assert table.values[0] == [c for c, _ in countries]
    total = round(sum(p for _, p in countries), 1)
    question = "What is the total population of the countries listed?"
    sql = "SELECT sum(population_millions) FROM states"
    assert ask(page, question, tmp_path, sql) == str(total)


def test_fields_a_comment_names_parted_by_spaces_are_a_table(tmp_path):
    jobs = ["0 2 * * * /usr/local/bin/backup.sh", "*/5 * * * * /usr/bin/check-disk"]
    jobs += ["30 6 * * 1 /opt/report/weekly.py", "15 3 * * * /usr/local/bin/backup.sh --db"]
    jobs += ["0 */4 * * * /usr/bin/sync-cache", "45 23 * * 5 /opt/report/weekly.py --mail"]
    crontab = tmp_path / "crontab.txt"
    crontab.write_text("# m h dom mon dow command\n" + "\n".join(jobs) + "\n", encoding="utf-8")
    [table] = find_tables(crontab.read_text(encoding="utf-8"), crontab.name)
    assert [c.name for c in table.columns] == ["m", "h", "dom", "mon", "dow", "command"]
    assert table.values[-1] == [job.split(None, 5)[5] for job in jobs]
    prose = "# compute the values here\n" + "x = foo(a, b, c)\n" * 6
    assert all(t.kind != "table" for t in find_tables(prose, "work.py"))


def test_a_list_s_entries_hold_names_of_any_length_and_are_what_its_file_lists(tmp_path):
    books = [("Dracula", "Bram Stoker", 1897), ("Rebecca", "Daphne du Maurier", 1938)]
    books += [("Emma", "Jane Austen", 1815), ("Possession", "A. S. Byatt", 1990)]
    books += [("Dune", "Frank Herbert", 1965), ("Persuasion", "Jane Austen", 1817)]
    books += [("Orlando", "Virginia Woolf", 1928), ("Beloved", "Toni Morrison", 1987)]
    books += [("Middlemarch", "George Eliot", 1871), ("Ulysses", "James Joyce", 1922)]
    listing = tmp_path / "books.md"
    listing.write_text(
        "# Reading list\n\n" + "".join(f"- *{t}* by {a} ({y})\n" for t, a, y in books),
        encoding="utf-8",
    )
    [table] = [t for t in find_tables(listing.read_text(encoding="utf-8"), listing.name)]
    assert len(table) == len(books)  # (`Daphne du Maurier`, `A. S. Byatt` among two-word names)
    before = sum(1 for line in listing.read_text().splitlines() if "(18" in line)
    question = "How many books on the list were published before 1900?"
    sql = "SELECT count(*) FROM records WHERE number < 1900"
    assert ask(listing, question, tmp_path, sql) == str(before)


def test_a_file_that_is_one_table_is_counted_a_name_ending_in_digits_one_word(tmp_path):
    pins = ["requests==2.31.0", "jinja2==3.1.3", "urllib3==2.2.1", "flask==3.0.2"]
    pins += ["click==8.1.7", "six==1.16.0", "idna==3.6.0"]
    frozen = tmp_path / "requirements.txt"
    frozen.write_text("\n".join(pins) + "\n", encoding="utf-8")
    [table] = find_tables(frozen.read_text(encoding="utf-8"), frozen.name)
    assert table.values[0] == [pin.split("==")[0] for pin in pins]  # (`urllib3`, one word)
    sql = "SELECT count(*) FROM records"
    assert ask(frozen, "How many packages are pinned?", tmp_path, sql) == str(len(pins))


def test_a_long_list_s_lines_are_each_one_record_once(tmp_path):
    kinds = ["application", "audio", "image", "text", "video"]
    types = [
        f"{kinds[n % 5]}/x-format-{n}" + (f"\t\t\text{n}" if n % 3 else "") for n in range(2100)
    ]
    listing = tmp_path / "types.txt"
    listing.write_text("# Media types\n\n" + "\n".join(types) + "\n", encoding="utf-8")
    found = find_tables(listing.read_text(encoding="utf-8"), listing.name)
    spans = [span for table in found for span in zip(table.starts, table.ends, strict=True)]
    assert len(spans) == len(set(spans)) == len(types)  # (a line is one record, once)
    video = sum(1 for t in types if t.startswith("video/"))
    sql = "SELECT count(*) FROM records WHERE code LIKE 'video/%'"
    assert ask(listing, "How many video types are listed?", tmp_path, sql) == str(video)


def test_a_stamp_whose_time_a_colon_follows_parts_no_line_into_fields():
    lines = [
        f"update-alternatives 2025-06-{10 + n} 14:36:{n:02}: "
        + ("link group pager updated" if n % 2 else f"run with --install /usr/bin/tool{n}")
        for n in range(12)
    ]
    [table] = find_tables("\n".join(lines) + "\n", "alternatives.log")
    assert table.kind == "template" and len(table) == 12
    assert any(c.type.value == "date" for c in table.columns)


def test_a_tally_s_lines_are_a_count_and_a_name_each(tmp_path):
    chance = random.Random(18)
    authors = ["Ada Lovelace", "Grace Hopper", "Alan Turing", "Ken Thompson", "Barbara Liskov"]
    tally = sorted(((chance.randint(1, 400), name) for name in authors), reverse=True)
    path = tmp_path / "shortlog.txt"  # (`git shortlog -sn`)
    path.write_text("".join(f"{n:6}\t{name}\n" for n, name in tally), encoding="utf-8")
    (most, top), (second, _) = tally[0], tally[1]
    sql = "SELECT name FROM records ORDER BY number DESC LIMIT 1"
    assert most > second and ask(path, "Who has the most commits?", tmp_path, sql) == top
    total = sum(n for n, _ in tally)
    sql = "SELECT sum(number) FROM records"
    assert ask(path, "How many commits are there in total?", tmp_path, sql) == str(total)


def test_a_row_of_totals_under_a_table_is_no_record(tmp_path):
    chance = random.Random(19)
    spent = [
        (m, c, chance.randint(10, 900)) for m in ("Jan", "Feb", "Mar") for c in ("Rent", "Food")
    ]
    total = sum(a for _, _, a in spent)
    rows = "\n".join(f"| {m} | {c} | {a} |" for m, c, a in spent)
    ledger = tmp_path / "ledger.md"
    ledger.write_text(
        f"# Expenses 2024\n\n| Month | Category | Amount |\n|---|---|---|\n{rows}\n"
        f"| **Total** | | **{total}** |\n",
        encoding="utf-8",
    )
    sql = "SELECT sum(amount) FROM expenses_2024"
    assert ask(ledger, "What is the total amount?", tmp_path, sql) == str(total)
    sql = "SELECT count(*) FROM expenses_2024"
    assert ask(ledger, "How many expenses are listed?", tmp_path, sql) == str(len(spent))
    small = [("a", 5), ("b", 3), ("c", 2)]
    listing = "| Name | Value |\n|---|---|\n" + "\n".join(f"| {n} | {v} |" for n, v in small)
    [table] = find_tables(listing + "\n| d | 10 |\n", "values.md")
    assert len(table) == 4  # (a last row summing the others, 10, set apart by nothing, stays)
