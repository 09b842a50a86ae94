import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

@Suite("Location log readers: real CSV and GPX files, times, bad input")
struct LocationLogReaderTests {
    static func readAll(_ path: String, _ format: LocationLogFormat, columns: LocationLogColumns = LocationLogColumns(),
                        zone: ZoneRules = .utc) throws -> (rows: [FixBatch.Row], problems: [Int: String], names: [String]) {
        let reader = try LocationLog.reader(path: path, format: format, columns: columns, zone: zone)
        var devices = DeviceTable()
        var rows: [FixBatch.Row] = []
        var problems: [Int: String] = [:]
        var more = true
        while more {
            var batch = FixBatch()
            // Small batches, so that rows cross batch boundaries.
            more = try reader.read(into: &batch, devices: &devices, limit: 100)
            for (position, problem) in batch.problems { problems[Int(batch.rows[position].line)] = problem }
            rows += batch.rows
        }
        return (rows, problems, devices.names)
    }

    static func temporaryFile(_ name: String, _ text: String) throws -> String {
        let url = ScratchFolder.path("geo-\(UUID())-\(name)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func epoch(_ text: String) -> Double { RFC3339.date(from: text)!.timeIntervalSince1970 }

    @Test func liverpoolBusLogReadsEveryRowThroughMappedColumns() throws {
        let path = RegionMonitorDifferentialTests.fixture("liverpool-bus-route14.csv").path
        let columns = try LocationLogColumns(mapping: "device=vehicle_id,time=timestamp,lat=latitude,lon=longitude")
        let log = try Self.readAll(path, .csv, columns: columns)
        #expect(log.rows.count == 1533)
        #expect(log.problems.isEmpty)
        #expect(log.names == ["4716", "4720", "4722", "4733", "4803", "4836", "4841", "4842"].filter { log.names.contains($0) })
        #expect(Set(log.names).count == 8)
        // Line 2: 23811684,"4716","1091","2026-01-26 15:57:02",53.44451,-2.925173,,…
        let first = log.rows[0]
        #expect(log.names[Int(first.device)] == "4716")
        #expect(first.line == 2)
        #expect(first.time == Self.epoch("2026-01-26T15:57:02Z"))
        #expect(first.lat == 53.44451 && first.lon == -2.925173)
        #expect(first.accuracy.isNaN)
        // The last line, 1534: 23917187,"4842","1092","2026-01-26 18:18:55",…
        let last = log.rows[1532]
        #expect(last.line == 1534)
        #expect(last.time == Self.epoch("2026-01-26T18:18:55Z"))
    }

    @Test func gpxTracksReadEveryTimedPointWithTheTrackNameAsDevice() throws {
        let cerknica = try Self.readAll(RegionMonitorDifferentialTests.fixture("cerknicko-jezero.gpx").path, .gpx)
        #expect(cerknica.rows.count == 296)
        #expect(cerknica.problems.isEmpty)
        #expect(cerknica.names == ["ACTIVE LOG #2", "ACTIVE LOG #3", "ACTIVE LOG #4", "ACTIVE LOG #5",
                                   "ACTIVE LOG #6", "ACTIVE LOG #7", "ACTIVE LOG #8"])
        // The first track point: lat="45.772175035" lon="14.357659249", 2010-08-05T14:23:59Z.
        #expect(cerknica.rows[0].lat == 45.772175035 && cerknica.rows[0].lon == 14.357659249)
        #expect(cerknica.rows[0].time == Self.epoch("2010-08-05T14:23:59Z"))
        #expect(cerknica.rows[295].line == 1284)

        // 871 points; the 358 of track "03-OCT-10 #2" carry no <time>.
        let korita = try Self.readAll(RegionMonitorDifferentialTests.fixture("korita-zbevnica.gpx").path, .gpx)
        #expect(korita.rows.count == 871)
        #expect(korita.problems.count == 358)
        #expect(korita.problems[33] == "<trkpt> has no <time>")
        #expect(korita.names == ["ACTIVE LOG", "ACTIVE LOG #2"])

        // The whole file on one line.
        let visnjan = try Self.readAll(RegionMonitorDifferentialTests.fixture("around-visnjan-with-car.gpx").path, .gpx)
        #expect(visnjan.rows.count == 104)
        #expect(visnjan.names == ["2020-12-18 07:24:29"])
        #expect(visnjan.rows.allSatisfy { $0.line == 1 })
        #expect(visnjan.rows[0].lat == 45.2735188510 && visnjan.rows[0].time == Self.epoch("2020-12-18T06:15:50Z"))
    }

