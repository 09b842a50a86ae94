import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `QueryLineCache`: an entry answers only lines its template reads, whatever
/// key they come with, and the key leaves out exactly what the holes hold.
@Suite("next --batch: the cache of compiled triggers")
struct QueryLineCacheTests {
    static func entry(_ line: String) throws -> QueryLineCache.Entry {
        var bytes = Array(line.utf8)
        return try bytes.withUnsafeMutableBufferPointer { buffer in
            var scanner = QueryLineScanner(UnsafeBufferPointer(buffer))
            let scanned = scanner.fields()
            let fields = try #require(scanned)
            var template = QueryLineTemplate()
            template.set(UnsafeBufferPointer(buffer), scannedBy: scanner, fields: fields)
            return QueryLineCache.Entry(template: template, fields: fields,
                                        query: try FireDateQuery(fields, defaultZone: "UTC", now: Date(timeIntervalSince1970: 0)))
        }
    }

    static func key(_ line: String) -> UInt64 {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { QueryLineCache.key(of: UnsafeBufferPointer($0)) }
    }

    static func found(_ cache: QueryLineCache, _ line: String, key: UInt64) -> (after: String?, count: Int?)? {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { buffer in
            cache.entry(for: UnsafeBufferPointer(buffer), key: key).map { entry, after, count in
                (after.map { String(decoding: UnsafeBufferPointer(rebasing: buffer[$0]), as: UTF8.self) }, count)
            }
        }
    }

    @Test func anEntryAnswersOnlyTheLinesItsTemplateReads() throws {
        let berlin = #"{"components":{"hour":7},"tz":"Europe/Berlin","after":"2026-01-01T00:00:00Z","count":1}"#
        let tokyo = #"{"components":{"hour":7},"tz":"Asia/Tokyo","after":"2026-01-01T00:00:00Z","count":1}"#
        var cache = QueryLineCache()
        cache.keep(try Self.entry(berlin), key: 42)
        // Under the same key (a collision, or a wrong guess of the holes), another trigger is not answered.
        #expect(Self.found(cache, tokyo, key: 42) == nil)
        #expect(Self.found(cache, berlin, key: 41) == nil)
        let moved = berlin.replacingOccurrences(of: "2026-01-01T00:00:00Z", with: "2031-07-04T12:00:00+02:00")
            .replacingOccurrences(of: #""count":1"#, with: #""count":3"#)
        #expect(Self.found(cache, moved, key: 42)! == ("2031-07-04T12:00:00+02:00", 3))
        // A time-interval line is never kept: its trigger counts from its own `after`.
        let interval = #"{"interval":60,"after":"2026-01-01T00:00:00Z"}"#
        cache.keep(try Self.entry(interval), key: 7)
        #expect(Self.found(cache, interval, key: 7) == nil)
        // Nor a line longer than `longestLine` (2 MB of lines at most in a full cache).
        let exdates = (0..<120).map { #""2026-01-\#(String(format: "%02d", $0 % 28 + 1))T09:00:00""# }.joined(separator: ",")
        let long = #"{"rrule":"FREQ=DAILY","dtstart":"2026-01-01T09:00:00","exdate":[\#(exdates)],"after":"2026-01-01T00:00:00Z"}"#
        #expect(long.utf8.count > QueryLineCache.longestLine)
        cache.keep(try Self.entry(long), key: 8)
        #expect(Self.found(cache, long, key: 8) == nil)
        let short = #"{"rrule":"FREQ=DAILY","dtstart":"2026-01-01T09:00:00","exdate":["2026-01-02T09:00:00"],"after":"2026-01-01T00:00:00Z"}"#
        cache.keep(try Self.entry(short), key: 9)
        #expect(Self.found(cache, short, key: 9) != nil)
    }

    @Test func theKeyLeavesOutTheValuesOfAfterAndCountOnly() {
        let line = #"{"components":{"hour":7},"tz":"Europe/Berlin","after":"2026-01-01T00:00:00Z","count":1}"#
        let key = Self.key(line)
        #expect(Self.key(line.replacingOccurrences(of: "2026-01-01T00:00:00Z", with: "1999-12-31T23:59:59.5-05:00")) == key)
        #expect(Self.key(line.replacingOccurrences(of: #""count":1"#, with: #""count":-12"#)) == key)
        #expect(Self.key(line.replacingOccurrences(of: "Berlin", with: "London")) != key)
        #expect(Self.key(line.replacingOccurrences(of: #""hour":7"#, with: #""hour":8"#)) != key)
        #expect(Self.key(line.replacingOccurrences(of: #""count":1"#, with: #""count" : 1"#)) != key)
        // Every byte outside the two values counts, whichever way round they come.
        let reordered = #"{"count":2,"after":"2026-01-01T00:00:00Z","components":{"hour":7},"tz":"Europe/Berlin"}"#
        for text in [line, reordered] {
            let base = Array(text.utf8)
            let keyOfText = Self.key(text)
            let holes = [text.range(of: "2026-01-01T00:00:00Z")!, text.range(of: #"(?<="count":)-?[0-9]+"#, options: .regularExpression)!]
                .map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound)..<text.utf8.distance(from: text.startIndex, to: $0.upperBound) }
            for index in base.indices where !holes.contains(where: { $0.contains(index) }) {
                var changed = base
                changed[index] = changed[index] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
                #expect(Self.key(String(decoding: changed, as: UTF8.self)) != keyOfText, "byte \(index) of \(text)")
            }
        }
    }

    @Test func aFullCacheStartsAgain() throws {
        var cache = QueryLineCache()
        let first = #"{"components":{"minute":0},"after":"2026-01-01T00:00:00Z"}"#
        cache.keep(try Self.entry(first), key: 0)
        for key in 1..<UInt64(QueryLineCache.capacity) {
            cache.keep(try Self.entry(#"{"components":{"minute":\#(key % 60)},"after":"2026-01-01T00:00:00Z"}"#), key: key)
        }
        #expect(Self.found(cache, first, key: 0) != nil)
        cache.keep(try Self.entry(first), key: UInt64(QueryLineCache.capacity))
        #expect(Self.found(cache, first, key: 0) == nil)
        #expect(Self.found(cache, first, key: UInt64(QueryLineCache.capacity)) != nil)
    }
}
