#!/usr/bin/env python3
"""Check every task in spec.py against docs/ and write tasks.jsonl and evidence.jsonl.

usage: gold.py [DOCS_PARENT]   (default: the directory of this script, which holds docs/)

Checks (any failure -> exit 1, nothing is written):
  * counts: 4 families x 18, each 9 small + 9 large; yes-no 9 'yes' and 9 'no'
  * every cited file exists in the task's folder; large tasks cite no file of docs/small
  * every quote occurs verbatim in its file (any whitespace run in the quote matches any
    whitespace run in the file, i.e. up to line wrapping); the exact file text is stored
  * single-fact / bridge: every alternative of the gold answer occurs (whole words, case and
    accents aside; for 'number', as a number) in the answer-bearing quote, and not in the question
  * bridge: the answer (every alternative) is absent from A's file; no bridge-entity name
    occurs in the question; A's link quote names the bridge entity
  * comparison: each value is extracted from its quote by regex; the winner is recomputed
    (min/max, no tie) and must be the gold answer; both candidates are named in the question
  * yes-no: values are extracted from the quotes by regex; `expr` is evaluated and must
    give the gold yes/no; for two-file bridges the extracted value is absent from A's file
  * only_in: in the task's folder, only the listed files (and the task's cited files) contain
    the term (whole words, case and accents aside)
"""
import json, os, re, sys, unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import spec

FAMILIES = ['bridge', 'comparison', 'yes-no', 'single-fact']
WORDNUM = {'one': 1, 'two': 2, 'three': 3, 'four': 4, 'five': 5, 'six': 6, 'seven': 7,
           'eight': 8, 'nine': 9, 'ten': 10}


def fold(s):
    s = unicodedata.normalize('NFKD', s)
    s = ''.join(c for c in s if not unicodedata.combining(c))
    return s.lower()


def has_words(text, phrase):
    """phrase occurs in text as whole words, case and accents aside, any whitespace."""
    words = fold(phrase).split()
    pat = r'(?<!\w)' + r'\s+'.join(re.escape(w) for w in words) + r'(?!\w)'
    return re.search(pat, fold(text)) is not None


def numbers(text):
    out = []
    for m in re.finditer(r'(?<![\w.])\d+(?:,\d{3})*(?:\.\d+)?', text):
        out.append(float(m.group(0).replace(',', '')))
    return out


def answer_in(text, alt, scorer):
    if scorer == 'number':
        return float(alt) in numbers(text)
    return has_words(text, alt)


def find_quote(text, quote):
    pat = r'\s+'.join(re.escape(p) for p in quote.split())
    m = re.search(pat, text)
    return m.group(0) if m else None


def entity_in(text, name):
    # all-caps names (ITS, RTM, BSD...) are matched case-sensitively as whole words,
    # other names case-insensitively as whole words
    if name.upper() == name and any(c.isalpha() for c in name):
        return re.search(r'(?<!\w)' + re.escape(name) + r'(?!\w)', text) is not None
    return has_words(text, name)


def convert(raw, typ):
    if typ == 'int':
        r = raw.strip()
        if r.lower() in WORDNUM:
            return WORDNUM[r.lower()]
        return int(r.replace(',', ''))
    return re.sub(r'\s+', ' ', raw.strip())


