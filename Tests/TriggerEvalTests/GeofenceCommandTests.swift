import Foundation
import Testing
@_spi(Internals) import TriggerEngine

@Suite("trigger-eval geofence: real logs end to end, formats, errors and exit codes")
struct GeofenceCommandTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = root.appendingPathComponent("Tests/TriggerEngineTests/Fixtures/geo")
    static let regions = root.appendingPathComponent("Examples/geo/regions.geojson").path
    static let bus = fixtures.appendingPathComponent("liverpool-bus-route14.csv").path
    static let busColumns = "device=vehicle_id,time=timestamp,lat=latitude,lon=longitude"

    static func write(_ name: String, _ text: String, in folder: URL) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// The contract's NDJSON line for an event, written here from the library's values.
    static func line(_ event: RegionEvent) -> String {
        #"{"device":"\#(event.device)","region":"\#(event.region)","event":"\#(event.kind.rawValue)","time":"\#(RFC3339.string(from: event.time))","lat":\#(event.coordinate.latitude),"lon":\#(event.coordinate.longitude)}"#
    }

    @Test func liverpoolBusEventsAreTheLibraryMonitorsEvents() throws {
        let options = ["--initial", "enter", "--hysteresis", "20", "--dwell", "120", "--cross"]
        let result = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", Self.bus,
                                        "--columns", Self.busColumns] + options)
        #expect(result.status == 0, "\(result.stderr)")
        // The same log through RegionMonitor directly, the CSV split by hand.
        let monitor = try RegionMonitor(regions: MonitoredRegion.load(featureCollectionAt: Self.regions),
                                        options: MonitorOptions(initial: .enter, hysteresis: 20, dwell: 120, cross: true))
        var expected: [String] = []
        let rows = try String(contentsOfFile: Self.bus, encoding: .utf8).split(separator: "\n").dropFirst()
        for row in rows {
            let fields = row.split(separator: ",", omittingEmptySubsequences: false).map { $0.replacingOccurrences(of: "\"", with: "") }
            let fix = LocationFix(device: fields[1], time: RFC3339.date(from: fields[3] + "Z")!,
                                  coordinate: Coordinate(latitude: Double(fields[4])!, longitude: Double(fields[5])!))
            expected += monitor.ingest(fix).map(Self.line)
        }
        #expect(expected.count > 40)
        #expect(result.stdout.split(separator: "\n").map(String.init) == expected)
        #expect(result.stderr.hasPrefix("geofence: 1533 fixes read from 8 devices, 1533 used; events: "))
        #expect(result.stderr.contains("\(monitor.counters.events[.cross] ?? 0) cross"))
    }

    @Test func csvOutputCarriesTheSameEventsUnderAHeader() throws {
        let ndjson = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", Self.bus, "--columns", Self.busColumns, "-q"])
        let csv = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", Self.bus, "--columns", Self.busColumns,
                                     "--format", "csv", "--threads", "1", "-q"])
        #expect(csv.status == 0 && csv.stderr.isEmpty && ndjson.stderr.isEmpty)
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first == "device,region,event,time,lat,lon")
        #expect(lines.count == ndjson.stdout.split(separator: "\n").count + 1)
        #expect(lines[1] == "4716,north-box,enter,2026-01-26T15:57:24Z,53.445026,-2.923543")
    }

    @Test func gpxTrackAndNDJSONFromStandardInput() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A 50 m circle around the first point of the Višnjan drive (45.2735188510, 13.7142099626).
        let zone = try Self.write("zone.geojson", #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"start","properties":{"radius":50},"geometry":{"type":"Point","coordinates":[13.7142099626,45.2735188510]}}]}"#, in: folder)
        let gpx = try CLIRunner.run(["geofence", "--regions", zone, "--initial", "enter",
                                     "--fixes", Self.fixtures.appendingPathComponent("around-visnjan-with-car.gpx").path])
        #expect(gpx.status == 0, "\(gpx.stderr)")
        let events = gpx.stdout.split(separator: "\n")
        #expect(events.first == #"{"device":"2020-12-18 07:24:29","region":"start","event":"enter","time":"2020-12-18T06:15:50Z","lat":45.273518851,"lon":13.7142099626}"#)
        // The drive is a round trip: it leaves the circle at 06:16:55, about 58 m from its
        // centre (45.2732143365, 13.7135986704), and comes back at 06:22:36.
        #expect(events.count == 3, "\(events)")
        #expect(events.dropFirst().first?.contains(#""event":"exit","time":"2020-12-18T06:16:55Z""#) == true)
        #expect(events.last?.contains(#""event":"enter","time":"2020-12-18T06:22:36Z""#) == true)
        #expect(gpx.stderr.hasPrefix("geofence: 104 fixes read from 1 devices, 104 used;"))

        let stdin = try CLIRunner.run(["geofence", "--regions", zone, "--fixes", "-", "--fixes-format", "ndjson", "--initial", "enter"],
                                      stdin: #"{"device":"p","time":"2026-11-22T09:30:00.5Z","lat":45.27352,"lon":13.71421}"# + "\n")
        #expect(stdin.status == 0)
        #expect(stdin.stdout == #"{"device":"p","region":"start","event":"enter","time":"2026-11-22T09:30:00.5Z","lat":45.27352,"lon":13.71421}"# + "\n")
    }

    @Test func badInputGetsItsOwnErrorAndExitCode() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let header = try Self.write("header.csv", "id,when,lat,lon\n1,2026-11-22T09:30:00Z,1,2\n", in: folder)
        let wrong = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", header])
        #expect(wrong.status == 65)
        #expect(wrong.stderr.hasPrefix("error: \(header):1: the header has no column 'device' for the fix's device; it has: id, when, lat, lon"))
        #expect(wrong.stdout.isEmpty)

        let unknown = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", header, "--columns", "speed=kmh"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown field 'speed'"))

        let text = try String(contentsOf: Self.fixtures.appendingPathComponent("korita-zbevnica.gpx"), encoding: .utf8)
        let truncated = try Self.write("cut.gpx", String(text.prefix(40_000)), in: folder)
        let cut = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", truncated])
        #expect(cut.status == 65)
        #expect(cut.stderr.contains("error: \(truncated):"))
        #expect(cut.stderr.contains("truncated?"))

        let bowTie = try Self.write("bow.geojson", #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"bow"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[2,2],[2,0],[0,2],[0,0]]]}}]}"#, in: folder)
        let invalid = try CLIRunner.run(["geofence", "--regions", bowTie, "--fixes", Self.bus, "--columns", Self.busColumns])
        #expect(invalid.status == 65)
        #expect(invalid.stderr.hasPrefix("error: \(bowTie): feature 'bow': invalid polygon: Self-intersection"))
        let repaired = try CLIRunner.run(["geofence", "--regions", bowTie, "--repair", "--fixes", Self.bus, "--columns", Self.busColumns])
        #expect(repaired.status == 0)

        let missing = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", folder.appendingPathComponent("none.csv").path])
        #expect(missing.status == 66)
        let noFormat = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", "log.txt"])
        #expect(noFormat.status == 64)
        #expect(noFormat.stderr.contains("--fixes-format"))
        let negative = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", Self.bus, "--hysteresis", "-3"])
        #expect(negative.status == 64)
    }

    @Test func garbageRowsAreSkippedAndCountedOrFatalWithStrict() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = try Self.write("log.csv", """
            device,time,lat,lon
            a,2026-01-26T15:57:00Z,53.44451,-2.925173
            a,not a time,53.44451,-2.925173
            a,2026-01-26T15:56:00Z,53.44451,-2.925173
            a,2026-01-26T15:58:00Z,95,-2.925173
            a,2026-01-26T15:59:00Z,53.40,-2.98
            """, in: folder)
        let lenient = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", log])
        #expect(lenient.status == 0)
        #expect(lenient.stderr.contains("5 fixes read from 1 devices, 2 used, skipped: 1 bad row, 1 bad value, 1 out of order"))
        #expect(lenient.stderr.contains("warning: bad rows were skipped; the first: \(log):3: time 'not a time' is not RFC 3339"))

        let output = folder.appendingPathComponent("events.ndjson").path
        let strict = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", log, "--strict", "-o", output])
        #expect(strict.status == 65)
        #expect(strict.stderr == "error: \(log):3: time 'not a time' is not RFC 3339, YYYY-MM-DD HH:MM:SS or epoch seconds\n")
        #expect(!FileManager.default.fileExists(atPath: output), "no partial output file")
        let contents = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!contents.contains { $0.hasSuffix(".partial") })

        let ordered = try Self.write("order.csv", """
            device,time,lat,lon
            a,2026-01-26T15:57:00Z,53.44451,-2.925173
            a,2026-01-26T15:56:00Z,53.44451,-2.925173
            """, in: folder)
        let order = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", ordered, "--strict"])
        #expect(order.status == 65)
        #expect(order.stderr.hasPrefix("error: \(ordered):3: fix at 2026-01-26T15:56:00Z is older than the device's previous fix"))
    }

    /// Issue 14: a fix at epoch 1e20 that made an event, or an out-of-order fix at
    /// -1e20 under --strict, trapped in a Double-to-Int conversion (SIGILL).
    @Test func instantsBeyondYearNineThousandNineHundredNinetyNineAreBadRowsNotTraps() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // (53.44451, -2.925173) is the centre of the example region first-stop: with --initial enter, an enter.
        let far = try Self.write("far.csv", """
            device,time,lat,lon
            a,1e20,53.44451,-2.925173
            b,1e308,53.44451,-2.925173
            c,1795339800,53.44451,-2.925173
            """, in: folder)
        let lenient = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", far, "--initial", "enter"])
        #expect(lenient.status == 0, "\(lenient.stderr)")
        #expect(lenient.stderr.contains("3 fixes read from 3 devices, 1 used, skipped: 2 bad rows"))
        #expect(lenient.stderr.contains("the first: \(far):2: time '1e20' is outside years 1–9999"))
        #expect(lenient.stdout.split(separator: "\n").allSatisfy { $0.contains(#""device":"c""#) })
        #expect(!lenient.stdout.isEmpty)

        let back = try Self.write("back.csv", """
            device,time,lat,lon
            a,1795339800,53.44451,-2.925173
            a,-1e20,53.44451,-2.925173
            """, in: folder)
        let strict = try CLIRunner.run(["geofence", "--regions", Self.regions, "--fixes", back, "--strict"])
        #expect(strict.status == 65)
        #expect(strict.stderr == "error: \(back):3: time '-1e20' is outside years 1–9999 (RFC 3339's range)\n")
    }

    /// A log on a pipe, written as it goes (`tail -f log.csv | trigger-eval
    /// geofence --fixes -`): each fix's event comes out before the next fix is
    /// written, CSV and NDJSON, on one thread and on two. Before, events waited for a batch of
    /// 65,536 fixes or the end of the log.
    @Test(arguments: ["1", "2"], ["csv", "ndjson"])
    func aLogWrittenAsItGoesGetsItsEventsAsItGoes(threads: String, format: String) throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let zone = try Self.write("zone.geojson", #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"square","properties":{"radius":100},"geometry":{"type":"Point","coordinates":[2.35,48.85]}}]}"#, in: folder)
        let process = try LiveProcess(["geofence", "--regions", zone, "--fixes", "-", "--fixes-format", format, "--threads", threads])
        if format == "csv" { process.send(["device,time,lat,lon"]) }
        // Outside, inside (enter), outside (exit), inside (enter): one event a fix from the second on.
        let fixes = [("11:00:00", 48.86), ("11:01:00", 48.85), ("11:02:00", 48.86), ("11:03:00", 48.8501)]
        for (sent, fix) in fixes.enumerated() {
            process.send([format == "csv" ? "bus,2026-11-18T\(fix.0)Z,\(fix.1),2.35"
                                          : #"{"device":"bus","time":"2026-11-18T\#(fix.0)Z","lat":\#(fix.1),"lon":2.35}"#])
            if sent == 0 { continue }
            let answered = process.wait(seconds: 10) { $0.count == sent }
            #expect(answered, "no event for fix \(sent + 1) while the log stays open")
            if !answered { break }
        }
        process.closeInput()
        #expect(try process.exitStatus() == 0, "\(process.standardError)")
        #expect(process.output.map { $0.contains(#""event":"enter""#) } == [true, false, true])
        #expect(process.output.map { $0.contains(#""event":"exit""#) } == [false, true, false])
        #expect(process.output.allSatisfy { $0.contains(#""device":"bus","region":"square""#) })
    }
}
