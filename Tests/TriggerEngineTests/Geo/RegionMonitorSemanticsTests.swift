import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// Hand-worked cases of the contract's rules on a 0.01° square at the equator
/// (about 1,112 m a side); the differential tests cover the rest.
@Suite("RegionMonitor: initial state, hysteresis, dwell, cross, repeats, skipped fixes")
struct RegionMonitorSemanticsTests {
    static let square = try! Region(wkt: "POLYGON((0 0, 0.01 0, 0.01 0.01, 0 0.01, 0 0))")

    static func monitor(_ options: MonitorOptions, repeats: Bool = true) throws -> RegionMonitor {
        try RegionMonitor(regions: [MonitoredRegion(identifier: "sq", region: square, repeats: repeats)], options: options)
    }

    /// Feeds (seconds, lat, lon) fixes of one device; returns "kind@seconds" per event.
    static func run(_ monitor: RegionMonitor, _ fixes: [(Double, Double, Double)], accuracy: Double? = nil) -> [String] {
        fixes.flatMap { time, lat, lon in
            monitor.ingest(LocationFix(device: "d", time: Date(timeIntervalSince1970: time),
                                       coordinate: Coordinate(latitude: lat, longitude: lon), accuracy: accuracy))
                .map { "\($0.kind)@\(Int(time))" }
        }
    }

    @Test func firstFixInsideSetsStateForAppleAndEntersForAndroid() throws {
        let walk = [(0.0, 0.005, 0.005), (10, 0.02, 0.005), (20, 0.005, 0.005)]
        #expect(Self.run(try Self.monitor(MonitorOptions()), walk) == ["exit@10", "enter@20"])
        #expect(Self.run(try Self.monitor(MonitorOptions(initial: .enter)), walk) == ["enter@0", "exit@10", "enter@20"])
    }

    @Test func hysteresisKeepsJitterAtTheBoundaryFromFlapping() throws {
        // East edge at lon 0.01; 0.0001° of longitude at the equator is about 11.1 m.
        let jitter = [(0.0, 0.005, 0.005), (10, 0.005, 0.0101), (20, 0.005, 0.0099), (30, 0.005, 0.0102),
                      (40, 0.005, 0.0104)]
        #expect(Self.run(try Self.monitor(MonitorOptions()), jitter) == ["exit@10", "enter@20", "exit@30"])
        // With 25 m: 11 m and 22 m out are still inside; 44 m out is an exit.
        #expect(Self.run(try Self.monitor(MonitorOptions(hysteresis: 25)), jitter) == ["exit@40"])
    }

    @Test func dwellFiresOnceAtTheFirstFixLongEnoughAfterTheEnter() throws {
        let stay = [(0.0, 0.02, 0.005), (100, 0.005, 0.005), (200, 0.005, 0.006), (400, 0.005, 0.007),
                    (500, 0.005, 0.008), (600, 0.02, 0.005), (700, 0.005, 0.005), (800, 0.005, 0.005)]
        #expect(Self.run(try Self.monitor(MonitorOptions(dwell: 300)), stay)
                == ["enter@100", "dwell@400", "exit@600", "enter@700"])
    }

    @Test func crossNeedsBothFixesOutsideAndTheSegmentThrough() throws {
        let pass = [(0.0, 0.005, -0.01), (60, 0.005, 0.02), (120, 0.03, 0.02), (180, 0.03, -0.01)]
        #expect(Self.run(try Self.monitor(MonitorOptions(cross: true)), pass) == ["cross@60"])
        #expect(Self.run(try Self.monitor(MonitorOptions()), pass) == [])
    }

    @Test func aTriggerThatDoesNotRepeatFiresOncePerDevice() throws {
        let back = [(0.0, 0.02, 0.005), (10, 0.005, 0.005), (20, 0.02, 0.005), (30, 0.005, 0.005)]
        #expect(Self.run(try Self.monitor(MonitorOptions(), repeats: false), back) == ["enter@10"])
    }

    @Test func skippedFixesChangeNothingAndAreCounted() throws {
        let monitor = try Self.monitor(MonitorOptions(maxAccuracy: 50))
        #expect(Self.run(monitor, [(0.0, 0.02, 0.005)]) == [])
        #expect(Self.run(monitor, [(10.0, 0.005, 0.005)], accuracy: 80) == [])   // too inaccurate
        #expect(Self.run(monitor, [(5.0, 0.005, 0.005)]) == ["enter@5"])
        #expect(Self.run(monitor, [(3.0, 0.02, 0.005)]) == [])                     // out of order (before 5)
        #expect(Self.run(monitor, [(5.0, 0.02, 0.005)]) == [])                     // same instant as the last used fix
        #expect(Self.run(monitor, [(6.0, 91, 0.005)]) == [])                       // latitude out of range
        #expect(Self.run(monitor, [(7.0, 0.02, 0.005)]) == ["exit@7"])
        #expect(monitor.counters.used == 3)
        #expect(monitor.counters.skipped == [.inaccurate: 1, .outOfOrder: 1, .duplicate: 1, .badValue: 1])
        #expect(monitor.counters.events == [.enter: 1, .exit: 1])
    }
}
