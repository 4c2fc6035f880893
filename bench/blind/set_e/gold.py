#!/usr/bin/env python3
"""Gold answers for blind set E, computed from docs/ by one parser per genre.

python3 gold.py      -> writes tasks.jsonl
python3 gold.py -v   -> also prints every question with its answer
Exit status 1 on any failed check (assertions are collected, not fatal one by one).

The only literals below are question parameters (an id, a code, a name, a year, a key).
Wherever an independent second way exists (raw regex over the file text, a count the file
itself declares), it is computed too and must agree with the parser.
"""
import bisect
import collections
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "docs")
FAILURES = []
TASKS = []


def check(cond, msg):
    if not cond:
        FAILURES.append(msg)
    return cond


def agree(a, b, what):
    check(a == b, f"{what}: parser says {a!r}, second way says {b!r}")


def read(name, enc="utf-8"):
    with open(os.path.join(DOCS, name), encoding=enc, newline="") as f:
        return f.read()


def unique_max(counter, what):
    """Key with the highest count; refuses ties."""
    items = counter.most_common()
    check(len(items) > 0, f"{what}: empty")
    if len(items) > 1:
        check(items[0][1] > items[1][1], f"{what}: tie {items[0]} vs {items[1]}")
    return items[0][0], items[0][1]


def unique_min_by(rows, key, what):
    rows = sorted(rows, key=key)
    if len(rows) > 1:
        check(key(rows[0]) != key(rows[1]), f"{what}: tie between {rows[0]!r} and {rows[1]!r}")
    return rows[0]


def one(rows, what):
    check(len(rows) == 1, f"{what}: expected exactly one match, got {len(rows)}")
    return rows[0] if rows else None


def add(family, path, question, answer, scorer):
    assert scorer in ("number", "contains", "set-f1")
    if scorer == "set-f1":
        items = answer
        check(2 <= len(items) <= 7, f"{family}: list answer has {len(items)} items: {question}")
        check(len(set(i.lower() for i in items)) == len(items), f"{family}: duplicate list items: {items}")
        answer = ";".join(items)
    elif scorer == "number":
        check(isinstance(answer, (int, float)), f"{family}: number answer is {answer!r}")
        answer = str(answer)
    else:
        check(isinstance(answer, str) and answer.strip() != "", f"{family}: empty contains answer")
    TASKS.append({"path": "docs/" + path, "question": question, "answer": answer,
                  "scorer": scorer, "family": family})


# ---------------------------------------------------------------------------
# 1. usb.ids  -- indented outline: vendor / \tdevice / \t\tinterface, then other sections
# ---------------------------------------------------------------------------
def parse_usb_ids(text):
    vendors = []          # [id, name, [[dev_id, dev_name, [ifaces]]]]
    sections = collections.OrderedDict()  # tag -> list of [id, name, [children [id,name,[grand]]]]
    in_vendors = True
    cur_top = None
    for ln in text.split("\n"):
        if ln == "" or ln.startswith("#"):
            continue
        if in_vendors:
            m = re.match(r"^([0-9a-f]{4})  (.+)$", ln)
            if m:
                cur_top = [m.group(1), m.group(2), []]
                vendors.append(cur_top)
                continue
            m = re.match(r"^\t([0-9a-f]{4})  (.+)$", ln)
            if m:
                cur_top[2].append([m.group(1), m.group(2), []])
                continue
            m = re.match(r"^\t\t([0-9a-f]{2})  (.+)$", ln)
            if m:
                cur_top[2][-1][2].append([m.group(1), m.group(2)])
                continue
            in_vendors = False  # first line of the class section ends the vendor list
        m = re.match(r"^([A-Z]+) (\S+)\s+(.*)$", ln)
        if m:
            cur_top = [m.group(2), m.group(3), []]
            sections.setdefault(m.group(1), []).append(cur_top)
            continue
        m = re.match(r"^\t(\S+)\s+(.*)$", ln)
        if m and not ln.startswith("\t\t"):
            cur_top[2].append([m.group(1), m.group(2), []])
            continue
        m = re.match(r"^\t\t(\S+)\s+(.*)$", ln)
        if m:
            cur_top[2][-1][2].append([m.group(1), m.group(2)])
            continue
        check(False, f"usb.ids: unparsed line {ln!r}")
    return vendors, sections


