import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `next --batch` on every core (`FireDateBatch`) against each line answered
/// alone with a query compiled afresh: the same bytes in the same order, the
/// same bad-line count and first bad line, whatever the round size.
@Suite("next --batch on every core: each line's answer, in line order")
struct FireDateBatchTests {
    /// Seeded lines: shapes that reuse the line before's trigger and shapes
    /// that cannot, bad lines (bad times, unknown zones, broken JSON), blank lines.
    static func lines(_ count: Int, seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        let shapes = [#""components":{"hour":7,"minute":0},"tz":"Europe/Berlin""#,
                      #""components":{"weekday":2,"hour":9,"minute":30},"tz":"America/New_York""#,
                      #""components":{"month":2,"day":29,"hour":8},"tz":"Australia/Lord_Howe""#,
                      #""rrule":"FREQ=MONTHLY;BYDAY=-1FR","dtstart":"2026-01-30T09:00:00","tz":"Asia/Tokyo""#,
                      #""interval":3600,"repeats":true"#,
                      #""components":{"day":31}"#,
                      #""components":{"hour":7},"tz":"Mars/Olympus""#]
        return (0..<count).map { _ in
            switch random.next() % 40 {
            case 0: return ""
            case 1: return "   \t"
            case 2: return #"{"components":{"hour":7"#
            default:
                let shape = shapes[Int(random.next() % UInt64(shapes.count))]
                let after = random.next() % 25 == 0 ? "soon"
                    : String(format: "20%02d-%02d-%02dT%02d:00:00Z", 10 + random.next() % 20, 1 + random.next() % 12,
                             1 + random.next() % 28, random.next() % 24)
                return "{\(shape),\"after\":\"\(after)\",\"count\":\(random.next() % 4)}"
            }
        }
    }

    /// Each non-blank line answered alone, compiled afresh, in order.
    static func expected(_ lines: [String], now: Date, path: String) -> (output: [UInt8], bad: Int, firstBad: String?) {
        var output: [UInt8] = [], bad = 0, firstBad: String?
        for (offset, line) in lines.enumerated() where !line.allSatisfy({ $0 == " " || $0 == "\t" }) {
            var bytes = Array(line.utf8)
            let result = bytes.withUnsafeMutableBufferPointer { buffer in
                Result { () throws(DataError) in
                    try FireDateQuery(FireDateQuery.Fields(jsonLine: UnsafeBufferPointer(buffer)), defaultZone: "UTC", now: now)
                }
            }
            switch result {
            case .success(let query):
                output += Array(#"{"fires":["#.utf8)
                query.appendFireList(to: &output)
                output += Array("]}\n".utf8)
            case .failure(let error):
                bad += 1
                if firstBad == nil { firstBad = "\(path):\(offset + 1): \(error.message)" }
                output += Array((#"{"error":"# + JSONText.quoted("line \(offset + 1): \(error.message)") + "}\n").utf8)
            }
        }
        return (output, bad, firstBad)
    }

    /// Runs `lines` through `FireDateBatch` with the given round sizes and
    /// expects each line's own answer (`expected`), in order; returns the output
    /// lines and the bad-line count for the callers' checks that the answers are real.
    static func answersOfEachLine(_ lines: [String], name: String, linesPerRound: Int = 16_384,
                                  bytesPerRound: Int = 4 << 20) throws -> (answered: [Substring], bad: Int) {
        let path = ScratchFolder.path("fire-date-batch-\(name)-\(getpid())-\(linesPerRound)-\(bytesPerRound).ndjson").path
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let now = Date(timeIntervalSince1970: 1_790_000_000)

        var batch = FireDateBatch(defaultZone: "UTC", now: now)
        batch.linesPerRound = linesPerRound
        batch.bytesPerRound = bytesPerRound
        var output: [UInt8] = []
        let summary = try batch.run(LineReader(path: path)) { output.append(contentsOf: $0) }

        let expected = Self.expected(lines, now: now, path: path)
        #expect(output == expected.output)
        #expect(summary.bad == expected.bad)
        #expect(summary.firstBad == expected.firstBad)
        return (String(decoding: output, as: UTF8.self).split(separator: "\n"), expected.bad)
    }

    /// Round sizes in lines, and in bytes (3,000 bytes ends rounds at about 30 lines).
    @Test(arguments: [(1, 4 << 20), (7, 4 << 20), (300, 4 << 20), (1_000, 4 << 20), (16_384, 4 << 20), (16_384, 3_000)])
    func everyRoundSizeGivesEachLinesOwnAnswerInOrder(linesPerRound: Int, bytesPerRound: Int) throws {
        let lines = Self.lines(6_000, seed: UInt64(linesPerRound + bytesPerRound))
        let (answered, bad) = try Self.answersOfEachLine(lines, name: "rounds", linesPerRound: linesPerRound,
                                                         bytesPerRound: bytesPerRound)
        // Real answers: most lines fire, some are bad, and the lines differ.
        #expect(answered.count == lines.filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }.count)
        #expect(answered.filter { $0.hasPrefix(#"{"fires":["2"#) }.count > 3_000)
        #expect(bad > 300)
        #expect(Set(answered).count > 2_000)
    }

    /// Runs of lines asking about one trigger with other `after` and `count`
    /// values, good and bad (read by filling the last scanned line's holes,
    /// `QueryLineTemplate`), time-interval runs among them (never filled: each
    /// counts from its own `after`): each line's answer is its own.
    @Test func runsOfOneTriggerGiveEachLinesOwnAnswer() throws {
        var random = SplitMix64(seed: 20_261_202)
        let templates = QueryLineTemplateTests.templates + [#"{"interval":3600,"repeats":true,"after":"2026-01-01T00:00:00Z","count":2}"#]
        let afters = ["2026-11-22T09:30:00Z", "1999-12-31T23:59:59.5-05:00", "2041-02-28T23:00:00+14:00", "", "soon",
                      "2026-13-01T00:00:00Z", #"2026-11-22T09:30:00Z\""#, "9999-12-31T23:59:59Z"]
        let counts = ["0", "1", "2", "5", "-2", "007", "1.0", "", " 3"]
        var lines: [String] = []
        while lines.count < 6_000 {
            let template = templates.randomElement(using: &random)!
            for _ in 0..<Int.random(in: 1...60, using: &random) {
                let after = Int.random(in: 0..<4, using: &random) == 0 ? afters.randomElement(using: &random)!
                    : String(format: "20%02d-%02d-%02dT%02d:%02d:00Z", Int.random(in: 0...40, using: &random),
                             Int.random(in: 1...12, using: &random), Int.random(in: 1...28, using: &random),
                             Int.random(in: 0...23, using: &random), Int.random(in: 0...59, using: &random))
                let count = Int.random(in: 0..<4, using: &random) == 0 ? counts.randomElement(using: &random)! : "1"
                lines.append(QueryLineTemplateTests.refilled(template, after: after, count: count))
            }
        }
        let (answered, bad) = try Self.answersOfEachLine(lines, name: "runs")
        #expect(answered.filter { $0.hasPrefix(#"{"fires":["2"#) }.count > 3_000)
        #expect(bad > 300)
        #expect(Set(answered).count > 2_000)
    }

    /// Hundreds of triggers interleaved at random, each asked about again and
    /// again (read through the template of the line that compiled it,
    /// `QueryLineCache`), with bad values, lines that fool the cache's search
    /// for `"after"` and `"count"`, and the same trigger in other key orders:
    /// each line's answer is its own, at every round size.
    @Test(arguments: [1, 97, 16_384])
    func interleavedTriggersGiveEachLinesOwnAnswer(linesPerRound: Int) throws {
        var random = SplitMix64(seed: 20_261_203 + UInt64(linesPerRound))
        let zones = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC", "Mars/Olympus"]
        var triggers: [String] = []
        for hour in [0, 7, 13, 23] {
            for zone in zones {
                triggers.append(#""components":{"hour":\#(hour),"minute":30},"tz":"\#(zone)""#)
                triggers.append(#""tz":"\#(zone)","components":{"minute":30,"hour":\#(hour)}"#)
                triggers.append(#""components":{"weekday":\#(hour % 7 + 1),"hour":\#(hour)},"tz":"\#(zone)","once":true"#)
                triggers.append(#""rrule":"FREQ=WEEKLY;BYHOUR=\#(hour)","dtstart":"2026-01-05T09:30:00","tz":"\#(zone)""#)
            }
        }
        triggers += [#""interval":3600,"repeats":true"#, #""tz":"after","components":{"hour":7}"#,
                     #""components":{"hour":7},"rrule":"count","tz":"UTC""#, #""components":{"day":31}"#]
        let lines = (0..<6_000).map { _ -> String in
            let trigger = triggers.randomElement(using: &random)!
            let after = Int.random(in: 0..<20, using: &random) == 0 ? ["soon", "", "2026-02-30T00:00:00Z"].randomElement(using: &random)!
                : String(format: "20%02d-%02d-%02dT%02d:00:00Z", Int.random(in: 0...40, using: &random),
                         Int.random(in: 1...12, using: &random), Int.random(in: 1...28, using: &random), Int.random(in: 0...23, using: &random))
            let count = Int.random(in: 0..<20, using: &random) == 0 ? "-1" : String(Int.random(in: 0...3, using: &random))
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return "{\(trigger),\"after\":\"\(after)\",\"count\":\(count)}"
            case 1: return "{\"count\":\(count),\(trigger),\"after\" : \"\(after)\"}"
            default: return "{\(trigger),\"after\":\"\(after)\"}"
            }
        }
        let (answered, bad) = try Self.answersOfEachLine(lines, name: "interleaved", linesPerRound: linesPerRound)
        #expect(answered.filter { $0.hasPrefix(#"{"fires":["2"#) }.count > 3_000)
        #expect(bad > 300)
        #expect(Set(answered).count > 3_000)
    }
}
