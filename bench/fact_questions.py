"""Thirty fact questions over real manuals and licences of this machine (the man pages of tar,
ssh, sed, find, grep, bash and curl as `man` renders them, the GPL-3 and Apache-2.0 texts), each
gold answer checked by hand against the text (alternatives separated by `|`). Writes the
documents and a task file, runs `longread eval` with the default set-up (or --model/--mode) and
writes its table into docs/bench-facts.md.

    python bench/fact_questions.py [--out DIR] [--model SPEC] [--mode M]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from pages import write_page

LICENCES = Path("/usr/share/common-licenses")
PAGES = ("tar", "ssh", "sed", "find", "grep", "bash", "curl")
QUESTIONS = [  # (document, question, gold answers)
    ("tar.txt", "Which tar option lists the contents of an archive?", "-t|--list"),
    ("tar.txt", "Which tar option extracts files from an archive?", "-x|--extract|--get"),
    ("tar.txt", "Which tar option changes to a directory before doing anything?", "-C|--directory"),
    ("ssh.txt", "Which ssh option forwards connections from an authentication agent?", "-A"),
    ("ssh.txt", "Which ssh option requests compression of all data?", "-C"),
    ("ssh.txt", "Which file lists the public keys permitted for logging in?", "authorized_keys"),
    ("sed.txt", "Which sed option edits files in place?", "-i|--in-place"),
    ("sed.txt", "How do I stop sed from printing the pattern space automatically?", "-n|--quiet"),
    ("sed.txt", "Which sed option reads the script from a file?", "-f|--file"),
    (
        "find.txt",
        "Which find option keeps it off directories on other filesystems?",
        "-xdev|-mount",
    ),
    ("find.txt", "Which find action removes the files it finds?", "-delete"),
    ("find.txt", "Which find test looks at when a file's data was last modified?", "-mtime|-mmin"),
    ("grep.txt", "Which grep option prints only a count of matching lines?", "-c|--count"),
    ("grep.txt", "How do I make grep ignore the case of letters?", "-i|--ignore-case|-y"),
    ("grep.txt", "Which environment variable sets the colors grep highlights with?", "GREP_COLORS"),
    ("grep.txt", "Which grep option selects the lines that do not match?", "-v|--invert-match"),
    (
        "bash.txt",
        "Which shell option makes globs match file names that start with a dot?",
        "dotglob",
    ),
    ("bash.txt", "Which variable holds the process ID of the shell's parent?", "PPID"),
    ("bash.txt", "Which variable holds the search path for the cd command?", "CDPATH"),
    ("bash.txt", "Which file does an interactive shell that is not a login shell read?", "bashrc"),
    ("curl.txt", "Which curl option makes it follow redirects?", "-L|--location"),
    ("curl.txt", "Which curl option adds an extra header to the request?", "-H|--header"),
    ("curl.txt", "Which curl option skips verifying the server's certificate?", "-k|--insecure"),
    ("curl.txt", "Which curl option writes the output to a file instead of stdout?", "-o|--output"),
    (
        "gpl-3.txt",
        "How long must a written offer to give the Corresponding Source be valid?",
        "three years",
    ),
    ("gpl-3.txt", "Which other licence may a work be combined with under section 13?", "Affero"),
    ("gpl-3.txt", "Who may publish revised versions of this licence?", "Free Software Foundation"),
    (
        "apache-2.0.txt",
        "Which text file's attribution notices must a derivative work carry?",
        "NOTICE",
    ),
    (
        "apache-2.0.txt",
        "What share of the outstanding shares counts as control of an entity?",
        "50%|fifty percent",
    ),
    (
        "apache-2.0.txt",
        "When do the patent licenses granted to someone who sues terminate?",
        "litigation is filed",
    ),
]


def render(out: Path) -> None:
    """The documents as a user of this machine has them: man pages as `man` prints them."""
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0"}
    for page in PAGES:
        shown = subprocess.run(["man", page], capture_output=True, env=env, check=True).stdout
        plain = subprocess.run(["col", "-b"], input=shown, capture_output=True, check=True)
        (out / f"{page}.txt").write_bytes(plain.stdout)
    shutil.copy(LICENCES / "GPL-3", out / "gpl-3.txt")
    shutil.copy(LICENCES / "Apache-2.0", out / "apache-2.0.txt")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("/tmp/longread-facts"))
    parser.add_argument("--model", action="append", default=[])
    parser.add_argument("--mode", action="append", default=[])
    args = parser.parse_args()
    render(args.out)
    task_file = args.out / "tasks.jsonl"
    task_file.write_text(
        "".join(
            json.dumps({"path": doc, "question": q, "answer": gold, "family": "facts"}) + "\n"
            for doc, q, gold in QUESTIONS
        )
    )
    results = args.out / "results.json"
    command = [str(Path(sys.executable).with_name("longread")), "eval", str(task_file)]
    command += [f"--model={m}" for m in args.model] + [f"--mode={m}" for m in args.mode]
    shown = subprocess.run(command + [f"--json={results}"], check=True, capture_output=True)
    write_page(
        "facts",
        "Fact questions over real manuals and licences",
        f"{len(QUESTIONS)} questions over this machine's man pages and licence texts, gold "
        "answers checked by hand; `longread eval` with the set-up below, seconds in-process."
        f"\n\n```\n{shown.stdout.decode().strip()}\n```",
    )


if __name__ == "__main__":
    main()
