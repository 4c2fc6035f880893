#!/usr/bin/env python3
"""Gold answers for blind set F.

One hand-written parser per genre; every answer is computed from docs/.
The only literals below are question parameters (an id, a name, a year, a key).
Where a second, independent method exists it is computed too and must agree.

    python3 gold.py        writes tasks.jsonl
    python3 gold.py -v     also prints every question with its answer

Exit status 1 if any check fails (failed checks are collected; a parser crash
counts as a failed check).
"""
import base64
import collections
import hashlib
import json
import os
import re
import sys
import traceback
from datetime import datetime

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "docs")
FAILS = []


def check(cond, msg):
    if not cond:
        FAILS.append(msg)
    return cond


def read(name, **kw):
    with open(os.path.join(DOCS, name), encoding="utf-8", **kw) as f:
        return f.read()


def top1(counter, what):
    """The single most common key; refuses ties."""
    mc = counter.most_common(2)
    check(len(mc) >= 1, f"{what}: empty")
    if len(mc) == 2:
        check(mc[0][1] > mc[1][1], f"{what}: tie {mc}")
    return mc[0][0]


def nth(counter, n, what):
    """The n-th (1-based) most common key; refuses ties around it."""
    mc = counter.most_common()
    k, v = mc[n - 1]
    check(mc[n - 2][1] > v if n > 1 else True, f"{what}: tie above {mc[:n+1]}")
    check(len(mc) == n or mc[n][1] < v, f"{what}: tie below {mc[:n+1]}")
    return k


def bottom1(counter, what):
    mc = counter.most_common()
    check(len(mc) < 2 or mc[-1][1] < mc[-2][1], f"{what}: tie {mc[-2:]}")
    return mc[-1][0]


def one(items, what):
    items = list(items)
    check(len(items) == 1, f"{what}: expected exactly one match, got {len(items)}")
    return items[0]


def num(x):
    return str(x)


def setf1(items):
    items = list(items)
    check(len(items) == len(set(items)), f"set answer has duplicates: {items}")
    return ";".join(items)


# ---------------------------------------------------------------------------
# 1. git log (libxcb ChangeLog)
# ---------------------------------------------------------------------------
def fam_git_log():
    path = "libxcb.ChangeLog"
    text = read(path)
    chunks = [c for c in re.split(r"(?m)^(?=commit [0-9a-f]{40}\n)", text) if c.strip()]
    commits = []
    for c in chunks:
        lines = c.split("\n")
        m = re.fullmatch(r"commit ([0-9a-f]{40})", lines[0])
        check(m is not None, f"git: bad commit line {lines[0]!r}")
        hdr = {}
        i = 1
        while lines[i].strip():
            k, v = lines[i].split(":", 1)
            hdr[k] = v.strip()
            i += 1
        check(set(hdr) <= {"Author", "Date", "Merge"}, f"git: unexpected headers {hdr}")
        body = lines[i + 1:]
        check(all(l == "" or l.startswith("    ") for l in body), f"git: unindented body in {m.group(1)}")
        msg = "\n".join(l[4:] for l in body).strip("\n")
        am = re.fullmatch(r"(.*) <(.*)>", hdr["Author"])
        commits.append(dict(
            hash=m.group(1),
            name=am.group(1),
            email=am.group(2),
            date=datetime.strptime(hdr["Date"], "%a %b %d %H:%M:%S %Y %z"),
            merge="Merge" in hdr,
            subject=msg.split("\n")[0],
            msg=msg,
        ))
    # second method: raw line counts
    check(len(commits) == len(re.findall(r"(?m)^commit [0-9a-f]{40}$", text)), "git: commit count vs grep")
    check(len(commits) == len(re.findall(r"(?m)^Date:   ", text)), "git: commit count vs Date lines")
    merges = [c for c in commits if c["merge"]]
    check(len(merges) == len(re.findall(r"(?m)^Merge: ", text)), "git: merges vs grep")

    Q = []
    Q.append(("How many commits are in this git log? Just the number.", num(len(commits)), "number"))
    Q.append(("How many of the commits in this log are merge commits (the ones with a Merge: line)?",
              num(len(merges)), "number"))

    y = 2013
    n_y = sum(1 for c in commits if c["date"].year == y)
    check(n_y == len(re.findall(rf"(?m)^Date:   \w+ \w+ +\d+ [\d:]+ {y} ", text)), "git: per-year vs grep")
    Q.append((f"How many commits were made in {y}, going by the Date lines?", num(n_y), "number"))

    years = collections.Counter(c["date"].year for c in commits)
    check(top1(years, "git years") == 2006, "git: 2006 expected busiest (question excludes it)")
    del years[2006]
    Q.append(("Apart from 2006, which year has the most commits in this log? Just the year.",
              str(top1(years, "git years w/o 2006")), "contains"))

    authors = collections.Counter(c["name"] for c in commits)
    Q.append(("Who is the second most prolific commit author in this log? Name only.",
              nth(authors, 2, "git authors"), "contains"))

    pre = "43fbf03e"
    c = one((c for c in commits if c["hash"].startswith(pre)), "git hash prefix")
    Q.append((f"What is the subject line of commit {pre}?", c["subject"], "contains"))

    ver = "1.13"
    c = one((c for c in commits if c["subject"] == f"Release libxcb {ver}"), "git release commit")
    Q.append((f"Who authored the commit that released libxcb {ver} (subject 'Release libxcb {ver}')?",
              c["name"], "contains"))

    who, y2 = "Uli Schlachter", 2013
    n = sum(1 for c in commits if c["name"] == who and c["date"].year == y2)
    Q.append((f"How many commits did {who} author in {y2}?", num(n), "number"))

    y3 = 2012
    rel = [re.fullmatch(r"Release libxcb (\S+)", c["subject"]) for c in commits if c["date"].year == y3]
    rel = [m.group(1) for m in rel if m]
    check(2 <= len(rel) <= 7, "git: release list size")
    Q.append((f"Which libxcb versions were released in {y3}? Look at the commits titled 'Release libxcb X' "
              "and give the version numbers, comma-separated.", setf1(rel), "set-f1"))

    dates = sorted(commits, key=lambda c: c["date"])
    check(dates[0]["date"] < dates[1]["date"], "git: oldest tie")
    Q.append(("What's the oldest commit in this log by date? Give its subject line.",
              dates[0]["subject"].rstrip("."), "contains"))
    return path, Q


