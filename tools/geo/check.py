#!/usr/bin/env python3
"""Looks at a maps/NAME.geo.yaml: projects its land rings and province points the way the
drawing generator does, and writes a PNG (land, a nearest-seed preview of the provinces,
points with ids, seeds in another colour) plus a list of points that fall on the wrong side
of the coast. A check for people; the Rust test tests/it/geo_data.rs is the automatic one.

    python3 tools/geo/check.py maps/standard.geo.yaml /tmp/standard.png

Needs numpy, pillow, scipy, pyyaml (pip).
"""
import json
import math
import os
import sys

import numpy as np
import yaml
from PIL import Image, ImageDraw
from scipy import ndimage


def projector(proj):
    kind = proj["kind"]
    if kind == "azimuthal":
        lat0, lon0 = (math.radians(v) for v in proj["centre"])

        def f(lat, lon):
            p, l = math.radians(lat), math.radians(lon) - lon0
            k = math.sqrt(2 / (1 + math.sin(lat0) * math.sin(p) + math.cos(lat0) * math.cos(p) * math.cos(l)))
            return k * math.cos(p) * math.sin(l), k * (math.cos(lat0) * math.sin(p) - math.sin(lat0) * math.cos(p) * math.cos(l))

        return f
    if kind == "equirectangular":
        lat0, lon0 = proj.get("centre", [0.0, 0.0])
        c = math.cos(math.radians(lat0))
        return lambda lat, lon: (math.radians(lon - lon0) * c, math.radians(lat))
    if kind == "mercator":
        lon0 = proj.get("centre", [0.0, 0.0])[1]
        return lambda lat, lon: (math.radians(lon - lon0), math.log(math.tan(math.pi / 4 + math.radians(lat) / 2)))
    raise SystemExit(f"unknown projection {kind}")


def inside(rings, lat, lon):
    """Even-odd over all rings, in lon/lat."""
    c = False
    for r in rings:
        n = len(r)
        j = n - 1
        for i in range(n):
            xi, yi = r[i]
            xj, yj = r[j]
            if (yi > lat) != (yj > lat) and lon < (xj - xi) * (lat - yi) / (yj - yi) + xi:
                c = not c
            j = i
    return c


