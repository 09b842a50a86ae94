/// One polygon region flattened for fast exact tests in Swift: its edges,
/// bucketed into horizontal bands so that a point meets only the edges of its band.
///
/// `covers` is GEOS's ray-crossing point-in-ring rule (`RayCrossingCounter`,
/// boundary counted as inside) applied to all rings at once, with GEOS's
/// orientation filter; where the filter cannot decide, it answers `nil` and the
/// caller asks GEOS. So every answer it gives is the answer GEOS would give.
struct PlanarPolygon {
    /// A directed edge a→b of a ring, x = longitude, y = latitude.
    struct Edge {
        var ax: Double, ay: Double, bx: Double, by: Double
    }

    /// Every edge once.
    let edges: [Edge]
    /// Cells answered without edges.
    let raster: PolygonRaster
    /// Edges grouped by band: band `i` holds `bandEdges[bandStarts[i] ..< bandStarts[i + 1]]`.
    let bandEdges: [Edge]
    let bandStarts: [Int32]
    /// Where the bands are: the plain-data part the monitor's flat table keeps.
    let bands: Bands

    /// The band layout of one polygon region: `count` bands of equal height from `minY`.
    struct Bands {
        var minY: Double
        var scale: Double
        var count: Int
        /// Offsets of this region's `bandStarts` and `bandEdges` in a shared table.
        var startsOffset = 0
        var edgesOffset = 0
        /// The region's raster of wholly inside and outside cells.
        var raster: PolygonRaster.Layout

        /// The band of latitude `y`. Monotone in `y`, so an edge spanning y0…y1 is
        /// in every band a point with y0 ≤ y ≤ y1 can fall in: filtering is exact.
        @inline(__always)
        func band(_ y: Double) -> Int {
            let value = (y - minY) * scale
            if !(value > 0) { return 0 }
            if value >= Double(count - 1) { return count - 1 }
            return Int(value)
        }
    }

    /// The envelope of each polygon part (after the antimeridian split).
    let partEnvelopes: [Envelope]

