/// One polygon region flattened for fast exact tests in Swift: its edges,
/// bucketed into horizontal bands so that a point meets only the edges of its band.
///
/// `covers` is GEOS's ray-crossing point-in-ring rule (`RayCrossingCounter`,
/// boundary counted as inside) applied to all rings at once, with GEOS's
/// orientation filter; where the filter cannot decide, it answers `nil` and the
/// caller asks GEOS. So every answer it gives is the answer GEOS would give.
///
/// The bands, their edges and the raster live in tables shared by every polygon
/// of a monitor (`PlanarTables`). A polygon is built in two steps, so that the
/// tables can be allocated once at their final size and filled by every core
/// in place: `init` plans (band layout, how many vertices, band edges and
/// raster cells), the index gives each polygon its offsets, then `fill` writes
/// its part. Building the parts apart and joining them copied and faulted in
/// the tables twice (160 MB on 10,000 jagged stars).
///
/// A band lists its edges as references to their first vertex in the polygon's
/// vertices, not as copies: an edge is in every band it spans (2.4 bands on
/// average on 10,000 jagged stars), and at 32 bytes a copy the band edges were
/// 81 MB, three times the vertices they came from.
struct PlanarPolygon: Sendable {
    /// A directed edge a→b of a ring, x = longitude, y = latitude.
    struct Edge: Sendable {
        var ax: Double, ay: Double, bx: Double, by: Double

        /// The east end's longitude: the ray towards +x can meet the edge only when it is ≥ the point's.
        @inline(__always)
        var maxX: Double { max(ax, bx) }

        /// The west end's longitude: the ray towards −x can meet the edge only when it is ≤ the point's.
        @inline(__always)
        var minX: Double { min(ax, bx) }
    }

    /// The region's polygons (rings closed), for distances and for `fill`;
    /// shared with the region, not copied.
    let parts: [Region.Polygon]
    /// Where the bands and raster are: the plain-data part the hot path reads.
    var bands: Bands
    /// Band edges in all (an edge counts in each band it spans, twice in a band
    /// when it is in both of its lists).
    let bandEdgeCount: Int
    /// Vertices of all rings (closed, so the first is counted again at the end).
    let pointCount: Int
    /// The envelope of all parts.
    let envelope: Envelope

    /// The band layout of one polygon region: `count` bands of equal height from `minY`.
    ///
    /// Each band keeps two lists: the edges reaching `splitX` or east of it,
    /// sorted by east end, descending, for points at or east of `splitX`, which
    /// cast GEOS's ray towards +x; and those west of it, sorted by west end,
    /// ascending, for points west of it, which cast the ray towards −x (GEOS's
    /// rule on the polygon reflected in a meridian: the same answer, as a point
    /// is in a polygon exactly when its reflection is in the reflection). A
    /// point walks only edges on its side of the polygon's middle, about half as
    /// many as when every ray went east (edges across `splitX` are in both lists).
    struct Bands: Sendable {
        var minY: Double
        var scale: Double
        /// The middle of the envelope's longitudes: where rays change direction.
        var splitX: Double
        var count: Int
        /// Offsets of this region's band starts (`startCount` of them: band `b`'s
        /// east list starts at `2b`, its west list at `2b + 1`), band edges and
        /// vertices in the shared tables.
        var startsOffset = 0
        var edgesOffset = 0
        var pointsOffset = 0
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

        /// The bands an edge is in.
        @inline(__always)
        func bands(of edge: Edge) -> ClosedRange<Int> {
            band(min(edge.ay, edge.by))...band(max(edge.ay, edge.by))
        }

        /// How many band starts the region has in the shared table.
        var startCount: Int { 2 * count + 1 }

        /// How many of a band's lists hold the edge: 2 when it reaches across `splitX`.
        @inline(__always)
        func lists(of edge: Edge) -> Int {
            (edge.maxX >= splitX ? 1 : 0) + (edge.minX < splitX ? 1 : 0)
        }
    }

    /// The envelope of each polygon part (after the antimeridian split).
    let partEnvelopes: [Envelope]

