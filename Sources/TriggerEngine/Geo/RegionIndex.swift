import Foundation

/// What a monitor knows of its regions, built once and never changed: their
/// exact tests (circles; polygons flattened into shared band and raster
/// tables) and the grid that finds candidates. Immutable, so one index serves
/// any number of threads, each with its own `RegionCoverage` for the mutable
/// side (GEOS handles, counters, scratch).
final class RegionIndex: Sendable {
    /// How to test a region: plain data, so that reading it costs no reference counting.
    enum Shape: Sendable {
        case circle(CircleShape)
        /// Index into `polygons` and `polygonBands`.
        case polygon(Int)
    }

    /// The regions, in the order events are reported within one fix.
    let regions: [MonitoredRegion]
    let shapes: [Shape]
    /// The polygon regions: their parts (distances) and where their bands are.
    let polygons: [PlanarPolygon]
    /// Every polygon's band layout, for `covers` on the hot path.
    let polygonBands: [PlanarPolygon.Bands]
    /// Every circle region's shape, in region order (grid items refer to them).
    let circles: [CircleShape]
    let tables: PlanarTables
    let grid: RegionGrid

    /// Builds the index.
    /// - Complexity: O(total vertices) (sorting within bands aside).
    init(regions: [MonitoredRegion]) {
        self.regions = regions
        // Three steps: plan each polygon region (band layout, table sizes) on
        // every core, place the plans one after another in the tables here, then
        // fill the tables, allocated once at their final size, in place on every core.
        var plans = Self.planPolygons(regions)
        var shapes: [Shape] = []
        var entries: [(region: Int, envelope: Envelope, test: ExactTest)] = []
        shapes.reserveCapacity(regions.count)
        var startsCount = 0, edgesCount = 0, pointsCount = 0, rasterCount = 0
        var polygon = 0
        var circles: [CircleShape] = []
        for (index, monitored) in regions.enumerated() {
            switch monitored.region.shape {
            case .circle(let center, let radius):
                let circle = CircleShape(latitude: center.latitude, longitude: center.longitude, radius: radius)
                shapes.append(.circle(circle))
                for envelope in circle.envelopes { entries.append((index, envelope, .circle(Int32(circles.count)))) }
                circles.append(circle)
            case .polygons:
                plans[polygon].bands.startsOffset = startsCount
                plans[polygon].bands.edgesOffset = edgesCount
                plans[polygon].bands.pointsOffset = pointsCount
                plans[polygon].bands.raster.offset = rasterCount
                let bands = plans[polygon].bands
                startsCount += bands.startCount
                edgesCount += plans[polygon].bandEdgeCount
                pointsCount += plans[polygon].pointCount
                rasterCount += bands.raster.byteCount
                shapes.append(.polygon(polygon))
                for envelope in plans[polygon].partEnvelopes { entries.append((index, envelope, .polygon(Int32(polygon)))) }
                polygon += 1
            }
        }
        self.shapes = shapes
        self.circles = circles
        polygons = plans
        polygonBands = plans.map(\.bands)
        // The grid needs only the envelopes: it is built on another thread while
        // the tables fill (built after them, it left a core idle for a hundredth
        // of a second on 10,000 polygons).
        let gridSlot = ResultSlots<RegionGrid>(count: 1)
        defer { gridSlot.deallocate() }
        let gridBuilt = DispatchGroup()
        DispatchQueue.global().async(group: gridBuilt) { [entries] in gridSlot.store(RegionGrid(entries), at: 0) }
        tables = Self.fill(plans, starts: startsCount, edges: edgesCount, points: pointsCount, raster: rasterCount)
        gridBuilt.wait()
        grid = gridSlot.results()[0]
    }

    /// The plans of the polygon regions, in order (see `PlanarPolygon.init`).
    private static func planPolygons(_ regions: [MonitoredRegion]) -> [PlanarPolygon] {
        ParallelChunks.chunks(count: regions.count, weight: { regions[$0].region.vertexCount }) { range in
            range.compactMap { index -> PlanarPolygon? in
                guard case .polygons(let parts) = regions[index].region.shape else { return nil }
                return PlanarPolygon(parts)
            }
        }.flatMap { $0 }
    }

    /// The tables of the placed polygons, allocated once and filled by every core.
    private static func fill(_ polygons: [PlanarPolygon], starts: Int, edges: Int, points: Int, raster: Int) -> PlanarTables {
        guard !polygons.isEmpty else { return PlanarTables() }
        var tables = PlanarTables()
        // Each table has room for at least one polygon's part (a band start, three
        // edges, four vertices, sixteen cells in four bytes), so every base address exists.
        tables.starts = Array(unsafeUninitializedCapacity: starts) { startsBuffer, startsInitialized in
            tables.edges = Array(unsafeUninitializedCapacity: edges) { edgesBuffer, edgesInitialized in
                tables.points = Array(unsafeUninitializedCapacity: points) { pointsBuffer, pointsInitialized in
                    tables.raster = Array(unsafeUninitializedCapacity: raster) { rasterBuffer, rasterInitialized in
                        let targets = (CopyTarget(startsBuffer.baseAddress!), CopyTarget(edgesBuffer.baseAddress!),
                                       CopyTarget(pointsBuffer.baseAddress!), CopyTarget(rasterBuffer.baseAddress!))
                        _ = ParallelChunks.chunks(count: polygons.count, weight: { polygons[$0].bandEdgeCount }) { range in
                            for polygon in range {
                                polygons[polygon].fill(starts: targets.0.base, edges: targets.1.base, points: targets.2.base,
                                                       raster: targets.3.base)
                            }
                        }
                        rasterInitialized = raster
                    }
                    pointsInitialized = points
                }
                edgesInitialized = edges
            }
            startsInitialized = starts
        }
        return tables
    }
}

/// How to test one region exactly, as the grid is built (its items keep it as an index).
enum ExactTest: Sendable {
    /// Index of the circle in `RegionIndex.circles`.
    case circle(Int32)
    /// Index of the polygon's bands in `RegionIndex.polygonBands`.
    case polygon(Int32)
}
