#!/usr/bin/env python3
"""Write and/or verify the gold for the blind question set.

  python3 gold.py --write   regenerate tasks.jsonl and evidence.jsonl from spec.py
  python3 gold.py           verify tasks.jsonl + evidence.jsonl against docs/ (exit 1 on failure)

Checks per task (all mechanical):
  * every cited file exists inside the task's folder and contains its quote verbatim
    (whitespace-normalised);
  * bridge / single-fact: the gold answer (one of its |-alternatives, as whole words,
    case and punctuation ignored; for `number`, as a number) occurs in the answer-bearing
    quote (the last one); for bridges the answer must NOT occur anywhere in the first
    file, the bridge entity must not be named in the question, and the bridge entity
    must appear in both files;
  * comparison: values are extracted from the two quotes (years: min of 4-digit years,
    counts: max number, number words and thousands separators handled); the script
    picks the winner itself and it must match the gold; both names must be in the question;
  * yes-no: recomputed either from the two extracted values (cmp) or from regexes that
    must / must not match the quotes (all_match, optional invert);
  * entity uniqueness: every named entity is grepped (whole word, case-insensitive) over
    the task's folder; it must occur in a cited file, and files outside the cited ones
    that mention it are listed; more than 3 such files fails the task;
  * gold answer is not contained in the question; scorer/answer format sanity.
"""
import json, os, re, sys, collections

HERE = os.path.dirname(os.path.abspath(__file__))
NUMW = {w: i for i, w in enumerate(
    'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen '
    'fifteen sixteen seventeen eighteen nineteen twenty'.split())}


def norm_ws(s):
    return re.sub(r'\s+', ' ', s).strip()


def norm_words(s):
    return ' ' + ' '.join(re.sub(r'[^\w]+', ' ', s.lower()).split()) + ' '


def has_words(text, phrase):
    p = norm_words(phrase)
    return p.strip() != '' and p in norm_words(text)


def numbers(s):
    s = re.sub(r'(?<=\d),(?=\d{3}\b)', '', s)
    out = [float(x) for x in re.findall(r'\d+(?:\.\d+)?', s)]
    for w in re.findall(r'[A-Za-z]+', s):
        if w.lower() in NUMW:
            out.append(float(NUMW[w.lower()]))
    return out


def value(quote, kind):
    nums = numbers(quote)
    if kind == 'year':
        ys = [n for n in nums if 1900 <= n <= 2099 and n == int(n)]
        if not ys:
            raise ValueError('no year in quote: ' + quote)
        return min(ys)
    if not nums:
        raise ValueError('no number in quote: ' + quote)
    return max(nums)


def ent_re(name):
    return re.compile(r'(?<![\w])' + re.escape(name) + r'(?![\w])', re.I)


def write():
    sys.path.insert(0, HERE)
    from spec import TASKS
    with open(os.path.join(HERE, 'tasks.jsonl'), 'w') as ft, \
            open(os.path.join(HERE, 'evidence.jsonl'), 'w') as fe:
        for i, t in enumerate(TASKS):
            path = 'docs/' + t['corpus']
            ft.write(json.dumps({'path': path, 'question': t['q'], 'answer': t['a'],
                                 'scorer': t['scorer'], 'family': t['family']},
                                ensure_ascii=False) + '\n')
            ev = []
            for e in t['ev']:
                d = {'file': f"{path}/{e['pkg']}.txt", 'quote': e['quote']}
                for k in ('name', 'pattern'):
                    if k in e:
                        d[k] = e[k]
                ev.append(d)
            fe.write(json.dumps({'id': i, 'path': path, 'family': t['family'],
                                 'question': t['q'], 'answer': t['a'], 'evidence': ev,
                                 'logic': t.get('logic'), 'entities': t.get('ents', []),
                                 'hidden': t.get('hidden', [])}, ensure_ascii=False) + '\n')
    print('wrote', len(TASKS), 'tasks')


def load_folder(path, cache={}):
    if path not in cache:
        d = os.path.join(HERE, path)
        cache[path] = {f'{path}/{fn}': open(os.path.join(d, fn), encoding='utf-8').read()
                       for fn in sorted(os.listdir(d))}
    return cache[path]


