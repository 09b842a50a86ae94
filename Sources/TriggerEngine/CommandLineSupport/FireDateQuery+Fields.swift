import Foundation

extension FireDateQuery {
    /// A query as text, with the command line's flag names: what `next`'s
    /// options and each line of a `--batch` file hold before they are checked.
    @_spi(Internals) public struct Fields: Sendable, Equatable {
        /// `hour=7,minute=0` as pairs, in order.
        package var components: [(name: String, value: Int)]?
        /// `--rrule`: an RFC 5545 RRULE value.
        package var rrule: String?
        /// `--dtstart`: a local wall time in `tz` (a trailing `Z` means UTC).
        package var dtstart: String?
        /// `--rdate`, repeatable: extra instances, wall times like `dtstart`.
        package var rdate: [String] = []
        /// `--exdate`, repeatable: wall times removed from the set.
        package var exdate: [String] = []
        /// `--interval`: seconds of a time-interval trigger.
        package var interval: Double?
        /// `--repeats`: the time-interval trigger repeats.
        package var repeats = false
        /// `--tz`: an IANA zone name.
        package var tz: String?
        /// `--after`: an RFC 3339 instant; now when absent.
        package var after: String?
        /// `--count`: how many fires to list (default 1).
        package var count: Int?
        /// `--once`: `repeats: false`, at most one fire.
        package var once = false

        /// An empty query (every flag absent).
        package init() {}

        @_spi(Internals) public static func == (lhs: Fields, rhs: Fields) -> Bool {
            lhs.asksAboutTheSameTrigger(as: rhs) && lhs.after == rhs.after && lhs.count == rhs.count
        }

        /// Whether every field but `after` and `count` is equal: the same
        /// trigger in the same zone. Compared in place, pair by pair (`next
        /// --batch` compares every line with the last).
        package func asksAboutTheSameTrigger(as other: Fields) -> Bool {
            guard components?.count == other.components?.count else { return false }
            if let left = components, let right = other.components,
               zip(left, right).contains(where: { $0.name != $1.name || $0.value != $1.value }) { return false }
            return rrule == other.rrule && dtstart == other.dtstart && rdate == other.rdate
                && exdate == other.exdate && interval == other.interval && repeats == other.repeats
                && tz == other.tz && once == other.once
        }
    }

    /// Checks `fields` and builds the query.
    /// - Parameters:
    ///   - defaultZone: the zone when `tz` is missing (the CLI passes `$TZ`, else UTC).
    ///   - now: the start when `after` is missing.
    /// - Throws: `DataError` saying which field is wrong and what would be right.
    @_spi(Internals) public init(_ fields: Fields, defaultZone: String = "UTC", now: Date = Date()) throws(DataError) {
        let kinds = [fields.components != nil, fields.rrule != nil || fields.dtstart != nil, fields.interval != nil]
        guard kinds.filter({ $0 }).count == 1 else {
            throw DataError(kinds.contains(true)
                ? "give only one trigger: components, rrule with dtstart, or interval"
                : "no trigger: give components, rrule with dtstart, or interval")
        }
        let zoneName = fields.tz ?? defaultZone
        let zone = try ZoneRules.named(zoneName)
        let (after, count) = try Self.start(of: fields, now: now)
        if fields.repeats && fields.interval == nil {
            throw DataError("repeats applies to interval triggers only (calendar and recurrence triggers always repeat unless once)")
        }

        let trigger: Trigger
        if let pairs = fields.components {
            trigger = .calendar(try CalendarTrigger(dateMatching: try CalendarTrigger.dateComponents(named: pairs), repeats: !fields.once,
                                                    timeZone: .fixed(zone)))
        } else if let interval = fields.interval {
            trigger = .timeInterval(try TimeIntervalTrigger(timeInterval: interval, repeats: fields.repeats && !fields.once),
                                    addedAt: after)
        } else {
            guard let dtstart = fields.dtstart else { throw DataError("rrule needs dtstart (a local time such as 2026-01-30T09:00:00)") }
            let (start, utc) = try LocalDateTime.parsing(dtstart, field: "dtstart")
            // RFC 5545 §3.3.5: a UTC DTSTART makes the whole set UTC.
            let ruleZone = utc ? ZoneRules.utc : zone
            func walls(_ texts: [String], _ field: String) throws(DataError) -> [LocalDateTime] {
                var result: [LocalDateTime] = []
                for text in texts {
                    let (wall, isUTC) = try LocalDateTime.parsing(text, field: field)
                    result.append(isUTC && !utc ? ruleZone.localTime(atUTC: wall.localSeconds) : wall)
                }
                return result
            }
            let rule = try fields.rrule.map { text throws(DataError) in try RecurrenceRule(parsing: text) }
            trigger = .recurrence(try RecurrenceTrigger(rule: rule, start: start, timeZone: .fixed(ruleZone),
                                                        recurrenceDates: try walls(fields.rdate, "rdate"),
                                                        exceptionDates: try walls(fields.exdate, "exdate")))
        }
        self.init(trigger: trigger, zone: zone, after: after, count: count)
    }
}

