#!/usr/bin/env python3
"""Issue 12, host blocked KPM kernel staging and prefetch: per variant (file name without the
round suffix _1, _2, ...) and R, the medians over rounds of seconds per vector and moment,
Gflop/s and fraction_of_roof, and of the time relative to the naive implementation of the same
run (the naive code is the same in every binary, so this ratio cancels much of the VM's drift
between runs). Usage: summarize.py DIR..."""
import glob, json, os, re, statistics, sys

for d in sys.argv[1:]:
    groups = {}
    for f in sorted(glob.glob(os.path.join(d, '*.jsonl'))):
        name = re.sub(r'_[0-9]+$', '', os.path.basename(f)[:-6])
        runs = [json.loads(line) for line in open(f) if line.startswith('{')]
        naive = [j['seconds_per_vector_moment'] for j in runs
                 if j.get('kind') == 'measurement' and j['implementation'] == 'naive']
        peak = [j['best_gflops'] for j in runs if j.get('kind') == 'flop_peak']
        g = groups.setdefault(name, {'peak': [], 'rows': {}})
        g['peak'] += peak
        for j in runs:
            if j.get('kind') != 'measurement' or j['implementation'] != 'blocked':
                continue
            s = j['seconds_per_vector_moment']
            g['rows'].setdefault(j['R'], []).append((s, j['gflops'], j['fraction_of_roof'],
                                                     s / naive[0] if naive else float('nan')))
    print('##', d)
    for name, g in groups.items():
        print('%s: %d rounds, flop peak %s Gflop/s' % (name, len(g['peak']), '/'.join('%.1f' % p for p in g['peak'])))
        for R, vals in sorted(g['rows'].items()):
            med = [statistics.median(v[k] for v in vals) for k in range(4)]
            print('  R %2d: %.3g s, %.2f Gflop/s, fraction %.3f, time / naive %.3f' % (R, *med))
