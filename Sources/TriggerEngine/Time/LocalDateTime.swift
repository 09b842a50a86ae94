/// A wall-clock date and time with no zone attached: what a calendar shows, what
/// an iCalendar DTSTART without `Z` says, what recurrence rules iterate over.
///
/// It is stored as "local seconds": the seconds since 1970-01-01T00:00:00 of the
/// same wall clock, as if the zone were UTC. That makes comparison, hashing and
/// day arithmetic integer operations; `ZoneRules` turns it into an instant.
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00 on this wall clock.
    public var localSeconds: Int

    /// Creates a wall time from local seconds.
    public init(localSeconds: Int) {
        self.localSeconds = localSeconds
    }

    /// Creates a wall time from fields.
    /// - Throws: `DataError` when a field is out of range (month 1…12, day
    ///   within the month, hour < 24, minute < 60, second < 60).
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) throws(DataError) {
        guard let valid = Self.valid(year: year, month: month, day: day, hour: hour, minute: minute, second: second) else {
            throw DataError("\(year)-\(month)-\(day) \(hour):\(minute):\(second) is not a wall time "
                            + "(month 1–12, day within the month, hour 0–23, minute and second 0–59)")
        }
        self = valid
    }

    /// The wall time of these fields, or `nil` when one is out of range: for
    /// readers that report the problem in their own words.
    package static func valid(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0,
                              second: Int = 0) -> LocalDateTime? {
        guard (1...12).contains(month), (1...CivilDate.daysInMonth(year: year, month: month)).contains(day),
              (0..<24).contains(hour), (0..<60).contains(minute), (0..<60).contains(second) else { return nil }
        return LocalDateTime(unchecked: year, month, day, hour, minute, second)
    }

    /// Creates a wall time from fields known to be in range.
    @inline(__always)
    package init(unchecked year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int) {
        localSeconds = CivilDate.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// Days since 1970-01-01 of this wall clock's date.
    public var dayNumber: Int { CivilDate.floorDivide(localSeconds, 86_400).quotient }

    /// Seconds since midnight.
    public var secondOfDay: Int { CivilDate.floorDivide(localSeconds, 86_400).remainder }

    /// The calendar fields.
    public var fields: (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let (days, second) = CivilDate.floorDivide(localSeconds, 86_400)
        let (year, month, day) = CivilDate.date(fromDays: days)
        return (year, month, day, second / 3600, second / 60 % 60, second % 60)
    }

    /// Foundation's weekday: 1 = Sunday … 7 = Saturday.
    public var weekday: Int { CivilDate.weekday(ofDays: dayNumber) }

    /// Wall times in calendar order.
    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool { lhs.localSeconds < rhs.localSeconds }

    /// `YYYY-MM-DDTHH:MM:SS`.
    public var description: String {
        let text = RFC3339.string(epochSeconds: localSeconds, utcOffset: nil)
        return String(text.dropLast())  // drop the "Z": a wall time has no zone
    }
}
