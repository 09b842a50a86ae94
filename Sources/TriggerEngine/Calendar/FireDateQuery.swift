import Foundation

/// One "when does this trigger fire next?" question, as `trigger-eval next`
/// asks it: a calendar, recurrence or time-interval trigger, the zone its
/// instants are shown in, where to start, and how many fires to list.
///
/// Built from the command line's flags or from one line of a `--batch` file
/// (`FireDateQuery.Fields`), so a library user gets the same answers as the CLI.
public struct FireDateQuery: Sendable {
    /// The trigger asked about.
    public enum Trigger: Sendable {
        case calendar(CalendarTrigger)
        case recurrence(RecurrenceTrigger)
        /// A time-interval trigger whose request was added at `addedAt`.
        case timeInterval(TimeIntervalTrigger, addedAt: Date)
    }

    /// The trigger.
    public var trigger: Trigger
    /// The zone output instants are shown in (and floating triggers follow).
    public var zone: ZoneRules
    /// Fires strictly after this instant are listed.
    public var after: Date
    /// At most this many fires.
    public var count: Int

    /// Creates a query.
    public init(trigger: Trigger, zone: ZoneRules, after: Date, count: Int) {
        self.trigger = trigger
        self.zone = zone
        self.after = after
        self.count = count
    }

    /// The first `count` fires after `after`, each strictly after the one
    /// before; fewer when the trigger stops firing.
    /// - Complexity: `count` next-fire computations.
    public func fireDates() -> [Date] {
        var fires: [Date] = []
        fires.reserveCapacity(min(count, 1024))
        switch trigger {
        case .calendar(let calendar):
            for fire in calendar.fireDates(after: after, in: zone) {
                guard fires.count < count else { break }
                fires.append(fire)
            }
        case .recurrence(let recurrence):
            var cursor = after
            while fires.count < count, let next = recurrence.nextTriggerDate(after: cursor, in: zone) {
                fires.append(next)
                cursor = next
            }
        case .timeInterval(let interval, let addedAt):
            for fire in interval.fireDates(after: after, addedAt: addedAt) {
                guard fires.count < count else { break }
                fires.append(fire)
            }
        }
        return fires
    }

    /// `date` as RFC 3339 with the offset the query's zone has at that instant
    /// (`Z` for UTC itself).
    public func format(_ date: Date) -> String {
        if zone.identifier == "UTC" || zone.identifier == "GMT" { return RFC3339.string(from: date) }
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        return RFC3339.string(from: date, utcOffset: zone.offset(atUTC: seconds))
    }
}
