import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `next --batch` lines read by filling a template line's holes
/// (`QueryLineTemplate`) against the same lines scanned whole
/// (`QueryLineScanner`, itself checked against `JSONDecoder`): wherever the
/// template reads a line, the scanner must read the template's fields with that
/// line's `after` and `count`; and a line differing only there must be read.
@Suite("next --batch lines: a template's holes read what the scanner reads")
struct QueryLineTemplateTests {
    /// Template lines: key orders, spacing, `once`, no `after`, no `count`.
    static let templates = [
        #"{"components":{"hour":7,"minute":0},"tz":"Europe/Berlin","after":"2014-03-22T05:37:49Z","count":1}"#,
        #"{"count":3,"components":{"weekday":2,"hour":9},"after":"2026-01-01T00:00:00+01:00","tz":"Asia/Tokyo"}"#,
        #" { "after" : "2026-01-01T00:00:00Z" , "count" : 12 , "components" : { "day" : 31 } } "#,
        #"{"rrule":"FREQ=MONTHLY;BYDAY=-1FR","dtstart":"2026-01-30T09:00:00","after":"2026-05-01T00:00:00Z","count":2,"once":true}"#,
        #"{"components":{"minute":15},"count":0}"#,
        #"{"components":{"second":30},"after":"2030-01-01T00:00:00Z"}"#,
        #"{"components":{"hour":7}}"#,
        #"{"count":-1,"after":"x","components":{"hour":7}}"#,
    ]