def main():
    geo_path, out = sys.argv[1], sys.argv[2]
    geo = yaml.safe_load(open(geo_path))
    root = os.path.dirname(os.path.abspath(geo_path))
    mapdoc = yaml.safe_load(open(os.path.join(root, geo["map"] + ".yaml")))
    kinds = {p["id"]: p["kind"] for p in mapdoc["provinces"]}
    land = json.load(open(os.path.join(root, geo["land"])))["rings"]
    proj = projector(geo["projection"])
    b = geo["bounds"]
    edge = []
    for i in range(101):
        t = i / 100
        lat = b["south"] + t * (b["north"] - b["south"])
        lon = b["west"] + t * (b["east"] - b["west"])
        edge += [proj(lat, b["west"]), proj(lat, b["east"]), proj(b["south"], lon), proj(b["north"], lon)]
    xs, ys = [p[0] for p in edge], [p[1] for p in edge]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    width = int(sys.argv[3]) if len(sys.argv) > 3 else geo["width"]
    s = width / (x1 - x0)
    height = int(round((y1 - y0) * s))

    def pic(lat, lon):
        x, y = proj(lat, lon)
        return ((x - x0) * s, (y1 - y) * s)

    mask = np.zeros((height, width), dtype=bool)
    for r in land:
        im = Image.new("1", (width, height), 0)
        ImageDraw.Draw(im).polygon([pic(lat, lon) for lon, lat in r], fill=1)
        mask ^= np.array(im, dtype=bool)

    provs = geo["provinces"]
    seeds = geo.get("seeds") or {}
    filler = geo.get("filler") or []
    # (pid, lat, lon, is_seed)
    pts = [(p, ll[0], ll[1], False) for p, ll in provs.items()]
    for p, lst in seeds.items():
        pts += [(p, ll[0], ll[1], True) for ll in lst]
    pts += [(None, ll[0], ll[1], True) for ll in filler]

    # Problems: missing/extra ids, points on the wrong side of the coast.
    ids = set(kinds)
    for p in sorted(ids - set(provs)):
        print(f"MISSING point: {p}")
    for p in sorted(set(provs) - ids):
        print(f"UNKNOWN id in provinces: {p}")
    for p in sorted(set(seeds) - ids):
        print(f"UNKNOWN id in seeds: {p}")
    for p, lat, lon, is_seed in pts:
        if p is None:
            continue
        on_land = inside(land, lat, lon)
        want_land = kinds.get(p) != "sea"
        if on_land != want_land:
            what = "seed" if is_seed else "point"
            print(f"WRONG SIDE {what} {p} [{lat}, {lon}] {'on land' if on_land else 'in water'}")

    # Nearest-seed preview, per connected land/water component (a flood reaches only its own).
    lab_land, _ = ndimage.label(mask)
    lab_water, _ = ndimage.label(~mask)
    rng = np.random.default_rng(7)
    colour = {}
    for p in ids:
        if kinds[p] == "sea":
            colour[p] = rng.integers(60, 200, 3) * np.array([0.5, 0.8, 1.0]) + np.array([0, 20, 55])
        else:
            colour[p] = rng.integers(120, 250, 3)
    owner = np.full((height, width), -1, dtype=np.int32)
    index = {p: i for i, p in enumerate(sorted(ids))}
    img = np.zeros((height, width, 3), dtype=np.uint8)
    img[mask] = (235, 235, 225)
    img[~mask] = (200, 215, 235)
    yy, xx = np.mgrid[0:height, 0:width]
    seedpx = []
    for p, lat, lon, _ in pts:
        x, y = pic(lat, lon)
        xi, yi = int(round(x)), int(round(y))
        if not (0 <= xi < width and 0 <= yi < height):
            continue
        is_sea = (p is not None and kinds.get(p) == "sea") or (p is None and not mask[yi, xi])
        comp = lab_water[yi, xi] if is_sea else lab_land[yi, xi]
        seedpx.append((p, x, y, is_sea, comp))
    for is_sea, lab in ((False, lab_land), (True, lab_water)):
        comps = {c for (_, _, _, sea, c) in seedpx if sea == is_sea and c > 0}
        for c in comps:
            sel = lab == c
            cand = [(p, x, y) for (p, x, y, sea, cc) in seedpx if sea == is_sea and cc == c]
            best = np.full(sel.sum(), np.inf)
            who = np.full(sel.sum(), -1)
            px, py = xx[sel], yy[sel]
            for k, (p, x, y) in enumerate(cand):
                d = (px - x) ** 2 + (py - y) ** 2
                better = d < best
                best[better] = d[better]
                who[better] = k
            cols = np.array([colour[p] if p else (90, 90, 90) for p, _, _ in cand], dtype=np.uint8)
            img[sel] = cols[who]
            idx = np.array([index[p] if p else -1 for p, _, _ in cand], dtype=np.int32)
            owner[sel] = idx[who]
    # Borders in the preview against the map's adjacency.
    adj = {p: set() for p in ids}
    for prov in mapdoc["provinces"]:
        for k in ("army", "fleet"):
            for q in prov.get(k) or []:
                adj[prov["id"]].add(q.split("/")[0])
        for c in prov.get("coasts") or []:
            for q in c.get("fleet") or []:
                adj[prov["id"]].add(q.split("/")[0])
    for a in list(adj):
        for q in adj[a]:
            adj.setdefault(q, set()).add(a)
    names = sorted(ids)
    touch = {}
    for a, b in ((owner[:, :-1], owner[:, 1:]), (owner[:-1, :], owner[1:, :])):
        m = (a != b) & (a >= 0) & (b >= 0)
        pairs, counts = np.unique(np.stack([np.minimum(a[m], b[m]), np.maximum(a[m], b[m])], axis=1), axis=0, return_counts=True)
        for (i, j), c in zip(pairs, counts):
            touch[(names[i], names[j])] = touch.get((names[i], names[j]), 0) + int(c)
    for (a, b), c in sorted(touch.items()):
        if b not in adj.get(a, set()):
            print(f"TOUCH, NOT NEIGHBOURS: {a}-{b} ({c} px)")
    # Coastline and borders between different owners.
    im = Image.fromarray(img)
    d = ImageDraw.Draw(im)
    for r in land:
        pl = [pic(lat, lon) for lon, lat in r]
        d.line(pl + [pl[0]], fill=(40, 40, 40), width=1)
    for p, lat, lon, is_seed in pts:
        x, y = pic(lat, lon)
        if is_seed:
            d.ellipse([x - 3, y - 3, x + 3, y + 3], fill=(220, 0, 0) if p else (0, 0, 0))
            if p:
                d.text((x + 4, y - 5), p, fill=(160, 0, 0))
        else:
            d.ellipse([x - 4, y - 4, x + 4, y + 4], fill=(0, 0, 160))
            d.text((x + 5, y - 6), p.upper(), fill=(0, 0, 0))
    im.save(out)
    print(f"{out}: {width}x{height}")


if __name__ == "__main__":
    main()
