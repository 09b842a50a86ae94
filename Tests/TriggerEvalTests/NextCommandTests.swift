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

    /// A line asking about the same trigger as the line before reuses its
    /// compiled query (`FireDateQuery.asking`): the answers must be those of
    /// lines built afresh. The same seeded lines run twice, the second time
    /// each after an interval query, which no line can reuse.
    @Test func linesReusingTheTriggerBeforeAnswerAsLinesBuiltAfresh() throws {
        var seed: UInt64 = 17   // a seeded LCG: the same lines every run
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let shapes = [#""components":{"hour":7,"minute":0},"tz":"Europe/Berlin""#,
                      #""components":{"weekday":2,"hour":9},"tz":"America/New_York""#,
                      #""rrule":"FREQ=MONTHLY;BYDAY=-1FR","dtstart":"2026-01-30T09:00:00","tz":"Asia/Tokyo""#,
                      #""components":{"day":31}"#]
        var lines: [String] = []
        for _ in 0..<400 {
            let shape = shapes[min(next(6), shapes.count - 1)]
            let after = next(10) == 0 ? "not-a-time" : String(format: "2026-%02d-%02dT%02d:00:00Z", 1 + next(12), 1 + next(28), next(24))
            let count = next(12) == 0 ? -1 : next(4)
            let once = next(5) == 0 ? #","once":true"# : ""
            lines.append("{\(shape),\"after\":\"\(after)\",\"count\":\(count)\(once)}")
        }
        let reused = try CLIRunner.run(["next", "--batch", "-"], stdin: lines.joined(separator: "\n") + "\n")
        let breaker = #"{"interval":60,"after":"2026-01-01T00:00:00Z"}"#
        let afresh = try CLIRunner.run(["next", "--batch", "-"],
                                       stdin: lines.map { breaker + "\n" + $0 }.joined(separator: "\n") + "\n")
        #expect(reused.status == 65 && afresh.status == 65, "bad lines are in the mix")
        let expected = afresh.stdout.split(separator: "\n").enumerated().filter { $0.offset % 2 == 1 }
            .map { String($0.element).replacingOccurrences(of: "line \($0.offset + 1):", with: "line \(($0.offset + 1) / 2):") }
        #expect(reused.stdout.split(separator: "\n").map(String.init) == expected)
        #expect(Set(expected).count > 100)
    }

    /// A client on a pipe that writes a query and waits for its answer gets it
    /// at once: a round ends where no more lines are ready, and its answers are
    /// flushed. Before, the answers waited for 16,384 lines or the end of the
    /// input, and such a client waited forever.
    @Test func aClientWaitingForEachAnswerGetsItBeforeSendingTheNext() throws {
        let process = try LiveProcess(["next", "--batch", "-"])
        let hours = [7, 19, 3]
        for (asked, hour) in hours.enumerated() {
            process.send([#"{"components":{"hour":\#(hour)},"tz":"UTC","after":"2026-01-01T00:00:00Z"}"#])
            let answered = process.wait(seconds: 10) { $0.count == asked + 1 }
            #expect(answered, "no answer to query \(asked + 1) while the input stays open")
            if !answered { break }
        }
        process.closeInput()
        #expect(try process.exitStatus() == 0)
        #expect(process.output == hours.map { String(format: #"{"fires":["2026-01-01T%02d:00:00Z"]}"#, $0) })
    }
}