def family_usb():
    F, P = "usb-ids", "usb.ids"
    text = read(P)
    vendors, sections = parse_usb_ids(text)
    vsec = text.split("\nC 00 ")[0]  # raw vendor part for second counts

    # U1 number of vendors
    n = len(vendors)
    agree(n, len(re.findall(r"^[0-9a-f]{4}  ", text, re.M)), "usb vendors")
    add(F, P, "How many vendors are listed in usb.ids? Just the number.", n, "number")

    # U2 devices under one vendor id
    vid = "046d"
    v = one([x for x in vendors if x[0] == vid], "usb vendor 046d")
    raw_block = re.search(r"^046d  .*\n((?:\t.*\n|#.*\n)*)", vsec, re.M).group(1)
    agree(len(v[2]), len(re.findall(r"^\t[0-9a-f]{4}  ", raw_block, re.M)), "usb 046d devices")
    add(F, P, f"how many product ids are listed under vendor {vid} ({v[1]})?", len(v[2]), "number")

    # U3 vendor with most devices
    c = collections.Counter({(x[0], x[1]): len(x[2]) for x in vendors})
    (wid, wname), _ = unique_max(c, "usb most devices")
    add(F, P, "Which vendor in this USB ID list has the most devices listed under it? "
              "Give the vendor name exactly as written.", wname, "contains")

    # U4 device lookup by vendor:product
    pid = "c52b"
    d = one([x for x in v[2] if x[0] == pid], "usb 046d:c52b")
    add(F, P, f"What's the name of USB device {vid}:{pid}?", d[1], "contains")

    # U5 vendor lookup by id
    q = "1d6b"
    v5 = one([x for x in vendors if x[0] == q], "usb vendor 1d6b")
    add(F, P, f"who is usb vendor id {q}?", v5[1], "contains")

    # U6 vendors with no devices
    n6 = sum(1 for x in vendors if not x[2])
    raw6 = len(re.findall(r"^[0-9a-f]{4}  .*\n(?=(?:#.*\n)*(?:[0-9a-f]{4}  |\n|C 00 ))", vsec + "\nC 00 ", re.M))
    agree(n6, raw6, "usb vendors without devices")
    add(F, P, "How many vendors have no devices at all listed under them?", n6, "number")

    # U7 subclasses of class 0e
    cls = one([x for x in sections["C"] if x[0] == "0e"], "usb class 0e")
    add(F, P, f"List the subclass names of USB class 0e ({cls[1]}), comma-separated.",
        [s[1] for s in cls[2]], "set-f1")

    # U8 language id lookup
    lang = one([x for x in sections["L"] if x[0] == "0011"], "usb lang 0011")
    add(F, P, "In the language table at the end of usb.ids, which language has id 0011?", lang[1], "contains")

    # U9 devices mentioning Bluetooth
    n9 = sum(1 for x in vendors for dd in x[2] if re.search(r"bluetooth", dd[1], re.I))
    agree(n9, len(re.findall(r"^\t[0-9a-f]{4}  .*bluetooth", vsec, re.M | re.I)), "usb bluetooth devices")
    add(F, P, "how many devices (across all vendors) have 'Bluetooth' in their name? case doesn't matter",
        n9, "number")

    # U10 reverse lookup vendor name -> id
    name = "Valve Software"
    v10 = one([x for x in vendors if x[1] == name], "usb vendor Valve Software")
    add(F, P, f"What is the vendor ID of {name} in this list?", v10[0], "contains")


# ---------------------------------------------------------------------------
# 2. /etc/mime.types -- "type ext ext ..." lines; commented-out entries are not records
# ---------------------------------------------------------------------------
def parse_mime(text):
    recs = []
    for ln in text.split("\n"):
        s = ln.strip()
        if not s or s.startswith("#"):
            continue
        f = s.split()
        recs.append((f[0], f[1:]))
    return recs


def family_mime():
    F, P = "mime-types", "mime.types"
    text = read(P)
    recs = parse_mime(text)

    n = len(recs)
    agree(n, len(re.findall(r"^[^#\s]\S*", text, re.M)), "mime records")
    add(F, P, "How many media types does this mime list define (not counting the commented-out lines)?",
        n, "number")

    n2 = sum(1 for t, e in recs if not e)
    agree(n2, len(re.findall(r"^[^#\s]\S*[ \t]*$", text, re.M)), "mime types without ext")
    add(F, P, "how many of the types in mime.types have no filename extension at all?", n2, "number")

    n3 = sum(1 for t, e in recs if t.split("/")[0] == "video" and e)
    agree(n3, len(re.findall(r"^video/\S+[ \t]+\S", text, re.M)), "mime video with ext")
    add(F, P, "How many video/ types have at least one file extension mapped to them?", n3, "number")

    c = collections.Counter({t: len(e) for t, e in recs})
    t4, _ = unique_max(c, "mime most extensions")
    add(F, P, "Which media type lists the most file extensions? Just the type.", t4, "contains")

    ext = "epub"
    t5 = one([t for t, e in recs if ext in e], "mime epub")
    add(F, P, f"what mime type is the .{ext} extension mapped to in this file?", t5, "contains")

    t6 = "application/vnd.ms-excel"
    e6 = one([e for t, e in recs if t == t6], "mime ms-excel")
    add(F, P, f"List the file extensions registered for {t6} (comma-separated, without dots).", e6, "set-f1")

    fonts = [t for t, e in recs if t.split("/")[0] == "font"]
    add(F, P, "List every font/ media type in /etc/mime.types.", fonts, "set-f1")

    n8 = sum(len(e) for t, e in recs)
    raw8 = sum(len(m.split()) - 1 for m in re.findall(r"^[^#\s].*$", text, re.M))
    agree(n8, raw8, "mime total extensions")
    add(F, P, "How many filename extensions are listed in total, across all types? "
              "(count an extension again if it appears under two types)", n8, "number")

    ext9 = "sh"
    t9 = [t for t, e in recs if ext9 in e]
    add(F, P, f"Which media types claim the .{ext9} extension?", t9, "set-f1")

    n10 = sum(1 for t, e in recs if t.endswith("+json"))
    agree(n10, len(re.findall(r"^[^#\s]\S*\+json(?=\s|$)", text, re.M)), "mime +json")
    add(F, P, "how many types in this mime list end with the +json suffix?", n10, "number")