def main(base):
    docs = {f: os.path.join(base, 'docs', f) for f in ('small', 'large')}
    small_files = set(os.listdir(docs['small']))
    fails = []
    out_tasks, out_ev = [], []

    def fail(tid, msg):
        fails.append(f'{tid}: {msg}')

    # ---- counts
    ids = [t['id'] for t in spec.TASKS]
    if len(ids) != len(set(ids)):
        fail('ALL', 'duplicate ids')
    for fam in FAMILIES:
        for fol in ('small', 'large'):
            n = sum(1 for t in spec.TASKS if t['family'] == fam and t['folder'] == fol)
            if n != 9:
                fail('ALL', f'{fam}/{fol}: {n} tasks, want 9')
    yn = [t['answer'] for t in spec.TASKS if t['family'] == 'yes-no']
    if yn.count('yes') != 9 or yn.count('no') != 9:
        fail('ALL', f'yes-no: {yn.count("yes")} yes / {yn.count("no")} no, want 9/9')
    if len(spec.TASKS) != 72:
        fail('ALL', f'{len(spec.TASKS)} tasks, want 72')

    for t in spec.TASKS:
        tid, fam, fol, q, ans, scorer = (t['id'], t['family'], t['folder'], t['question'],
                                         t['answer'], t['scorer'])
        if fam not in FAMILIES:
            fail(tid, f'bad family {fam}')
        if scorer not in ('contains', 'number'):
            fail(tid, f'bad scorer {scorer}')
        alts = [a.strip() for a in ans.split('|')]
        if any(not a for a in alts):
            fail(tid, 'empty answer alternative')
        if scorer == 'number':
            for a in alts:
                try:
                    float(a)
                except ValueError:
                    fail(tid, f'number scorer with non-number answer {a!r}')
        folder_dir = docs[fol]
        ev_out = []
        texts = {}
        vals = {}
        for e in t['evidence']:
            path = os.path.join(folder_dir, e['file'])
            if not os.path.exists(path):
                fail(tid, f'{e["file"]} not in docs/{fol}')
                continue
            if fol == 'large' and e['file'] in small_files:
                fail(tid, f'large task cites {e["file"]}, which is in docs/small')
            text = open(path, encoding='utf-8').read()
            texts[e['file']] = text
            exact = find_quote(text, e['quote'])
            if exact is None:
                fail(tid, f'quote not found in {e["file"]}: {e["quote"][:60]!r}')
                continue
            rec = dict(file=e['file'], role=e['role'], quote=exact)
            if e['role'] == 'value':
                m = re.search(e['regex'], e['quote'])
                if not m:
                    fail(tid, f'regex {e["regex"]!r} does not match quote of {e["file"]}')
                    continue
                v = convert(m.group(1), e['type'])
                vals[e['var']] = v
                rec.update(var=e['var'], regex=e['regex'], value=v)
            ev_out.append(rec)
        by_role = {}
        for e in t['evidence']:
            by_role.setdefault(e['role'], []).append(e)

        # ---- answer must not be given away by the question (not for comparison / yes-no)
        if fam in ('single-fact', 'bridge'):
            for a in alts:
                if answer_in(q, a, scorer):
                    fail(tid, f'answer {a!r} occurs in the question')
            ansq = [e for e in by_role.get('answer', [])]
            if len(ansq) != 1:
                fail(tid, 'need exactly one answer-bearing quote')
            else:
                for a in alts:
                    if not answer_in(ansq[0]['quote'], a, scorer):
                        fail(tid, f'answer {a!r} not in the answer quote')

        if fam == 'bridge' or t.get('kind') == 'bridge':
            links = by_role.get('link', [])
            if len(links) != 1:
                fail(tid, 'bridge needs exactly one link quote')
            else:
                a_file = links[0]['file']
                others = [e['file'] for e in t['evidence'] if e['role'] != 'link']
                if a_file in others:
                    fail(tid, 'bridge A and B are the same file')
                a_text = texts.get(a_file, '')
                if fam == 'bridge':
                    for a in alts:
                        if answer_in(a_text, a, scorer):
                            fail(tid, f'answer {a!r} already stated in A file {a_file}')
                else:
                    for var, v in vals.items():
                        if answer_in(a_text, str(v), 'number' if isinstance(v, int) else 'contains'):
                            fail(tid, f'value {v!r} already stated in A file {a_file}')
                ents = t.get('bridge_entity', [])
                if fam == 'bridge' and not ents:
                    fail(tid, 'bridge task without bridge_entity')
                for name in ents:
                    if entity_in(q, name):
                        fail(tid, f'bridge entity {name!r} named in the question')
                if ents and not any(fold(n) in fold(links[0]['quote']) for n in ents):
                    fail(tid, 'link quote does not name the bridge entity')

        if fam == 'comparison':
            cands = t['candidates']
            if set(cands) != set(vals) or len(cands) != 2:
                fail(tid, f'comparison values {sorted(vals)} vs candidates {sorted(cands)}')
            else:
                for name in cands.values():
                    if not has_words(q, name):
                        fail(tid, f'candidate {name!r} not named in the question')
                (v1, n1), (v2, n2) = [(vals[k], cands[k]) for k in sorted(cands)]
                if v1 == v2:
                    fail(tid, f'tie {v1}')
                else:
                    if t['pick'] == 'min':
                        win = n1 if v1 < v2 else n2
                    else:
                        win = n1 if v1 > v2 else n2
                    if not (fold(alts[0]) in fold(win) or fold(win) in fold(alts[0])):
                        fail(tid, f'recomputed winner {win!r} != gold {alts[0]!r}')
                    t['_winner'] = win

        if fam == 'yes-no':
            if ans not in ('yes', 'no'):
                fail(tid, 'yes-no gold must be yes or no')
            try:
                res = eval(t['expr'], {'__builtins__': {}}, dict(vals))
            except Exception as ex:  # noqa
                fail(tid, f'expr failed: {ex}')
                res = None
            if res is not None and ('yes' if res else 'no') != ans:
                fail(tid, f'recomputed {res} != gold {ans}')
            if t.get('kind') == 'both' and len(vals) != 2:
                fail(tid, '"both" question needs two values')

        # ---- uniqueness guards over the whole folder
        for term, allowed in t.get('only_in', {}).items():
            hits = sorted(f for f in os.listdir(folder_dir)
                          if has_words(open(os.path.join(folder_dir, f), encoding='utf-8').read(), term))
            extra = [h for h in hits if h not in allowed and h not in texts]
            if extra:
                fail(tid, f'only_in {term!r}: also in {extra}')

        out_tasks.append(dict(path=f'docs/{fol}', question=q, answer=ans, scorer=scorer, family=fam))
        evrec = dict(id=tid, path=f'docs/{fol}', family=fam, question=q, answer=ans, evidence=ev_out)
        if fam == 'comparison':
            evrec.update(candidates=t['candidates'], pick=t['pick'], winner=t.get('_winner'))
        if fam == 'yes-no':
            evrec.update(kind=t.get('kind'), expr=t['expr'], values=vals)
        if fam == 'bridge':
            evrec.update(bridge_entity=t['bridge_entity'])
        out_ev.append(evrec)

    for f in fails:
        print('FAIL', f)
    n_bad = len({f.split(':')[0] for f in fails})
    print(f'{len(spec.TASKS)} tasks checked, {len(fails)} failing checks, {n_bad} failing tasks')
    if fails:
        return 1
    with open(os.path.join(base, 'tasks.jsonl'), 'w', encoding='utf-8') as f:
        for r in out_tasks:
            f.write(json.dumps(r, ensure_ascii=False) + '\n')
    with open(os.path.join(base, 'evidence.jsonl'), 'w', encoding='utf-8') as f:
        for r in out_ev:
            f.write(json.dumps(r, ensure_ascii=False) + '\n')
    print('wrote tasks.jsonl and evidence.jsonl')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else HERE))
