import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `PolygonValidity.isStarShaped`, the one-pass proof of simplicity, against
/// GEOS's `isValid` on seeded random rings: whatever it proves, GEOS must call
/// valid; it must prove nearly every jagged star (most through the kernel
/// search); and rings that turn the same way at every edge but are not simple
/// (wound twice or more) must never pass.
@Suite("Star-shaped rings: the one-pass proof against GEOS isValid")
struct StarShapedRingTests {
    /// A ring through `count` vertices whose angles round (cx, cy) go round
    /// `turns` times, one vertex per sector, at a quarter to all of `radius`.
    static func wound(_ random: inout SplitMix64, _ cx: Double, _ cy: Double, _ radius: Double, _ count: Int,
                      turns: Int) -> [XY] {
        var ring = (0..<count).map { index -> XY in
            let angle = (Double(index) + random.nextDouble(in: 0.05...0.95)) * 2 * .pi * Double(turns) / Double(count)
            let r = radius * random.nextDouble(in: 0.25...1)
            return XY(cx + r * cos(angle) / cos(cy * .pi / 180), cy + r * sin(angle))
        }
        if random.next() % 2 == 0 { ring.reverse() }
        ring.append(ring[0])
        return ring
    }

    /// A star, or a star broken in one of several ways.
    static func randomRing(_ random: inout SplitMix64) -> (ring: [XY], kind: String) {
        let cx = random.nextDouble(in: -170...170), cy = random.nextDouble(in: -80...80)
        let radius = random.nextDouble(in: 1e-4...1)
        let count = 3 + Int(random.next() % 250)
        var ring = wound(&random, cx, cy, radius, count, turns: 1)
        switch random.next() % 8 {
        case 0:
            // Enough vertices that no step reaches half a turn: the ring really winds that often.
            let turns = 2 + Int(random.next() % 2)
            return (wound(&random, cx, cy, radius, max(count, 8 * turns), turns: turns), "wound")
        case 1:
            // Two vertices swapped: usually a crossing.
            let i = Int(random.next() % UInt64(count)), j = Int(random.next() % UInt64(count))
            ring.swapAt(i, j)
            ring[count] = ring[0]
            return (ring, "swapped")
        case 2:
            // A vertex moved anywhere near: a spike across the ring, or not.
            let i = Int(random.next() % UInt64(count))
            ring[i] = XY(cx + random.nextDouble(in: -radius...radius), cy + random.nextDouble(in: -radius...radius))
            ring[count] = ring[0]
            return (ring, "moved")
        case 3:
            // A vertex repeated (GEOS allows it; not turning, so not proven here).
            let i = Int(random.next() % UInt64(count))
            ring.insert(ring[i], at: i)
            return (ring, "repeated")
        case 4:
            // Snapped to a coarse grid: collinear edges, touches, repeats.
            let grid = radius / Double(2 + random.next() % 8)
            ring = ring.map { XY(($0.x / grid).rounded() * grid, ($0.y / grid).rounded() * grid) }
            return (ring, "snapped")
        default:
            return (ring, "star")
        }
    }

    @Test func proofsAgreeWithGEOSAndCoverNearlyEveryStar() throws {
        var random = SplitMix64(seed: 2_611)
        let context = GEOSContext()
        var counts: [String: (rings: Int, proven: Int, valid: Int)] = [:]
        for round in 0..<12_000 {
            let (ring, kind) = Self.randomRing(&random)
            let proven = PolygonValidity.isStarShaped(ring)
            let valid = try PolygonValidityTests.geosIsValid([[ring]], context)
            if proven && !valid {
                let reason = try Region.geosGeometry([[ring]], in: context).validityReason()
                Issue.record("round \(round) (\(kind)): proven simple, GEOS says \(reason): \(ring)")
            }
            counts[kind, default: (0, 0, 0)].rings += 1
            if proven { counts[kind, default: (0, 0, 0)].proven += 1 }
            if valid { counts[kind, default: (0, 0, 0)].valid += 1 }
        }
        let stars = counts["star", default: (0, 0, 0)], wound = counts["wound", default: (0, 0, 0)]
        // Every unbroken star is valid and proven (a star's kernel always holds its centre).
        #expect(stars.rings > 4_000 && stars.valid == stars.rings && stars.proven == stars.rings, "\(stars)")
        // Rings wound more than once are never simple, and never proven.
        #expect(wound.rings > 1_000 && wound.valid == 0 && wound.proven == 0, "\(wound)")
        // Broken rings: both verdicts occur (the test sees the proof refuse).
        let moved = counts["moved", default: (0, 0, 0)], swapped = counts["swapped", default: (0, 0, 0)]
        #expect(moved.proven > 0 && moved.proven < moved.rings, "\(moved)")
        #expect(swapped.proven < swapped.rings && swapped.valid < swapped.rings, "\(swapped)")
    }

