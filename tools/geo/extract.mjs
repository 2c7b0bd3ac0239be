// Extracts land outlines for `arbiter map draw` from Natural Earth (public domain), as
// shipped by the npm package world-atlas (TopoJSON). Offline once `npm ci` has run:
//
//   cd tools/geo && npm ci && node extract.mjs
//
// Writes ../../maps/geo/europe-land.json (Natural Earth 1:50m, cropped to a box around
// Europe) and ../../maps/geo/world-land.json (1:110m, the world without Antarctica), each
// {"source": "...", "rings": [[[lon, lat], ...], ...]}. Rings are closed implicitly (the
// first point is not repeated); read them with the even-odd rule (holes such as the
// Caspian Sea are rings too).
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as topojson from "topojson-client";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const atlasDir = dirname(require.resolve("world-atlas/package.json"));
const atlasVersion = JSON.parse(readFileSync(join(atlasDir, "package.json"), "utf8")).version;
const outDir = join(here, "..", "..", "maps", "geo");

const JOBS = [
  {
    out: "europe-land.json",
    atlas: "land-50m.json",
    scale: "1:50m",
    // Wider than any board's bounds: an azimuthal picture's corners reach past its box.
    box: { west: -50, east: 90, south: 15, north: 83 },
    digits: 3,
  },
  {
    out: "world-land.json",
    atlas: "land-110m.json",
    scale: "1:110m",
    box: { west: -180, east: 180, south: -60, north: 90 },
    digits: 3,
  },
];

/** All rings (outer and holes) of the land feature, as [lon, lat] arrays, unclosed. */
function landRings(topology) {
  const feature = topojson.feature(topology, topology.objects.land);
  const geoms = feature.type === "FeatureCollection" ? feature.features.map((f) => f.geometry) : [feature.geometry];
  const rings = [];
  for (const g of geoms) {
    const polys = g.type === "Polygon" ? [g.coordinates] : g.type === "MultiPolygon" ? g.coordinates : [];
    for (const poly of polys) for (const ring of poly) rings.push(unclose(ring));
  }
  return rings;
}

function unclose(ring) {
  if (ring.length > 1) {
    const a = ring[0];
    const b = ring[ring.length - 1];
    if (a[0] === b[0] && a[1] === b[1]) return ring.slice(0, -1);
  }
  return ring;
}

/**
 * world-atlas rings are spherical: a ring that crosses the antimeridian jumps from 180 to
 * -180, which read as a plane ring would cut a band round the world. Makes the longitudes
 * continuous (they may then run past ±180; the caller clips copies shifted by ±360), and
 * closes a ring that goes round a pole (Antarctica) through that pole.
 */
function unwrap(ring) {
  const out = [];
  let offset = 0;
  for (let i = 0; i < ring.length; i++) {
    const [lon, lat] = ring[i];
    if (i > 0) {
      const d = lon - ring[i - 1][0];
      if (d > 180) offset -= 360;
      else if (d < -180) offset += 360;
    }
    out.push([lon + offset, lat]);
  }
  const closing = ring[0][0] - ring[ring.length - 1][0];
  const wraps = offset + (closing > 180 ? -360 : closing < -180 ? 360 : 0);
  if (wraps !== 0) {
    const meanLat = ring.reduce((s, p) => s + p[1], 0) / ring.length;
    const pole = meanLat < 0 ? -90 : 90;
    out.push([out[out.length - 1][0], pole], [out[0][0], pole]);
  }
  return out;
}

/** Sutherland–Hodgman: clips one ring to the box (edge by edge). */
function clip(ring, box) {
  const edges = [
    { inside: (p) => p[0] >= box.west, cut: (a, b) => atX(a, b, box.west) },
    { inside: (p) => p[0] <= box.east, cut: (a, b) => atX(a, b, box.east) },
    { inside: (p) => p[1] >= box.south, cut: (a, b) => atY(a, b, box.south) },
    { inside: (p) => p[1] <= box.north, cut: (a, b) => atY(a, b, box.north) },
  ];
  let pts = ring;
  for (const e of edges) {
    if (pts.length === 0) break;
    const next = [];
    for (let i = 0; i < pts.length; i++) {
      const cur = pts[i];
      const prev = pts[(i + pts.length - 1) % pts.length];
      const cin = e.inside(cur);
      const pin = e.inside(prev);
      if (cin) {
        if (!pin) next.push(e.cut(prev, cur));
        next.push(cur);
      } else if (pin) {
        next.push(e.cut(prev, cur));
      }
    }
    pts = next;
  }
  return pts;
}

function atX(a, b, x) {
  const t = (x - a[0]) / (b[0] - a[0]);
  return [x, a[1] + t * (b[1] - a[1])];
}

function atY(a, b, y) {
  const t = (y - a[1]) / (b[1] - a[1]);
  return [a[0] + t * (b[0] - a[0]), y];
}

function round(ring, digits) {
  const f = 10 ** digits;
  const out = [];
  for (const [lon, lat] of ring) {
    const p = [Math.round(lon * f) / f, Math.round(lat * f) / f];
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  while (out.length > 1 && out[0][0] === out[out.length - 1][0] && out[0][1] === out[out.length - 1][1]) out.pop();
  return out;
}

function area(ring) {
  let s = 0;
  for (let i = 0; i < ring.length; i++) {
    const a = ring[i];
    const b = ring[(i + 1) % ring.length];
    s += a[0] * b[1] - b[0] * a[1];
  }
  return s / 2;
}

mkdirSync(outDir, { recursive: true });
for (const job of JOBS) {
  const topology = JSON.parse(readFileSync(join(atlasDir, job.atlas), "utf8"));
  const rings = [];
  for (const ring of landRings(topology)) {
    const flat = unwrap(ring);
    for (const shift of [-360, 0, 360]) {
      const moved = flat.map(([lon, lat]) => [lon + shift, lat]);
      const r = round(clip(moved, job.box), job.digits);
      if (r.length >= 3 && Math.abs(area(r)) > 0) rings.push(r);
    }
  }
  const doc = {
    source: `Natural Earth ${job.scale} land via world-atlas ${atlasVersion} (public domain)`,
    rings,
  };
  // One ring per line keeps diffs readable when the data is re-extracted.
  const text =
    "{\n" +
    `"source": ${JSON.stringify(doc.source)},\n` +
    '"rings": [\n' +
    rings.map((r) => JSON.stringify(r)).join(",\n") +
    "\n]\n}\n";
  writeFileSync(join(outDir, job.out), text);
  const points = rings.reduce((n, r) => n + r.length, 0);
  console.log(`${job.out}: ${rings.length} rings, ${points} points, ${text.length} bytes`);
}
