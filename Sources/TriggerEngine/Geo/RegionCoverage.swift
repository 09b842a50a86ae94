/// Which regions hold a point: the exact tests behind the monitor, Swift first
/// and GEOS when floating point cannot decide, over a shared `RegionIndex`.
///
/// One per thread: it owns a GEOS context and the prepared geometries it builds
/// lazily for the rare points within rounding of an edge, its counters and its
/// scratch, so it is not `Sendable`. A monitor has one; a batch run gives its
/// reader thread another over the same index.
final class RegionCoverage {
    let index: RegionIndex
    private let geosContext = GEOSContext()
    private var preparedGeometries: [GEOSPreparedGeometry?]
    // One owner, one thread, no overlapping accesses: no run-time exclusivity checks
    // on the hot scratch (a fifth of the time per fix when they were checked).
    /// Per region: the query it was last tested in (deduplicates parts sharing a cell).
    @exclusivity(unchecked) private var stamps: [Int]
    @exclusivity(unchecked) private var stamp = 0
    /// The regions holding the last point given to `collect(_:_:)`, in no particular order.
    @exclusivity(unchecked) var covered: [Int32] = []
    /// Exact point-in-polygon tests answered in Swift.
    @exclusivity(unchecked) var exactTests = 0
    /// Tests handed to GEOS.
    @exclusivity(unchecked) var geosTests = 0

    init(index: RegionIndex) {
        self.index = index
        preparedGeometries = Array(repeating: nil, count: index.regions.count)
        stamps = Array(repeating: -1, count: index.regions.count)
    }

    /// Sets `covered` to the regions that hold (x, y), boundary included.
    /// - Complexity: O(candidates × edges in the point's band), O(1) per
    ///   candidate in a wholly inside or outside raster cell.
    @inline(__always)
    func collect(_ x: Double, _ y: Double) {
        stamp += 1
        // Most points are in no region: skip the (out-of-line) removal when empty.
        if !covered.isEmpty { covered.removeAll(keepingCapacity: true) }
        let grid = index.grid
        for item in grid.largeItems where item.contains(x, y) { consider(item, x, y) }
        let range = grid.cellRange(x, y)
        if range.isEmpty { return }
        grid.cellItems.withUnsafeBufferPointer { items in
            for position in range where items[position].contains(x, y) { consider(items[position], x, y) }
        }
    }

    /// Tests a candidate whose envelope holds the point; adds it to `covered`.
    @inline(__always)
    private func consider(_ item: RegionGrid.Item, _ x: Double, _ y: Double) {
        let region = Int(item.region)
        if item.hasSiblings {
            // A region with several parts in this cell is tested once.
            if stamps[region] == stamp { return }
            stamps[region] = stamp
        }
        if covers(region, item.test, x, y) { covered.append(item.region) }
    }

    /// Whether region `region` holds (x, y), boundary included.
    func covers(_ region: Int, _ x: Double, _ y: Double) -> Bool {
        switch index.shapes[region] {
        case .circle(let circle): return circle.covers(x, y)
        case .polygon(let polygon): return covers(region, .polygon(Int32(polygon)), x, y)
        }
    }

    /// The same, given the region's exact test (carried by its grid items).
    @inline(__always)
    private func covers(_ region: Int, _ test: ExactTest, _ x: Double, _ y: Double) -> Bool {
        switch test {
        case .circle(let circle):
            return circle.covers(x, y)
        case .polygon(let polygon):
            exactTests += 1
            let bands = index.polygonBands[Int(polygon)]
            let answer = index.tables.edges.withUnsafeBufferPointer { edges in
                index.tables.starts.withUnsafeBufferPointer { starts in
                    index.tables.raster.withUnsafeBufferPointer { raster in
                        PlanarPolygon.covers(x, y, bands: bands, starts: starts, edges: edges, raster: raster)
                    }
                }
            }
            if let answer { return answer }
            return geosCovers(region, x, y)
        }
    }

    /// Whether a device inside region `region`, now at (x, y) and not covered, is
    /// farther than `margin` metres from it: the exit rule of `MonitorOptions.hysteresis`.
    func isBeyond(_ margin: Double, of region: Int, _ x: Double, _ y: Double) -> Bool {
        if margin == 0 { return true }
        switch index.shapes[region] {
        case .circle(let circle):
            return circle.distanceFromCenter(x, y) > circle.radius + margin
        case .polygon(let polygon):
            return index.polygons[polygon].distanceToBoundary(x, y) > margin
        }
    }

    /// Whether the segment between two points outside region `region` passes through it.
    func segmentMeets(_ region: Int, _ px: Double, _ py: Double, _ qx: Double, _ qy: Double) -> Bool {
        switch index.shapes[region] {
        case .circle(let circle):
            return circle.segmentMeets(px, py, qx, qy)
        case .polygon(let polygon):
            if let answer = index.polygons[polygon].segmentMeetsBoundary(px, py, qx, qy, tables: index.tables) { return answer }
            return geosSegmentMeets(region, px, py, qx, qy)
        }
    }

    /// Calls `body` with every region whose envelope meets the box (repeats removed).
    func forEachCandidate(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int32) -> Void) {
        stamp += 1
        index.grid.forEachCandidate(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { region in
            if stamps[Int(region)] == stamp { return }
            stamps[Int(region)] = stamp
            body(region)
        }
    }

    private func preparedGeometry(_ region: Int) throws(GEOSError) -> GEOSPreparedGeometry {
        if let geometry = preparedGeometries[region] { return geometry }
        let geometry = try GEOSPreparedGeometry(index.regions[region].region.geosGeometry(in: geosContext))
        preparedGeometries[region] = geometry
        return geometry
    }

    /// GEOS 3.11 has no `GEOSPreparedContainsXY`: build the point and ask
    /// `GEOSPreparedCovers_r`. Only reached within rounding of an edge.
    private func geosCovers(_ region: Int, _ x: Double, _ y: Double) -> Bool {
        geosTests += 1
        do {
            return try preparedGeometry(region).covers(x, y)
        } catch {
            // The geometry was validated when the region was made; GEOS failing on a
            // point test would be a bug in GEOS or here, not bad input.
            preconditionFailure("GEOS failed on a validated region: \(error)")
        }
    }

    private func geosSegmentMeets(_ region: Int, _ px: Double, _ py: Double, _ qx: Double, _ qy: Double) -> Bool {
        geosTests += 1
        do {
            let segment = try GEOSGeometry.lineString([XY(px, py), XY(qx, qy)], in: geosContext)
            return try preparedGeometry(region).intersects(segment)
        } catch {
            preconditionFailure("GEOS failed on a validated region: \(error)")
        }
    }
}
