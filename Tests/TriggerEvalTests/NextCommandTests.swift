import Foundation
import Testing

/// `trigger-eval next`: answers against Foundation-independent literal
/// instants, and the issue 14 inputs that once trapped or hung.
@Suite("trigger-eval next: fires, bounds, errors")
struct NextCommandTests {
    @Test func dailyComponentsInANamedZoneCarryTheZonesOffsetAcrossDST() throws {
        // New York leaves daylight time on 2026-11-01: 07:00 is 11:00Z before, 12:00Z after.
        let result = try CLIRunner.run(["next", "--components", "hour=7,minute=0", "--tz", "America/New_York",
                                        "--after", "2026-10-30T12:00:00Z", "--count", "4"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n") == ["2026-10-31T07:00:00-04:00", "2026-11-01T07:00:00-05:00",
                                                         "2026-11-02T07:00:00-05:00", "2026-11-03T07:00:00-05:00"])
    }

    @Test func aRepeatingIntervalPastYear9999EndsInsteadOfHanging() throws {
        let result = try CLIRunner.run(["next", "--interval", "100000000000", "--repeats", "--count", "5",
                                        "--after", "2026-01-01T00:00:00Z"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n") == ["5194-11-16T09:46:40Z", "8363-10-01T19:33:20Z"])
    }

    /// Issue 14, findings 3 and 4: `--interval 1e300` trapped in RFC 3339
    /// formatting, `--interval 1e308 --repeats --count 2` hung.
    @Test(arguments: [["--interval", "1e300"], ["--interval", "1e308", "--repeats", "--count", "2"],
                      ["--interval", "1e13"]])
    func anIntervalLongerThanTheRangeIsBadInput(arguments: [String]) throws {
        let result = try CLIRunner.run(["next"] + arguments + ["--after", "2026-01-01T00:00:00Z"])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: time interval "))
        #expect(result.stderr.contains("is longer than years 1–9999"))
    }

    @Test func batchLinesOutsideTheRangeAreErrorsNamingTheLineAndTheRestIsAnswered() throws {
        let lines = """
            {"interval":6e66}
            {"components":{"yearForWeekOfYear":20046}}
            {"components":{"hour":7},"tz":"UTC","after":"2026-01-01T00:00:00Z"}
            {"interval":60,"after":"0000-06-01T00:00:00Z"}

            """
        let result = try CLIRunner.run(["next", "--batch", "-"], stdin: lines)
        #expect(result.status == 65)
        let out = result.stdout.split(separator: "\n").map(String.init)
        #expect(out.count == 4)
        #expect(out[0].contains("line 1: time interval 6e+66 s is longer than years 1–9999"))
        #expect(out[1] == #"{"fires":[]}"#)
        #expect(out[2] == #"{"fires":["2026-01-01T07:00:00Z"]}"#)
        #expect(out[3].hasPrefix(#"{"error":"line 4: "#))
    }
}
