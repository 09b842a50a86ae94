#!/usr/bin/env python3
"""How many edges the boundary cells of the per-polygon rasters hold.

The thirty-eighth session tried testing a point in a boundary raster cell
against that cell's own edges (the segment from the cell's centre to the
point) instead of walking its band, which looks at about 7 edges. This counts,
on the hard geofence scenario's polygons (`trigger-bench geofence --scenarios
hard --keep DIR`), with each polygon's raster laid out as `PolygonRaster.layout`
does (size = min(48, max(4, int(sqrt(edges) * 3))) cells a side):

- cells and boundary cells (cells some edge passes through; edges sampled
  every quarter cell, so a clipped corner may be missed);
- edge-cell pairs, and the mean number of edges a boundary cell holds;
- how many boundary cells hold 1, 2, 3, ... edges, with the running share.

Usage: cell-edges-estimate.py DIR [POLYGONS]   (DIR holds regions.geojson; the
first POLYGONS of them, 2000 by default)
"""
import collections
import json
import math
import sys


def rings_of(geometry):
    if geometry["type"] == "Polygon":
        return geometry["coordinates"]
    return [ring for polygon in geometry["coordinates"] for ring in polygon]


def main():
    directory = sys.argv[1]
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    with open(f"{directory}/regions.geojson") as file:
        features = json.load(file)["features"][:limit]
    histogram = collections.Counter()
    cells_total = boundary_total = pairs_total = 0
    for feature in features:
        rings = rings_of(feature["geometry"])
        edges = sum(len(ring) - 1 for ring in rings)
        size = min(48, max(4, int(math.sqrt(edges) * 3)))
        xs = [point[0] for ring in rings for point in ring]
        ys = [point[1] for ring in rings for point in ring]
        min_x, min_y = min(xs), min(ys)
        width = max(max(xs) - min_x, 1e-12) / size
        height = max(max(ys) - min_y, 1e-12) / size
        cells = collections.defaultdict(set)
        for ring_index, ring in enumerate(rings):
            for index in range(len(ring) - 1):
                (ax, ay), (bx, by) = ring[index], ring[index + 1]
                steps = max(2, int(abs(bx - ax) / width * 4 + abs(by - ay) / height * 4) + 2)
                for step in range(steps + 1):
                    t = step / steps
                    x, y = ax + (bx - ax) * t, ay + (by - ay) * t
                    cell = (min(size - 1, int((x - min_x) / width)), min(size - 1, int((y - min_y) / height)))
                    cells[cell].add((ring_index, index))
        cells_total += size * size
        boundary_total += len(cells)
        for edges_in_cell in cells.values():
            histogram[len(edges_in_cell)] += 1
            pairs_total += len(edges_in_cell)
    print(f"{len(features)} polygons: {cells_total} cells, {boundary_total} boundary cells "
          f"({boundary_total / cells_total:.0%}), {pairs_total} edge-cell pairs, "
          f"{pairs_total / boundary_total:.2f} edges a boundary cell")
    running = 0
    for count in sorted(histogram):
        running += histogram[count]
        print(f"  {count} edges: {histogram[count]} cells, {running / boundary_total:.1%} with at most {count}")


if __name__ == "__main__":
    main()
