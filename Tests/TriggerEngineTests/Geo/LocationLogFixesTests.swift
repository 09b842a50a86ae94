import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `LocationLog.forEachFix`, the embedder's reader: on the real logs, the fixes
/// a monitor fed one by one turns into exactly the events `GeofenceRun` writes;
/// bytes read as the same file; bad rows skipped, counted and located.
@Suite("LocationLog: fixes as values, the geofence run's events")
struct LocationLogFixesTests {
    static let folder = RegionMonitorDifferentialTests.fixture("paris.geojson").deletingLastPathComponent()
    static let logs: [(name: String, columns: LocationLogColumns)] = [
        ("liverpool-bus-route14.csv", try! LocationLogColumns(mapping: "device=vehicle_id,time=timestamp,lat=latitude,lon=longitude")),
        ("around-visnjan-with-car.gpx", LocationLogColumns()),
        ("cerknicko-jezero.gpx", LocationLogColumns()),
        ("korita-zbevnica.gpx", LocationLogColumns()),
    ]

    /// Circles along each log's own track, so that its fixes enter and leave them.
    static func regions(along fixes: [LocationFix], seed: UInt64) throws -> [MonitoredRegion] {
        var random = SplitMix64(seed: seed)
        return try (0..<40).map { index in
            let centre = fixes[Int(random.next() % UInt64(fixes.count))].coordinate
            return MonitoredRegion(identifier: "c\(index)",
                                   region: try Region.circle(center: centre, radius: random.nextDouble(in: 50...800)))
        }
    }

    @Test func aMonitorFedTheFixesGivesTheEventsOfTheRun() throws {
        for (seed, log) in Self.logs.enumerated() {
            let path = Self.folder.appendingPathComponent(log.name).path
            let (fixes, summary) = try LocationLog.fixes(inFileAt: path, columns: log.columns)
            #expect(fixes.count > 100 && summary.fixes == fixes.count, "\(log.name)")
            let regions = try Self.regions(along: fixes, seed: UInt64(seed))
            let monitor = try RegionMonitor(regions: regions)
            let expected = fixes.flatMap { monitor.ingest($0) }
            #expect(expected.count > 10, "\(log.name): \(expected.count) events")
            let run = try GeofenceRun(regions: regions, options: MonitorOptions(),
                                      source: .init(path: path, format: LocationLogFormat(pathExtensionOf: path)!, columns: log.columns))
            var events: [RegionEvent] = []
            let runSummary = try run.run(events: { events += $0 })
            #expect(events == expected, "\(log.name)")
            #expect(runSummary.rowsRead == summary.fixes + summary.badRows, "\(log.name)")
            // The same bytes from memory: the same fixes.
            let fromData = try LocationLog.forEachFix(in: try Data(contentsOf: URL(fileURLWithPath: path)),
                                                      format: LocationLogFormat(pathExtensionOf: path)!, name: log.name,
                                                      columns: log.columns) { _ in }
            #expect(fromData.fixes == summary.fixes && fromData.badRows == summary.badRows, "\(log.name)")
            #expect(fromData.firstBadRow?.message == summary.firstBadRow?.message, "\(log.name)")
            #expect(fromData.firstBadRow?.location == summary.firstBadRow?.location.map { InputLocation(file: log.name, line: $0.line) })
        }
    }

    @Test func badRowsAreSkippedCountedAndLocatedUnderTheGivenName() throws {
        let csv = "device,time,lat,lon,accuracy\na,2026-01-05T09:00:00Z,48.85,2.35,5\nb,not a time,48.85,2.35,\n"
            + "a,2026-01-05T09:01:00Z,48.86,2.36,\nc,2026-01-05T09:02:00Z,91,2.35,\n"
        var seen: [LocationFix] = []
        let summary = try LocationLog.forEachFix(in: Data(csv.utf8), format: .csv, name: "upload.csv") { seen.append($0) }
        // A latitude out of range is read as it is: judging values is the monitor's (it skips them).
        #expect(seen.map(\.device) == ["a", "a", "c"])
        #expect(seen.first?.accuracy == 5 && seen[1].accuracy == nil && seen.last?.coordinate.latitude == 91)
        #expect(seen.first?.time == Date(timeIntervalSince1970: 1_767_603_600))
        #expect(summary.fixes == 3 && summary.badRows == 1)
        #expect(summary.firstBadRow?.location == InputLocation(file: "upload.csv", line: 3), "\(String(describing: summary.firstBadRow))")
        // A header without the needed columns cannot be read on: an error naming the given name.
        let error = expectInputDataError {
            try LocationLog.forEachFix(in: Data("x,y\n1,2\n".utf8), format: .csv, name: "upload.csv") { _ in }
        }
        #expect(error?.location?.file == "upload.csv", "\(String(describing: error))")
        expectInputDataError { _ = try LocationLog.fixes(inFileAt: "log.unknown") }
    }
}
