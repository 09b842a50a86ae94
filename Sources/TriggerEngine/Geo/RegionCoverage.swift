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
    var covered: UnsafeBufferPointer<Int32> { UnsafeBufferPointer(start: coveredStorage, count: coveredCount) }
    /// Room for every region once (a region is added at most once per point),
    /// owned here and freed in `deinit`: as an array, each batch's copy of a
    /// point's list retained it, and that atomic operation stalled the loop
    /// until the point's cache misses had landed (a twentieth of a run's time).
    private let coveredStorage: UnsafeMutablePointer<Int32>
    @exclusivity(unchecked) private var coveredCount = 0
    /// The regions: the most `covered` can hold (its storage has a slot more).
    private let coveredLimit: Int
    /// A point's candidates in its cell, and those of them in a boundary cell
    /// of their raster: room for the largest cell's items each.
    private let candidateStorage: UnsafeMutablePointer<Int32>
    private let boundaryStorage: UnsafeMutablePointer<Int32>
    /// Exact point-in-polygon tests answered in Swift.
    @exclusivity(unchecked) var exactTests = 0
    /// Tests handed to GEOS.
    @exclusivity(unchecked) var geosTests = 0

    init(index: RegionIndex) {
        self.index = index
        preparedGeometries = Array(repeating: nil, count: index.regions.count)
        stamps = Array(repeating: -1, count: index.regions.count)
        // One more than the regions: `collect` writes a candidate's slot before
        // it knows whether the region is kept.
        coveredLimit = index.regions.count
        coveredStorage = .allocate(capacity: coveredLimit + 1)
        let largestCell = max(1, index.grid.largestCellCount)
        candidateStorage = .allocate(capacity: largestCell)
        boundaryStorage = .allocate(capacity: largestCell)
    }

    deinit {
        coveredStorage.deallocate()
        candidateStorage.deallocate()
        boundaryStorage.deallocate()
    }

    /// Sets `covered` to the regions that hold (x, y), boundary included.
    /// - Complexity: O(candidates × edges in the point's band), O(1) per
    ///   candidate in a wholly inside or outside raster cell.
    func collect(_ x: Double, _ y: Double) {
        let grid = index.grid
        withTables { collect(x, y, grid, $0) }
    }

    /// The index's arrays as plain buffers, valid inside `withTables(_:)`.
    ///
    /// A batch takes them once for all its points: reached through `index` for
    /// every point, each array was retained and released per point (atomic
    /// operations, about 8% of a run's time on the hard benchmark).
    struct Tables {
        let cellItems: UnsafeBufferPointer<RegionGrid.Item>
        let bands: UnsafeBufferPointer<PlanarPolygon.Bands>
        let starts: UnsafeBufferPointer<Int32>
        let edges: UnsafeBufferPointer<UInt32>
        let points: UnsafeBufferPointer<XY>
        let raster: UnsafeBufferPointer<UInt8>
        let circles: UnsafeBufferPointer<CircleShape>
    }

    /// Calls `body` with the index's tables as plain buffers (see `Tables`).
    @inline(__always)
    func withTables<Result>(_ body: (Tables) throws -> Result) rethrows -> Result {
        let index = self.index
        return try index.grid.cellItems.withUnsafeBufferPointer { items in
            try index.polygonBands.withUnsafeBufferPointer { bands in
                try index.tables.starts.withUnsafeBufferPointer { starts in
                    try index.tables.edges.withUnsafeBufferPointer { edges in
                        try index.tables.points.withUnsafeBufferPointer { points in
                            try index.tables.raster.withUnsafeBufferPointer { raster in
                                try index.circles.withUnsafeBufferPointer { circles in
                                    try body(Tables(cellItems: items, bands: bands, starts: starts, edges: edges, points: points,
                                                    raster: raster, circles: circles))
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// `collect(_:_:)` with the index's grid and tables already in hand.
    ///
    /// Whether an envelope holds the point, and what a raster cell says, are as
    /// good as random from one candidate to the next, and a branch on each was
    /// mispredicted about half the time (cachegrind on the hard benchmark: 6.5 M
    /// mispredictions in `consider` and 3.2 M in the loop over a cell for 1 M
    /// fixes). So the cell's items go through three passes that each decide by
    /// arithmetic where a slot goes: the candidates whose envelope holds the
    /// point; their raster cells, a wholly inside one adding the region at once
    /// and a boundary one queueing it for its band; the bands. Regions in
    /// several parts and circles take `consider` as before.
    @inline(__always)
    func collect(_ x: Double, _ y: Double, _ grid: RegionGrid, _ tables: Tables) {
        stamp += 1
        coveredCount = 0
        for item in grid.largeItems where item.contains(x, y) { consider(item, x, y, tables) }
        let range = grid.cellRange(x, y)
        if range.isEmpty { return }
        let items = tables.cellItems
        var found = 0
        for position in range {
            candidateStorage[found] = Int32(truncatingIfNeeded: position)
            found &+= items[position].containment(x, y)
        }
        var onBoundary = 0
        for slot in 0..<found {
            let item = items[Int(candidateStorage[slot])]
            if item.hasSiblings || item.test < 0 {
                consider(item, x, y, tables)
                continue
            }
            exactTests += 1
            let raster = tables.bands[Int(item.test)].raster
            let cell = PolygonRaster.value(ofCell: raster.cell(x, y), in: tables.raster.baseAddress! + raster.offset)
            // Never taken (a region is added at most once), and so never mispredicted:
            // the unconditional write below stays within the storage whatever happens.
            precondition(coveredCount <= coveredLimit, "a region was added twice for one point")
            coveredStorage[coveredCount] = item.region
            coveredCount &+= (cell == PolygonRaster.inside).bit
            boundaryStorage[onBoundary] = candidateStorage[slot]
            onBoundary &+= (cell == PolygonRaster.boundary).bit
        }
        for slot in 0..<onBoundary {
            let item = items[Int(boundaryStorage[slot])]
            let answer = PlanarPolygon.bandCovers(x, y, bands: tables.bands[Int(item.test)], starts: tables.starts,
                                                  edges: tables.edges, points: tables.points)
            precondition(coveredCount <= coveredLimit, "a region was added twice for one point")
            coveredStorage[coveredCount] = item.region
            coveredCount &+= (answer ?? geosCovers(Int(item.region), x, y)).bit
        }
        precondition(coveredCount <= coveredLimit, "a region was added twice for one point")
    }

    /// Tests a candidate whose envelope holds the point; adds it to `covered`.
    @inline(__always)
    private func consider(_ item: RegionGrid.Item, _ x: Double, _ y: Double, _ tables: Tables) {
        let region = Int(item.region)
        if item.hasSiblings {
            // A region with several parts in this cell is tested once.
            if stamps[region] == stamp { return }
            stamps[region] = stamp
        }
        if covers(region, item.test, x, y, tables) {
            precondition(coveredCount < coveredLimit, "a region was added twice for one point")
            coveredStorage[coveredCount] = item.region
            coveredCount += 1
        }
    }

    /// Whether region `region` holds (x, y), boundary included.
    func covers(_ region: Int, _ x: Double, _ y: Double) -> Bool {
        switch index.shapes[region] {
        case .circle(let circle): return circle.covers(x, y)
        case .polygon(let polygon): return withTables { covers(region, Int32(polygon), x, y, $0) }
        }
    }

    /// The same, given the region's exact test as its grid items carry it (see `RegionGrid.Item.test`).
    @inline(__always)
    private func covers(_ region: Int, _ test: Int32, _ x: Double, _ y: Double, _ tables: Tables) -> Bool {
        if test < 0 { return tables.circles[Int(~test)].covers(x, y) }
        exactTests += 1
        let answer = PlanarPolygon.covers(x, y, bands: tables.bands[Int(test)], starts: tables.starts,
                                          edges: tables.edges, points: tables.points, raster: tables.raster)
        if let answer { return answer }
        return geosCovers(region, x, y)
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
