#!/usr/bin/env python3
"""Issue 12, team kernel L1 and row layout runs: per variant (file name without the round
suffix _1, _2) and R, the median over rounds of fraction_of_roof and of seconds per vector and
moment, and the triad. Usage: summarize.py DIR..."""
import glob, json, os, re, statistics, sys

for d in sys.argv[1:]:
    groups = {}
    for f in sorted(glob.glob(os.path.join(d, '*.jsonl'))):
        name = re.sub(r'_[0-9]+$', '', os.path.basename(f)[:-6])
        if name.startswith('spmv_'):
            continue
        for line in open(f):
            try:
                j = json.loads(line)
            except ValueError:
                continue
            g = groups.setdefault(name, {'triad': [], 'rows': {}})
            if j.get('kind') == 'triad':
                g['triad'].append(j['median_gbytes_per_s'])
            if j.get('kind') == 'measurement':
                key = j['implementation'] if j['implementation'] != 'blocked' else 'R%d' % j['R']
                g['rows'].setdefault(key, []).append((j['fraction_of_roof'], j['seconds_per_vector_moment']))
    print('##', d)
    for name, g in groups.items():
        cells = ['%s %.3f (%.3g s)' % (k, statistics.median(v[0] for v in vals), statistics.median(v[1] for v in vals))
                 for k, vals in g['rows'].items()]
        print('%-28s rounds %d, triad %s GB/s: %s' % (name, len(g['triad']), '/'.join('%.0f' % t for t in g['triad']), '; '.join(cells)))