    /// Plans the tables of `polygons` (the parts of one region): the band layout
    /// and raster size, with offsets 0 until the index places them.
    ///
    /// Bands: one per eight edges, fewer when edges spanning many of them would
    /// be copied more than 6 times in all (long edges, combs): memory
    /// stays O(edges) whatever the shape.
    /// - Complexity: O(edges).
    init(_ polygons: [Region.Polygon]) {
        parts = polygons
        var envelopes: [Envelope] = []
        envelopes.reserveCapacity(polygons.count)
        var edgeCount = 0, pointCount = 0
        for polygon in polygons {
            var envelope = Envelope(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
            for ring in polygon.rings {
                for point in ring {
                    envelope.minX = min(envelope.minX, point.x); envelope.maxX = max(envelope.maxX, point.x)
                    envelope.minY = min(envelope.minY, point.y); envelope.maxY = max(envelope.maxY, point.y)
                }
                edgeCount += ring.count - 1
                pointCount += ring.count
            }
            envelopes.append(envelope)
        }
        partEnvelopes = envelopes
        self.pointCount = pointCount
        envelope = Envelope(minX: envelopes.map(\.minX).min() ?? 0, minY: envelopes.map(\.minY).min() ?? 0,
                            maxX: envelopes.map(\.maxX).max() ?? 0, maxY: envelopes.map(\.maxY).max() ?? 0)
        (bands, bandEdgeCount) = Self.layout(polygons, edgeCount: edgeCount, envelope)
        bands.raster = PolygonRaster.layout(envelope: envelope, edgeCount: edgeCount)
    }

    /// Calls `body` with every edge of every ring, in ring order.
    @inline(__always)
    static func forEachEdge(of polygons: [Region.Polygon], _ body: (Edge) -> Void) {
        forEachEdgeAndVertex(of: polygons) { edge, _ in body(edge) }
    }

    /// Calls `body` with every edge of every ring, in ring order, and the
    /// position of its first vertex among the rings' vertices laid end to end
    /// (as `fill` lays them out in the shared table).
    @inline(__always)
    static func forEachEdgeAndVertex(of polygons: [Region.Polygon], _ body: (Edge, Int) -> Void) {
        var first = 0
        for polygon in polygons {
            for ring in polygon.rings {
                ring.withUnsafeBufferPointer { ring in
                    for index in 0..<(ring.count - 1) {
                        body(Edge(ax: ring[index].x, ay: ring[index].y, bx: ring[index + 1].x, by: ring[index + 1].y), first + index)
                    }
                }
                first += ring.count
            }
        }
    }

    /// The edge whose first vertex is `vertex` in a polygon's vertices (`fill`'s layout).
    @inline(__always)
    static func edge(from vertex: UnsafePointer<XY>) -> Edge {
        Edge(ax: vertex[0].x, ay: vertex[0].y, bx: vertex[1].x, by: vertex[1].y)
    }

    /// Writes this polygon's vertices, band starts, band edges and raster cells
    /// at its offsets (`bands`) in tables allocated for every polygon; no two
    /// polygons' parts overlap, so polygons can be filled on different threads.
    ///
    /// Within a band, the east list is sorted by east end, descending, and the
    /// west list by west end, ascending, so that a point stops at the first
    /// edge wholly behind its ray (see `Bands`).
    /// - Complexity: O(edges × bands each spans + raster cells), sorting within bands aside.
    func fill(starts: UnsafeMutablePointer<Int32>, edges: UnsafeMutablePointer<UInt32>, points: UnsafeMutablePointer<XY>,
              raster: UnsafeMutablePointer<UInt8>) {
        let bands = self.bands
        let starts = starts + bands.startsOffset
        let placed = edges + bands.edgesOffset
        let vertices = points + bands.pointsOffset
        var written = 0
        for polygon in parts {
            for ring in polygon.rings {
                _ = UnsafeMutableBufferPointer(start: vertices + written, count: ring.count).initialize(from: ring)
                written += ring.count
            }
        }
        let lists = 2 * bands.count
        let splitX = bands.splitX
        // Counting sort into lists (2b east, 2b + 1 west): sizes, offsets, then placement.
        for list in 0...lists { starts[list] = 0 }
        Self.forEachEdge(of: parts) { edge in
            let east = edge.maxX >= splitX, west = edge.minX < splitX
            for band in bands.bands(of: edge) {
                if east { starts[2 * band + 1] += 1 }
                if west { starts[2 * band + 2] += 1 }
            }
        }
        for list in 0..<lists { starts[list + 1] += starts[list] }
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: lists) { fill in
            _ = fill.initialize(from: UnsafeBufferPointer(start: starts, count: lists))
            Self.forEachEdgeAndVertex(of: parts) { edge, vertex in
                let east = edge.maxX >= splitX, west = edge.minX < splitX
                for band in bands.bands(of: edge) {
                    if east {
                        (placed + Int(fill[2 * band])).initialize(to: UInt32(vertex))
                        fill[2 * band] += 1
                    }
                    if west {
                        (placed + Int(fill[2 * band + 1])).initialize(to: UInt32(vertex))
                        fill[2 * band + 1] += 1
                    }
                }
            }
        }
        for list in 0..<lists {
            let edges = UnsafeMutableBufferPointer(start: placed + Int(starts[list]), count: Int(starts[list + 1] - starts[list]))
            // East lists (even) by east end, descending; west lists by west end,
            // ascending: the same order for the mirrored edges.
            if list % 2 == 0 {
                Self.sort(edges) { Self.edge(from: vertices + Int($0)).maxX }
            } else {
                Self.sort(edges) { -Self.edge(from: vertices + Int($0)).minX }
            }
        }
        PolygonRaster.fill(bands.raster, envelope: envelope, parts: parts, packed: raster + bands.raster.offset)
    }