# ---------------------------------------------------------------------------
# 3. BSD calendar file -- "MM/DD<TAB>text", continuation lines start with a TAB
# ---------------------------------------------------------------------------
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]


def parse_calendar(text):
    ev = []  # dict(month, day, text, lines)
    for ln in text.split("\n"):
        m = re.match(r"^(\d\d)/(\d\d)\t(.*)$", ln)
        if m:
            ev.append({"month": int(m.group(1)), "day": int(m.group(2)),
                       "text": m.group(3).strip(), "lines": 1})
        elif ln.startswith("\t") and ln.strip():
            check(bool(ev), "calendar: continuation before any event")
            ev[-1]["text"] += " " + ln.strip()
            ev[-1]["lines"] += 1
        elif ln.strip() and not (ln.startswith("/*") or ln.startswith(" *") or ln.startswith(" */")
                                 or ln.startswith("#")):
            check(False, f"calendar: unparsed line {ln!r}")
    return ev


def signed_year(t):
    """Year of an event: BC marks give negative years; else the last ', NNNN' (2-4 digits)."""
    m = re.search(r"(\d+)\s*B\.?\s*C\.?", t)
    if m:
        return -int(m.group(1))
    ys = re.findall(r",\s*(\d{2,4})\b", t)
    return int(ys[-1]) if ys else None


def date_alts(mo, da):
    return "|".join([f"{mo:02d}/{da:02d}", f"{MONTHS[mo-1]} {da}", f"{da} {MONTHS[mo-1]}",
                     f"{MONTHS[mo-1][:3]} {da}"])


def family_calendar():
    F, P = "bsd-calendar", "calendar.history"
    text = read(P)
    ev = parse_calendar(text)

    n = len(ev)
    agree(n, len(re.findall(r"^\d\d/\d\d\t", text, re.M)), "calendar events")
    add(F, P, "How many events are in this calendar file? (an entry that wraps onto an indented "
              "continuation line counts once)", n, "number")

    mon = 2
    n2 = sum(1 for e in ev if e["month"] == mon)
    agree(n2, len(re.findall(rf"^{mon:02d}/\d\d\t", text, re.M)), "calendar month count")
    add(F, P, f"how many entries does calendar.history have for {MONTHS[mon-1]}?", n2, "number")

    mc = collections.Counter(e["month"] for e in ev)
    m3, _ = unique_max(mc, "calendar busiest month")
    add(F, P, "Which month has the most events in this history calendar?", MONTHS[m3 - 1], "contains")

    dc = collections.Counter((e["month"], e["day"]) for e in ev)
    (mo, da), _ = unique_max(dc, "calendar busiest day")
    add(F, P, "Which calendar day (month/day) has more events listed than any other?",
        date_alts(mo, da), "contains")

    e5 = one([e for e in ev if "Niagara Falls" in e["text"] and "preserve" in e["text"]], "calendar niagara")
    y5 = signed_year(e5["text"])
    check(e5["lines"] > 1, "calendar niagara should be a wrapped entry")
    add(F, P, "In what year did Canada and the United States agree on a plan to preserve Niagara Falls, "
              "according to the calendar?", y5, "number")

    yr = 1945
    n6 = sum(1 for e in ev if signed_year(e["text"]) == yr)
    # second way: the year token anywhere in the joined text of an event
    n6b = sum(1 for e in ev if re.search(rf"\b{yr}\b", e["text"]))
    agree(n6, n6b, "calendar 1945 events")
    add(F, P, f"how many events in the history calendar happened in {yr}?", n6, "number")

    dated = [e for e in ev if signed_year(e["text"]) is not None]
    e7 = unique_min_by(dated, lambda e: signed_year(e["text"]), "calendar oldest event")
    check(signed_year(e7["text"]) < 0, "calendar oldest should be BC")
    short7 = re.split(r",| at ", e7["text"])[0].strip()
    add(F, P, "What is the oldest event mentioned in calendar.history (by the year it gives)? "
              "Describe the event.", f"{short7}|{-signed_year(e7['text'])}", "contains")

    yr8 = 1912
    d8 = sorted({(e["month"], e["day"]) for e in ev if signed_year(e["text"]) == yr8})
    check(len(d8) == sum(1 for e in ev if signed_year(e["text"]) == yr8), "calendar year-8 dates not distinct")
    n8b = sum(1 for e in ev if re.search(rf"\b{yr8}\b", e["text"]))
    agree(len(d8), n8b, "calendar year-8 events")
    add(F, P, f"List the dates (MM/DD) of all the events from {yr8}, comma-separated.",
        [f"{m:02d}/{d:02d}" for m, d in d8], "set-f1")

    e9 = one([e for e in ev if re.search(r"Pluto discovered", e["text"])], "calendar pluto")
    add(F, P, "On which date does the calendar put the discovery of Pluto?",
        date_alts(e9["month"], e9["day"]), "contains")

    n10 = sum(1 for e in ev if e["lines"] > 1)
    agree(n10, len(re.findall(r"^\d\d/\d\d\t.*\n\t", text, re.M)), "calendar wrapped entries")
    add(F, P, "How many of the calendar's entries are wrapped onto more than one line?", n10, "number")