# ---------------------------------------------------------------------------
# 2. reStructuredText release history (Werkzeug CHANGES.rst)
# ---------------------------------------------------------------------------
MONTHS = {m: i for i, m in enumerate(
    "january february march april may june july august september october november december".split(), 1)}


def fam_rst_history():
    path = "werkzeug-CHANGES.rst"
    lines = read(path).split("\n")
    heads = []
    for i, l in enumerate(lines[:-1]):
        if l.startswith("Version ") and re.fullmatch(r"-+", lines[i + 1]) and len(lines[i + 1]) == len(l):
            heads.append((l[len("Version "):].strip(), i))
    secs = []
    for k, (ver, i) in enumerate(heads):
        end = heads[k + 1][1] if k + 1 < len(heads) else len(lines)
        body = lines[i + 2:end]
        first = next((b.strip() for b in body if b.strip()), "")
        iso = re.fullmatch(r"Released (\d{4})-(\d\d)-(\d\d)", first)
        date = None
        year = None
        if iso:
            date = "-".join(iso.groups())
            year = int(iso.group(1))
        else:
            m = re.search(r"[Rr]eleased(?: on)? (\w+) \d+\w*,? (\d{4})", first)
            if m and m.group(1).lower()[:3] in [x[:3] for x in MONTHS]:
                year = int(m.group(2))
        cm = re.search(r"codename ([^.\s]+)", first)
        secs.append(dict(
            ver=ver, first=first, date=date, year=year,
            unreleased=(first == "Unreleased"),
            codename=cm.group(1) if cm else None,
            bullets=sum(1 for b in body if b.startswith("- ")),
            body="\n".join(body),
        ))
    # second method: plain count of underlined "Version" headings via regex
    raw = read(path)
    check(len(heads) == len(re.findall(r"(?m)^Version \S+\n-+$", raw)), "rst: heading count vs regex")
    # every section that looks released in 2019+ must have an ISO date (old ones are pre-2018)
    check(all(s["year"] is None or s["date"] or s["year"] < 2018 for s in secs), "rst: date formats")

    Q = []
    Q.append(("How many version sections does this CHANGES.rst have? Count every 'Version …' heading, "
              "including unreleased and repeated ones.", num(len(secs)), "number"))

    y = 2023
    n = [s for s in secs if s["year"] == y and not s["unreleased"]]
    check(len(n) == len(re.findall(rf"(?m)^Released {y}-", raw)), "rst: per-year vs grep")
    Q.append((f"How many Werkzeug releases are dated {y} in this changelog? Don't count unreleased versions.",
              num(len(n)), "number"))

    v = "2.0.0"
    s = one((s for s in secs if s["ver"] == v), "rst version lookup")
    Q.append((f"When was Werkzeug {v} released? Answer as YYYY-MM-DD.", s["date"], "contains"))

    v = "0.6"
    s = one((s for s in secs if s["ver"] == v), "rst codename lookup")
    Q.append((f"What was the codename of release {v}?", s["codename"], "contains"))

    v = "3.0.0"
    s = one((s for s in secs if s["ver"] == v), "rst bullets lookup")
    check(s["bullets"] == len(re.findall(r"(?m)^-   ", s["body"])), "rst: bullet count vs 4-space bullets")
    Q.append((f"How many bullet points are listed under Version {v}? Just the number.",
              num(s["bullets"]), "number"))

    y = 2022
    cnt = collections.Counter({s["ver"]: s["bullets"] for s in secs if s["year"] == y})
    Q.append((f"Of the versions released in {y}, which one has the most top-level bullet points? "
              "Version number only.", top1(cnt, "rst bullets 2022"), "contains"))

    y = 2020
    vs = [s["ver"] for s in secs if s["year"] == y]
    Q.append((f"List the versions released in {y}, comma-separated.", setf1(vs), "set-f1"))

    s = one((s for s in secs if s["unreleased"]), "rst unreleased")
    Q.append(("Which version is marked as Unreleased in this changelog?", s["ver"], "contains"))

    cn = [s for s in secs if s["codename"]]
    check(len(cn) == len(re.findall(r"codename", raw)), "rst: codenames vs grep")
    Q.append(("How many releases in this history were given a codename?", num(len(cn)), "number"))

    iss = "2775"
    s = one((s for s in secs if f":issue:`{iss}`" in s["body"]), "rst issue lookup")
    Q.append((f"In which version's notes is :issue:`{iss}` mentioned? Version number only.", s["ver"], "contains"))
    return path, Q