    init(_ polygons: [Region.Polygon]) {
        var edges: [Edge] = []
        var envelopes: [Envelope] = []
        for polygon in polygons {
            var envelope = Envelope(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
            for ring in polygon.rings {
                for point in ring {
                    envelope.minX = min(envelope.minX, point.x); envelope.maxX = max(envelope.maxX, point.x)
                    envelope.minY = min(envelope.minY, point.y); envelope.maxY = max(envelope.maxY, point.y)
                }
                for index in 0..<(ring.count - 1) {
                    edges.append(Edge(ax: ring[index].x, ay: ring[index].y, bx: ring[index + 1].x, by: ring[index + 1].y))
                }
            }
            envelopes.append(envelope)
        }
        self.edges = edges
        partEnvelopes = envelopes
        let minY = envelopes.map(\.minY).min() ?? 0
        let maxY = envelopes.map(\.maxY).max() ?? 0
        // About four edges a band: a point meets a handful of edges, not hundreds.
        let bandCount = max(1, min(4096, edges.count / 4))
        var bands = Bands(minY: minY, scale: maxY > minY ? Double(bandCount) / (maxY - minY) : 0, count: bandCount,
                          raster: PolygonRaster.Layout(minX: 0, minY: 0, inverseWidth: 0, inverseHeight: 0, size: 1))
        var perBand = [[Edge]](repeating: [], count: bandCount)
        for edge in edges {
            for band in bands.band(min(edge.ay, edge.by))...bands.band(max(edge.ay, edge.by)) { perBand[band].append(edge) }
        }
        let buckets = Buckets(perBand)
        let envelope = Envelope(minX: envelopes.map(\.minX).min() ?? 0, minY: minY,
                                maxX: envelopes.map(\.maxX).max() ?? 0, maxY: maxY)
        let layout = bands
        let allEdges = edges
        raster = buckets.items.withUnsafeBufferPointer { bandEdges in
            buckets.starts.withUnsafeBufferPointer { starts in
                PolygonRaster(envelope: envelope, edges: allEdges) { x, y in
                    Self.bandCovers(x, y, bands: layout, starts: starts, edges: bandEdges)
                }
            }
        }
        bands.raster = raster.layout
        self.bands = bands
        bandEdges = buckets.items
        bandStarts = buckets.starts
    }

    /// Whether (x, y), a point within the region's envelope, is in the polygon
    /// or on its boundary; `nil` when floating point cannot decide (the point lies
    /// within rounding of an edge). Tables may be shared by many regions (`bands`
    /// says where this region's part is).
    /// - Complexity: O(1) in a wholly inside or outside raster cell, else
    ///   O(edges in the point's band).
    @inline(__always)
    static func covers(_ x: Double, _ y: Double, bands: Bands, starts: UnsafeBufferPointer<Int32>,
                       edges: UnsafeBufferPointer<Edge>, raster: UnsafeBufferPointer<UInt8>) -> Bool? {
        let cell = raster[bands.raster.offset + bands.raster.cell(x, y)]
        if cell == PolygonRaster.inside { return true }
        if cell == PolygonRaster.outside { return false }
        return bandCovers(x, y, bands: bands, starts: starts, edges: edges)
    }

    /// The ray-crossing test over the edges of the point's band.
    @inline(__always)
    static func bandCovers(_ x: Double, _ y: Double, bands: Bands, starts: UnsafeBufferPointer<Int32>,
                           edges: UnsafeBufferPointer<Edge>) -> Bool? {
        let band = bands.startsOffset + bands.band(y)
        var crossings = 0
        for index in (bands.edgesOffset + Int(starts[band]))..<(bands.edgesOffset + Int(starts[band + 1])) {
            let edge = edges[index]
            // GEOS RayCrossingCounter::countSegment, the ray going towards +x.
            if edge.ax < x && edge.bx < x { continue }
            if x == edge.bx && y == edge.by { return true }
            if edge.ay == y && edge.by == y {
                if min(edge.ax, edge.bx) <= x && x <= max(edge.ax, edge.bx) { return true }
                continue
            }
            if (edge.ay > y && edge.by <= y) || (edge.by > y && edge.ay <= y) {
                guard var side = GeoMath.orientation(edge.ax, edge.ay, edge.bx, edge.by, x, y) else { return nil }
                if side == 0 { return true }
                if edge.by < edge.ay { side = -side }
                if side == 1 { crossings += 1 }
            }
        }
        return crossings & 1 == 1
    }

    /// The distance in metres from (x, y) to the nearest edge, measured in the
    /// equirectangular plane centred on the point (see `GeoMath`).
    /// - Complexity: O(edges).
    func distanceToBoundary(_ x: Double, _ y: Double) -> Double {
        let scale = GeoMath.planeScale(atLatitude: y)
        var best = Double.infinity
        for edge in edges {
            let d = GeoMath.pointToSegment(
                0, 0,
                GeoMath.wrappedDelta(edge.ax, from: x) * scale.x, (edge.ay - y) * scale.y,
                GeoMath.wrappedDelta(edge.bx, from: x) * scale.x, (edge.by - y) * scale.y)
            if d < best { best = d }
        }
        return best
    }

    /// Whether the segment p–q meets an edge (touching counts); `nil` when
    /// floating point cannot decide. With both ends outside, this is whether the
    /// segment meets the polygon.
    /// - Complexity: O(edges in the bands the segment spans).
    func segmentMeetsBoundary(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double) -> Bool? {
        let first = bands.band(min(py, qy)), last = bands.band(max(py, qy))
        let sMinX = min(px, qx), sMaxX = max(px, qx), sMinY = min(py, qy), sMaxY = max(py, qy)
        for index in Int(bandStarts[first])..<Int(bandStarts[last + 1]) {
            let e = bandEdges[index]
            if max(e.ax, e.bx) < sMinX || min(e.ax, e.bx) > sMaxX || max(e.ay, e.by) < sMinY || min(e.ay, e.by) > sMaxY {
                continue
            }
            guard let meets = Self.segmentsMeet(px, py, qx, qy, e.ax, e.ay, e.bx, e.by) else { return nil }
            if meets { return true }
        }
        return false
    }

    /// Whether closed segments p–q and a–b share a point, by orientations
    /// (`nil`: undecidable in double precision). The boxes are known to overlap.
    private static func segmentsMeet(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double,
                                     _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Bool? {
        guard let o1 = GeoMath.orientation(px, py, qx, qy, ax, ay),
              let o2 = GeoMath.orientation(px, py, qx, qy, bx, by),
              let o3 = GeoMath.orientation(ax, ay, bx, by, px, py),
              let o4 = GeoMath.orientation(ax, ay, bx, by, qx, qy) else { return nil }
        // Each segment's ends on both sides of (or on) the other's line. When all
        // four are collinear, the overlapping boxes (checked by the caller) decide.
        return o1 * o2 <= 0 && o3 * o4 <= 0
    }
}