# ---------------------------------------------------------------------------
# 4. BibTeX (tugboat.bib) -- @Article{key, field = "..." # macro, ...}
# ---------------------------------------------------------------------------
def _bib_value(s, k):
    parts = []
    while True:
        if s[k] == '"':
            e, d = k + 1, 0
            while not (s[e] == '"' and d == 0):
                d += (s[e] == "{") - (s[e] == "}")
                e += 1
            parts.append(s[k + 1:e])
            k = e + 1
        elif s[k] == "{":
            e, d = k + 1, 1
            while d:
                d += (s[e] == "{") - (s[e] == "}")
                e += 1
            parts.append(s[k + 1:e - 1])
            k = e
        else:
            m = re.compile(r"[\w-]+").match(s, k)
            parts.append("@" + m.group(0))  # macro reference (month, journal, ack)
            k = m.end()
        m = re.compile(r"\s*#\s*").match(s, k)
        if not m:
            return " ".join(parts), k
        k = m.end()


def parse_bib(text):
    entries = []
    for m in re.finditer(r"^@(\w+)\{", text, re.M):
        typ = m.group(1).lower()
        i = j = m.end()
        depth = 1
        while depth:
            depth += (text[j] == "{") - (text[j] == "}")
            j += 1
        body = text[i:j - 1]
        if typ in ("string", "preamble", "comment"):
            continue
        key, rest = body.split(",", 1)
        fields, k = {}, 0
        while True:
            mm = re.compile(r"\s*([A-Za-z][\w-]*)\s*=\s*").match(rest, k)
            if not mm:
                break
            val, k = _bib_value(rest, mm.end())
            fields[mm.group(1).lower()] = re.sub(r"\s+", " ", val).strip()
            k = re.compile(r"\s*,?").match(rest, k).end()
        check(rest[k:].strip() == "", f"bib: trailing text in {key}")
        fields["_type"] = typ
        fields["_key"] = key.strip()
        entries.append(fields)
    return entries


def authors(e):
    return [a.strip() for a in re.split(r"\s+and\s+", e["author"])]