# ---------------------------------------------------------------------------
# 3. IEEE MA-M registry (multi-line records, CRLF)
# ---------------------------------------------------------------------------
def fam_ieee_mam():
    path = "mam.txt"
    text = read(path, newline="")
    check("\r\n" in text, "mam: expected CRLF line ends")
    text = text.replace("\r\n", "\n")
    recs = []
    for blk in re.split(r"\n[ \t]*\n", text):
        ls = [l for l in blk.split("\n") if l.strip()]
        if not ls or "(hex)" not in ls[0]:
            continue
        m = re.fullmatch(r"([0-9A-F]{2}-[0-9A-F]{2}-[0-9A-F]{2})\s+\(hex\)\t+(.*?)\s*", ls[0])
        m2 = re.fullmatch(r"([0-9A-F]{6})-([0-9A-F]{6})\s+\(base 16\)\t+(.*?)\s*", ls[1])
        check(m is not None and m2 is not None, f"mam: bad record head {ls[:2]}")
        check(m.group(2) == m2.group(3), f"mam: org mismatch {ls[:2]}")
        addr = [l.strip() for l in ls[2:]]
        country = addr[-1] if addr and re.fullmatch(r"[A-Z]{2}", addr[-1]) else None
        recs.append(dict(oui=m.group(1), lo=m2.group(1), hi=m2.group(2), org=m.group(2),
                         addr=addr, country=country))
    check(len(recs) == text.count("(base 16)") == text.count("(hex)"), "mam: record count vs grep")
    check(len({(r["oui"], r["lo"]) for r in recs}) == len(recs), "mam: duplicate blocks")

    Q = []
    Q.append(("How many MA-M assignments are listed in this IEEE registry file? Just the number.",
              num(len(recs)), "number"))

    priv = [r for r in recs if r["org"] == "Private"]
    check(len(priv) == len(re.findall(r"\(hex\)\t+Private *\n", text)), "mam: private vs grep")
    Q.append(("How many of the assignments are registered to 'Private'?", num(len(priv)), "number"))

    orgs = collections.Counter(r["org"] for r in recs if r["org"] != "Private")
    Q.append(("Which organization holds the most MA-M blocks, not counting 'Private'? Name exactly as written.",
              top1(orgs, "mam orgs"), "contains"))

    cc = "DE"
    n = sum(1 for r in recs if r["country"] == cc)
    check(n == len(re.findall(rf"(?m)^\t+{cc} *$", text)), "mam: country vs grep")
    Q.append((f"How many assignments have the country code {cc} on their last address line?", num(n), "number"))

    oui, lo = "0C-EF-AF", "D00000"
    r = one((r for r in recs if r["oui"] == oui and r["lo"] == lo), "mam lookup 1")
    Q.append((f"Which organization was assigned the block {lo}-{r['hi']} under {oui}?",
              r["org"] + "|Svyaz Engineering", "contains"))

    oui, lo = "20-85-93", "B00000"
    r = one((r for r in recs if r["oui"] == oui and r["lo"] == lo), "mam lookup 2")
    Q.append((f"Who holds the MA-M range {oui} {lo}-{r['hi']}?", r["org"], "contains"))

    oui = "B4-A2-EB"
    n = sum(1 for r in recs if r["oui"] == oui)
    check(n == len(re.findall(rf"(?m)^{oui}   \(hex\)", text)), "mam: per-OUI vs grep")
    Q.append((f"How many blocks have been assigned under the OUI {oui}?", num(n), "number"))

    org = "Huaqin Telecom Technology Co.,Ltd."
    ouis = [r["oui"] for r in recs if r["org"] == org]
    Q.append((f"Under which OUI prefixes does {org} hold blocks? Give the xx-xx-xx prefixes, comma-separated.",
              setf1(ouis), "set-f1"))

    oui, lo = "BC-34-00", "600000"
    r = one((r for r in recs if r["oui"] == oui and r["lo"] == lo), "mam lookup 3")
    city = re.split(r"\s{2,}", r["addr"][-1])[0]  # this record has no country line: city line is last
    check(r["country"] is None and r["org"] == "Cameron", "mam: Cameron record shape")
    Q.append((f"In which city is the holder of block {oui} {lo}-{r['hi']} ({r['org']}) located?", city, "contains"))

    per = collections.defaultdict(set)
    for r in recs:
        per[r["oui"]].add(r["lo"][0])
    full = [o for o, s in per.items() if len(s) == 16]
    Q.append(("How many OUI prefixes in this file have all 16 of their MA-M blocks (0 through F) assigned?",
              num(len(full)), "number"))
    return path, Q


