# Medians over rounds of blocked seconds per vector and moment (and fraction of the roof) for
# the four row-order variants: python3 summarize.py DIR...
import json, glob, statistics as st, sys
rows = {}
for d in sys.argv[1:]:
    for f in glob.glob(f'{d}/*.jsonl'):
        v = f.split('/')[-1].rsplit('_', 1)[0]
        for l in open(f):
            j = json.loads(l)
            if j.get('kind') == 'config': rows.setdefault((v, 'order_s'), []).append(j['order_seconds'])
            if j.get('kind') == 'measurement' and j['implementation'] in ('blocked', 'naive'):
                rows.setdefault((v, j['implementation'], j['R']), []).append((j['seconds_per_vector_moment'], j['fraction_of_roof']))
variants = ['natural', 'locality', 'shuffled', 'shuffled_locality']
print('| R | ' + ' | '.join(variants) + ' | locality / natural | shuffled: locality gain |')
print('|---:|' + '---:|' * (len(variants) + 2))
for key in [('naive', 1)] + [('blocked', r) for r in (8, 16, 32, 64)]:
    med = {v: st.median(t for t, _ in rows[(v,) + key]) for v in variants}
    fr = {v: st.median(f for _, f in rows[(v,) + key]) for v in variants}
    n = len(rows[('natural',) + key])
    cells = ' | '.join(f'{med[v]:.3g} ({fr[v]:.2f})' for v in variants)
    print(f'| {key[0]} {key[1]} | {cells} | {med["natural"]/med["locality"]:.2f} | {med["shuffled"]/med["shuffled_locality"]:.2f} |  rounds {n}')
for v in ('locality', 'shuffled_locality'):
    print(v, 'order seconds', ['%.2f' % x for x in rows[(v, 'order_s')]])