def family_bib():
    F, P = "bibtex", "tugboat.bib"
    text = read(P, "ascii")
    ents = parse_bib(text)
    arts = [e for e in ents if e["_type"] == "article"]
    # the header comment declares a per-year table and a total
    declared_total = int(re.search(r"Total entries:\s*(\d+)", text).group(1))
    declared_years = {int(y): int(c) for y, c in re.findall(r"(\d{4}) \(\s*(\d+)\)", text.split("@String")[0])}

    n = len(arts)
    agree(n, declared_total, "bib total vs header")
    agree(n, len(re.findall(r"^@Article\{", text, re.M)), "bib total vs raw")
    add(F, P, "How many articles are in this TUGboat bibliography?", n, "number")

    yc = collections.Counter(int(e["year"]) for e in arts)
    agree(dict(yc), declared_years, "bib per-year table vs header")
    y2 = 1987
    add(F, P, f"How many of the TUGboat articles in the .bib were published in {y2}?", yc[y2], "number")

    y3, _ = unique_max(yc, "bib busiest year")
    add(F, P, "Which year has the most articles in tugboat.bib?", y3, "number")

    ac = collections.Counter(a for e in arts for a in set(authors(e)) if a != "Anonymous")
    a4, c4 = unique_max(ac, "bib most prolific author")
    surname4 = a4.split()[-1]
    add(F, P, "Apart from 'Anonymous', who wrote the most articles in this bibliography?",
        f"{a4}|{surname4}", "contains")

    sn = "Knuth"
    n5 = sum(1 for e in arts if any(a.split()[-1] == sn for a in authors(e)))
    n5b = len(re.findall(r"^\s*author\s*=\s*\"[^\"]*\bKnuth\b", text, re.M))
    agree(n5, n5b, "bib Knuth articles")
    add(F, P, "how many articles did Donald Knuth write or co-write? count every spelling of his name",
        n5, "number")

    t6 = "A note on hyphenation"
    e6 = one([e for e in arts if e["title"].strip("{}") == t6], "bib title lookup")
    add(F, P, f"Who wrote the TUGboat article titled \"{t6}\"?", e6["author"], "contains")

    k7 = "Lamport:TB3-2-34"
    e7 = one([e for e in arts if e["_key"] == k7], "bib key lookup")
    p7 = e7["pages"]
    lo, hi = p7.split("--")
    add(F, P, f"What page range does the entry with citation key {k7} cover?",
        f"{p7}|{lo}-{hi}|{lo}–{hi}|{lo} to {hi}", "contains")

    who = "Leslie Lamport"
    y8 = min(int(e["year"]) for e in arts if who in authors(e))
    add(F, P, f"In which year did {who}'s earliest article in tugboat.bib appear?", y8, "number")

    k9 = "Guenther:TB5-1-24"
    e9 = one([e for e in arts if e["_key"] == k9], "bib authors lookup")
    add(F, P, f"list the authors of {k9}", authors(e9), "set-f1")

    vol, num = "15", "4"
    n10 = sum(1 for e in arts if e["volume"] == vol and e["number"] == num)
    n10b = len(re.findall(rf"volume\s*=\s*\"{vol}\",\s*number\s*=\s*\"{num}\"", text))
    agree(n10, n10b, "bib volume/issue count")
    add(F, P, f"How many articles appeared in TUGboat volume {vol}, issue {num}?", n10, "number")


# ---------------------------------------------------------------------------
# 5. gettext .po -- blank-line separated entries; "#:" references, "#," flags,
#    msgid/msgstr with continuation string lines
# ---------------------------------------------------------------------------
def po_unquote(s):
    s = s.strip()
    check(s.startswith('"') and s.endswith('"'), f"po: bad string {s!r}")
    body = s[1:-1]
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(m.group(1), m.group(1)), body)


def parse_po(text):
    entries, cur, state = [], None, None
    for ln in text.split("\n") + [""]:
        if not ln.strip():
            if cur is not None:
                entries.append(cur)
            cur, state = None, None
            continue
        if cur is None:
            cur = {"refs": [], "flags": [], "comments": [], "msgid": None, "msgstr": None}
        if ln.startswith("#:"):
            cur["refs"] += ln[2:].split()
        elif ln.startswith("#,"):
            cur["flags"] += [f.strip() for f in ln[2:].split(",") if f.strip()]
        elif ln.startswith("#"):
            cur["comments"].append(ln)
        elif ln.startswith("msgid "):
            state = "msgid"
            cur["msgid"] = po_unquote(ln[6:])
        elif ln.startswith("msgstr "):
            state = "msgstr"
            cur["msgstr"] = po_unquote(ln[7:])
        elif ln.startswith('"') and state:
            cur[state] += po_unquote(ln)
        else:
            check(False, f"po: unparsed line {ln!r}")
    return entries


