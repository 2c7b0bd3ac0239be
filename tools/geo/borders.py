#!/usr/bin/env python3
"""Compares a generated drawing's borders with its map's adjacency: pairs of provinces that
touch in the picture but are no edge of the map, and edges whose provinces do not touch
(fine where they are joined across a strait). For tuning the seeds of maps/NAME.geo.yaml;
`arbiter map check` does the same for designers.

    arbiter map draw maps/standard.yaml -o /tmp/standard.drawing.yaml
    python3 tools/geo/borders.py /tmp/standard.drawing.yaml maps/standard.yaml 2

The last argument scales the picture before rasterising (finer pixels). Needs numpy,
pillow, pyyaml.
"""
import sys, yaml, re
import numpy as np
from PIL import Image, ImageDraw
d = yaml.safe_load(open(sys.argv[1])); mp = yaml.safe_load(open(sys.argv[2]))
sc = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
W, H = int(d['width']*sc)+1, int(d['height']*sc)+1
def rings(path):
    out = []
    for tok in re.findall(r'[MLZ]|-?[\d.]+', path):
        if tok == 'M': cur = []; out.append(cur)
        elif tok in 'LZ': pass
        else: cur.append(float(tok)*sc)
    return [[(r[i], r[i+1]) for i in range(0, len(r), 2)] for r in out]
names = list(d['provinces'])
owner = np.full((H, W), -1, dtype=np.int32)
for i, (pid, p) in enumerate(d['provinces'].items()):
    m = np.zeros((H, W), dtype=bool)
    for r in rings(p['outline']):
        if len(r) > 2:
            im = Image.new('1', (W, H), 0); ImageDraw.Draw(im).polygon(r, fill=1)
            m ^= np.array(im, dtype=bool)
    owner[m] = i
adj = {}
for prov in mp['provinces']:
    s = adj.setdefault(prov['id'], set())
    for k in ('army', 'fleet'):
        for q in prov.get(k) or []: s.add(q.split('/')[0])
    for c in prov.get('coasts') or []:
        for q in c.get('fleet') or []: s.add(q.split('/')[0])
for a in list(adj):
    for q in adj[a]: adj.setdefault(q, set()).add(a)
touch = {}
for a, b in ((owner[:, :-1], owner[:, 1:]), (owner[:-1, :], owner[1:, :])):
    m = (a != b) & (a >= 0) & (b >= 0)
    pairs, counts = np.unique(np.stack([np.minimum(a[m], b[m]), np.maximum(a[m], b[m])], axis=1), axis=0, return_counts=True)
    for (i, j), c in zip(pairs, counts):
        k = tuple(sorted((names[i], names[j]))); touch[k] = touch.get(k, 0) + int(c)
for (a, b), c in sorted(touch.items()):
    if b not in adj.get(a, set()):
        print(f"TOUCH, NOT NEIGHBOURS: {a}-{b} ({c} px)")
kinds = {p['id']: p['kind'] for p in mp['provinces']}
for a in sorted(adj):
    for b in sorted(adj[a]):
        if a < b and (a, b) not in touch:
            print(f"NEIGHBOURS, NOT TOUCHING: {a}-{b} ({kinds[a]}, {kinds[b]})")
