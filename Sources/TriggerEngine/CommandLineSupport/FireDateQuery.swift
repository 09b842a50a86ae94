import Foundation

/// One "when does this trigger fire next?" question, as `trigger-eval next`
/// asks it: a calendar, recurrence or time-interval trigger, the zone its
/// instants are shown in, where to start, and how many fires to list.
///
/// Built from the command line's flags or from one line of a `--batch` file
/// (`FireDateQuery.Fields`), so a library user gets the same answers as the CLI.
@_spi(Internals) public struct FireDateQuery: Sendable {
    /// The trigger asked about.
    package enum Trigger: Sendable {
        case calendar(CalendarTrigger)
        case recurrence(RecurrenceTrigger)
        /// A time-interval trigger whose request was added at `addedAt`.
        case timeInterval(TimeIntervalTrigger, addedAt: Date)
    }

    /// The trigger.
    package var trigger: Trigger
    /// The zone output instants are shown in (and floating triggers follow).
    package var zone: ZoneRules
    /// Fires strictly after this instant are listed.
    package var after: Date
    /// At most this many fires.
    package var count: Int

    /// Creates a query.
    package init(trigger: Trigger, zone: ZoneRules, after: Date, count: Int) {
        self.trigger = trigger
        self.zone = zone
        self.after = after
        self.count = count
    }

    /// The first `count` fires after `after`, each strictly after the one
    /// before; fewer when the trigger stops firing.
    /// - Complexity: `count` next-fire computations.
    package func fireDates() -> [Date] {
        var fires: [Date] = []
        fires.reserveCapacity(min(count, 1024))
        forEachFireDate { fires.append($0) }
        return fires
    }

    /// `fireDates()` handed to `body` one by one, without an array.
    @_spi(Internals) public func forEachFireDate(_ body: (Date) throws -> Void) rethrows {
        var listed = 0
        switch trigger {
        case .calendar(let calendar) where count == 1:
            // The usual batch question: one search, no sequence state to copy.
            if let fire = calendar.nextTriggerDate(after: after, in: zone) { try body(fire) }
        case .calendar(let calendar):
            for fire in calendar.fireDates(after: after, in: zone) {
                guard listed < count else { break }
                try body(fire)
                listed += 1
            }
        case .recurrence(let recurrence):
            var cursor = after
            while listed < count, let next = recurrence.nextTriggerDate(after: cursor, in: zone) {
                try body(next)
                listed += 1
                cursor = next
            }
        case .timeInterval(let interval, let addedAt):
            for fire in interval.fireDates(after: after, addedAt: addedAt) {
                guard listed < count else { break }
                try body(fire)
                listed += 1
            }
        }
    }

    /// `date` as RFC 3339 with the offset the query's zone has at that instant
    /// (`Z` for UTC itself).
    package func format(_ date: Date) -> String {
        var out: [UInt8] = []
        appendFormatted(date, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The fires as JSON strings separated by commas (`"…","…"`), appended to
    /// `out`: what `next --batch` writes between the brackets.
    package func appendFireList(to out: inout [UInt8]) {
        if count == 1, case .calendar(let calendar) = trigger {
            // The usual batch question, without a closure (which would copy the query).
            guard let fire = calendar.nextTriggerDate(after: after, in: zone) else { return }
            out.append(UInt8(ascii: "\""))
            appendFormatted(fire, to: &out)
            out.append(UInt8(ascii: "\""))
            return
        }
        var first = true
        forEachFireDate { fire in
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            out.append(UInt8(ascii: "\""))
            appendFormatted(fire, to: &out)
            out.append(UInt8(ascii: "\""))
        }
    }

    /// `format(_:)` appended to `out` as UTF-8 bytes.
    package func appendFormatted(_ date: Date, to out: inout [UInt8]) {
        if zone.isNamedUTC { return RFC3339.append(date, to: &out) }
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        RFC3339.append(date, utcOffset: zone.offset(atUTC: seconds), to: &out)
    }
}
