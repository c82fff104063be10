import json,sys,statistics as st
out,rounds=sys.argv[1],int(sys.argv[2])
m={'bicgstab':('bcgs',''),'gmres_cgs':('cgs',''),'gmres':('cgs2',''),'cg':('cg','_cg')}
for r in range(1,rounds+1):
  for solver,(pk,suf) in m.items():
    row={}
    for tag in ('before','kelp'):
      for l in open(f'{out}/{tag}{suf}_{r}.jsonl'):
        d=json.loads(l)
        if d.get('kind')=='iteration' and d['solver']==solver: row[tag]=(d['median_s_per_iteration']*1e3,d['min_s_per_iteration']*1e3)
    p=[json.loads(l.split('RESULT ')[1]) for l in open(f'{out}/petsc_{pk}_{r}.txt')]
    pt=[d['solve_s']/d['iters']*1e3 for d in p]
    pm,pn=st.median(pt),min(pt)
    b,k=row['before'],row['kelp']
    print(f"| {r} | {solver} | {b[0]:.2f} / {b[1]:.2f} | {k[0]:.2f} / {k[1]:.2f} | {pm:.2f} / {pn:.2f} | {k[1]/pn:.2f} | {k[0]/pm:.2f} | {b[1]/pn:.2f} |")
