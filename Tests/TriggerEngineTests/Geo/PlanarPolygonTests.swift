import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The Swift point-in-polygon test (raster, bands, ray crossings) against GEOS
/// on the points where the ray-crossing rule has its special cases: exactly at
/// a vertex's latitude (the half-open rule), on vertices, on horizontal and
/// vertical edges, just beside them, and just outside the envelope.
@Suite("PlanarPolygon: GEOS's answers at vertex latitudes, on vertices and on edges")
struct PlanarPolygonTests {
    /// Rings on a coarse grid (many vertices share a latitude or a longitude,
    /// horizontal and vertical edges), jagged stars, combs.
    static func shapes(_ random: inout SplitMix64) -> [[[XY]]] {
        var shapes: [[[XY]]] = []
        for _ in 0..<150 {
            let count = 8 + Int(random.next() % 120)
            let grid = [nil, 0.002, 0.0005][Int(random.next() % 3)]
            let shell = PolygonValidityTests.star(&random, 2.35, 48.85, 0.01, count, grid: grid)
            let hole = PolygonValidityTests.star(&random, 2.35, 48.85, 0.002, 6 + Int(random.next() % 10), clockwise: true,
                                                 grid: grid)
            shapes.append(random.next() % 2 == 0 ? [shell] : [shell, hole])
        }
        // A comb: horizontal and vertical edges only, many vertices at each latitude.
        var comb: [XY] = [XY(2.34, 48.84)]
        for tooth in 0..<12 {
            let x = 2.34 + Double(tooth) * 0.001
            comb += [XY(x, 48.845), XY(x, 48.85 + Double(tooth % 4) * 0.001), XY(x + 0.0005, 48.85 + Double(tooth % 4) * 0.001),
                     XY(x + 0.0005, 48.845)]
        }
        comb += [XY(2.352, 48.84), XY(2.34, 48.84)]
        shapes.append([comb])
        return shapes
    }

    @Test func specialPointsGetGEOSsAnswer() throws {
        var random = SplitMix64(seed: 15_001)
        let context = GEOSContext()
        var tested = 0, inside = 0, onBoundary = 0, outsideTested = 0
        for rings in Self.shapes(&random) {
            guard PolygonValidity.isCertainlyValid([rings]) else { continue }
            let region = MonitoredRegion(identifier: "shape", region: Region(shape: .polygons([Region.Polygon(rings: rings)])))
            let index = RegionIndex(regions: [region])
            let coverage = RegionCoverage(index: index)
            let geometry = try region.region.geosGeometry(in: context)
            let vertices = rings.flatMap { $0 }
            let xs = vertices.map(\.x).sorted(), ys = vertices.map(\.y).sorted()
            var points: [XY] = vertices
            for vertex in vertices.shuffled(using: &random).prefix(60) {
                // At the vertex's latitude: west and east of it, and anywhere across the shape.
                for _ in 0..<6 {
                    points.append(XY(random.nextDouble(in: xs.first!...xs.last!), vertex.y))
                }
                points.append(XY(vertex.x.nextDown, vertex.y))
                points.append(XY(vertex.x.nextUp, vertex.y))
                points.append(XY(vertex.x, vertex.y.nextUp))
                points.append(XY(vertex.x, vertex.y.nextDown))
                // At its longitude, across the shape.
                points.append(XY(vertex.x, random.nextDouble(in: ys.first!...ys.last!)))
            }
            // Just outside the envelope, where the grid's single-precision envelope
            // (rounded outwards) still lets points on to the exact test.
            for gap in [0, 1e-7, 1e-6, 4e-6] {
                for _ in 0..<10 {
                    let y = random.nextDouble(in: ys.first!...ys.last!), x = random.nextDouble(in: xs.first!...xs.last!)
                    for outside in [XY(xs.first!.nextDown - gap, y), XY(xs.last!.nextUp + gap, y),
                                    XY(x, ys.first!.nextDown - gap), XY(x, ys.last!.nextUp + gap)] {
                        let tests = coverage.exactTests
                        coverage.collect(outside.x, outside.y)
                        #expect(coverage.covered.isEmpty, "(\(outside.x), \(outside.y)) outside \(rings)")
                        if coverage.exactTests > tests { outsideTested += 1 }
                    }
                }
            }
            // Midpoints of edges (on horizontal and vertical edges, exactly on the boundary).
            for ring in rings {
                for index in 0..<(ring.count - 1) {
                    points.append(XY((ring[index].x + ring[index + 1].x) / 2, (ring[index].y + ring[index + 1].y) / 2))
                }
            }
            for point in points {
                let expected = try geometry.covers(GEOSGeometry.point(point.x, point.y, in: context))
                coverage.collect(point.x, point.y)
                #expect((coverage.covered.count == 1) == expected, "(\(point.x), \(point.y)) in \(rings)")
                tested += 1
                if expected { inside += 1 }
                if vertices.contains(point) { onBoundary += 1 }
            }
        }
        #expect(tested > 20_000 && inside > 5_000 && tested - inside > 5_000, "tested \(tested), inside \(inside)")
        #expect(onBoundary > 2_000, "on vertices: \(onBoundary)")
        // Points outside the true envelope that the grid let through to the exact test.
        #expect(outsideTested > 500, "outside points tested exactly: \(outsideTested)")
    }