extension FireDateQuery {
    /// This query, moved to the `after` and `count` of `fields`, when `fields`
    /// asks about the same trigger as `previous` (the fields this query was
    /// built from): every field but `after` and `count` equal, and not a
    /// time-interval trigger (it counts from `after`). `nil` otherwise, for
    /// `init(_:defaultZone:now:)` to build it afresh.
    ///
    /// What `init` checks of `after` and `count` is checked here the same way,
    /// so a reused query answers and fails exactly as a new one would.
    /// - Complexity: O(fields), no zone lookup, no trigger compiled.
    package func asking(_ fields: Fields, after previous: Fields, now: Date) throws(DataError) -> FireDateQuery? {
        var query = self
        return try query.reask(fields, after: previous, now: now) ? query : nil
    }

    /// `asking(_:after:now:)` in place: moves this query to `fields`' `after`
    /// and `count` and returns true when it asks about the same trigger as
    /// `previous`; false (the query unchanged) otherwise.
    package mutating func reask(_ fields: Fields, after previous: Fields, now: Date) throws(DataError) -> Bool {
        guard fields.interval == nil, fields.asksAboutTheSameTrigger(as: previous) else { return false }
        (after, count) = try Self.start(of: fields, now: now)
        return true
    }

    /// Where `fields` start listing (`after`, else `now`) and how many fires
    /// (`count`, else 1; at most 1 with `once`).
    static func start(of fields: Fields, now: Date) throws(DataError) -> (after: Date, count: Int) {
        guard var text = fields.after else { return try start(afterBytes: nil, count: fields.count, once: fields.once, now: now) }
        // `withUTF8` rethrows untyped: the result comes out as a `Result`.
        let result = text.withUTF8 { bytes in
            Result { () throws(DataError) in try start(afterBytes: bytes, count: fields.count, once: fields.once, now: now) }
        }
        return try result.get()
    }

    /// `start(of:now:)` from the `after` string's bytes (nil: none) and the `count`.
    static func start(afterBytes: UnsafeBufferPointer<UInt8>?, count: Int?, once: Bool,
                      now: Date) throws(DataError) -> (after: Date, count: Int) {
        var after = now
        if let afterBytes {
            guard let parsed = RFC3339.date(fromBytes: afterBytes) else {
                let text = String(decoding: afterBytes, as: UTF8.self)
                throw DataError("after '\(text)' is not an RFC 3339 instant (e.g. 2026-11-22T09:30:00Z)")
            }
            after = parsed
        }
        var count = count ?? 1
        guard count >= 0 else { throw DataError("count \(count) must be 0 or more") }
        if once { count = min(count, 1) }
        return (after, count)
    }

    /// Moves this query to another `after` (its bytes; nil: `now`) and `count`
    /// of the same trigger, checked as `init(_:defaultZone:now:)` checks them
    /// (unchanged when they are wrong): what `next --batch` does with a line
    /// that fills `QueryLineTemplate`'s holes.
    package mutating func move(afterBytes: UnsafeBufferPointer<UInt8>?, count: Int?, once: Bool, now: Date) throws(DataError) {
        (after, self.count) = try Self.start(afterBytes: afterBytes, count: count, once: once, now: now)
    }
}