    @Test func truncatedGPXIsRefusedWithTheLineWhereTheOpenElementBegan() throws {
        let text = try String(contentsOf: RegionMonitorDifferentialTests.fixture("cerknicko-jezero.gpx"), encoding: .utf8)
        // Cut inside the second track's points, in the middle of a <trkpt> element.
        let cut = text.range(of: "<trkpt lat=\"45.772089791\"")!.upperBound
        let path = try Self.temporaryFile("cut.gpx", String(text[..<cut]) + " lon=\"14.35\">\n  <ele>550</ele>\n")
        let error = #expect(throws: DataError.self) { try Self.readAll(path, .gpx) }
        #expect(error?.location?.file == path)
        #expect(error?.message.contains("ends inside") == true, "\(String(describing: error))")
        #expect(error?.message.contains("truncated") == true)

        let noRoot = try Self.temporaryFile("empty.gpx", "<?xml version=\"1.0\"?>\n")
        #expect(throws: DataError.self) { try Self.readAll(noRoot, .gpx) }
    }

    @Test func longGPXStreamsThroughTheScannerWindowWithLineNumbersIntact() throws {
        // 30,000 seeded points (about 2.4 MB, far past the scanner's 64 KiB window) with comments and CDATA
        // that span lines between them: every point, value and line number must come through as written.
        var random = SplitMix64(seed: 11)
        var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n<trk><name>long</name><trkseg>\n"
        var line = 4
        var expected: [(lat: Double, lon: Double, time: Double, line: Int)] = []
        for point in 0..<30_000 {
            let lat = Double(random.next() % 1_800_000) / 10_000 - 90, lon = Double(random.next() % 3_600_000) / 10_000 - 180
            let time = 1_700_000_000 + point * 5
            if point % 1_000 == 999 {
                text += "<!-- a comment\nover two lines -->\n"
                line += 2
            }
            expected.append((lat, lon, Double(time), line))
            text += "<trkpt lat=\"\(lat)\" lon=\"\(lon)\">\n<time>\(RFC3339.string(epochSeconds: time))</time><desc><![CDATA[<x>\n]]></desc>\n</trkpt>\n"
            line += 4
        }
        text += "</trkseg></trk>\n</gpx>\n"
        let read = try Self.readAll(try Self.temporaryFile("long.gpx", text), .gpx)
        #expect(read.problems.isEmpty)
        #expect(read.rows.count == expected.count)
        let mismatches = zip(read.rows, expected).filter { row, want in
            row.lat != want.lat || row.lon != want.lon || row.time != want.time || Int(row.line) != want.line
        }
        #expect(mismatches.isEmpty, "first: \(String(describing: mismatches.first))")
    }

