import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `PolygonValidity` (a plane sweep and nesting tests) against GEOS's own
/// `isValid` on seeded random polygons, valid and invalid: whatever the sweep
/// proves valid, GEOS must call valid, and most valid polygons must be proven.
@Suite("Polygon validity: the sweep's proofs against GEOS isValid")
struct PolygonValidityTests {
    /// A closed star-shaped ring around (cx, cy): one vertex per equal sector, the
    /// radius changing at every vertex (valid when `jitter` keeps the sectors).
    static func star(_ random: inout SplitMix64, _ cx: Double, _ cy: Double, _ radius: Double, _ count: Int,
                     clockwise: Bool = false, grid: Double? = nil) -> [XY] {
        var ring = (0..<count).map { index -> XY in
            let angle = (Double(index) + random.nextDouble(in: 0.05...0.95)) * 2 * .pi / Double(count)
            let r = radius * random.nextDouble(in: 0.25...1)
            var point = XY(cx + r * cos(angle), cy + r * sin(angle))
            if let grid { point = XY((point.x / grid).rounded() * grid, (point.y / grid).rounded() * grid) }
            return point
        }
        if clockwise { ring.reverse() }
        ring.append(ring[0])
        return ring
    }

    /// Random polygons of many kinds, about half of them invalid: stars with holes
    /// inside, across, outside or nested; stars with a vertex moved; random point
    /// soup; shapes snapped to a coarse grid (collinear edges, touches, repeated
    /// points, vertical and horizontal edges); MultiPolygons apart, overlapping,
    /// nested, or one in the other's hole.
    static func randomPolygons(_ random: inout SplitMix64) -> [[[XY]]] {
        let cx = random.nextDouble(in: -50...50), cy = random.nextDouble(in: -50...50)
        let radius = random.nextDouble(in: 0.001...5)
        let count = 3 + Int(random.next() % 60)
        let grid: Double? = random.next() % 4 == 0 ? radius / Double(2 + random.next() % 6) : nil
        switch random.next() % 6 {
        case 0:
            var rings = [star(&random, cx, cy, radius, count, grid: grid)]
            for _ in 0..<Int(random.next() % 4) {
                let offset = radius * random.nextDouble(in: 0...1.2)
                let angle = random.nextDouble(in: 0...(2 * .pi))
                rings.append(star(&random, cx + offset * cos(angle), cy + offset * sin(angle),
                                  radius * random.nextDouble(in: 0.02...0.4), 3 + Int(random.next() % 12),
                                  clockwise: random.next() % 2 == 0, grid: grid))
            }
            return [rings]
        case 1:
            var ring = star(&random, cx, cy, radius, count, grid: grid)
            let moved = Int(random.next() % UInt64(ring.count - 1))
            ring[moved] = XY(cx + random.nextDouble(in: -radius...radius), cy + random.nextDouble(in: -radius...radius))
            if moved == 0 { ring[ring.count - 1] = ring[0] }
            return [[ring]]
        case 2:
            var ring = (0..<count).map { _ in
                XY(cx + random.nextDouble(in: -radius...radius), cy + random.nextDouble(in: -radius...radius))
            }
            ring.append(ring[0])
            return [[ring]]
        case 3:
            // A comb: vertical teeth on a horizontal spine, on integer coordinates.
            let teeth = 1 + Int(random.next() % 12)
            var ring: [XY] = [XY(0, 0)]
            for tooth in 0..<teeth {
                let x = Double(2 * tooth)
                let height = Double(2 + random.next() % 5)
                ring += [XY(x, 1), XY(x, height), XY(x + 1, height), XY(x + 1, 1)]
            }
            ring += [XY(Double(2 * teeth), 0)]
            if random.next() % 3 == 0 {
                // Pull one point onto a neighbouring tooth or the spine: a touch.
                let index = 1 + Int(random.next() % UInt64(ring.count - 2))
                ring[index].y = [0.0, 1.0, ring[index].y + 1][Int(random.next() % 3)]
            }
            ring.append(ring[0])
            return [[ring.map { XY($0.x + cx, $0.y + cy) }]]
        case 4:
            let shift = radius * random.nextDouble(in: 0...2.5)
            return [[star(&random, cx, cy, radius, count, grid: grid)],
                    [star(&random, cx + shift, cy, radius * random.nextDouble(in: 0.1...1), 3 + Int(random.next() % 30), grid: grid)]]
        default:
            // An island in a lake: a polygon with a hole, and another inside the hole (valid),
            // or around the whole (invalid), or across the shell.
            let shell = star(&random, cx, cy, radius, count)
            let hole = star(&random, cx, cy, radius * 0.2, 3 + Int(random.next() % 10))
            let islandRadius = radius * [0.05, 0.1, 3.0, 0.6][Int(random.next() % 4)]
            return [[shell, hole], [star(&random, cx, cy, islandRadius, 3 + Int(random.next() % 10))]]
        }
    }