# ---------------------------------------------------------------------------
# 4. Unicode emoji-test.txt (grouped records in comment headers)
# ---------------------------------------------------------------------------
def fam_emoji_test():
    path = "emoji-test.txt"
    recs = []
    group = sub = None
    subtotals = {}
    declared = {}
    for l in read(path).split("\n"):
        m = re.fullmatch(r"# group: (.*)", l)
        if m:
            group = m.group(1)
            continue
        m = re.fullmatch(r"# subgroup: (.*)", l)
        if m:
            sub = m.group(1)
            continue
        m = re.fullmatch(r"# (.*) subtotal:\t+(\d+)", l)
        if m:
            subtotals[m.group(1)] = int(m.group(2))
            continue
        m = re.fullmatch(r"# ([a-z-]+) : (\d+)", l)
        if m:
            declared[m.group(1)] = int(m.group(2))
            continue
        if not l or l.startswith("#"):
            continue
        m = re.fullmatch(r"([0-9A-F]{4,6}(?: [0-9A-F]{4,6})*)\s*; ([a-z-]+)\s+# (\S+) E(\d+\.\d+) (.*)", l)
        check(m is not None, f"emoji: bad line {l!r}")
        recs.append(dict(cp=m.group(1), status=m.group(2), char=m.group(3), ver=m.group(4),
                         name=m.group(5), group=group, sub=sub))
        check("".join(chr(int(x, 16)) for x in m.group(1).split()) == m.group(3), f"emoji: char mismatch {l!r}")
    st = collections.Counter(r["status"] for r in recs)
    check(dict(st) == declared, f"emoji: status counts {dict(st)} vs declared {declared}")
    groups = collections.Counter(r["group"] for r in recs)
    check(dict(groups) == subtotals, "emoji: group counts vs declared subtotals")

    Q = []
    Q.append(("How many fully-qualified emoji does this test file list?", num(st["fully-qualified"]), "number"))

    g = "Food & Drink"
    Q.append((f"How many entries are in the {g} group, counting every status (fully-qualified, "
              "minimally-qualified, unqualified)?", num(groups[g]), "number"))

    subs = collections.Counter(r["sub"] for r in recs)
    Q.append(("Which subgroup has the most entries in this file? Subgroup name only.",
              top1(subs, "emoji subgroups"), "contains"))

    nm = "melting face"
    r = one((r for r in recs if r["name"] == nm), "emoji name lookup")
    Q.append((f"What is the code point of the '{nm}' emoji?", r["cp"], "contains"))

    cp = "1F986"
    r = one((r for r in recs if r["cp"] == cp), "emoji cp lookup")
    Q.append((f"Which emoji has the code point {cp}? Give its name as written in the file.", r["name"], "contains"))

    v = "15.0"
    fq = [r for r in recs if r["ver"] == v and r["status"] == "fully-qualified"]
    Q.append((f"How many fully-qualified emoji were introduced in Emoji {v} (marked E{v})?", num(len(fq)), "number"))

    sg = "animal-bird"
    names = [r["name"] for r in fq if r["sub"] == sg]
    Q.append((f"Which E{v} emoji are in the {sg} subgroup? Names, comma-separated.", setf1(names), "set-f1"))

    g2 = collections.Counter(groups)
    del g2["Component"]
    Q.append(("Leaving out the Component group, which group has the fewest entries?",
              bottom1(g2, "emoji smallest group"), "contains"))

    g = "Objects"
    n = len({r["sub"] for r in recs if r["group"] == g})
    Q.append((f"How many subgroups does the {g} group have?", num(n), "number"))

    nm = "hamsa"
    r = one((r for r in recs if r["name"] == nm), "emoji subgroup lookup")
    Q.append((f"Which subgroup is the {nm} emoji listed under?", r["sub"], "contains"))
    return path, Q


