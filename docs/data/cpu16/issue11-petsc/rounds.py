# Per-round table of one window: python3 rounds.py WINDOW/t1 (Kelp median / min, PETSc median / min, ratios).
import json,sys,statistics as st,glob,os
d=sys.argv[1]
m={'bicgstab':('bcgs',''),'gmres_cgs':('cgs',''),'gmres':('cgs2',''),'cg':('cg','_cg')}
rounds=sorted(int(f.split('_')[-1].split('.')[0]) for f in glob.glob(f'{d}/kelp_[0-9]*.jsonl'))
for solver,(pk,suf) in m.items():
  for r in rounds:
    k=None
    for l in open(f'{d}/kelp{suf}_{r}.jsonl'):
      j=json.loads(l)
      if j.get('kind')=='iteration' and j['solver']==solver: k=(j['median_s_per_iteration']*1e3,j['min_s_per_iteration']*1e3)
    f=f'{d}/petsc_{pk}_{r}.txt'
    p=[json.loads(l.split('RESULT ')[1]) for l in open(f)] if os.path.exists(f) else []
    pt=[x['solve_s']/x['iters']*1e3 for x in p]
    if not pt or not k: print(solver,r,'missing',k,pt); continue
    pm,pn=st.median(pt),min(pt)
    print(f"| {r} | {solver} | {k[0]:.3f} / {k[1]:.3f} | {pm:.3f} / {pn:.3f} | {k[0]/pm:.2f} | {k[1]/pn:.2f} |  iters {[x['iters'] for x in p]}")
