import Foundation
import Testing

@Suite("trigger-eval: the contract's common rules")
struct CommonContractTests {
    @Test func helpListsSubcommandsAndExitsZero() throws {
        let result = try CLIRunner.run(["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: trigger-eval"))
        #expect(result.stderr.isEmpty)
        // The shipped tool: the five commands of the contract, no benchmark, no test child.
        let subcommands = result.stdout.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        let names = subcommands.split(separator: "\n\n").first.map { $0.split(separator: "\n") }?.compactMap { line -> String? in
            let trimmed = line.drop { $0 == " " }
            guard line.hasPrefix("  "), !line.hasPrefix("        "), let name = trimmed.split(separator: " ").first else { return nil }
            return String(name)
        }
        #expect(names ?? [] == ["next", "geofence", "simulate", "run", "ics"])
        #expect(!result.stdout.contains("bench") && !result.stdout.contains("crash"))
    }

    /// `--tz` wins everywhere. Its default follows the contract: `next` takes
    /// `$TZ` (else UTC), while a file's wall times without an offset (a log's CSV
    /// times, a calendar's floating times) are UTC whatever the machine's `TZ`.
    @Test func nextTakesItsZoneFromTZWhileFileTimesStayUTCUnlessTzIsGiven() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let calendar = folder.appendingPathComponent("floating.ics")
        try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20260101T000000Z\r\n"
             + "DTSTART:20260105T090000\r\nSUMMARY:Floating\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").write(to: calendar, atomically: true, encoding: .utf8)
        let log = folder.appendingPathComponent("log.csv")
        try "device,time,lat,lon\nd,2026-01-05 09:00:00,48.8566,2.3522\n".write(to: log, atomically: true, encoding: .utf8)
        let regions = folder.appendingPathComponent("regions.geojson")
        try #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"paris","properties":{"radius":1000},"geometry":{"type":"Point","coordinates":[2.3522,48.8566]}}]}"#
            .write(to: regions, atomically: true, encoding: .utf8)
        let window = ["--from", "2026-01-01T00:00:00Z", "--to", "2026-02-01T00:00:00Z", "-q"]
        // Per command: the answer under TZ=Asia/Tokyo alone, and with --tz given.
        let cases: [(arguments: [String], fromEnvironment: String, tz: [String], given: String)] = [
            (["ics", calendar.path] + window, "2026-01-05T09:00:00+00:00", ["--tz", "Asia/Tokyo"], "2026-01-05T09:00:00+09:00"),
            (["geofence", "--regions", regions.path, "--fixes", log.path, "--initial", "enter", "-q"], "2026-01-05T09:00:00Z",
             ["--tz", "Asia/Tokyo"], "2026-01-05T00:00:00Z"),
            (["next", "--components", "hour=9,minute=0", "--after", "2026-01-04T00:00:00Z"], "2026-01-05T09:00:00+09:00",
             ["--tz", "UTC"], "2026-01-04T09:00:00Z"),
        ]
        for (arguments, expectedFromEnvironment, tz, expectedGiven) in cases {
            let fromEnvironment = try CLIRunner.run(arguments, environment: ["TZ": "Asia/Tokyo"])
            #expect(fromEnvironment.status == 0, "\(arguments): \(fromEnvironment.stderr)")
            #expect(fromEnvironment.stdout.contains(expectedFromEnvironment), "\(arguments): \(fromEnvironment.stdout)")
            let given = try CLIRunner.run(arguments + tz, environment: ["TZ": "Asia/Tokyo"])
            #expect(given.status == 0 && given.stdout.contains(expectedGiven) && given.stdout != fromEnvironment.stdout,
                    "\(arguments): \(given.stdout)")
        }
    }

    @Test func versionPrintsTheLibraryVersion() throws {
        let result = try CLIRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0.1.0")
    }

    @Test func unknownOptionIsAUsageErrorOnOneLine() throws {
        let result = try CLIRunner.run(["--no-such-flag"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