def verify():
    tasks = [json.loads(l) for l in open(os.path.join(HERE, 'tasks.jsonl'))]
    evs = [json.loads(l) for l in open(os.path.join(HERE, 'evidence.jsonl'))]
    assert len(tasks) == len(evs), 'tasks/evidence length mismatch'
    nfail = 0
    stats = collections.Counter()
    yn = collections.Counter()
    for i, (t, e) in enumerate(zip(tasks, evs)):
        errs, notes = [], []
        if (t['question'], t['answer'], t['path'], t['family']) != (e['question'], e['answer'], e['path'], e['family']):
            errs.append('tasks.jsonl and evidence.jsonl disagree')
        docs = load_folder(t['path'])
        alts = [a.strip() for a in t['answer'].split('|')]
        ev = e['evidence']
        for x in ev:
            if not x['file'].startswith(t['path'] + '/'):
                errs.append('cited file outside task folder: ' + x['file'])
            elif x['file'] not in docs:
                errs.append('cited file missing: ' + x['file'])
            elif norm_ws(x['quote']) not in norm_ws(docs[x['file']]):
                errs.append('quote not found in ' + x['file'] + ': ' + x['quote'])
        if errs:
            nfail += 1
            print(f'FAIL #{i}', *errs, sep='\n   ')
            continue
        fam, q = t['family'], t['question']
        if t['scorer'] == 'number':
            if not re.fullmatch(r'\d+(\.\d+)?', t['answer']):
                errs.append('number scorer needs a bare number')
        elif t['scorer'] != 'contains':
            errs.append('unknown scorer')
        if fam not in ('yes-no', 'comparison') and any(has_words(q, a) for a in alts):
            errs.append('answer appears in question')
        if fam in ('bridge', 'single-fact'):
            last = ev[-1]['quote']
            if t['scorer'] == 'number':
                if float(t['answer']) not in numbers(last):
                    errs.append('gold number not in answer quote')
            elif not any(has_words(last, a) for a in alts):
                errs.append('gold answer not in answer quote')
        if fam == 'bridge':
            if len(ev) != 2:
                errs.append('bridge needs 2 files')
            else:
                a_text = docs[ev[0]['file']]
                if t['scorer'] == 'number':
                    if float(t['answer']) in numbers(a_text):
                        errs.append('answer number already in first-hop file')
                elif any(has_words(a_text, a) for a in alts):
                    errs.append('answer already in first-hop file')
                if not e['hidden']:
                    errs.append('bridge without hidden entity')
                for h in e['hidden']:
                    if ent_re(h).search(q):
                        errs.append('bridge entity named in question: ' + h)
                if not any(ent_re(h).search(ev[0]['quote']) for h in e['hidden']):
                    errs.append('first-hop quote does not name the bridge entity')
                if not any(ent_re(h).search(docs[ev[1]['file']]) for h in e['hidden']):
                    errs.append('second file does not name the bridge entity')
        if fam == 'comparison' or (fam == 'yes-no' and (e['logic'] or {}).get('type') == 'cmp'):
            lg = e['logic']
            vals = [value(x['quote'], lg['kind']) for x in ev]
            names = [x['name'] for x in ev]
            for n in names:
                if not has_words(q, n):
                    errs.append('compared name not in question: ' + n)
            if vals[0] == vals[1]:
                errs.append('tie')
            notes.append(f'{names[0]}={vals[0]:g} vs {names[1]}={vals[1]:g}')
            if fam == 'comparison':
                pick = {'max': max, 'min': min}[lg['op']]
                w = names[vals.index(pick(vals))]
                loser = names[1 - vals.index(pick(vals))]
                if not any(norm_words(a) == norm_words(w) for a in alts):
                    errs.append(f'computed winner {w!r} != gold {t["answer"]!r}')
                if any(has_words(a, loser) or has_words(loser, a) for a in alts):
                    errs.append('gold alternative overlaps the loser name')
            else:
                res = {'gt': vals[0] > vals[1], 'lt': vals[0] < vals[1]}[lg['op']]
                if ('yes' if res else 'no') != t['answer']:
                    errs.append('computed yes/no differs from gold')
        if fam == 'yes-no':
            yn[(t['path'], t['answer'])] += 1
            if t['answer'] not in ('yes', 'no'):
                errs.append('yes-no answer must be yes or no')
            lg = e['logic'] or {}
            if lg.get('type') == 'all_match':
                pats = [x for x in ev if 'pattern' in x]
                if not pats:
                    errs.append('all_match without patterns')
                res = all(re.search(x['pattern'], x['quote']) for x in pats)
                if lg.get('invert'):
                    res = not res
                if ('yes' if res else 'no') != t['answer']:
                    errs.append('computed yes/no differs from gold')
            elif lg.get('type') != 'cmp':
                errs.append('yes-no without logic')
        # entity uniqueness
        cited = {x['file'] for x in ev}
        for name in e['entities'] + e['hidden']:
            r = ent_re(name)
            hits = [f for f, txt in docs.items() if r.search(txt)]
            if not any(f in cited for f in hits):
                errs.append(f'entity {name!r} not in any cited file')
            other = [f for f in hits if f not in cited]
            if other:
                notes.append(f'{name!r} also in {len(other)}: ' + ', '.join(os.path.basename(f) for f in other[:4]))
            if len(other) > 3:
                errs.append(f'entity {name!r} mentioned in {len(other)} uncited files')
        stats[(t['path'], fam)] += 1
        if errs:
            nfail += 1
            print(f'FAIL #{i} [{t["path"]} {fam}] {q}', *errs, sep='\n   ')
        elif '-v' in sys.argv or notes:
            print(f'ok   #{i} [{t["path"]} {fam}] {t["answer"]}' + ('' if not notes else '  (' + '; '.join(notes) + ')'))
    print()
    for (p, f), n in sorted(stats.items()):
        print(f'{p:12s} {f:12s} {n}')
    print('yes/no balance:', dict(yn))
    print(f'{len(tasks)} tasks, {nfail} failing')
    return nfail == 0


if __name__ == '__main__':
    if '--write' in sys.argv:
        write()
    sys.exit(0 if verify() else 1)
