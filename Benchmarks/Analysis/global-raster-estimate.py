#!/usr/bin/env python3
"""What one fine global raster over the hard geofence scenario would hold.

The fifth session suggested replacing the per-polygon rasters and bands with one
raster over all regions whose cells list the regions wholly holding them and the
edges crossing them. This estimates, for a few cell sizes, from the scenario's
own polygons and fixes (`trigger-bench geofence --scenarios hard --keep DIR`):

- boundary pairs: (cell, polygon) pairs whose cell an edge of the polygon passes
  through (edges sampled every quarter cell, so a clipped corner may be missed);
- edge-cell incidences: the band-list entries such a raster would store;
- inside pairs: roughly, the polygons' outer-ring area in cells less half the
  boundary pairs;
- the share of fixes (every tenth of the first 200,000) whose cell is a boundary
  cell of some polygon, which would still need an exact test;
- memory with edges as 4-byte references and as 32-byte inline coordinates
  (8 bytes per pair and 4 per cell besides).

Usage: global-raster-estimate.py DIR   (DIR holds regions.geojson and fixes.csv)
"""
import json
import math
import sys

import numpy as np

folder = sys.argv[1] if len(sys.argv) > 1 else "/tmp/geo/hard"
collection = json.load(open(f"{folder}/regions.geojson"))
polygons = []
for feature in collection["features"]:
    geometry = feature["geometry"]
    rings = geometry["coordinates"] if geometry["type"] == "Polygon" else [r for p in geometry["coordinates"] for r in p]
    polygons.append([np.array(ring, dtype=float) for ring in rings])
xs = np.concatenate([r[:, 0] for p in polygons for r in p])
ys = np.concatenate([r[:, 1] for p in polygons for r in p])
min_x, min_y = xs.min(), ys.min()
# Metres per degree at the area's latitude (a local plane is enough for counting).
kx = 111_320 * math.cos(math.radians(ys.mean()))
ky = 110_540
print(f"{len(polygons)} polygons, {len(xs)} vertices, {(xs.max() - min_x) * kx / 1000:.1f} x {(ys.max() - min_y) * ky / 1000:.1f} km")

fix_x, fix_y = [], []
with open(f"{folder}/fixes.csv") as log:
    next(log)
    for number, line in enumerate(log):
        if number >= 200_000:
            break
        if number % 10 == 0:
            fields = line.rstrip().split(",")
            fix_y.append((float(fields[2]) - min_y) * ky)
            fix_x.append((float(fields[3]) - min_x) * kx)

outer_area = 0.0
for polygon in polygons:
    ring = polygon[0]
    x, y = (ring[:, 0] - min_x) * kx, (ring[:, 1] - min_y) * ky
    outer_area += abs(0.5 * np.sum(x[:-1] * y[1:] - x[1:] * y[:-1]))

for side in [12.5, 25, 50, 100]:
    boundary, incidences = set(), 0
    for index, polygon in enumerate(polygons):
        for ring in polygon:
            x, y = (ring[:, 0] - min_x) * kx, (ring[:, 1] - min_y) * ky
            for i in range(len(ring) - 1):
                steps = max(2, int(math.hypot(x[i + 1] - x[i], y[i + 1] - y[i]) / (side / 4)) + 2)
                t = np.linspace(0, 1, steps)
                cells = set(zip(((x[i] + (x[i + 1] - x[i]) * t) // side).astype(np.int64).tolist(),
                                ((y[i] + (y[i + 1] - y[i]) * t) // side).astype(np.int64).tolist()))
                incidences += len(cells)
                boundary.update((cx, cy, index) for cx, cy in cells)
    boundary_cells = {(cx, cy) for cx, cy, _ in boundary}
    columns = int((xs.max() - min_x) * kx // side) + 1
    rows = int((ys.max() - min_y) * ky // side) + 1
    inside = max(0.0, outer_area / side ** 2 - len(boundary) / 2)
    hits = np.mean([(int(a // side), int(b // side)) in boundary_cells for a, b in zip(fix_x, fix_y)])
    refs = len(boundary) * 8 + incidences * 4 + inside * 8 + columns * rows * 4
    inline = len(boundary) * 8 + incidences * 32 + inside * 8 + columns * rows * 4
    print(f"cell {side:5.1f} m: {columns}x{rows} = {columns * rows / 1e6:.1f} M cells; boundary pairs {len(boundary) / 1e6:.2f} M, "
          f"edge-cell incidences {incidences / 1e6:.2f} M ({incidences / len(boundary):.1f} a pair); inside pairs ~{inside / 1e6:.2f} M; "
          f"fixes in a boundary cell {hits * 100:.0f} %; memory {refs / 1e6:.0f} MB with references, {inline / 1e6:.0f} MB inline",
          flush=True)