    /// Values put in the holes: good, bad, empty, escaped, spaced, too long.
    static let afters = ["2026-11-22T09:30:00Z", "1999-12-31T23:59:59.5-05:00", "", "soon", "2026-13-01T00:00:00Z",
                         #"2026-11-22T09:30:00Z\""#, "2026-11-22T09:30:00Zé", "a\tb", "9999-12-31T23:59:59Z", " "]
    static let counts = ["0", "1", "7", "-2", "-0", "007", "1.0", "1e2", "123456789012345", "1234567890123456", " 3", "3 ", ""]

    static func scanned(_ line: [UInt8]) -> (FireDateQuery.Fields, QueryLineScanner)? {
        line.withUnsafeBufferPointer { buffer in
            var scanner = QueryLineScanner(buffer)
            return scanner.fields().map { ($0, scanner) }
        }
    }

    /// The template's reading of `line`, or nil.
    static func filled(_ template: QueryLineTemplate, _ line: [UInt8]) -> (after: String?, count: Int?)? {
        line.withUnsafeBufferPointer { buffer in
            template.values(of: buffer).map { values in
                (values.after.map { String(decoding: UnsafeBufferPointer(rebasing: buffer[$0]), as: UTF8.self) }, values.count)
            }
        }
    }

    static func template(_ line: [UInt8]) -> (QueryLineTemplate, FireDateQuery.Fields) {
        let (fields, scanner) = scanned(line)!
        var template = QueryLineTemplate()
        line.withUnsafeBufferPointer { template.set($0, scannedBy: scanner, fields: fields) }
        return (template, fields)
    }

    /// Expects the scanner to read `line` as the template's fields with `after` and `count`.
    static func expectScannerReads(_ line: [UInt8], as templateFields: FireDateQuery.Fields, after: String?, count: Int?) {
        let text = String(decoding: line, as: UTF8.self)
        guard let (fields, _) = scanned(line) else {
            Issue.record("the template read \(text), the scanner refused it")
            return
        }
        var expected = templateFields
        expected.after = after
        expected.count = count
        #expect(fields == expected, "\(text)")
        #expect(fields.after == after && fields.count == count, "\(text)")
    }

    /// `line` with the template's `after` and `count` values replaced.
    static func refilled(_ line: String, after: String, count: String) -> String {
        func replacing(_ pattern: String, with value: String, in text: String) -> String {
            let expression = try! NSRegularExpression(pattern: pattern)
            return expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text),
                                                       withTemplate: "$1" + NSRegularExpression.escapedTemplate(for: value) + "$2")
        }
        let text = replacing(#"("after"\s*:\s*")[^"]*(")"#, with: after, in: line)
        return replacing(#"("count"\s*:\s*)-?[0-9]+()"#, with: count, in: text)
    }

    /// Every template with every pair of values: where the template reads the
    /// line the scanner reads the same; where it does not, the line is not the
    /// template with a good `after` string and a scanner's integer.
    @Test func everyFillingReadsAsTheScannerReadsIt() {
        var read = 0, notRead = 0
        for templateLine in Self.templates {
            let (template, templateFields) = Self.template(Array(templateLine.utf8))
            for after in Self.afters {
                for count in Self.counts {
                    let line = Self.refilled(templateLine, after: after, count: count)
                    let bytes = Array(line.utf8)
                    guard let (filledAfter, filledCount) = Self.filled(template, bytes) else {
                        notRead += 1
                        // Refused: then the line is not simply the template with a good after and count.
                        let goodAfter = after.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x80 && $0 != 0x22 && $0 != 0x5C }
                        let goodCount = ["0", "1", "7", "-2", "-0", "123456789012345"].contains(count)
                        #expect(!((goodAfter || templateFields.after == nil) && (goodCount || templateFields.count == nil)),
                                "not read: \(line)")
                        continue
                    }
                    read += 1
                    Self.expectScannerReads(bytes, as: templateFields, after: filledAfter, count: filledCount)
                    #expect(QueryLineScannerTests.check(line), "\(line)")
                }
            }
        }
        #expect(read > 300 && notRead > 300, "\(read) read, \(notRead) refused")
    }

    /// Seeded lines: a template line with its values replaced and bytes
    /// mutated anywhere. Whatever the template reads, the scanner reads the
    /// same fields; nothing else is read.
    @Test func seededMutatedLinesReadAsTheScannerReadsThem() {
        var random = SplitMix64(seed: 20_261_201)
        let noise: [UInt8] = Array(#" {}[]:,"\.-+eE01279tfnu\#t"#.utf8) + [0xC3, 0xBC]
        var read = 0, mutatedAndRead = 0
        for _ in 0..<30_000 {
            let templateLine = Self.templates.randomElement(using: &random)!
            let (template, templateFields) = Self.template(Array(templateLine.utf8))
            var line = Array(Self.refilled(templateLine, after: Self.afters.randomElement(using: &random)!,
                                           count: Self.counts.randomElement(using: &random)!).utf8)
            let mutations = Int.random(in: 0...2, using: &random)
            for _ in 0..<mutations where !line.isEmpty {
                let at = Int.random(in: 0..<line.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: line[at] = noise.randomElement(using: &random)!
                case 1: line.insert(noise.randomElement(using: &random)!, at: at)
                default: line.remove(at: at)
                }
            }
            guard let (after, count) = Self.filled(template, line) else { continue }
            read += 1
            if mutations > 0 { mutatedAndRead += 1 }
            Self.expectScannerReads(line, as: templateFields, after: after, count: count)
        }
        // Mutations inside the holes (a digit, a letter of the instant) keep lines readable.
        #expect(read > 4_000 && mutatedAndRead > 400, "\(read) read, \(mutatedAndRead) of them mutated")
    }

    /// A template without `after` or `count` reads only its own bytes again;
    /// a time-interval line is never a template (its trigger counts from `after`).
    @Test func holesOnlyWhereTheTemplateHasValuesAndNoneForIntervals() {
        let (plain, _) = Self.template(Array(#"{"components":{"hour":7}}"#.utf8))
        #expect(Self.filled(plain, Array(#"{"components":{"hour":7}}"#.utf8))! == (nil, nil))
        #expect(Self.filled(plain, Array(#"{"components":{"hour":8}}"#.utf8)) == nil)
        #expect(Self.filled(plain, Array(#"{"components":{"hour":7} }"#.utf8)) == nil)
        let line = Array(#"{"interval":60,"after":"2026-01-01T00:00:00Z"}"#.utf8)
        let (interval, _) = Self.template(line)
        #expect(Self.filled(interval, line) == nil)
        var cleared = Self.template(Array(Self.templates[0].utf8)).0
        #expect(Self.filled(cleared, Array(Self.templates[0].utf8)) != nil)
        cleared.clear()
        #expect(Self.filled(cleared, Array(Self.templates[0].utf8)) == nil)
    }
}