    /// Points interpolated along edges lie within rounding of them, where the
    /// orientation's sign is noise unless its error bound is heeded: the
    /// branch-free ray walk must hand them on (to the edge-by-edge walk and
    /// then GEOS) rather than count a crossing by that sign. Points a few
    /// units in the last place off the edge, on either side, too.
    @Test func pointsWithinRoundingOfEdgesGetGEOSsAnswer() throws {
        var random = SplitMix64(seed: 15_002)
        let context = GEOSContext()
        var tested = 0, inside = 0, handedToGEOS = 0
        // Near the origin, where a unit in the last place is small against an
        // edge's length: there a point within rounding of an edge leaves the
        // orientation to GEOS (in Paris such points are still far enough for
        // the filter to decide).
        let shapes = (0..<120).map { _ -> [[XY]] in
            [PolygonValidityTests.star(&random, 0.004, 0.003, 0.003, 8 + Int(random.next() % 120))]
        }
        for rings in shapes {
            guard PolygonValidity.isCertainlyValid([rings]) else { continue }
            let region = MonitoredRegion(identifier: "shape", region: Region(shape: .polygons([Region.Polygon(rings: rings)])))
            let coverage = RegionCoverage(index: RegionIndex(regions: [region]))
            let geometry = try region.region.geosGeometry(in: context)
            for ring in rings {
                for index in 0..<(ring.count - 1) {
                    let a = ring[index], b = ring[index + 1]
                    for _ in 0..<4 {
                        let t = random.nextDouble(in: 0...1)
                        var point = XY(a.x + t * (b.x - a.x), a.y + t * (b.y - a.y))
                        for _ in 0..<Int(random.next() % 4) {
                            point = random.next() % 2 == 0 ? XY(point.x.nextUp, point.y) : XY(point.x, point.y.nextDown)
                        }
                        let expected = try geometry.covers(GEOSGeometry.point(point.x, point.y, in: context))
                        let before = coverage.geosTests
                        coverage.collect(point.x, point.y)
                        #expect((coverage.covered.count == 1) == expected, "(\(point.x), \(point.y)) near \(a)–\(b)")
                        tested += 1
                        if expected { inside += 1 }
                        if coverage.geosTests > before { handedToGEOS += 1 }
                    }
                }
            }
        }
        #expect(tested > 20_000 && inside > 3_000 && tested - inside > 3_000, "tested \(tested), inside \(inside)")
        // Many of them are too close for the filter: what this test is about.
        #expect(handedToGEOS > tested / 20, "handed to GEOS: \(handedToGEOS) of \(tested)")
    }
}
