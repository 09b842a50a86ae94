import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

@Suite("RegionMonitor against the brute-force GEOS reference")
struct RegionMonitorDifferentialTests {
    static func fixture(_ name: String) -> URL {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/geo")!
    }

    /// Real regions with seeded notify flags, so that the flags are exercised too.
    static func regions(_ file: String, seed: UInt64) throws -> [MonitoredRegion] {
        var random = SplitMix64(seed: seed)
        // San Francisco's Marina has a self-touching ring: it needs --repair.
        return try MonitoredRegion.load(featureCollectionAt: fixture(file).path, repair: true).map { region in
            var region = region
            let roll = random.nextDouble(in: 0...1)
            if roll < 0.1 { region.trigger.notifyOnEntry = false }
            else if roll < 0.2 { region.trigger.notifyOnExit = false }
            else if roll < 0.3 { region.trigger.repeats = false }
            return region
        }
    }

    /// Runs the monitor and the reference over `log` for every option set and
    /// expects identical event lists; returns the events per option set.
    @discardableResult
    static func compare(_ regions: [MonitoredRegion], _ log: [LocationFix]) throws -> [Int] {
        let covering = try {
            let reference = try BruteForceMonitor(regions: regions, options: MonitorOptions())
            return try log.map { fix in
                try regions.indices.map { index in
                    fix.coordinate.isValid
                        ? try reference.covered(index, lon: fix.coordinate.longitude, lat: fix.coordinate.latitude)
                        : false
                }
            }
        }()
        var counts: [Int] = []
        for options in OptionMatrix.all {
            let monitor = try RegionMonitor(regions: regions, options: options)
            let reference = try BruteForceMonitor(regions: regions, options: options)
            var ours: [RegionEvent] = [], theirs: [RegionEvent] = []
            for (position, fix) in log.enumerated() {
                ours += monitor.ingest(fix)
                theirs += try reference.ingest(fix, covering: covering[position])
            }
            #expect(ours.count == theirs.count, "\(options)")
            if let first = zip(ours, theirs).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
                Issue.record("first difference at event \(first) with \(options): \(ours[first]) vs \(theirs[first])")
            }
            counts.append(ours.count)
        }
        return counts
    }

    @Test(arguments: [("paris.geojson", 1 as UInt64), ("manhattan.geojson", 2), ("san-francisco.geojson", 3)])
    func seededWalksOverRealNeighbourhoodsMatchBruteForce(file: String, seed: UInt64) throws {
        let regions = try Self.regions(file, seed: seed)
        let log = RandomWalks(devices: 16, fixesPerDevice: 300, box: .around(regions)).log(seed: seed)
        let counts = try Self.compare(regions, log)
        // The walks must cross boundaries for the comparison to mean anything.
        #expect(counts.allSatisfy { $0 > 100 }, "events per option set: \(counts)")
    }

    @Test func threeCitiesAtOnceUseTheSparseGridAndMatchBruteForce() throws {
        var regions: [MonitoredRegion] = []
        var log: [LocationFix] = []
        for (seed, file) in ["paris.geojson", "manhattan.geojson", "san-francisco.geojson"].enumerated() {
            let city = try Self.regions(file, seed: UInt64(seed + 20)).map {
                var region = $0
                region.identifier = "\(file)/\(region.identifier)"
                return region
            }
            regions += city
            log += RandomWalks(devices: 4, fixesPerDevice: 200, box: .around(city)).log(seed: UInt64(seed + 30)).map {
                var fix = $0
                fix.device = "\(file)/\(fix.device)"
                return fix
            }
        }
        #expect(try RegionMonitor(regions: regions).index.grid.isSparse, "cells over Paris to San Francisco are kept sparse")
        let counts = try Self.compare(regions, log)
        #expect(counts.allSatisfy { $0 > 100 }, "events per option set: \(counts)")
    }

    @Test func seededWalksAmongCirclesAcrossTheAntimeridianMatchBruteForce() throws {
        var random = SplitMix64(seed: 44)
        let regions = try (0..<40).map { index in
            var lon = random.nextDouble(in: 179.2...180.8)
            if lon > 180 { lon -= 360 }
            return MonitoredRegion(identifier: "circle-\(index)", region: try Region.circle(
                center: Coordinate(latitude: random.nextDouble(in: -0.3...0.3), longitude: lon),
                radius: random.nextDouble(in: 300...8_000)), repeats: index % 7 != 0)
        }
        let walks = RandomWalks(devices: 12, fixesPerDevice: 400,
                                box: Envelope(minX: 179.6, minY: -0.3, maxX: 180, maxY: 0.3), step: 100...900)
        let counts = try Self.compare(regions, walks.log(seed: 45))
        #expect(counts.allSatisfy { $0 > 50 }, "events per option set: \(counts)")
    }

    @Test func seededWalksAmongCirclesAroundTheNorthPoleMatchBruteForce() throws {
        var random = SplitMix64(seed: 46)
        let regions = try (0..<25).map { index in
            MonitoredRegion(identifier: "polar-\(index)", region: try Region.circle(
                center: Coordinate(latitude: random.nextDouble(in: 89.8...90), longitude: random.nextDouble(in: -180...180)),
                radius: random.nextDouble(in: 500...12_000)))
        }
        let walks = RandomWalks(devices: 8, fixesPerDevice: 250,
                                box: Envelope(minX: -180, minY: 89.85, maxX: 180, maxY: 89.999), step: 100...800)
        let counts = try Self.compare(regions, walks.log(seed: 47))
        #expect(counts.allSatisfy { $0 > 50 }, "events per option set: \(counts)")
    }

    /// Jagged star polygons (the benchmark's hard shape: radius changing at every
    /// vertex, 8 to 300 vertices, some with holes), overlapping, where most points
    /// fall in raster cells crossed by edges and the bands decide.
    @Test func seededWalksAmongJaggedPolygonsWithHolesMatchBruteForce() throws {
        var random = SplitMix64(seed: 48)
        let regions = try (0..<30).map { index -> MonitoredRegion in
            let cx = random.nextDouble(in: 2.30...2.40), cy = random.nextDouble(in: 48.83...48.88)
            var rings = [PolygonValidityTests.star(&random, cx, cy, random.nextDouble(in: 0.004...0.02), 8 + Int(random.next() % 293))]
            if index % 3 == 0 { rings.append(PolygonValidityTests.star(&random, cx, cy, 0.001, 12, clockwise: true)) }
            let wkt = "POLYGON(" + rings.map { "(" + $0.map { "\($0.x) \($0.y)" }.joined(separator: ",") + ")" }.joined(separator: ",") + ")"
            return MonitoredRegion(identifier: "jagged-\(index)", region: try Region(wkt: wkt))
        }
        let walks = RandomWalks(devices: 10, fixesPerDevice: 300,
                                box: Envelope(minX: 2.30, minY: 48.83, maxX: 2.40, maxY: 48.88), step: 50...400)
        let counts = try Self.compare(regions, walks.log(seed: 49))
        #expect(counts.allSatisfy { $0 > 100 }, "events per option set: \(counts)")
    }
}
