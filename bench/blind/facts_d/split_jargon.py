#!/usr/bin/env python3
"""Split the Jargon File 4.4.7 plain text (jargon-text package) into one file per lexicon entry.

usage: split_jargon.py jargon.txt OUTDIR
Each entry starts at a line '   :headword: ...' and runs until the next entry
or the next letter-section header ('  A', '  B', ...). Text is kept verbatim,
dedented by the 3-space indentation of the source;
no-break spaces (U+00A0) are turned into plain spaces. Writes OUTDIR/<slug>.txt and
OUTDIR/../entries.tsv (slug<TAB>headword).
"""
import os, re, sys, unicodedata

ENTRY = re.compile(r'^   :(.+?):(?: |$)')
LETTER = re.compile(r'^  [A-Z0]$')

def slugify(h):
    s = h.replace('++', ' plusplus ').replace('+', ' plus ').replace('$', ' dollar ').replace('~', ' tilde ')
    s = re.sub(r'-$', ' hyphen', s)
    s = unicodedata.normalize('NFKD', s)
    s = s.encode('ascii', 'ignore').decode()
    s = s.lower()
    s = re.sub(r'[^a-z0-9]+', '-', s).strip('-')
    return s or 'x'

def main(src, out):
    lines = open(src, encoding='utf-8').read().replace('\u00a0', ' ').split('\n')
    # lexicon region: first entry up to Appendix A
    end = next(i for i, l in enumerate(lines) if l.startswith('Appendix A. Hacker Folklore'))
    starts = [i for i, l in enumerate(lines[:end]) if ENTRY.match(l)]
    stops = set(i for i, l in enumerate(lines[:end]) if LETTER.match(l))
    os.makedirs(out, exist_ok=True)
    seen = {}
    rows = []
    for k, s in enumerate(starts):
        nxt = starts[k + 1] if k + 1 < len(starts) else end
        e = s + 1
        while e < nxt and e not in stops:
            e += 1
        body = lines[s:e]
        body = [l[3:] if l.startswith('   ') else l.lstrip(' ') if not l.strip() else l for l in body]
        while body and not body[-1].strip():
            body.pop()
        head = ENTRY.match(lines[s]).group(1)
        slug = slugify(head)
        if slug in seen:
            seen[slug] += 1
            slug = f'{slug}_{seen[slug]}'
        else:
            seen[slug] = 1
        with open(os.path.join(out, slug + '.txt'), 'w', encoding='utf-8') as f:
            f.write('\n'.join(body) + '\n')
        rows.append((slug, head))
    with open(os.path.join(os.path.dirname(os.path.abspath(out)), 'entries.tsv'), 'w', encoding='utf-8') as f:
        for slug, head in rows:
            f.write(f'{slug}\t{head}\n')
    print(f'{len(rows)} entries written to {out}')

if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