# ---------------------------------------------------------------------------
# 5. XKB rules list base.lst (sections with different row layouts)
# ---------------------------------------------------------------------------
def fam_xkb_lst():
    path = "base.lst"
    secs = collections.OrderedDict()
    cur = None
    raw = read(path)
    for l in raw.split("\n"):
        if not l.strip():
            continue
        if l.startswith("! "):
            cur = l[2:].strip()
            secs[cur] = []
            continue
        check(l.startswith("  "), f"xkb: unindented line {l!r}")
        name, desc = l.strip().split(None, 1)
        secs[cur].append((name, desc.strip(), l))
    check(list(secs) == ["model", "layout", "variant", "option"], f"xkb: sections {list(secs)}")
    models = secs["model"]
    layouts = secs["layout"]
    variants = []
    for name, desc, _ in secs["variant"]:
        lay, d = desc.split(": ", 1)
        variants.append((name, lay, d))
    options = [(n, d) for n, d, _ in secs["option"] if ":" in n]
    heads = [(l,) for n, d, l in secs["option"] if ":" not in n]
    # second method: line numbers of the "!" headers bound each section
    ln = raw.split("\n")
    idx = {l[2:].strip(): i for i, l in enumerate(ln) if l.startswith("! ")}
    nonblank = lambda a, b: sum(1 for l in ln[idx[a] + 1:idx[b]] if l.strip())
    check(len(models) == nonblank("model", "layout"), "xkb: models vs header positions")
    check(len(layouts) == nonblank("layout", "variant"), "xkb: layouts vs header positions")
    check(len(variants) == len(re.findall(r"(?m)^  \S+\s+[a-z]+: ", raw[raw.index("! variant"):raw.index("! option")])),
          "xkb: variants vs regex")
    lay_codes = {n for n, d, _ in layouts}
    check(all(v[1] in lay_codes for v in variants), "xkb: variant of unknown layout")

    Q = []
    Q.append(("How many keyboard models are listed in this file?", num(len(models)), "number"))
    Q.append(("How many keyboard layouts does the layout section list?", num(len(layouts)), "number"))

    per = collections.Counter(v[1] for v in variants)
    best = top1(per, "xkb variants per layout")
    bdesc = one((d for n, d, _ in layouts if n == best), "xkb layout desc")
    Q.append(("Which layout has the most variants? Give the layout's description as written.", bdesc, "contains"))

    lay = "ru"
    Q.append((f"How many variants are listed for the '{lay}' layout?", num(per[lay]), "number"))

    code = "bt"
    d = one((d for n, d, _ in layouts if n == code), "xkb layout lookup")
    Q.append((f"What language is the keyboard layout with code '{code}'?", d, "contains"))

    lay, var = "de", "dsb_qwertz"
    d = one((d for n, l, d in variants if n == var and l == lay), "xkb variant lookup")
    Q.append((f"What's the description of the '{var}' variant of the '{lay}' layout?", d, "contains"))

    grp = "grp"
    n = sum(1 for o, d in options if o.split(":")[0] == grp)
    check(n == len(re.findall(rf"(?m)^  {grp}:", raw)), "xkb: option group vs grep")
    Q.append((f"How many options belong to the '{grp}' group (names starting '{grp}:'; don't count the group's own "
              "heading line)?", num(n), "number"))

    lay = "gr"
    vs = [n for n, l, d in variants if l == lay]
    Q.append((f"List the variant codes of the '{lay}' (Greek) layout, comma-separated.", setf1(vs), "set-f1"))

    nov = [n for n, d, _ in layouts if per[n] == 0]
    Q.append(("How many layouts have no variants listed at all?", num(len(nov)), "number"))

    desc = "Dell Precision M65 laptop"
    n = one((n for n, d, _ in models if d == desc), "xkb model lookup")
    Q.append((f"What is the model code for the '{desc}'?", n, "contains"))
    return path, Q


# ---------------------------------------------------------------------------
# 6. PEM CA bundle with comment headers (certifi cacert.pem)
# ---------------------------------------------------------------------------
def dn_attrs(s):
    """'CN=a b O=c d OU=e' -> [('CN','a b'),('O','c d'),('OU','e')] (attributes appear in CN, O, OU order)."""
    parts = re.split(r"(?:^| )(CN|O|OU)=", s)
    check(parts[0] == "", f"pem: dn prefix {s!r}")
    out = list(zip(parts[1::2], parts[2::2]))
    order = [k for k, _ in out]
    check(order == sorted(order, key=["CN", "O", "OU"].index), f"pem: dn order {s!r}")
    return out