    @Test func csvTimesInEveryAcceptedFormAndZone() throws {
        let path = try Self.temporaryFile("times.csv", #"""
            device,time,lat,lon,accuracy
            a,2026-11-22T09:30:00Z,1,2,5
            a,2026-11-22T10:30:00.25+01:00,1,2,
            "b ""quoted""",2026-11-22 09:30:01.5,1,2,7.5
            b,1795339800,1,2,
            b,1795339800.75,1,2,

            """#)
        let utc = try Self.readAll(path, .csv)
        #expect(utc.problems.isEmpty)
        // 2026-11-22T09:30:00Z is 1,795,339,800 s after the epoch.
        #expect(utc.rows.map(\.time) == [1_795_339_800, 1_795_339_800.25, 1_795_339_801.5, 1_795_339_800, 1_795_339_800.75])
        #expect(utc.names == ["a", "b \"quoted\"", "b"])
        #expect(utc.rows[0].accuracy == 5 && utc.rows[1].accuracy.isNaN && utc.rows[2].accuracy == 7.5)
        // A wall time without an offset is in --tz: 09:30:01.5 in Berlin (UTC+1 in November) is 08:30:01.5Z.
        let berlin = try Self.readAll(path, .csv, zone: ZoneRules.named("Europe/Berlin"))
        #expect(berlin.rows[2].time == 1_795_339_801.5 - 3600)
        #expect(berlin.rows[0].time == 1_795_339_800)
    }

    @Test func garbageRowsAreKeptInPlaceWithTheirProblem() throws {
        let path = try Self.temporaryFile("garbage.csv", """
            device,time,lat,lon
            a,2026-11-22T09:30:00Z,48.85,2.35
            a,yesterday,48.85,2.35
            a,2026-11-22T09:31:00Z,north,2.35
            a,2026-11-22T09:32:00Z
            "a,2026-11-22T09:33:00Z,48.85,2.35
            a,2026-02-30T09:34:00Z,48.85,2.35
            a,2026-11-22T09:35:00Z,48.86,2.36
            """)
        let log = try Self.readAll(path, .csv)
        #expect(log.rows.count == 7)
        #expect(log.rows.map { $0.device >= 0 } == [true, false, false, false, false, false, true])
        #expect(log.problems[3] == "time 'yesterday' is not RFC 3339, YYYY-MM-DD HH:MM:SS or epoch seconds")
        #expect(log.problems[4] == "lat 'north' is not a number")
        #expect(log.problems[5] == "the row has 2 fields; the header needs at least 4")
        #expect(log.problems[6] == "a quoted field is not closed on this line")
        #expect(log.problems[7]?.hasPrefix("time '2026-02-30T09:34:00Z'") == true)
    }

    /// Issue 14: an epoch of 1e20 once reached a Double-to-Int conversion and trapped.
    @Test func instantsOutsideYearsOneToNineThousandNineHundredNinetyNineAreBadRowsInEveryFormat() throws {
        let csv = try Self.temporaryFile("far.csv", """
            device,time,lat,lon
            a,1e20,1,2
            a,1e308,1,2
            a,-1e20,1,2
            a,-62135596801,1,2
            a,-62135596800,1,2
            a,253402300799.5,1,2
            a,253402300800,1,2
            a,0000-12-31T23:00:00Z,1,2
            a,0001-01-01T00:30:00+01:00,1,2
            a,0001-01-01T00:00:00Z,1,2
            a,9999-12-31T23:59:59Z,1,2
            a,9999-12-31T23:00:00-05:00,1,2
            """)
        let log = try Self.readAll(csv, .csv)
        #expect(log.rows.map { $0.device >= 0 } == [false, false, false, false, true, true, false, false, false, true, true, false])
        #expect(log.problems[2] == "time '1e20' is outside years 1–9999 (RFC 3339's range)")
        #expect(log.problems[4] == "time '-1e20' is outside years 1–9999 (RFC 3339's range)")
        #expect(log.problems[13] == "time '9999-12-31T23:00:00-05:00' is outside years 1–9999 (RFC 3339's range)")
        #expect(log.rows[4].time == -62_135_596_800 && log.rows[10].time == 253_402_300_799)

        let ndjson = try Self.temporaryFile("far.ndjson", """
            {"device":"a","time":1e20,"lat":1,"lon":2}
            {"device":"a","time":"0000-06-01T00:00:00Z","lat":1,"lon":2}
            {"device":"a","time":-62135596800,"lat":1,"lon":2}
            """)
        let lines = try Self.readAll(ndjson, .ndjson)
        #expect(lines.rows.map { $0.device >= 0 } == [false, false, true])
        #expect(lines.problems[1]?.hasPrefix("\"time\" '") == true && lines.problems[1]?.hasSuffix("is outside years 1–9999 (RFC 3339's range)") == true)
        #expect(lines.problems[2] == "\"time\" '0000-06-01T00:00:00Z' is outside years 1–9999 (RFC 3339's range)")

        let gpx = try Self.temporaryFile("far.gpx", """
            <gpx><trk><name>t</name><trkseg>
            <trkpt lat="1" lon="2"><time>0000-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="1" lon="2"><time>2026-01-01T00:00:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """)
        let track = try Self.readAll(gpx, .gpx)
        #expect(track.rows.map { $0.device >= 0 } == [false, true])
        #expect(track.problems[2] == "<time> '0000-01-01T00:00:00Z' is outside years 1–9999 (RFC 3339's range)")
    }

    @Test func wrongHeaderAndUnknownMappedFieldAreRefused() throws {
        let path = try Self.temporaryFile("header.csv", "id,when,latitude,longitude\n1,2026-11-22T09:30:00Z,1,2\n")
        let error = #expect(throws: DataError.self) { try Self.readAll(path, .csv) }
        #expect(error?.location == InputLocation(file: path, line: 1))
        #expect(error?.message.hasPrefix("the header has no column 'device' for the fix's device; it has: id, when, latitude, longitude") == true)
        let mapped = try LocationLogColumns(mapping: "device=id,time=when,lat=latitude,lon=longitude")
        #expect(try Self.readAll(path, .csv, columns: mapped).rows.count == 1)
        let missing = try LocationLogColumns(mapping: "device=id,time=when,lat=latitude,lon=longitude,accuracy=hdop")
        let missingError = #expect(throws: DataError.self) { try Self.readAll(path, .csv, columns: missing) }
        #expect(missingError?.message.contains("no column 'hdop' (mapped by --columns accuracy=hdop)") == true)
        let unknown = #expect(throws: DataError.self) { try LocationLogColumns(mapping: "speed=kmh") }
        #expect(unknown?.message == "--columns: unknown field 'speed'; the fields are device, time, lat, lon, accuracy")
    }

    @Test func ndjsonRowsWithStringOrNumberDevicesAndTimes() throws {
        let path = try Self.temporaryFile("log.ndjson", """
            {"device":"a","time":"2026-11-22T09:30:00Z","lat":1.5,"lon":2.5,"accuracy":4}
            {"device":17,"time":1795339860,"lat":-1,"lon":-2}

            {"device":"a","time":"soon","lat":1,"lon":2}
            [1,2,3]
            """)
        let log = try Self.readAll(path, .ndjson)
        #expect(log.names == ["a", "17"])
        #expect(log.rows.count == 4)
        #expect(log.rows[0].time == 1_795_339_800 && log.rows[0].accuracy == 4 && log.rows[0].lat == 1.5)
        #expect(log.rows[1].time == 1_795_339_860 && log.rows[1].lon == -2)
        #expect(log.problems[4] == "\"time\" must be an RFC 3339 string or epoch seconds")
        #expect(log.problems[5] == "not a JSON object")
    }

    @Test func decimalFieldsParseExactlyLikeTheStandardLibrary() {
        var random = SplitMix64(seed: 5)
        for _ in 0..<20_000 {
            let value = random.nextDouble(in: -180...180)
            let digits = Int(random.next() % 12)
            let text = String(format: "%.\(digits)f", value)
            var bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeMutableBufferPointer { FieldParsing.number(UnsafeBufferPointer($0)) }
            #expect(parsed == Double(text), "\(text)")
        }
        for text in ["1e3", "-0.5E-2", "+7", "12345678901234567890.5"] {
            var bytes = Array(text.utf8)
            #expect(bytes.withUnsafeMutableBufferPointer { FieldParsing.number(UnsafeBufferPointer($0)) } == Double(text))
        }
        for text in ["", "-", "1.2.3", "nan", "inf", "0x10", " 1"] {
            var bytes = Array(text.utf8)
            #expect(bytes.withUnsafeMutableBufferPointer { FieldParsing.number(UnsafeBufferPointer($0)) } == nil, "\(text)")
        }
    }
}