    /// Without the count of turns, every vertex of a pentagram turns the same
    /// way round its centre: the count is what refuses it.
    @Test func aPentagramTurnsTheSameWayEverywhereYetIsRefused() throws {
        let pentagram = (0...5).map { index -> XY in
            let angle = Double(index % 5) * 4 * .pi / 5
            return XY(10 + cos(angle), 20 + sin(angle))
        }
        let centre = XY(10, 20)
        for index in 0..<5 {
            let a = pentagram[index], b = pentagram[index + 1]
            #expect(GeoMath.orientation(a.x, a.y, b.x, b.y, centre.x, centre.y) == 1)
        }
        #expect(!pentagram.withUnsafeBufferPointer { PolygonValidity.windsOnce($0, around: centre) })
        #expect(!PolygonValidity.isStarShaped(pentagram))
        #expect(try !PolygonValidityTests.geosIsValid([[pentagram]], GEOSContext()))
        // The pentagon through the same points in angular order is proven.
        let pentagon = (0...5).map { index -> XY in
            let angle = Double(index % 5) * 2 * .pi / 5
            return XY(10 + cos(angle), 20 + sin(angle))
        }
        #expect(pentagon.withUnsafeBufferPointer { PolygonValidity.windsOnce($0, around: centre) })
    }

    /// A search that runs out of its budget gives up (the ring then goes to the
    /// sweep, which proves it all the same): large stars need more visits than
    /// a budget of none, and fewer than the one used.
    @Test func kernelSearchGivesUpPastItsBudget() throws {
        var random = SplitMix64(seed: 78)
        var gaveUp = 0
        for _ in 0..<50 {
            let ring = Self.wound(&random, 2.35, 48.85, 0.005, 2_000 + Int(random.next() % 2_000), turns: 1)
            let (starved, funded) = ring.withUnsafeBufferPointer { ring in
                (KernelSearch(ring, visitsPerEdge: 0)?.interiorPoint(where: { PolygonValidity.windsOnce(ring, around: $0) }),
                 KernelSearch(ring)?.interiorPoint(where: { PolygonValidity.windsOnce(ring, around: $0) }))
            }
            if starved == nil { gaveUp += 1 }
            #expect(funded != nil)
            #expect(SimplicitySweep.isSimple([ring]) && PolygonValidity.isCertainlyValid([[ring]]))
        }
        #expect(gaveUp == 50)
    }

    /// The kernel search alone finds a point the exact check accepts in every
    /// jagged star of many vertices (whose kernel, round its centre, can be a
    /// small part of it).
    @Test func kernelSearchFindsTheCentreOfJaggedStars() throws {
        var random = SplitMix64(seed: 77)
        var searched = 0
        for _ in 0..<300 {
            let ring = Self.wound(&random, 2.35, 48.85, 0.005, 150 + Int(random.next() % 100), turns: 1)
            // The midpoint of the kernel's east and west ends is the point taken.
            var offered: [XY] = []
            let found = ring.withUnsafeBufferPointer { ring in
                KernelSearch(ring)?.interiorPoint(where: { point in
                    offered.append(point)
                    return PolygonValidity.windsOnce(ring, around: point)
                })
            }
            #expect(found != nil && offered.count == 1)
            searched += 1
        }
        #expect(searched == 300)
    }
}