def fam_pem_bundle():
    path = "cacert.pem"
    text = read(path)
    blocks = re.findall(r"((?:# [^\n]*\n)+)-----BEGIN CERTIFICATE-----\n([A-Za-z0-9+/=\n]+?)-----END CERTIFICATE-----",
                        text)
    certs = []
    for hdr, b64 in blocks:
        d = {}
        for l in hdr.strip("\n").split("\n"):
            k, v = l[2:].split(": ", 1)
            d[k] = v
        der = base64.b64decode(b64)
        fp = lambda h: ":".join("%02x" % x for x in h(der).digest())
        # second method: fingerprints recomputed from the certificate bytes
        check(fp(hashlib.sha1) == d["SHA1 Fingerprint"], f"pem: sha1 {d['Label']}")
        check(fp(hashlib.sha256) == d["SHA256 Fingerprint"], f"pem: sha256 {d['Label']}")
        check(fp(hashlib.md5) == d["MD5 Fingerprint"], f"pem: md5 {d['Label']}")
        check(d["Label"].startswith('"') and d["Label"].endswith('"'), "pem: label quoting")
        d["label"] = d["Label"][1:-1]
        d["subj"] = dn_attrs(d["Subject"])
        certs.append(d)
    check(len(certs) == text.count("-----BEGIN CERTIFICATE-----") == text.count("# Label: "), "pem: count vs grep")
    check(all(c["Issuer"] == c["Subject"] for c in certs), "pem: issuer != subject somewhere (README relies on it)")

    def org(c):
        v = [x for k, x in c["subj"] if k == "O"]
        return v[0] if v else None

    Q = []
    Q.append(("How many CA certificates does this bundle contain?", num(len(certs)), "number"))

    o = "DigiCert Inc"
    n = sum(1 for c in certs if org(c) == o)
    check(n == len(re.findall(rf"(?m)^# Subject: .* O={o}(?: OU=.*)?$", text)), "pem: org count vs grep")
    Q.append((f"How many certificates have O={o} in their Subject?", num(n), "number"))

    orgs = collections.Counter(org(c) for c in certs if org(c))
    Q.append(("Which organization (the O= value of the Subject) has the most certificates in this bundle? "
              "Exactly as written.", top1(orgs, "pem orgs"), "contains"))

    o = "Amazon"
    labs = [c["label"] for c in certs if org(c) == o]
    Q.append((f"List the labels of all certificates whose Subject organization is {o}.", setf1(labs), "set-f1"))

    pre = "df:71:7e:aa"
    c = one((c for c in certs if c["SHA1 Fingerprint"].startswith(pre)), "pem sha1 lookup")
    Q.append((f"Which certificate has a SHA1 fingerprint starting with {pre}? Give its label.", c["label"], "contains"))

    lab = "ISRG Root X1"
    c = one((c for c in certs if c["label"] == lab), "pem label lookup")
    Q.append((f"What is the serial number of the {lab} certificate?", c["Serial"], "contains"))

    n = sum(1 for c in certs if "ECC" in c["label"])
    check(n == sum(1 for c in certs if "ecc" in c["label"].lower()), "pem: ECC case")
    Q.append(("How many certificates have 'ECC' in their label?", num(n), "number"))

    n = sum(1 for c in certs if not any(k == "CN" for k, _ in c["subj"]))
    check(n == len(re.findall(r"(?m)^# Subject: (?!.*CN=)", text)), "pem: no-CN vs grep")
    Q.append(("How many certificates have a Subject with no CN= part?", num(n), "number"))

    c = one((c for c in certs if org(c) is None), "pem no-O")
    Q.append(("Which certificate's Subject has no O= (organization) field? Label only.", c["label"], "contains"))

    n = sum(1 for c in certs if c["Serial"] == "0")
    check(n == text.count("# Serial: 0\n"), "pem: serial 0 vs grep")
    Q.append(("How many certificates in the bundle have serial number 0?", num(n), "number"))
    return path, Q


# ---------------------------------------------------------------------------
# 7. php.ini (INI with commented-out directives)
# ---------------------------------------------------------------------------
def fam_php_ini():
    path = "php.ini-production"
    raw = read(path)
    sections = []
    active = []
    commented = []
    sec = None
    for l in raw.split("\n"):
        m = re.fullmatch(r"\[([^\]]+)\]\s*", l)
        if m:
            sec = m.group(1)
            sections.append(sec)
            continue
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*?)\s*", l)
        if m:
            active.append((sec, m.group(1), m.group(2)))
            continue
        m = re.fullmatch(r";([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*?)\s*", l)
        if m:
            commented.append((sec, m.group(1), m.group(2)))
    check(len(set(sections)) == len(sections), "php: duplicate section")
    check(None not in {a[0] for a in active}, "php: directive before first section")
    # configparser as a second method (php.ini is close enough for section/key counts)
    import configparser
    cp = configparser.RawConfigParser(comment_prefixes=(";",), inline_comment_prefixes=None,
                                      strict=False, delimiters=("=",), interpolation=None)
    cp.optionxform = str
    cp.read_string(raw)
    check(cp.sections() == sections, "php: sections vs configparser")
    check(sum(len(cp.options(s)) for s in cp.sections()) == len(active), "php: active count vs configparser")

    def val(key):
        return one((v for s, k, v in active if k == key), f"php lookup {key}")

    Q = []
    Q.append(("How many sections (bracketed headers like [PHP]) does this php.ini have?", num(len(sections)), "number"))
    Q.append(("How many directives are actually set in this file, i.e. uncommented name = value lines "
              "(lines with an empty value count too)?", num(len(active)), "number"))

    per = collections.Counter(s for s, k, v in active)
    check(top1(per, "php per section") == "PHP", "php: [PHP] expected largest")
    del per["PHP"]
    Q.append(("Apart from [PHP], which section has the most uncommented directives? Section name only.",
              top1(per, "php per section w/o PHP"), "contains"))

    k = "session.cache_limiter"
    Q.append((f"What is {k} set to in this file?", val(k), "contains"))

    k = "session.gc_probability"
    Q.append((f"What value does this php.ini give {k}? Just the value.", val(k), "number"))

    n = sum(1 for s, k, v in commented if k == "extension")
    check(n == len(re.findall(r"(?m)^;extension=", raw)), "php: ;extension= vs grep")
    Q.append(("How many lines start with ';extension=' (the commented-out dynamic extensions)?", num(n), "number"))

    empty = [s for s in sections if not any(a[0] == s for a in active)]
    Q.append(("How many sections contain no uncommented directive at all?", num(len(empty)), "number"))

    k = "mysqli.default_port"
    Q.append(("What default port does this file set for MySQLi?", val(k), "number"))

    # Quick Reference block: "; name" then "; Default Value:", "; Development Value:", "; Production Value:"
    qr = re.findall(r"(?m)^; (\S+)\n;   Default Value: (.*)\n;   Development Value: (.*)\n;   Production Value: (.*)$", raw)
    check(len(qr) == raw.count(";   Production Value:"), "php: quick reference parse")
    check(len(qr) == 14, f"php: quick reference has {len(qr)} settings")
    diff = [n for n, d, dev, prod in qr if dev != prod]
    Q.append(("According to the Quick Reference at the top, which settings have a Development Value that differs "
              "from their Production Value? Setting names, comma-separated.", setf1(diff), "set-f1"))

    k = "session.gc_divisor"
    d = one((d for n, d, dev, prod in qr if n == k), "php quick ref lookup")
    Q.append((f"What does the Quick Reference give as PHP's built-in Default Value for {k}?", d, "number"))
    return path, Q