def family_po():
    F, P = "gettext-po", "sphinx.de.po"
    text = read(P)
    ents = parse_po(text)
    hdr = ents[0]
    check(hdr["msgid"] == "", "po: first entry is not the header")
    msgs = [e for e in ents[1:] if e["msgid"] is not None]
    agree(len(msgs), len(ents) - 1, "po entries all have msgid")

    n = len(msgs)
    agree(n, len(re.findall(r"^msgid ", text, re.M)) - 1, "po messages")
    add(F, P, "How many messages are in this German Sphinx catalog? (don't count the header entry)",
        n, "number")

    tr = [e for e in msgs if e["msgstr"]]
    # second way: msgstr lines that are non-empty, or empty but followed by a continuation string
    raw_tr = len(re.findall(r'^msgstr (?:"[^\n]+"\n|""\n")', text + "\n", re.M)) - 1  # minus the header
    agree(len(tr), raw_tr, "po translated")
    add(F, P, "how many of the messages actually have a German translation (non-empty msgstr)?",
        len(tr), "number")

    fc = collections.Counter(f for e in msgs for f in {r.rsplit(":", 1)[0] for r in e["refs"]})
    f3, _ = unique_max(fc, "po busiest source file")
    add(F, P, "Which source file are the most messages in this .po taken from? Give its path.", f3, "contains")

    n4 = sum(1 for e in msgs if "python-format" in e["flags"])
    agree(n4, len(re.findall(r"^#,.*\bpython-format\b", text, re.M)), "po python-format")
    add(F, P, "How many entries are flagged python-format?", n4, "number")

    src5 = "Cannot find source directory (%s)"
    e5 = one([e for e in msgs if e["msgid"] == src5], "po lookup by msgid")
    check(bool(e5["msgstr"]), "po lookup target untranslated")
    add(F, P, f"What is the German translation of \"{src5}\"?", e5["msgstr"], "contains")

    rc = collections.Counter({e["msgid"]: len(e["refs"]) for e in msgs})
    m6, _ = unique_max(rc, "po most referenced msgid")
    add(F, P, "Which English message string is referenced from the largest number of source locations?",
        m6, "contains")

    hdr_date = re.search(r"POT-Creation-Date: (\d{4}-\d\d-\d\d)", hdr["msgstr"]).group(1)
    add(F, P, "When was the translation template for this catalog created (POT creation date)?",
        hdr_date, "contains")

    names = [re.sub(r"\s*<[^>]*>", "", c[1:].split(",")[0]).strip()
             for c in hdr["comments"][hdr["comments"].index("# Translators:") + 1:]]
    add(F, P, "List the translators credited in the header comments (just their names).", names, "set-f1")

    ref9 = "sphinx/cmd/build.py:87"
    e9 = one([e for e in msgs if ref9 in e["refs"]], "po lookup by reference")
    add(F, P, f"what's the English source string at {ref9}? give it exactly", e9["msgid"], "contains")

    f10 = "sphinx/domains/python.py"
    in10 = [e for e in msgs if any(r.rsplit(":", 1)[0] == f10 for r in e["refs"])]
    n10 = sum(1 for e in in10 if not e["msgstr"])
    add(F, P, f"Of the messages that come from {f10}, how many are still untranslated?", n10, "number")


# ---------------------------------------------------------------------------
# 6. SRT subtitles -- index / "start --> end" / text lines, blank-line separated
# ---------------------------------------------------------------------------
def srt_ms(s):
    h, m, rest = s.split(":")
    sec, ms = rest.split(",")
    return ((int(h) * 60 + int(m)) * 60 + int(sec)) * 1000 + int(ms)


def parse_srt(text):
    cues = []
    for block in re.split(r"\n[ \t]*\n", text.strip()):
        lines = block.split("\n")
        m = re.match(r"^(\d{2}:\d{2}:\d{2},\d{3}) --> (\d{2}:\d{2}:\d{2},\d{3})$", lines[1])
        check(bool(m) and lines[0].isdigit(), f"srt: bad block {block[:40]!r}")
        cues.append({"n": int(lines[0]), "start": m.group(1), "end": m.group(2),
                     "s": srt_ms(m.group(1)), "e": srt_ms(m.group(2)), "lines": lines[2:]})
    return cues


def family_srt():
    F, P = "srt-subtitles", "utf-8.srt"
    text = read(P)
    cues = parse_srt(text)
    check([c["n"] for c in cues] == list(range(len(cues))), "srt: indexes not 0..n-1")
    credit = [c for c in cues if any("AllSubs.org" in l for l in c["lines"])]
    check(len(credit) == 2, "srt: expected two credit cues")
    film = [c for c in cues if c not in credit]

    n = len(cues)
    agree(n, len(re.findall(r"^\d\d:\d\d:\d\d,\d{3} --> ", text, re.M)), "srt cues")
    add(F, P, "How many subtitle entries are in this .srt file, counting the two 'Downloaded From' "
              "credit entries?", n, "number")

    c2 = unique_min_by(film, lambda c: -(c["e"] - c["s"]), "srt longest")
    add(F, P, "Which subtitle stays on screen the longest (ignore the AllSubs.org credit entries)? "
              "Give its number.", c2["n"], "number")

    k3 = 500
    c3 = one([c for c in cues if c["n"] == k3], "srt 500")
    add(F, P, f"At what timestamp does subtitle #{k3} start?", c3["start"], "contains")

    n4 = sum(1 for c in cues if len(c["lines"]) == 2)
    check(all(1 <= len(c["lines"]) <= 2 for c in cues), "srt: cue with >2 lines")
    add(F, P, "how many subtitles have two lines of text?", n4, "number")

    w = "Veronica"
    n5 = sum(1 for c in cues if re.search(rf"\b{w}\b", " ".join(c["lines"])))
    # second way: map every raw match of the word to the timing line before it
    stamps = [m.start() for m in re.finditer(r"^\d\d:\d\d:\d\d,\d{3} --> ", text, re.M)]
    hit = set()
    for m in re.finditer(rf"\b{w}\b", text):
        hit.add(bisect.bisect_right(stamps, m.start()))
    agree(n5, len(hit), "srt Veronica cues")
    add(F, P, f"How many subtitles mention {w}?", n5, "number")

    place = "San Diego"
    c6 = min((c for c in cues if place in " ".join(c["lines"])), key=lambda c: c["s"])
    add(F, P, f"When is {place} first mentioned? Give the start time of that subtitle.", c6["start"], "contains")

    tot = sum(c["e"] - c["s"] for c in film) / 1000
    add(F, P, "What's the total on-screen time of all subtitles, excluding the two credit entries, "
              "in seconds? Round to the nearest whole second.", int(round(tot)), "number")

    n8 = sum(1 for c in film if c["s"] < 10 * 60 * 1000)
    add(F, P, "How many subtitles (not counting the download credit) start within the first ten minutes?",
        n8, "number")

    k9 = 1000
    c9 = one([c for c in cues if c["n"] == k9], "srt 1000")
    add(F, P, f"What does subtitle {k9} say?", " ".join(c9["lines"]), "contains")

    c10 = unique_min_by(cues, lambda c: c["e"] - c["s"], "srt shortest")
    add(F, P, "which subtitle number has the shortest display time?", c10["n"], "number")


