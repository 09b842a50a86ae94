import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The center's tiles (`LocationRequests`) against the plain answer: one
/// `RegionMonitor` over every region of a set of options. Seeded random
/// circles and WKT squares, small ones (one tile each) and wide ones (the wide
/// tile), over random walks whose steps cross cells; two option sets at once,
/// one with hysteresis, dwell and `cross` (the segment path). The events of
/// each fix must be the same, as multisets (tiles order a fix's events tile
/// by tile).
@Suite("Center location tiles: the same events as one monitor over every region")
struct LocationTilesDifferentialTests {
    static let plain = MonitorOptions()
    static let busy = MonitorOptions(initial: .enter, hysteresis: 40, dwell: 90, cross: true)

    @Test(arguments: [1, 2, 3] as [UInt64])
    func tilesGiveTheEventsOfOneMonitor(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        // Around Berlin: 0.3° × 0.2°, six by four cells.
        let west = 13.2, south = 52.4
        var regions: [MonitoredRegion] = []
        for index in 0..<80 {
            let center = Coordinate(latitude: south + Double.random(in: 0..<0.2, using: &random),
                                    longitude: west + Double.random(in: 0..<0.3, using: &random))
            // One in eight wider than a cell (the wide tile).
            let radius = index % 8 == 0 ? Double.random(in: 3_000...6_000, using: &random)
                                         : Double.random(in: 80...1_500, using: &random)
            let region: Region
            if index % 3 == 0 {
                let half = radius / 111_000
                let (x, y) = (center.longitude, center.latitude)
                region = try Region(wkt: "POLYGON((\(x - half) \(y - half), \(x + half) \(y - half), \(x + half) \(y + half), \(x - half) \(y + half), \(x - half) \(y - half)))")
            } else {
                region = try Region.circle(center: center, radius: radius)
            }
            let options = index % 2 == 0 ? Self.plain : Self.busy
            regions.append(MonitoredRegion(identifier: "r\(index)",
                                           trigger: LocationTrigger(region: region, repeats: true, monitorOptions: options)))
        }
        var tiles = LocationRequests()
        for region in regions {
            tiles.insert(identifier: region.identifier, trigger: region.trigger, defaultOptions: Self.plain)
        }
        let reference = try [Self.plain, Self.busy].map { options in
            try RegionMonitor(regions: regions.filter { $0.trigger.monitorOptions == options }, options: options)
        }
        // Five devices walking with steps of 100 m to 2 km, a fix every 30 s, interleaved.
        var positions = (0..<5).map { _ in
            Coordinate(latitude: south + Double.random(in: 0..<0.2, using: &random),
                       longitude: west + Double.random(in: 0..<0.3, using: &random))
        }
        var compared = 0, events = 0
        for step in 0..<600 {
            let device = step % positions.count
            let distance = Double.random(in: 100...2_000, using: &random) / 111_000
            let angle = Double.random(in: 0..<(2 * .pi), using: &random)
            positions[device].latitude = min(max(positions[device].latitude + distance * sin(angle), south - 0.02), south + 0.22)
            positions[device].longitude = min(max(positions[device].longitude + distance * cos(angle) * 1.6, west - 0.02), west + 0.32)
            let fix = LocationFix(device: "d\(device)", time: Date(timeIntervalSince1970: 1_767_225_600 + Double(step) * 30),
                                  coordinate: positions[device])
            let expected = reference.flatMap { $0.ingest(fix) }
            let got = try tiles.events(for: fix)
            #expect(Self.sorted(got) == Self.sorted(expected), "fix \(step) of d\(device) at \(fix.coordinate)")
            compared += 1
            events += expected.count
        }
        #expect(compared == 600)
        // The walk must exercise the monitors, not just agree on silence.
        #expect(events > 100, "only \(events) events")
    }

    static func sorted(_ events: [RegionEvent]) -> [String] {
        events.map { "\($0.region) \($0.kind.rawValue) \($0.device)" }.sorted()
    }
}
