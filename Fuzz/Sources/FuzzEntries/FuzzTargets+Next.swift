import Foundation
@_spi(Internals) @testable import TriggerEngine

/// `trigger-eval next --batch`: one query object a line.
extension FuzzTargets {
    /// Fires listed per query at most (a query's `count` asks for work; the harness
    /// caps it so that a timeout means a hang, not a long answer).
    static let firesPerQuery = 64

    static let nextQueries = FuzzTarget(
        name: "next-queries",
        summary: "NDJSON `next --batch` lines: FireDateQuery.Fields(jsonLine:), the query, its fires (increasing, after `after`), formatted; "
            + "each line read through the last scanned line's template (QueryLineTemplate) as the scanner reads it, "
            + "and through its own entry in a QueryLineCache",
        format: "next"
    ) { bytes in
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        var fires = 0
        var firstError: (any Error)?
        var template = QueryLineTemplate()
        var templateFields = FireDateQuery.Fields()
        for line in bytes.split(separator: 0x0A) {
            // What `next --batch` does with a line like the last scanned one.
            let filled: FuzzOutcome? = line.withUnsafeBytes { raw in
                let buffer = raw.bindMemory(to: UInt8.self)
                var scanner = QueryLineScanner(buffer)
                let scanned = scanner.fields()
                defer {
                    if let scanned { template.set(buffer, scannedBy: scanner, fields: scanned); templateFields = scanned }
                    else { template.clear() }
                }
                if let scanned, scanned.interval == nil, buffer.count <= QueryLineCache.longestLine,
                   let query = try? FireDateQuery(scanned, defaultZone: "UTC", now: now) {
                    // The line's own template, kept under its key, reads it back with its own values.
                    var own = QueryLineTemplate()
                    own.set(buffer, scannedBy: scanner, fields: scanned)
                    var cache = QueryLineCache()
                    let key = QueryLineCache.key(of: buffer)
                    cache.keep(QueryLineCache.Entry(template: own, fields: scanned, query: query), key: key)
                    guard let (_, after, count) = cache.entry(for: buffer, key: key),
                          after.map({ String(decoding: UnsafeBufferPointer(rebasing: buffer[$0]), as: UTF8.self) }) == scanned.after,
                          count == scanned.count else {
                        return .violated("a line's own cache entry does not read it back with its own after and count")
                    }
                }
                guard let (after, count) = template.values(of: buffer) else { return nil }
                var expected = templateFields
                expected.after = after.map { String(decoding: UnsafeBufferPointer(rebasing: buffer[$0]), as: UTF8.self) }
                expected.count = count
                return scanned == expected ? nil
                    : .violated("the template read \(expected), the scanner \(scanned.map { "\($0)" } ?? "nothing")")
            }
            if let filled { return filled }
            let outcome: FuzzOutcome = line.withUnsafeBytes { raw in
                FuzzOutcome.catching {
                    var query = try FireDateQuery(try FireDateQuery.Fields(jsonLine: raw.bindMemory(to: UInt8.self)),
                                                  defaultZone: "UTC", now: now)
                    query.count = min(query.count, firesPerQuery)
                    var previous = query.after
                    let dates = query.fireDates()
                    for date in dates {
                        guard date > previous else { return .violated("fire \(date) is not after \(previous)") }
                        previous = date
                        let text = query.format(date)
                        guard let again = RFC3339.date(from: text),
                              abs(again.timeIntervalSince1970 - date.timeIntervalSince1970) < 1e-6 else {
                            return .violated("fire \(date.timeIntervalSince1970) formats as \(text), which does not read back")
                        }
                    }
                    return .accepted(count: dates.count)
                }
            }
            switch outcome {
            case .accepted(let count): fires += count
            case .violated: return outcome
            case .rejected(let error):
                if FuzzOutcome.rejected(error).problem != nil { return .rejected(error) }
                firstError = firstError ?? error
            }
        }
        if fires == 0, let firstError { return .rejected(firstError) }
        return .accepted(count: fires)
    }
}
