# Pooled table of docs/performance.md: python3 summarize.py window1 window2.
import json,sys,statistics as st,glob,os
# pooled over windows: python3 pool.py DIR... (each with t1/ and t16/)
m={'bicgstab':('bcgs',''),'gmres_cgs':('cgs',''),'gmres':('cgs2',''),'cg':('cg','_cg')}
for t in ('t1','t16'):
  for solver,(pk,suf) in m.items():
    km=[];kn=[];pm=[];pn=[];rounds=0;ratios=[]
    for d in sys.argv[1:]:
      for f in sorted(glob.glob(f'{d}/{t}/kelp{suf}_[0-9]*.jsonl')):
        r=f.split('_')[-1].split('.')[0]
        k=[json.loads(l) for l in open(f)]
        k=[j for j in k if j.get('kind')=='iteration' and j['solver']==solver][0]
        p=[json.loads(l.split('RESULT ')[1]) for l in open(f'{d}/{t}/petsc_{pk}_{r}.txt')]
        pt=[x['solve_s']/x['iters']*1e3 for x in p]
        km.append(k['median_s_per_iteration']*1e3); kn.append(k['min_s_per_iteration']*1e3)
        pm.append(st.median(pt)); pn.append(min(pt)); rounds+=1; ratios.append(km[-1]/pm[-1])
    if not rounds: continue
    print(f"| {t[1:]} | {solver} | {rounds} | {st.median(km):.3f} / {min(kn):.3f} | {st.median(pm):.3f} / {min(pn):.3f} | **{st.median(km)/st.median(pm):.2f}** | {min(kn)/min(pn):.2f} | {min(ratios):.2f}-{max(ratios):.2f} |")