# ---------------------------------------------------------------------------
# 8. YAML setting definitions (ansible-core config/base.yml)
# ---------------------------------------------------------------------------
def unquote(s):
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "'\"":
        return s[1:-1]
    return s


def fam_ansible_yaml():
    path = "ansible-base.yml"
    raw = read(path)
    lines = raw.split("\n")
    entries = collections.OrderedDict()
    cur = None
    for l in lines:
        if l.startswith("#") or l in ("---", "...") or not l.strip():
            continue
        m = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*):(?:\s*&\w+)?\s*", l)
        if m:
            cur = m.group(1)
            check(cur not in entries, f"yaml: duplicate key {cur}")
            entries[cur] = []
            continue
        check(l.startswith(" ") and cur is not None, f"yaml: unexpected line {l!r}")
        entries[cur].append(l)

    recs = {}
    for key, body in entries.items():
        fields = collections.OrderedDict()
        k2 = None
        body = [l for l in body if not re.match(r"\s*#", l)]
        ind = len(body[0]) - len(body[0].lstrip(" "))  # one entry (JINJA2_NATIVE_WARNING) indents by 3
        for l in body:
            m = re.fullmatch(" " * ind + r"([A-Za-z_<][A-Za-z0-9_<]*):(.*)", l)
            if m:
                k2 = m.group(1)
                fields[k2] = [m.group(2).strip()]
            else:
                fields[k2].append(l)
        env = []
        if "env" in fields:
            blob = "\n".join(fields["env"])
            # flow form: [{name: X}, ...]   block form: "- name: X" items
            env = re.findall(r"\{\s*name:\s*([^,}\s]+)", blob) + re.findall(r"(?m)^\s*-\s+name:\s*(\S+)", blob)
        ini = []
        if "ini" in fields:
            blob = "\n".join(fields["ini"])
            # flow items {key: k, section: s} first, then block items "- key: k / section: s" (either order)
            items = re.findall(r"\{[^{}]*\}", blob)
            rest = re.sub(r"\{[^{}]*\}", "", blob)
            items += re.split(r"(?m)^\s*-\s+", rest)[1:]
            for item in items:
                km = re.findall(r"\bkey:\s*([^,}\s]+)", item)
                sm = re.findall(r"\bsection:\s*([^,}\s]+)", item)
                check(len(km) == len(sm) <= 1, f"yaml: ini item {item!r}")
                if km:
                    ini.append((unquote(km[0]), unquote(sm[0])))
        scal = lambda f: unquote(fields[f][0]) if f in fields and fields[f][0] else None
        recs[key] = dict(default=scal("default"), type=scal("type"), version_added=scal("version_added"),
                         deprecated="deprecated" in fields, env=[unquote(e) for e in env], ini=ini)

    # second method: raw counts over the text
    check(len(recs) == len(re.findall(r"(?m)^[A-Za-z_][A-Za-z0-9_]*:", raw)), "yaml: top-level keys vs grep")
    check(sum(len(r["ini"]) for r in recs.values()) == sum(len(re.findall(r"\bsection:\s*\w", l)) for l in lines if not l.lstrip().startswith("#")), "yaml: ini entries vs grep")
    # optional third method if PyYAML happens to be installed (not required)
    try:
        import yaml  # noqa
    except ImportError:
        yaml = None
    if yaml is not None:
        y = yaml.safe_load(raw)
        check(list(y) == list(recs), "yaml: keys vs PyYAML")
        for k, r in recs.items():
            ye = [e["name"] for e in (y[k].get("env") or [])]
            check(ye == r["env"] or sorted(ye) == sorted(r["env"]), f"yaml: env {k} {ye} vs {r['env']}")
            yi = [(str(i["key"]), str(i["section"])) for i in (y[k].get("ini") or [])]
            check(sorted(yi) == sorted(r["ini"]), f"yaml: ini {k} {yi} vs {r['ini']}")
            check(str(y[k].get("version_added")) == str(r["version_added"]), f"yaml: version_added {k}")

    Q = []
    Q.append(("How many top-level keys does this YAML file define? Count every key at column 0, including the "
              "_COLOR_DEFAULTS placeholder but not commented-out entries.", num(len(recs)), "number"))

    k = "DEFAULT_FORKS"
    Q.append((f"What is the default value of {k}?", recs[k]["default"], "number"))

    k = "DEFAULT_TIMEOUT"
    Q.append((f"Which environment variable sets {k}?", one(recs[k]["env"], "yaml env lookup"), "contains"))

    sec = "galaxy"
    n = sum(1 for r in recs.values() if any(s == sec for _, s in r["ini"]))
    check(n == sum(len([1 for _, s in r["ini"] if s == sec]) for r in recs.values()), "yaml: galaxy one per setting")
    Q.append((f"How many settings can be configured from the [{sec}] section of ansible.cfg (ini entries with "
              f"section: {sec}; ignore anything commented out)?", num(n), "number"))

    va = "2.8"
    n = sum(1 for r in recs.values() if r["version_added"] == va)
    Q.append((f"How many settings have a top-level version_added of {va}? Ignore version_added inside env or "
              "ini entries.", num(n), "number"))

    n = sum(1 for r in recs.values() if r["type"] in ("boolean", "bool"))
    check(n == len(re.findall(r"(?m)^ +type: (?:boolean|bool)\s*$", raw)), "yaml: bool types vs grep")
    Q.append(("How many settings are booleans (type: boolean or type: bool)?", num(n), "number"))

    key = "forks"
    s = one((k for k, r in recs.items() if any(ik == key for ik, _ in r["ini"])), "yaml ini key lookup")
    Q.append((f"Which setting has the ini key '{key}'? Setting name only.", s, "contains"))

    dep = [k for k, r in recs.items() if r["deprecated"]]
    Q.append(("Which settings carry a top-level 'deprecated' block? Names, comma-separated.", setf1(dep), "set-f1"))

    k = "DEFAULT_POLL_INTERVAL"
    Q.append((f"What's the default of {k}?", recs[k]["default"], "number"))

    ev = "NO_COLOR"
    s = one((k for k, r in recs.items() if ev in r["env"]), "yaml env reverse lookup")
    Q.append((f"Which setting can be switched by the {ev} environment variable?", s, "contains"))
    return path, Q


