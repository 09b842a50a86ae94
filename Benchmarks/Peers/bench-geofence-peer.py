#!/usr/bin/env python3
"""Peer for `trigger-bench geofence`: shapely 2.x vectorised STRtree containment.

    bench-geofence-peer.py REGIONS.geojson FIXES.csv [RUNS]

Reads the regions (GeoJSON FeatureCollection; Points with properties.radius are
skipped: shapely has no great-circle circles) and the fixes' lat/lon columns
(header device,time,lat,lon), builds an STRtree once, then times
`tree.query(points, predicate="within")` (point creation included, CSV parsing
not) RUNS times. Prints one JSON object: the fix count, the pair count, the
seconds of each run, and (reported apart, not in the runs) the seconds to load
the regions into shapely geometries and to build the tree.
"""
import csv
import json
import sys
import time

import numpy as np
import shapely


def main():
    regions_path, fixes_path = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    load_start = time.perf_counter()
    with open(regions_path) as f:
        features = json.load(f)["features"]
    polygons = [shapely.geometry.shape(feature["geometry"]) for feature in features
                if feature["geometry"]["type"] in ("Polygon", "MultiPolygon")]
    load_seconds = time.perf_counter() - load_start
    lats, lons = [], []
    with open(fixes_path) as f:
        reader = csv.reader(f)
        header = next(reader)
        lat_column, lon_column = header.index("lat"), header.index("lon")
        for row in reader:
            lats.append(float(row[lat_column]))
            lons.append(float(row[lon_column]))
    x, y = np.array(lons), np.array(lats)
    tree_start = time.perf_counter()
    tree = shapely.STRtree(polygons)
    tree_seconds = time.perf_counter() - tree_start
    seconds, pairs = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        points = shapely.points(x, y)
        result = tree.query(points, predicate="within")
        seconds.append(time.perf_counter() - start)
        pairs = int(result.shape[1])
    print(json.dumps({"fixes": len(x), "pairs": pairs, "seconds": seconds, "shapely": shapely.__version__,
                      "load_seconds": load_seconds, "tree_seconds": tree_seconds}))


if __name__ == "__main__":
    main()