    static func geosIsValid(_ polygons: [[[XY]]], _ context: GEOSContext) throws -> Bool {
        try Region.geosGeometry(polygons, in: context).isValid()
    }

    @Test func sweepProofsAgreeWithGEOSOnRandomValidAndInvalidPolygons() throws {
        var random = SplitMix64(seed: 14_005)
        let context = GEOSContext()
        var geosValid = 0, proven = 0, geosInvalid = 0
        for round in 0..<20_000 {
            let polygons = Self.randomPolygons(&random)
            guard polygons.allSatisfy({ $0.allSatisfy { $0.count >= 4 } }) else { continue }
            let reference = try Self.geosIsValid(polygons, context)
            let fast = PolygonValidity.isCertainlyValid(polygons)
            if fast && !reference {
                let reason = try Region.geosGeometry(polygons, in: context).validityReason()
                Issue.record("round \(round): proven valid, GEOS says \(reason): \(polygons)")
            }
            if reference { geosValid += 1 } else { geosInvalid += 1 }
            if fast { proven += 1 }
        }
        // Both verdicts are common, and the sweep proves nearly every valid polygon
        // (those it does not prove have touching or collinear rings).
        #expect(geosValid > 5_000 && geosInvalid > 5_000, "valid \(geosValid), invalid \(geosInvalid)")
        #expect(Double(proven) > 0.85 * Double(geosValid), "proven \(proven) of \(geosValid)")
    }

    @Test func regionsProvenValidHoldTheRingsGEOSWouldGiveBack() throws {
        var random = SplitMix64(seed: 8)
        let context = GEOSContext()
        var checked = 0
        for _ in 0..<2_000 {
            let polygons = Self.randomPolygons(&random)
            guard polygons.allSatisfy({ $0.allSatisfy { $0.count >= 4 } }), PolygonValidity.isCertainlyValid(polygons) else { continue }
            let region = try Region.polygons(polygons, label: "random", repair: false, in: context)
            let viaGEOS = try Region.polygonParts(of: Region.geosGeometry(polygons, in: context))
            #expect(region == Region(shape: .polygons(viaGEOS)))
            checked += 1
        }
        #expect(checked > 500)
    }

    /// Issue 14: GEOS took 17 s and 1.84 GB for one valid ring of 100,000 jagged
    /// vertices. The sweep proves it (timed in `bench geofence`); GEOS's verdict on
    /// a 20,000-vertex ring, which it still checks in about a second, is the same.
    @Test func longJaggedRingIsProvenValidAsGEOSFindsIt() throws {
        var random = SplitMix64(seed: 100_000)
        let long = Self.star(&random, 2.35, 48.85, 0.05, 20_000)
        #expect(PolygonValidity.isCertainlyValid([[long]]))
        #expect(try Self.geosIsValid([[long]], GEOSContext()))
        let huge = Self.star(&random, 2.35, 48.85, 0.05, 200_000)
        #expect(PolygonValidity.isCertainlyValid([[huge]]))
        // A star is proven in one pass (`isStarShaped`); the sweep proves it too.
        #expect(SimplicitySweep.isSimple([huge]))
        // One vertex pushed across the ring far away: both find the crossing.
        var crossed = huge
        crossed[100_000] = XY(2.35 + 0.06, 48.85)
        #expect(!PolygonValidity.isStarShaped(crossed))
        #expect(!SimplicitySweep.isSimple([crossed]))
        #expect(!PolygonValidity.isCertainlyValid([[crossed]]))
    }
}
