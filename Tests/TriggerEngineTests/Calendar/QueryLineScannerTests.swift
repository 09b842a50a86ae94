import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `next --batch` lines: the byte scanner (`QueryLineScanner`) against the
/// general path through `JSONDecoder`. Wherever the scanner answers, the
/// decoder must read the same query; it must answer for the common shapes.
@Suite("next --batch lines: the scanner reads what JSONDecoder reads")
struct QueryLineScannerTests {
    static func scanned(_ line: String) -> FireDateQuery.Fields? {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            var scanner = QueryLineScanner(UnsafeBufferPointer(buffer))
            return scanner.fields()
        }
    }

    static func decoded(_ line: String) -> Result<FireDateQuery.Fields, DataError> {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            Result { () throws(DataError) in try FireDateQuery.Fields(decodingJSONLine: UnsafeBufferPointer(buffer)) }
        }
    }

    /// Checks one line; returns whether the scanner answered.
    @discardableResult
    static func check(_ line: String) -> Bool {
        guard let fast = scanned(line) else { return false }
        switch decoded(line) {
        case .success(let slow): #expect(fast == slow, "\(line)")
        case .failure(let error): Issue.record("the scanner read \(line), the decoder refused it: \(error.message)")
        }
        return true
    }

    @Test func theCommonShapesAreScannedAsTheDecoderReadsThem() {
        let lines = [
            #"{"components":{"hour":7,"minute":0},"tz":"Europe/Berlin","after":"2026-03-13T18:00:00Z","count":1}"#,
            #"{"components":{"minute":0,"hour":7}}"#,
            #" { "rrule" : "FREQ=MONTHLY;BYDAY=-1FR" , "dtstart":"2026-01-30T09:00:00", "tz":"Europe/Berlin","count":5 } "#,
            #"{"interval":3600,"repeats":true,"after":"2026-11-22T12:00:00Z","count":2}"#,
            #"{"interval":1.5e3,"once":false}"#,
            #"{"interval":-0.25}"#,
            #"{"rrule":"FREQ=DAILY","dtstart":"2026-01-01T09:00:00","rdate":["2026-01-05T10:00:00"],"exdate":"2026-01-02T09:00:00"}"#,
            #"{"rdate":[],"exdate":[ "a" , "b" ]}"#,
            "{}",
            #"{"count":0}"#, #"{"count":-3}"#, #"{"components":{}}"#,
        ]
        for line in lines { #expect(Self.check(line), "not scanned: \(line)") }
    }

    @Test func whatItIsNotSureOfGoesToTheDecoder() {
        let lines = [
            #"{"tz":"Europe\/Berlin"}"#, #"{"tz":"Zürich"}"#, #"{"tz":null}"#, #"{"count":1.0}"#, #"{"count":1e2}"#,
            #"{"count":007}"#, #"{"count":1,"count":2}"#, #"{"colour":"red"}"#, #"{"components":{"hour":7,"hour":8}}"#,
            #"{"components":{"hour":7.5}}"#, #"{"repeats":1}"#, #"{"repeats":truefalse}"#, #"{"interval":01}"#,
            #"{"interval":1.}"#, #"{"interval":.5}"#, #"{"interval":1e999}"#, #"{"after":"x"} x"#, #"["count"]"#,
            #"{"count":1,}"#, #"{"count" 1}"#, #"{"rdate":["a",]}"#, #"{"count":1234567890123456789}"#, "",
            // A fuzz finding: 19 digits overflowed the scanner's integer (a trap).
            #"{"components":{"":9237203685477580707"#, #"{"count":99999999999999999999999}"#,
            "{\"tz\":\"a\tb\"}",
        ]
        for line in lines { #expect(!Self.check(line), "scanned: \(line)") }
    }

    /// The keys are compared as bytes: every key of the general path is read,
    /// a letter more, less or changed is not; and components in any order,
    /// some repeated, read as the decoder reads them (sorted by name, a repeat
    /// refused).
    @Test func keysAndComponentNamesAreComparedAsBytes() {
        #expect(Set(QueryLineScanner.Key.allCases.map { $0.name.description }) == FireDateQuery.Fields.jsonKeys)
        for key in FireDateQuery.Fields.jsonKeys {
            let value = key == "components" ? #"{"hour":7}"# : key == "count" ? "2" : key == "interval" ? "60"
                : key == "repeats" || key == "once" ? "true" : #""2026-01-01T09:00:00""#
            #expect(Self.check(#"{"\#(key)":\#(value)}"#), "\(key) not read")
            for variant in [key + "s", String(key.dropLast()), "x" + key, key.uppercased(), String(key.dropFirst())] {
                #expect(!Self.check(#"{"\#(variant)":\#(value)}"#), "\(variant) read as a key")
            }
        }
        var random = SplitMix64(seed: 34)
        let names = ["year", "month", "day", "hour", "minute", "second", "weekday", "weekdayOrdinal", "weekOfMonth",
                     "weekOfYear", "yearForWeekOfYear", "hours", "hou", "Hour", ""]
        var scanned = 0, outOfOrder = 0
        for _ in 0..<3_000 {
            let chosen = (0..<Int.random(in: 1...5, using: &random)).map { _ in names.randomElement(using: &random)! }
            let pairs = chosen.map { #""\#($0)":\#(Int.random(in: -40...2100, using: &random))"# }
            if Self.check(#"{"components":{\#(pairs.joined(separator: ","))}}"#) {
                scanned += 1
                if chosen != chosen.sorted() { outOfOrder += 1 }
            }
        }
        #expect(scanned > 1_500 && outOfOrder > 500, "\(scanned) scanned, \(outOfOrder) of them out of order")
    }

    /// Seeded lines built from the keys and values above and mutated byte by
    /// byte: whatever the scanner reads, the decoder reads the same.
    @Test func seededMutatedLinesAgree() {
        var random = SplitMix64(seed: 20_261_125)
        let pieces = [#""components":{"hour":7,"minute":0}"#, #""tz":"Asia/Tokyo""#, #""after":"2026-03-13T18:00:00Z""#,
                      #""count":3"#, #""interval":60"#, #""repeats":true"#, #""once":false"#, #""rrule":"FREQ=WEEKLY""#,
                      #""dtstart":"2026-01-01T09:00:00""#, #""rdate":["2026-01-05T10:00:00","x"]"#, #""exdate":"y""#]
        let noise: [UInt8] = Array(#" {}[]:,"\.-+eE01279tfnu\#t"#.utf8) + [0xC3, 0xBC, 0x0A]
        var scanned = 0
        for _ in 0..<20_000 {
            var line = Array(("{" + pieces.shuffled(using: &random).prefix(Int.random(in: 0...5, using: &random))
                .joined(separator: ",") + "}").utf8)
            for _ in 0..<Int.random(in: 0...3, using: &random) where !line.isEmpty {
                let at = Int.random(in: 0..<line.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: line[at] = noise.randomElement(using: &random)!
                case 1: line.insert(noise.randomElement(using: &random)!, at: at)
                default: line.remove(at: at)
                }
            }
            if Self.check(String(decoding: line, as: UTF8.self)) { scanned += 1 }
        }
        #expect(scanned > 5_000, "only \(scanned) of 20,000 lines scanned")
    }

    /// The fuzz seeds and every input the next-queries target found.
    @Test func fuzzSeedsAndFindingsAgree() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var files = try FileManager.default.contentsOfDirectory(at: root.appendingPathComponent("Fuzz/Corpus/next"), includingPropertiesForKeys: nil)
        let findings = root.appendingPathComponent("Tests/TriggerEngineTests/Fixtures/fuzz-regressions/next-queries")
        files += (try? FileManager.default.contentsOfDirectory(at: findings, includingPropertiesForKeys: nil)) ?? []
        var lines = 0
        for file in files {
            for line in String(decoding: try Data(contentsOf: file), as: UTF8.self).split(separator: "\n") {
                Self.check(String(line))
                lines += 1
            }
        }
        #expect(lines > 20)
    }
}
