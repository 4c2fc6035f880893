#!/usr/bin/env python3
"""Build docs/small (200 files) and docs/large (2000 files, superset of small)
from raw/records.json (made by parse.py) and the task spec (spec.py).

Needed files (cited in a task's evidence) are always included; the rest is a
seeded random fill of other Debian package descriptions:
  * one package per Debian source package, no duplicate first paragraph;
  * at least two sentences of prose and >= 200 characters of description;
  * never from the same source package as a needed file;
  * never mentioning any entity named in any task (so questions stay unambiguous).
"""
import json, os, random, re, shutil, hashlib
from spec import TASKS

HERE = os.path.dirname(os.path.abspath(__file__))
SEED = 20250711
N_SMALL, N_LARGE = 200, 2000
BOIL = re.compile(r'^(This (package|metapackage|is a (transitional|dummy))|The package contains|This contains)', re.I)


def doc_text(r):
    return r['pkg'] + ': ' + r['short'] + '\n\n' + '\n\n'.join(r['paras']) + '\n'


def ent_regex(names):
    alts = sorted({re.escape(n) for n in names}, key=len, reverse=True)
    return re.compile(r'(?<![\w])(?:' + '|'.join(alts) + r')(?![\w])', re.I)


def main():
    recs = json.load(open(os.path.join(HERE, 'raw', 'records.json')))
    by_pkg = {r['pkg']: r for r in recs}
    need = {'small': [], 'large': []}
    ents = set()
    for t in TASKS:
        for e in t['ev']:
            if e['pkg'] not in by_pkg:
                raise SystemExit('missing package ' + e['pkg'])
            if e['pkg'] not in need[t['corpus']]:
                need[t['corpus']].append(e['pkg'])
        ents.update(t.get('ents', []))
        ents.update(t.get('hidden', []))
    need_all = set(need['small']) | set(need['large'])
    need_src = {by_pkg[p]['source'] for p in need_all}
    need_p0 = {hashlib.md5(by_pkg[p]['paras'][0].encode()).hexdigest() for p in need_all}
    ent_re = ent_regex(ents)

    # one representative per source package
    def score(r):
        prose = sum(len(p) for p in r['paras'] if not BOIL.match(p))
        return (r['pkg'] == r['source'], prose, -len(r['pkg']), r['pkg'])
    reps = {}
    for r in recs:
        s = r['source']
        if s not in reps or score(r) > score(reps[s]):
            reps[s] = r
    pool, seen = [], set(need_p0)
    for s in sorted(reps):
        r = reps[s]
        if s in need_src or not r['paras']:
            continue
        prose = ' '.join(p for p in r['paras'] if not BOIL.match(p))
        if len(prose) < 200 or len(re.findall(r'[.!?](\s|$)', prose)) < 2:
            continue
        h = hashlib.md5(r['paras'][0].encode()).hexdigest()
        if h in seen:
            continue
        if ent_re.search(doc_text(r)):
            continue
        seen.add(h)
        pool.append(r['pkg'])
    random.Random(SEED).shuffle(pool)

    small = list(need['small'])
    k = 0
    while len(small) < N_SMALL:
        small.append(pool[k]); k += 1
    large = list(small) + [p for p in need['large'] if p not in small]
    while len(large) < N_LARGE:
        large.append(pool[k]); k += 1

    for name, lst in (('small', small), ('large', large)):
        d = os.path.join(HERE, 'docs', name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for p in lst:
            with open(os.path.join(d, p + '.txt'), 'w', encoding='utf-8') as f:
                f.write(doc_text(by_pkg[p]))
        print(name, len(lst), 'files; needed', len(need[name]), '; pool', len(pool))


if __name__ == '__main__':
    main()