# ---------------------------------------------------------------------------
# 7. Cargo.lock -- TOML [[package]] blocks: name, version, source, checksum, dependencies = [...]
# ---------------------------------------------------------------------------
def parse_cargo_lock(text):
    pkgs, cur, in_list = [], None, False
    for ln in text.split("\n"):
        s = ln.strip()
        if s == "[[package]]":
            cur = {"dependencies": []}
            pkgs.append(cur)
            continue
        if cur is None or not s or s.startswith("#"):
            continue
        if in_list:
            if s == "]":
                in_list = False
            else:
                cur["dependencies"].append(s.rstrip(",").strip('"'))
            continue
        m = re.match(r'^(\w+) = (.*)$', s)
        check(bool(m), f"cargo: unparsed line {ln!r}")
        if m.group(2) == "[":
            in_list = True
        else:
            cur[m.group(1)] = m.group(2).strip('"')
    return pkgs


def family_cargo():
    F, P = "cargo-lock", "Cargo.lock"
    text = read(P)
    pk = parse_cargo_lock(text)
    try:
        import tomllib
        tl = tomllib.loads(text)["package"]
        agree([(p["name"], p["version"], p.get("dependencies", [])) for p in pk],
              [(p["name"], p["version"], p.get("dependencies", [])) for p in tl], "cargo vs tomllib")
    except ImportError:
        pass

    n = len(pk)
    agree(n, text.count("[[package]]"), "cargo packages")
    add(F, P, "How many packages are pinned in this Cargo.lock?", n, "number")

    n2 = sum(1 for p in pk if p.get("source", "").startswith("registry+"))
    agree(n2, len(re.findall(r'^source = "registry\+', text, re.M)), "cargo registry packages")
    add(F, P, "how many of the locked crates come from the crates.io registry?", n2, "number")

    name3 = "pyo3"
    p3 = one([p for p in pk if p["name"] == name3], "cargo pyo3")
    add(F, P, f"Which version of {name3} is locked?", p3["version"], "contains")

    c4 = collections.Counter({(p["name"], p["version"]): len(p["dependencies"]) for p in pk})
    (n4, _), _ = unique_max(c4, "cargo most deps")
    add(F, P, "Which package in the lockfile has the most direct dependencies?", n4, "contains")

    nc = collections.Counter(p["name"] for p in pk)
    add(F, P, "Which crates are locked at more than one version? comma-separated names",
        sorted(k for k, v in nc.items() if v > 1), "set-f1")

    pref = "e1358bd1"
    p6 = one([p for p in pk if p.get("checksum", "").startswith(pref)], "cargo checksum prefix")
    add(F, P, f"Which package has the checksum beginning with {pref}?", p6["name"], "contains")

    dep7 = "quote"
    n7 = sum(1 for p in pk if any(d.split()[0] == dep7 for d in p["dependencies"]))
    agree(n7, len(re.findall(rf'^ "{dep7}(?: [^"]*)?",$', text, re.M)), "cargo reverse deps quote")
    add(F, P, f"How many packages depend directly on {dep7}?", n7, "number")

    name8 = "openssl-sys"
    p8 = one([p for p in pk if p["name"] == name8], "cargo openssl-sys")
    add(F, P, f"list the dependencies of {name8}", [d.split()[0] for d in p8["dependencies"]], "set-f1")

    n9 = sum(1 for p in pk if not p["dependencies"])
    agree(n9, n - text.count("dependencies = ["), "cargo no deps")
    add(F, P, "How many packages have no dependencies listed at all?", n9, "number")

    local = [p["name"] for p in pk if "source" not in p]
    check(all("checksum" not in p for p in pk if "source" not in p), "cargo: local crate with checksum")
    add(F, P, "List the local/workspace crates, i.e. the packages without a source or checksum.",
        local, "set-f1")


