#!/usr/bin/env python3
"""Parse Debian bookworm main Translation-en.xz (+ Packages.xz for Source/Section)
into raw/records.json: one record per binary package with an English description."""
import json, lzma, re, sys, os

RAW = os.path.join(os.path.dirname(os.path.abspath(__file__)), "raw")


def stanzas(path):
    with lzma.open(path, "rt", encoding="utf-8") as f:
        cur = []
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                if cur:
                    yield cur
                cur = []
            else:
                cur.append(line)
        if cur:
            yield cur


def fields(st):
    d, key = {}, None
    for line in st:
        if line.startswith((" ", "\t")) and key:
            d[key].append(line)
        else:
            k, _, v = line.partition(":")
            key = k.strip()
            d[key] = [v.strip()]
    return d


def render_long(lines):
    """Undo Debian description markup: strip the leading space, ' .' = paragraph
    break; lines indented further (lists, verbatim) stay on their own line."""
    paras, cur = [], []
    for ln in lines:
        body = ln[1:] if ln.startswith(" ") else ln
        if body.strip() == ".":
            if cur:
                paras.append(cur)
            cur = []
            continue
        cur.append(body)
    if cur:
        paras.append(cur)
    out = []
    for p in paras:
        text = ""
        for b in p:
            verbatim = b.startswith((" ", "\t")) or re.match(r"^[*+\-o] ", b)
            b2 = b.strip()
            if not text:
                text = b2
            elif verbatim:
                text += "\n" + b2
            else:
                text += " " + b2
        out.append(text)
    return out


def main():
    meta = {}
    for st in stanzas(os.path.join(RAW, "Packages.xz")):
        d = fields(st)
        p = d["Package"][0]
        src = d.get("Source", [p])[0].split()[0]
        meta[p] = {"source": src, "section": d.get("Section", [""])[0],
                   "homepage": d.get("Homepage", [""])[0]}
    recs = []
    for st in stanzas(os.path.join(RAW, "Translation-en.xz")):
        d = fields(st)
        p = d["Package"][0]
        desc = d.get("Description-en")
        if not desc:
            continue
        short = desc[0]
        long = render_long(desc[1:])
        m = meta.get(p, {"source": p, "section": "", "homepage": ""})
        recs.append({"pkg": p, "short": short, "paras": long, **m})
    with open(os.path.join(RAW, "records.json"), "w") as f:
        json.dump(recs, f)
    print(len(recs), "records", file=sys.stderr)


if __name__ == "__main__":
    main()
