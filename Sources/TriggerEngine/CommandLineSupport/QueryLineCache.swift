#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The queries a run of `next --batch` lines has compiled, by trigger: a line
/// asking about a trigger that an earlier line of the run compiled (not only
/// the line just before, which `QueryLineTemplate` covers) is read through that
/// line's template and answered by its query, moved to the new `after` and
/// `count`: no scan, no zone lookup, no trigger compiled.
///
/// Batches interleave their triggers (a fleet's schedules, one line per
/// device and instant): on the bench's random mix of 196 triggers, scanning a
/// line and compiling its query was a third of the CLI's time.
///
/// An entry is found by a key hashed from the line without its `after` and
/// `count` values, located by a plain search for the two key names. The search
/// is only a guess (`"after"` may be some other string's value): the entry's
/// template then decides byte by byte, so a wrong guess or two lines sharing a
/// key cost a scan, never a wrong answer.
struct QueryLineCache {
    /// A compiled line: its template, its fields, and its query.
    struct Entry {
        var template: QueryLineTemplate
        var fields: FireDateQuery.Fields
        var query: FireDateQuery
    }

    /// Entries kept at most: the cache is emptied when it would hold more (a run
    /// of lines that never repeat a trigger then costs a hash a line, not memory).
    static let capacity = 1_024

    /// Lines longer than this are not kept (a query line is about 100 bytes; a
    /// long one, such as a recurrence with thousands of RDATEs, is rare and dear
    /// to hold): with `capacity`, a cache holds at most 2 MB of lines.
    static let longestLine = 2_048

    private var entries: [UInt64: Entry] = [:]

    /// An empty cache.
    init() {}

    /// The entry whose template reads `line`, with the values `line` puts in its holes.
    func entry(for line: UnsafeBufferPointer<UInt8>, key: UInt64) -> (Entry, after: Range<Int>?, count: Int?)? {
        guard let entry = entries[key], let (after, count) = entry.template.values(of: line) else { return nil }
        return (entry, after, count)
    }

    /// Keeps `entry` for lines with `key` (replacing any other).
    mutating func keep(_ entry: Entry, key: UInt64) {
        guard entry.template.isSet, entry.template.byteCount <= Self.longestLine else { return }
        if entries.count >= Self.capacity && entries[key] == nil { entries.removeAll(keepingCapacity: true) }
        entries[key] = entry
    }

    /// The key of `line`: FNV-1a over its bytes but the `after` string's content
    /// and the `count` integer, as far as a search for their key names finds them.
    /// - Complexity: O(line).
    static func key(of line: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard line.count > 0 else { return 0 }
        var holes = (valueRange(of: "after", in: line, isString: true) ?? line.count..<line.count,
                     valueRange(of: "count", in: line, isString: false) ?? line.count..<line.count)
        if holes.1.lowerBound < holes.0.lowerBound { holes = (holes.1, holes.0) }
        // The bytes around the holes, a word at a time (bytes one by one were a
        // seventh of a mixed batch's time).
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ range: Range<Int>) {
            var index = range.lowerBound
            let base = UnsafeRawPointer(line.baseAddress!)
            while index + 8 <= range.upperBound {
                hash = (hash ^ base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x0000_0100_0000_01B3
                hash ^= hash >> 29
                index += 8
            }
            while index < range.upperBound {
                hash = (hash ^ UInt64(line[index])) &* 0x0000_0100_0000_01B3
                index += 1
            }
            hash = (hash ^ 0xFF) &* 0x0000_0100_0000_01B3
        }
        let second = max(holes.0.upperBound, holes.1.lowerBound)
        mix(0..<holes.0.lowerBound)
        mix(holes.0.upperBound..<second)
        mix(max(second, holes.1.upperBound)..<line.count)
        return hash
    }

    /// Where the value after the first `"name"` and a colon lies: a string's
    /// content, or a run of digits and minus signs; nil when the name is not found.
    private static func valueRange(of name: StaticString, in line: UnsafeBufferPointer<UInt8>, isString: Bool) -> Range<Int>? {
        let length = name.utf8CodeUnitCount
        var index = 0
        while index + length + 2 <= line.count {
            // From quote to quote (`memchr`), not byte by byte.
            guard let quote = memchr(line.baseAddress! + index, 0x22, line.count - index) else { return nil }
            index = line.baseAddress!.distance(to: quote.assumingMemoryBound(to: UInt8.self))
            guard index + length + 2 <= line.count else { return nil }
            if line[index + length + 1] == UInt8(ascii: "\""),
               ShortBytes.equal(line.baseAddress! + index + 1, name.utf8Start, count: length) {
                var position = index + length + 2
                func skipSpaces() { while position < line.count && (line[position] == 0x20 || line[position] == 0x09) { position += 1 } }
                skipSpaces()
                guard position < line.count, line[position] == UInt8(ascii: ":") else { return nil }
                position += 1
                skipSpaces()
                if isString {
                    guard position < line.count, line[position] == UInt8(ascii: "\"") else { return nil }
                    position += 1
                }
                let start = position
                while position < line.count {
                    let byte = line[position]
                    if isString ? byte == UInt8(ascii: "\"") : !(byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39)) { break }
                    position += 1
                }
                return start..<position
            }
            index += 1
        }
        return nil
    }
}

extension QueryLineCache {
    /// Caches lent to a batch's runs, each to one run at a time: a round's
    /// lines are cut into a few runs per core (about a thousand lines each), and
    /// a cache per run would compile every trigger of the batch again in each.
    final class Pool: Sendable {
        private let idle = Mutex<[QueryLineCache]>([])

        init() {}

        /// A cache no other run holds (a new one when all are lent).
        func borrow() -> QueryLineCache {
            idle.withLock { $0.popLast() } ?? QueryLineCache()
        }

        /// Takes back a cache `borrow()` lent.
        func giveBack(_ cache: QueryLineCache) {
            idle.withLock { $0.append(cache) }
        }
    }
}
