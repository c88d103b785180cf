# Usage: python3 btrandom.py SEED N [CUBEGEN]  (needs burrTxt at /tmp/btsrc/burrTxt: see SOURCE.md)
# Random small BurrTools cube-grid puzzles with colours, variable voxels
# (plain and coloured), ranges and colour pairs; counted by burrTxt and by
# cubegen. Writes its puzzles into /tmp/rnd/.
import random, subprocess, json, sys, itertools, os
R = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
N = int(sys.argv[2]) if len(sys.argv) > 2 else 50
CG = sys.argv[3] if len(sys.argv) > 3 else 'build/cubegen'

def nb(c):
    x,y,z=c
    return [(x+1,y,z),(x-1,y,z),(x,y+1,z),(x,y-1,z),(x,y,z+1),(x,y,z-1)]

def partition(cells, sizes):
    left=set(cells); pieces=[]
    while left:
        s=R.choice(sizes); start=R.choice(sorted(left)); p=[start]; left.discard(start)
        while len(p)<s:
            fr=[n for c in p for n in nb(c) if n in left]
            if not fr: break
            n=R.choice(fr); p.append(n); left.discard(n)
        pieces.append(p)
    return pieces

def vox(dims, cells):  # cells: dict (x,y,z) -> str
    nx,ny,nz=dims; out=[]
    for z in range(nz):
        for y in range(ny):
            for x in range(nx):
                out.append(cells.get((x,y,z),'_'))
    return ''.join(out)

def make():
    nx,ny,nz=R.choice([(3,3,1),(4,3,1),(2,2,3),(3,2,2),(4,4,1),(3,3,2),(5,2,1)])
    allc=[(x,y,z) for x in range(nx) for y in range(ny) for z in range(nz)]
    ncol=R.randint(0,3)
    goal={}
    for c in allc:
        if R.random()<0.1: continue
        goal[c]=1
    cells=sorted(goal)
    if len(cells)<3: return None
    pieces=partition(cells,[3,4,4,5,5])
    res={}; opt=set()
    gcol={}
    for c in cells:
        col = R.randint(1,ncol) if ncol and R.random()<0.5 else 0
        gcol[c]=col
    shapes=[]
    extra_opt=[c for c in allc if c not in goal and R.random()<0.3]
    for c in cells:
        # now and then a cell the cut covers is variable, its colour kept
        res[c]=('+' if R.random()<0.15 else '#')+(str(gcol[c]) if gcol[c] else '')
    for c in extra_opt:
        res[c]='+'+(str(R.randint(1,ncol)) if ncol and R.random()<0.5 else '')
    parts=[]
    for p in pieces:
        mx=min(x for x,y,z in p); my=min(y for x,y,z in p); mz=min(z for x,y,z in p)
        d=(max(x for x,y,z in p)-mx+1,max(y for x,y,z in p)-my+1,max(z for x,y,z in p)-mz+1)
        pc={}
        for c in p:
            col=gcol[c] if R.random()<0.8 else (R.randint(0,ncol) if ncol else 0)
            pc[(c[0]-mx,c[1]-my,c[2]-mz)]='#'+(str(col) if col else '')
        shapes.append((d,pc))
    # maybe make some piece cells optional in result (so the extra piece may be dropped)
    # ranges: duplicate a random small piece with range
    resid=len(shapes)
    shapes.append(((nx,ny,nz),res))
    parts=[[i,1,1] for i in range(resid)]
    if extra_opt and R.random()<0.5:
        # a monocube with a range to fill optional cells
        col=R.randint(1,ncol) if ncol and R.random()<0.5 else 0
        shapes.append(((1,1,1),{(0,0,0):'#'+(str(col) if col else '')}))
        parts.append([len(shapes)-1,0,R.randint(1,3)])
    pairs=[]
    for a in range(ncol):
        for b in range(ncol):
            if (a==b and R.random()<0.8) or R.random()<0.2: pairs.append((a,b))
    if R.random()<0.4: pairs=[]
    cols=[(R.randint(0,255),R.randint(0,255),R.randint(0,255)) for _ in range(ncol)]
    x=['<?xml version="1.0"?>','<puzzle version="2">',' <gridType type="0"/>',' <colors>']
    x+=['  <color red="%d" green="%d" blue="%d"/>'%c for c in cols]
    x+=[' </colors>',' <shapes>']
    for d,pc in shapes:
        x.append('  <voxel x="%d" y="%d" z="%d" type="0">%s</voxel>'%(d+(vox(d,pc),)))
    x+=[' </shapes>',' <problems>','  <problem name="random" state="0">','   <shapes>']
    for i,mn,mx in parts:
        if mn==mx: x.append('    <shape id="%d" count="%d"/>'%(i,mn))
        else: x.append('    <shape id="%d" min="%d" max="%d"/>'%(i,mn,mx))
    x+=['   </shapes>','   <result id="%d"/>'%resid,'   <bitmap>']
    x+=['    <pair piece="%d" result="%d"/>'%p for p in pairs]
    x+=['   </bitmap>','  </problem>',' </problems>',' <comment/>','</puzzle>','']
    return '\n'.join(x)

import re
agree=differ=skipped=coloured=0
os.makedirs('/tmp/rnd',exist_ok=True)
for i in range(N):
    t=make()
    if t is None: continue
    fn='/tmp/rnd/r%d.xmpuzzle'%i
    open(fn,'w').write(t)
    try:
        bt=subprocess.run(['/tmp/btsrc/burrTxt','-q',fn],capture_output=True,text=True,timeout=20).stdout
    except subprocess.TimeoutExpired:
        print(i,'bt timeout'); continue
    line=[l for l in bt.splitlines() if 'assemblies and' in l]
    cg=subprocess.run([CG,'solve',fn,'--json'],capture_output=True,text=True,timeout=60)
    if cg.returncode!=0:
        print(i,'cubegen refused:',cg.stderr.strip(), '| bt:', line); skipped+=1; continue
    j=json.loads(cg.stdout)
    btn=int(line[0].split()[0]) if line else None
    if btn is None:
        # burrTxt prints an error for impossible ones (too many units etc.)
        if j['solutions']==0: agree+=1
        else: print(i,'bt none, cubegen',j['solutions'], bt.strip()[-200:])
        continue
    if j['burrtools_differs'] is not None:
        differ+=1
        if btn < j['solutions']: print(i,'DIFFERS but bt smaller',btn,j['solutions'])
        continue
    if btn==j['solutions']:
        agree+=1
        coloured+=re.search(r'\+[0-9]',t) is not None
    else: print(i,'MISMATCH bt',btn,'cubegen',j['solutions'],fn)
print('agree',agree,'(with coloured variable voxels',coloured,') differs(flagged)',differ,'refused',skipped)