    /// Sorts a band's list of edges (first vertices) by `key`, descending.
    @inline(__always)
    private static func sort(_ edges: UnsafeMutableBufferPointer<UInt32>, by key: (UInt32) -> Double) {
        if edges.count > 32 {
            var edges = edges
            edges.sort { key($0) > key($1) }
            return
        }
        // Insertion sort: most bands hold a handful of edges.
        for index in edges.indices.dropFirst() {
            let edge = edges[index], value = key(edge)
            var slot = index
            while slot > 0 && key(edges[slot - 1]) < value {
                edges[slot] = edges[slot - 1]
                slot -= 1
            }
            edges[slot] = edge
        }
    }

    /// The band count and scale for these edges (see `init`), and the band edges they make.
    private static func layout(_ polygons: [Region.Polygon], edgeCount: Int, _ envelope: Envelope) -> (Bands, Int) {
        let height = envelope.maxY - envelope.minY
        let splitX = (envelope.minX + envelope.maxX) / 2
        // One band per 8 edges: on 10,000 jagged stars, 9% less time per fix than
        // one per 16 (fewer edges walked per test), for 7% more index time.
        var count = max(1, min(1 << 20, edgeCount / 8))
        while true {
            let scale = height > 0 && count > 1 ? Double(count) / height : 0
            let bands = Bands(minY: envelope.minY, scale: scale, splitX: splitX, count: count,
                              raster: PolygonRaster.Layout.empty)
            // Copies in bands (the bound), and in the bands' lists (the table).
            var copies = 0, listed = 0
            forEachEdge(of: polygons) { edge in
                let spanned = bands.bands(of: edge).count
                copies += spanned
                listed += spanned * bands.lists(of: edge)
            }
            if count == 1 || copies <= 6 * edgeCount + 64 { return (bands, listed) }
            count /= 2
        }
    }

    /// Whether (x, y) is in the polygon or on its boundary; `nil` when floating
    /// point cannot decide (the point lies within rounding of an edge). Tables
    /// may be shared by many regions (`bands` says where this region's part is).
    ///
    /// Right for any point, not only those within the envelope (grid items keep
    /// a slightly larger one): a point outside is clamped to a cell on the
    /// raster's border, and no such cell is wholly inside (a point of the
    /// envelope's side would be in the polygon's open interior), so it goes on
    /// to the band, whose ray test is exact wherever the point is.
    /// - Complexity: O(1) in a wholly inside or outside raster cell, else
    ///   O(edges in the point's band).
    @inline(__always)
    static func covers(_ x: Double, _ y: Double, bands: Bands, starts: UnsafeBufferPointer<Int32>,
                       edges: UnsafeBufferPointer<UInt32>, points: UnsafeBufferPointer<XY>,
                       raster: UnsafeBufferPointer<UInt8>) -> Bool? {
        let cell = PolygonRaster.value(ofCell: bands.raster.cell(x, y), in: raster.baseAddress! + bands.raster.offset)
        if cell == PolygonRaster.inside { return true }
        if cell == PolygonRaster.outside { return false }
        return bandCovers(x, y, bands: bands, starts: starts, edges: edges, points: points)
    }

