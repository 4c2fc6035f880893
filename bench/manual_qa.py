"""Questions about a real manual (examples/gnu-coding-standards.txt, 235 KB, 65 sections) whose
gold answer is a literal phrase of one section: is it in the answer, and does a citation resolve
to text containing it, inside that section? The table goes to the set-up's section of
docs/bench-manual-qa.md (each row is also shown on stderr as it is measured).

    python bench/manual_qa.py [--mode map] [--model local] [--sub-model SPEC]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from pages import write_page

from longread.api import SingleDocRLM

ROOT = Path(__file__).resolve().parents[1]
MANUAL = ROOT / "examples" / "gnu-coding-standards.txt"
QUESTIONS = [  # (question, gold phrase, section holding it)
    (
        "Every how many columns are tab stops assumed when calculating column numbers "
        "in error messages?",
        "8 columns",
        "4.4 Formatting Error Messages",
    ),
    (
        "For maximum readability, source lines should be kept to what length or less?",
        "79 characters",
        "5.1 Formatting Your Source Code",
    ),
    (
        "If the NEWS file gets very long, into which file should the older items be moved?",
        "ONEWS",
        "6.7 The NEWS File",
    ),
    (
        "Which GNU program is one way to automate generation of a man page?",
        "help2man",
        "6.9 Man Pages",
    ),
    (
        "What line should every Makefile contain?",
        "SHELL = /bin/sh",
        "7.2.1 General Conventions for Makefiles",
    ),
    (
        "By default, what is the directory for installing Emacs Lisp files?",
        "/usr/local/share/emacs/site-lisp",
        "7.2.5 Variables for Installation Directories",
    ),
    (
        "If the GNU LGPL is used, in which file should it be?",
        "COPYING.LESSER",
        "7.3 Making Releases",
    ),
    (
        "Whom should you write to if it is not clear whether a license qualifies as free?",
        "licensing@gnu.org",
        "8 References to Non-Free Software and Documentation",
    ),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="map")
    parser.add_argument("--model", default=None)
    parser.add_argument("--sub-model", default=None)
    args = parser.parse_args()
    text = MANUAL.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as scratch:
        rlm = SingleDocRLM(
            MANUAL,
            args.model,
            args.sub_model,
            mode=args.mode,
            cache=False,
            store_path=Path(scratch) / "index.sqlite",
        )
        rlm.index  # noqa: B018 - build it before the clock starts
        setup = f"{MANUAL.name}, mode {args.mode}, root {rlm.root.name}, sub-model {rlm.sub.name}"
        lines = [
            "| question | gold | in answer | cited in its section | sub-calls | seconds |",
            "|---|---|---|---|---|---|",
        ]
        totals = [0, 0]
        for question, gold, section in QUESTIONS:
            started = time.perf_counter()
            answer = rlm.query(question)
            seconds = time.perf_counter() - started
            in_answer = gold.lower() in answer.text.lower()
            cited = any(
                gold in c.text and c.span_id == section and text[c.start : c.end] == c.text
                for c in answer.citations
            )
            totals[0] += in_answer
            totals[1] += cited
            lines.append(
                f"| {question[:60]}… | `{gold}` | {'yes' if in_answer else 'no'} | "
                f"{'yes' if cited else 'no'} "
                f"| {answer.usage.get('subcalls', 0)} | {seconds:.1f} |"
            )
            print(lines[-1], file=sys.stderr, flush=True)
    lines += [
        "",
        f"{totals[0]}/{len(QUESTIONS)} answers contain the gold phrase; "
        f"{totals[1]}/{len(QUESTIONS)} cite it inside the right section.",
    ]
    write_page("manual-qa", "Questions about a real manual", "\n".join(lines), section=setup)


if __name__ == "__main__":
    main()