# ---------------------------------------------------------------------------
# 8. X11 Compose file -- "<key> <key> ... : "output" keysym # COMMENT"
# ---------------------------------------------------------------------------
COMPOSE_RE = re.compile(r'^((?:<[^>]+>\s*)+):\s*"((?:[^"\\]|\\.)*)"\s*([A-Za-z0-9_]+)?\s*(?:#\s*(.*))?$')


def parse_compose(text):
    recs = []
    for ln in text.split("\n"):
        if not ln.strip() or ln.startswith("#"):
            continue
        m = COMPOSE_RE.match(ln)
        if not check(bool(m), f"compose: unparsed line {ln!r}"):
            continue
        recs.append({"keys": re.findall(r"<([^>]+)>", m.group(1)),
                     "out": re.sub(r"\\(.)", r"\1", m.group(2)),
                     "keysym": m.group(3), "name": (m.group(4) or "").strip()})
    return recs


def family_compose():
    F, P = "xcompose", "Compose"
    text = read(P)
    R = parse_compose(text)

    n = len(R)
    agree(n, len(re.findall(r"^<", text, re.M)), "compose sequences")
    add(F, P, "How many compose sequences does this en_US.UTF-8 Compose file define?", n, "number")

    n2 = sum(1 for r in R if r["keys"][0] == "Multi_key")
    agree(n2, len(re.findall(r"^<Multi_key>", text, re.M)), "compose Multi_key")
    add(F, P, "how many sequences start with the Compose key (Multi_key)?", n2, "number")

    n3 = sum(1 for r in R if r["out"] == "€")
    agree(n3, len(re.findall(r':\s*"€"', text)), "compose euro")
    add(F, P, "How many different key sequences produce the euro sign?", n3, "number")

    r4 = one([r for r in R if r["keys"] == ["Multi_key", "o", "e"]], "compose o e")
    add(F, P, "What is the Unicode name of the character you get from <Multi_key> <o> <e>?",
        f"{r4['name']}|{r4['out']}", "contains")

    dc = collections.Counter(r["keys"][0] for r in R if r["keys"][0].startswith("dead_"))
    d5, _ = unique_max(dc, "compose top dead key")
    add(F, P, "Which dead key begins the most compose sequences?", d5, "contains")

    n6 = sum(1 for r in R if len(r["keys"]) == 5)
    agree(n6, len(re.findall(r"^(?:<[^>]+>\s*){5}:", text, re.M)), "compose 5-key")
    add(F, P, "How many sequences are exactly five keys long?", n6, "number")

    music = [r["name"] for r in R if len(r["keys"]) == 3 and r["keys"][:2] == ["Multi_key", "numbersign"]]
    add(F, P, "List the names of the symbols typed with Compose, then #, then one more key.", music, "set-f1")

    r8 = one([r for r in R if r["keys"] == ["Multi_key", "O", "Y"]], "compose O Y")
    add(F, P, "what do you get if you press Compose, O, Y?", f"{r8['name']}|{r8['out']}", "contains")

    n9 = len({r["out"] for r in R})
    add(F, P, "How many distinct output strings can be produced by the sequences in this file?", n9, "number")

    r10 = one([r for r in R if r["keys"] == ["dead_currency", "b"]], "compose dead_currency b")
    add(F, P, "Which keysym name is given for the result of <dead_currency> <b>?", r10["keysym"], "contains")


def main():
    verbose = "-v" in sys.argv[1:]
    for fam in (family_usb, family_mime, family_calendar, family_bib, family_po, family_srt,
                family_cargo, family_compose):
        try:
            fam()
        except Exception as ex:  # a parser crash is a failed check, not a traceback
            FAILURES.append(f"{fam.__name__}: {type(ex).__name__}: {ex}")
    fams = collections.Counter(t["family"] for t in TASKS)
    for f, c in fams.items():
        check(c == 10, f"family {f} has {c} questions")
    check(len(TASKS) == 80, f"{len(TASKS)} tasks, expected 80")
    check(len({t['question'] for t in TASKS}) == len(TASKS), "duplicate question text")
    with open(os.path.join(HERE, "tasks.jsonl"), "w", encoding="utf-8") as f:
        for t in TASKS:
            f.write(json.dumps(t, ensure_ascii=False) + "\n")
    if verbose:
        for t in TASKS:
            print(f"[{t['family']}/{t['scorer']}] {t['question']}\n    -> {t['answer']}")
    sc = collections.Counter(t["scorer"] for t in TASKS)
    print(f"{len(TASKS)} tasks written to tasks.jsonl; scorers: {dict(sc)}")
    if FAILURES:
        for m in FAILURES:
            print("FAILED:", m, file=sys.stderr)
        sys.exit(1)
    print("all checks passed")


if __name__ == "__main__":
    main()