    /// The ray-crossing test over the edges of the point's band: towards +x
    /// from points at or east of `splitX`, towards −x (on the mirrored edges)
    /// from the others (see `Bands`).
    @inline(__always)
    static func bandCovers(_ x: Double, _ y: Double, bands: Bands, starts: UnsafeBufferPointer<Int32>,
                           edges: UnsafeBufferPointer<UInt32>, points: UnsafeBufferPointer<XY>) -> Bool? {
        let east = x >= bands.splitX
        let list = bands.startsOffset + 2 * bands.band(y) + (east ? 0 : 1)
        let walked = UnsafeBufferPointer(rebasing: edges[(bands.edgesOffset + Int(starts[list]))..<(bands.edgesOffset + Int(starts[list + 1]))])
        let vertices = points.baseAddress! + bands.pointsOffset
        // The mirror as a factor of ±1 (exact either way) rather than a branch
        // between two loops: which side of the middle a point is on is as good
        // as random from one test to the next.
        let sign: Double = east ? 1 : -1
        return rayCrossings(walked, vertices, sign * x, y) { Edge(ax: sign * $0.ax, ay: $0.ay, bx: sign * $0.bx, by: $0.by) }
    }

    /// GEOS's ray towards +x from (x, y) over `edges` (first vertices in
    /// `vertices`) as `view` shows them (sorted by east end, descending):
    /// whether it crosses them an odd number of times or the point is on one;
    /// `nil` when an orientation is undecided.
    ///
    /// First without a branch per edge (`quickCrossings`), which settles every
    /// walk where no edge touches the ray's line at a vertex and no orientation
    /// is zero or within rounding; the few it cannot settle are walked again
    /// edge by edge (`exactCrossings`), GEOS's rule as it reads.
    @inline(__always)
    private static func rayCrossings(_ edges: UnsafeBufferPointer<UInt32>, _ vertices: UnsafePointer<XY>, _ x: Double,
                                     _ y: Double, _ view: (Edge) -> Edge) -> Bool? {
        if let odd = quickCrossings(edges, vertices, x, y, view) { return odd }
        return exactCrossings(edges, vertices, x, y, view)
    }

    /// The ray's parity with every edge's verdict computed and added, not
    /// branched on: which way an edge goes in a band is as good as random, and
    /// a branch per edge was mispredicted about half the time (cachegrind:
    /// 4 M mispredictions in 1 M fixes on the hard benchmark). `nil` when some
    /// edge needs `exactCrossings`: an end on the ray's line (on the boundary,
    /// or GEOS's half-open rule at a vertex), or an orientation that is zero
    /// or that the filter cannot decide. Otherwise the same parity as
    /// `exactCrossings`: for an edge whose ends are strictly on either side of
    /// the line, the ray crosses it when it lies wholly east of the point or
    /// when the orientation, signed by the edge's direction, says so; other
    /// edges it misses.
    @inline(__always)
    private static func quickCrossings(_ edges: UnsafeBufferPointer<UInt32>, _ vertices: UnsafePointer<XY>, _ x: Double,
                                       _ y: Double, _ view: (Edge) -> Edge) -> Bool? {
        // Verdicts as 0 or 1 (`Bool.bit`) combined with bitwise operators: with
        // `&&` and `||` the compiler kept a branch for each.
        var crossings = 0, unsure = 0
        for first in edges {
            let edge = view(Self.edge(from: vertices + Int(first)))
            if edge.maxX < x { break }
            let spans = (edge.ay > y).bit ^ (edge.by > y).bit
            let onLine = (edge.ay == y).bit | (edge.by == y).bit
            let east = (x < edge.minX).bit
            // GEOS's orientation filter (`GeoMath.orientation`) in one comparison:
            // where the two products differ in sign (or one is zero) the filter
            // always decides, and then |det| is the sum of their magnitudes (to
            // rounding), far above the bound; so "undecided, or zero" is |det| ≤
            // the bound, where a tie (decided by GEOS) only sends the walk edge by edge.
            let detLeft = (edge.ax - x) * (edge.by - y)
            let detRight = (edge.ay - y) * (edge.bx - x)
            let det = detLeft - detRight
            let undecided = (abs(det) <= 1e-15 * (abs(detLeft) + abs(detRight))).bit
            unsure |= onLine | (spans & (east ^ 1) & undecided)
            crossings &+= spans & (east | ((det > 0).bit ^ (edge.by < edge.ay).bit))
        }
        return unsure != 0 ? nil : crossings & 1 == 1
    }

