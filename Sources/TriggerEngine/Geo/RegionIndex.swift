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
        var shapes: [Shape] = []
        shapes.reserveCapacity(regions.count)
        var polygons: [PlanarPolygon] = []
        var tables = PlanarTables()
        var entries: [(region: Int, envelope: Envelope, test: ExactTest)] = []
        entries.reserveCapacity(regions.count)
        let vertices = regions.reduce(0) { total, region in
            guard case .polygons(let parts) = region.region.shape else { return total }
            return total + parts.reduce(0) { $0 + $1.rings.reduce(0) { $0 + $1.count } }
        }
        tables.edges.reserveCapacity(3 * vertices)
        tables.starts.reserveCapacity(vertices)
        for (index, region) in regions.enumerated() {
            switch region.region.shape {
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
        self.shapes = shapes
        self.polygons = polygons
        polygonBands = polygons.map(\.bands)
        self.tables = tables
        grid = RegionGrid(entries)
        if ProcessInfo.processInfo.environment["GEO_STATS"] != nil {  // TEMPORARY
            print("edges", polygons.reduce(0) { $0 + $1.edges.count }, "band edges", tables.edges.count, "starts", tables.starts.count, "raster", tables.raster.count, "grid items", grid.cellItems.count, "cells", grid.cellCount)
        }
    }
}

/// How to test one region exactly: plain data, copied into every grid item.
enum ExactTest: Sendable {
    case circle(CircleShape)
    /// Index of the polygon's bands in `RegionIndex.polygonBands`.
    case polygon(Int32)
}
