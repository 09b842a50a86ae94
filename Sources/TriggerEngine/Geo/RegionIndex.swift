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
    /// The polygon regions' own edges (distances) and where their bands are.
    let polygons: [PlanarPolygon]
    /// Every polygon's band layout, for `covers` on the hot path.
    let polygonBands: [PlanarPolygon.Bands]
    let tables: PlanarTables
    let grid: RegionGrid

    /// Builds the index.
    /// - Complexity: O(total vertices) (sorting within bands aside).
    init(regions: [MonitoredRegion]) {
        self.regions = regions
        // Regions are flattened on every core, each chunk into tables of its own,
        // then joined (offsets moved along).
        let parts = ParallelChunks.chunks(count: regions.count, weight: { regions[$0].region.vertexCount }) { range in
            Self.flatten(regions, range)
        }
        var shapes: [Shape] = []
        var polygons: [PlanarPolygon] = []
        var entries: [(region: Int, envelope: Envelope, test: ExactTest)] = []
        shapes.reserveCapacity(regions.count)
        var startsBase = 0, edgesBase = 0, rasterBase = 0
        for part in parts {
            let polygonBase = polygons.count
            for shape in part.shapes {
                if case .polygon(let polygon) = shape { shapes.append(.polygon(polygon + polygonBase)) } else { shapes.append(shape) }
            }
            for polygon in part.polygons {
                polygons.append(polygon.moved(starts: startsBase, edges: edgesBase, raster: rasterBase))
            }
            for entry in part.entries {
                if case .polygon(let polygon) = entry.test {
                    entries.append((entry.region, entry.envelope, .polygon(polygon + Int32(polygonBase))))
                } else {
                    entries.append(entry)
                }
            }
            startsBase += part.tables.starts.count
            edgesBase += part.tables.edges.count
            rasterBase += part.tables.raster.count
        }
        // The tables (tens of megabytes) joined by one thread per part: copying
        // and first touching the pages was a fifth of the index time on one.
        let tables = PlanarTables(starts: ParallelChunks.concatenated(parts.map(\.tables.starts)),
                                  edges: ParallelChunks.concatenated(parts.map(\.tables.edges)),
                                  raster: ParallelChunks.concatenated(parts.map(\.tables.raster)))
        self.shapes = shapes
        self.polygons = polygons
        polygonBands = polygons.map(\.bands)
        self.tables = tables
        grid = RegionGrid(entries)
    }

    /// The shapes, polygons (offsets within `tables`) and grid entries of the regions in `range`.
    private static func flatten(_ regions: [MonitoredRegion], _ range: Range<Int>)
        -> (shapes: [Shape], polygons: [PlanarPolygon], tables: PlanarTables, entries: [(region: Int, envelope: Envelope, test: ExactTest)]) {
        var shapes: [Shape] = []
        var polygons: [PlanarPolygon] = []
        var tables = PlanarTables()
        var entries: [(region: Int, envelope: Envelope, test: ExactTest)] = []
        let vertices = range.reduce(0) { $0 + regions[$1].region.vertexCount }
        tables.edges.reserveCapacity(3 * vertices)
        tables.starts.reserveCapacity(vertices / 4 + range.count)
        for index in range {
            switch regions[index].region.shape {
            case .circle(let center, let radius):
                let circle = CircleShape(latitude: center.latitude, longitude: center.longitude, radius: radius)
                shapes.append(.circle(circle))
                for envelope in circle.envelopes { entries.append((index, envelope, .circle(circle))) }
            case .polygons(let parts):
                let polygon = PlanarPolygon(parts, into: &tables)
                shapes.append(.polygon(polygons.count))
                for envelope in polygon.partEnvelopes { entries.append((index, envelope, .polygon(Int32(polygons.count)))) }
                polygons.append(polygon)
            }
        }
        return (shapes, polygons, tables, entries)
    }
}

/// How to test one region exactly: plain data, copied into every grid item.
enum ExactTest: Sendable {
    case circle(CircleShape)
    /// Index of the polygon's bands in `RegionIndex.polygonBands`.
    case polygon(Int32)
}
