#!/usr/bin/env python3
"""Build docs/small and docs/large from the split Jargon File entries.

usage: build_docs.py SPLIT_DIR DOCS_DIR

docs/small = every file cited by a small task + a seeded random fill, SMALL_SIZE files.
docs/large = docs/small + every file cited by a large task + a seeded random fill,
             LARGE_SIZE files.  Files cited by large tasks never go into small, so the
             large tasks cite only files that are not in small.
Files in spec.EXCLUDE_FROM_LARGE are left out of both folders; files in
spec.EXCLUDE_FROM_SMALL are left out of small (they may be in the large fill).
"""
import os, random, shutil, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import spec


def cited(folder):
    out = set()
    for t in spec.TASKS:
        if t['folder'] == folder:
            for e in t['evidence']:
                out.add(e['file'])
    return out


def main(split_dir, docs_dir):
    allf = sorted(f for f in os.listdir(split_dir) if f.endswith('.txt'))
    alls = set(allf)
    s_cited, l_cited = cited('small'), cited('large')
    missing = (s_cited | l_cited) - alls
    assert not missing, f'cited files missing from split: {sorted(missing)}'
    assert not (s_cited & l_cited), f'files cited by both small and large: {sorted(s_cited & l_cited)}'
    excl_l = set(spec.EXCLUDE_FROM_LARGE)
    excl_s = set(spec.EXCLUDE_FROM_SMALL)
    assert not (excl_l & (s_cited | l_cited)), 'an excluded file is cited'
    assert not (excl_s & s_cited), 'an excluded-from-small file is cited by a small task'

    rng = random.Random(spec.SEED)
    pool_s = sorted(alls - s_cited - l_cited - excl_l - excl_s)
    small = sorted(s_cited | set(rng.sample(pool_s, spec.SMALL_SIZE - len(s_cited))))
    pool_l = sorted(alls - set(small) - l_cited - excl_l)
    large = sorted(set(small) | l_cited |
                   set(rng.sample(pool_l, spec.LARGE_SIZE - len(small) - len(l_cited))))
    assert len(small) == spec.SMALL_SIZE and len(large) == spec.LARGE_SIZE
    assert set(small) <= set(large)

    for name, files in (('small', small), ('large', large)):
        d = os.path.join(docs_dir, name)
        if os.path.exists(d):
            shutil.rmtree(d)
        os.makedirs(d)
        for f in files:
            shutil.copyfile(os.path.join(split_dir, f), os.path.join(d, f))
        print(f'{d}: {len(files)} files')


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
