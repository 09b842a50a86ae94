import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

@Suite("Where a map is cut: the widest stretch of longitude nothing covers")
struct LongitudeCoverageTests {
    /// The oracle: sorted longitudes, the widest gap between neighbours round the circle.
    static func narrowestWidth(_ longitudes: [Double]) -> Double {
        let sorted = longitudes.sorted()
        var widest = sorted.first! + 360 - sorted.last!
        for (a, b) in zip(sorted, sorted.dropFirst()) { widest = max(widest, b - a) }
        return 360 - widest
    }

    @Test(arguments: [(1 as UInt64, -180.0, 180.0), (2, 170, 190), (3, -10, 10), (4, 100, 300), (5, 179.9, 180.1)])
    func windowOfSeededPointsIsTheNarrowestHoldingThemAll(seed: UInt64, low: Double, high: Double) throws {
        var random = SplitMix64(seed: seed)
        for _ in 0..<50 {
            var coverage = LongitudeCoverage()
            var longitudes: [Double] = []
            for _ in 0..<Int(random.nextDouble(in: 1...60)) {
                var longitude = random.nextDouble(in: low...high)
                if longitude > 180 { longitude -= 360 }
                longitudes.append(longitude)
                coverage.add(longitude)
            }
            let window = try #require(coverage.window())
            #expect(window.west >= -180 && window.west <= 180 && window.east >= window.west && window.east - window.west <= 360)
            for longitude in longitudes {
                let shifted = longitude < window.west ? longitude + 360 : longitude
                #expect(shifted >= window.west && shifted <= window.east, "\(longitude) outside \(window)")
            }
            // Exact ends; bins of 0.1° may only miss a gap narrower than two bins.
            let best = Self.narrowestWidth(longitudes)
            #expect(window.east - window.west >= best - 1e-9)
            #expect(window.east - window.west <= best + 0.2 + 1e-9, "\(window) vs \(best)")
        }
    }

    @Test func trackFromFijiToSamoaLiesTogetherAcrossTheAntimeridian() throws {
        var coverage = LongitudeCoverage()
        coverage.add(178.44)
        coverage.addArc(from: 178.44, to: -171.76)
        let window = try #require(coverage.window())
        #expect(window.west == 178.44)
        #expect(abs(window.east - (360 - 171.76)) < 1e-9)
    }

    @Test func seededTracksAreNeverCutByTheWindow() throws {
        var random = SplitMix64(seed: 42)
        for _ in 0..<100 {
            var coverage = LongitudeCoverage()
            var track = [random.nextDouble(in: -180...180)]
            coverage.add(track[0])
            for _ in 0..<Int(random.nextDouble(in: 2...30)) {
                var next = track.last! + random.nextDouble(in: -25...25)
                if next > 180 { next -= 360 } else if next < -180 { next += 360 }
                coverage.addArc(from: track.last!, to: next)
                track.append(next)
            }
            let window = try #require(coverage.window())
            for (a, b) in zip(track, track.dropFirst()) {
                let sa = a < window.west ? a + 360 : a, sb = b < window.west ? b + 360 : b
                // Drawn straight from sa to sb: the same way round as the short step.
                #expect(abs((sb - sa) - GeoMath.wrappedDelta(b, from: a)) < 1e-9 || window.east - window.west >= 360,
                        "step \(a) → \(b) cut by \(window)")
            }
        }
    }

    @Test func polygonEdgesGoStraightInLongitudeNotTheShortWay() throws {
        var coverage = LongitudeCoverage()
        // A band from −170 to 170 (split form of something): its edge crosses 0, not 180.
        coverage.addEdge(from: -170, to: 170)
        let window = try #require(coverage.window())
        #expect(window.west == -170 && window.east == 170)
        var empty = LongitudeCoverage()
        #expect(empty.window() == nil)
        empty.addAll()
        #expect(empty.window()?.west == -180 && empty.window()?.east == 180)
    }
}