    /// GEOS's ray, edge by edge (see `rayCrossings`).
    @inline(__always)
    private static func exactCrossings(_ edges: UnsafeBufferPointer<UInt32>, _ vertices: UnsafePointer<XY>, _ x: Double,
                                       _ y: Double, _ view: (Edge) -> Edge) -> Bool? {
        var crossings = 0
        for first in edges {
            let edge = view(Self.edge(from: vertices + Int(first)))
            // Sorted by east end, descending: the rest lie wholly west of the point.
            if edge.maxX < x { break }
            let aAbove = edge.ay > y, bAbove = edge.by > y
            if aAbove != bAbove {
                // The edge spans the ray's line under GEOS's half-open rule; wholly
                // east of the point, the ray crosses it (GEOS's orientation would
                // put the point strictly on the crossing side): no orientation.
                if x < min(edge.ax, edge.bx) {
                    crossings += 1
                    continue
                }
            } else if edge.ay != y && edge.by != y {
                // Most edges of a band lie wholly above or below the point: `crossing`
                // says `misses` for them, and this one look at the latitudes says so
                // without its chain of branches.
                continue
            }
            switch crossing(edge, x, y) {
            case .crosses: crossings += 1
            case .misses: continue
            case .onBoundary: return true
            case .undecided: return nil
            }
        }
        return crossings & 1 == 1
    }

    /// What an edge does to the ray from (x, y) towards +x.
    enum Crossing {
        case misses, crosses, onBoundary, undecided
    }

    /// GEOS `RayCrossingCounter::countSegment` for one edge: whether the edge
    /// crosses the ray from (x, y) towards +x, or holds the point.
    @inline(__always)
    static func crossing(_ edge: Edge, _ x: Double, _ y: Double) -> Crossing {
        if edge.ax < x && edge.bx < x { return .misses }
        if x == edge.bx && y == edge.by { return .onBoundary }
        if edge.ay == y && edge.by == y {
            return min(edge.ax, edge.bx) <= x && x <= max(edge.ax, edge.bx) ? .onBoundary : .misses
        }
        if (edge.ay > y && edge.by <= y) || (edge.by > y && edge.ay <= y) {
            guard var side = GeoMath.orientation(edge.ax, edge.ay, edge.bx, edge.by, x, y) else { return .undecided }
            if side == 0 { return .onBoundary }
            if edge.by < edge.ay { side = -side }
            return side == 1 ? .crosses : .misses
        }
        return .misses
    }

    /// The distance in metres from (x, y) to the nearest edge, measured in the
    /// equirectangular plane centred on the point (see `GeoMath`).
    /// - Complexity: O(edges).
    func distanceToBoundary(_ x: Double, _ y: Double) -> Double {
        let scale = GeoMath.planeScale(atLatitude: y)
        var best = Double.infinity
        Self.forEachEdge(of: parts) { edge in
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
    func segmentMeetsBoundary(_ px: Double, _ py: Double, _ qx: Double, _ qy: Double, tables: PlanarTables) -> Bool? {
        let first = bands.band(min(py, qy)), last = bands.band(max(py, qy))
        let sMinX = min(px, qx), sMaxX = max(px, qx), sMinY = min(py, qy), sMaxY = max(py, qy)
        // Both lists of each band (an edge in both is tested twice; the answer is the same).
        let lower = bands.edgesOffset + Int(tables.starts[bands.startsOffset + 2 * first])
        let upper = bands.edgesOffset + Int(tables.starts[bands.startsOffset + 2 * last + 2])
        return tables.points.withUnsafeBufferPointer { points -> Bool? in
            let vertices = points.baseAddress! + bands.pointsOffset
            for index in lower..<upper {
                let e = Self.edge(from: vertices + Int(tables.edges[index]))
                if max(e.ax, e.bx) < sMinX || min(e.ax, e.bx) > sMaxX || max(e.ay, e.by) < sMinY || min(e.ay, e.by) > sMaxY {
                    continue
                }
                guard let meets = Self.segmentsMeet(px, py, qx, qy, e.ax, e.ay, e.bx, e.by) else { return nil }
                if meets { return true }
            }
            return false
        }
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

/// The vertices, bands, band edges and rasters of every polygon of a monitor,
/// one table each, so that a test walks four arrays instead of one set per region.
struct PlanarTables: Sendable {
    /// Per polygon, `Bands.startCount` offsets (relative to its `edgesOffset`) into `edges`.
    var starts: [Int32] = []
    /// Band edges, a band's edges contiguous: each the position of the edge's
    /// first vertex in `points` (relative to the polygon's `pointsOffset`);
    /// the next vertex ends it. 32 bits, as the band starts are: one polygon
    /// of 2³¹ vertices would be over 60 GB of coordinates.
    var edges: [UInt32] = []
    /// Per polygon, its rings' vertices end to end (each ring closed).
    var points: [XY] = []
    /// Raster cells (`PolygonRaster`), two bits each, a polygon's cells contiguous.
    var raster: [UInt8] = []
}