FAMILIES = [
    ("git-log", fam_git_log),
    ("rst-history", fam_rst_history),
    ("ieee-mam-registry", fam_ieee_mam),
    ("emoji-test", fam_emoji_test),
    ("xkb-rules-lst", fam_xkb_lst),
    ("pem-ca-bundle", fam_pem_bundle),
    ("php-ini", fam_php_ini),
    ("ansible-yaml", fam_ansible_yaml),
]


def main():
    verbose = "-v" in sys.argv[1:]
    out = []
    for fam, fn in FAMILIES:
        try:
            path, qs = fn()
        except Exception:
            FAILS.append(f"{fam}: parser crashed\n{traceback.format_exc()}")
            continue
        check(len(qs) == 10, f"{fam}: {len(qs)} questions")
        for q, a, scorer in qs:
            check(a is not None and str(a) != "", f"{fam}: empty answer for {q!r}")
            check(scorer in ("number", "contains", "set-f1"), f"{fam}: scorer {scorer}")
            if scorer == "number":
                check(re.fullmatch(r"-?\d+(?:\.\d+)?", str(a)) is not None, f"{fam}: non-numeric {a!r}")
            out.append({"path": f"docs/{path}", "question": q, "answer": str(a), "scorer": scorer, "family": fam})
            if verbose:
                print(f"[{fam}] {q}\n    -> {a}  ({scorer})")
    check(len(out) == 80, f"{len(out)} tasks")
    with open(os.path.join(HERE, "tasks.jsonl"), "w", encoding="utf-8") as f:
        for t in out:
            f.write(json.dumps(t, ensure_ascii=False) + "\n")
    if verbose:
        print(collections.Counter(t["scorer"] for t in out))
    if FAILS:
        for m in FAILS:
            print("FAIL:", m, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
