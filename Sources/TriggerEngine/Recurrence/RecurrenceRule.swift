/// An RFC 5545 §3.3.10 recurrence rule (RRULE): a frequency, an interval, an
/// end (COUNT or UNTIL) and the BY-parts that expand or limit each period.
///
/// The rule is a validated value: every initializer checks ranges and the
/// combinations RFC 5545 forbids, so a `RecurrenceRule` in hand can always be
/// expanded. Parse one with `init(parsing:)`; `description` writes it back as
/// RFC text. Expansion against a DTSTART lives in `instances(startingAt:in:from:)`
/// (wall times) and `RecurrenceTrigger` (instants in a zone).
///
/// How each BY-part acts on each frequency (RFC 5545 §3.3.10, page 44):
///
///     +----------+--------+--------+-------+-------+------+-------+------+
///     |          |SECONDLY|MINUTELY|HOURLY |DAILY  |WEEKLY|MONTHLY|YEARLY|
///     +----------+--------+--------+-------+-------+------+-------+------+
///     |BYMONTH   |Limit   |Limit   |Limit  |Limit  |Limit |Limit  |Expand|
///     |BYWEEKNO  |N/A     |N/A     |N/A    |N/A    |N/A   |N/A    |Expand|
///     |BYYEARDAY |Limit   |Limit   |Limit  |N/A    |N/A   |N/A    |Expand|
///     |BYMONTHDAY|Limit   |Limit   |Limit  |Limit  |N/A   |Expand |Expand|
///     |BYDAY     |Limit   |Limit   |Limit  |Limit  |Expand|Note 1 |Note 2|
///     |BYHOUR    |Limit   |Limit   |Limit  |Expand |Expand|Expand |Expand|
///     |BYMINUTE  |Limit   |Limit   |Expand |Expand |Expand|Expand |Expand|
///     |BYSECOND  |Limit   |Expand  |Expand |Expand |Expand|Expand |Expand|
///     |BYSETPOS  |Limit   |Limit   |Limit  |Limit  |Limit |Limit  |Limit |
///     +----------+--------+--------+-------+-------+------+-------+------+
///
///     Note 1: Limit if BYMONTHDAY is present; otherwise, special expand
///             for MONTHLY.
///     Note 2: Limit if BYYEARDAY or BYMONTHDAY is present; otherwise,
///             special expand for WEEKLY if BYWEEKNO present; otherwise,
///             special expand for MONTHLY if BYMONTH present; otherwise,
///             special expand for YEARLY.
///
/// N/A combinations are rejected, as are numeric BYDAY values outside MONTHLY
/// and YEARLY and with BYWEEKNO, COUNT together with UNTIL, and BYSETPOS without
/// another BY-part (all "MUST NOT" in §3.3.10).
public struct RecurrenceRule: Sendable, Hashable {
    /// FREQ: the length of one period.
    public let frequency: Frequency
    /// INTERVAL: every how many periods (≥ 1).
    public let interval: Int
    /// COUNT, UNTIL, or neither.
    public let end: End
    /// BYSECOND, 0…60 (60 names a leap second; POSIX clocks never show it, so it never matches).
    public let bySecond: [Int]
    /// BYMINUTE, 0…59.
    public let byMinute: [Int]
    /// BYHOUR, 0…23.
    public let byHour: [Int]
    /// BYDAY: weekdays, each optionally with an ordinal (`-1FR`).
    public let byDay: [WeekdayNumber]
    /// BYMONTHDAY, ±1…31 (negative counts from the end of the month).
    public let byMonthDay: [Int]
    /// BYYEARDAY, ±1…366.
    public let byYearDay: [Int]
    /// BYWEEKNO, ±1…53, weeks numbered from WKST as ISO 8601 does from Monday.
    public let byWeekNo: [Int]
    /// BYMONTH, 1…12.
    public let byMonth: [Int]
    /// BYSETPOS, ±1…366: which of each period's instances to keep.
    public let bySetPos: [Int]
    /// WKST: the first day of the week (default Monday).
    public let weekStart: Weekday

    /// Creates a rule from its parts, checking them as `init(parsing:)` does.
    /// - Throws: `DataError` naming the first part that is out of range or not
    ///   allowed with this frequency.
    public init(frequency: Frequency, interval: Int = 1, end: End = .never,
                bySecond: [Int] = [], byMinute: [Int] = [], byHour: [Int] = [],
                byDay: [WeekdayNumber] = [], byMonthDay: [Int] = [], byYearDay: [Int] = [],
                byWeekNo: [Int] = [], byMonth: [Int] = [], bySetPos: [Int] = [],
                weekStart: Weekday = .monday) throws(DataError) {
        self.init(unchecked: frequency, interval: interval, end: end, bySecond: bySecond, byMinute: byMinute, byHour: byHour,
                  byDay: byDay, byMonthDay: byMonthDay, byYearDay: byYearDay, byWeekNo: byWeekNo, byMonth: byMonth,
                  bySetPos: bySetPos, weekStart: weekStart)
        try validate()
    }

    /// A rule from its parts, not checked: the lenient reader checks it with
    /// `violations()` and leaves out what is wrong.
    init(unchecked frequency: Frequency, interval: Int, end: End, bySecond: [Int], byMinute: [Int], byHour: [Int],
         byDay: [WeekdayNumber], byMonthDay: [Int], byYearDay: [Int], byWeekNo: [Int], byMonth: [Int], bySetPos: [Int],
         weekStart: Weekday) {
        self.frequency = frequency
        self.interval = interval
        self.end = end
        self.bySecond = bySecond
        self.byMinute = byMinute
        self.byHour = byHour
        self.byDay = byDay
        self.byMonthDay = byMonthDay
        self.byYearDay = byYearDay
        self.byWeekNo = byWeekNo
        self.byMonth = byMonth
        self.bySetPos = bySetPos
        self.weekStart = weekStart
    }
}

// MARK: - Nested types

extension RecurrenceRule {
    /// FREQ, from the shortest period to the longest.
    public enum Frequency: Int, Sendable, Hashable, CaseIterable, Comparable {
        case secondly, minutely, hourly, daily, weekly, monthly, yearly

        /// The RFC 5545 name (`DAILY`).
        public var name: String {
            switch self {
            case .secondly: return "SECONDLY"
            case .minutely: return "MINUTELY"
            case .hourly: return "HOURLY"
            case .daily: return "DAILY"
            case .weekly: return "WEEKLY"
            case .monthly: return "MONTHLY"
            case .yearly: return "YEARLY"
            }
        }

        /// Finer frequencies order before coarser ones (SECONDLY < … < YEARLY).
        public static func < (lhs: Frequency, rhs: Frequency) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// A day of the week, numbered as Foundation numbers weekdays (1 = Sunday … 7 = Saturday).
    public enum Weekday: Int, Sendable, Hashable, CaseIterable {
        case sunday = 1, monday, tuesday, wednesday, thursday, friday, saturday

        /// The RFC 5545 code (`MO`).
        public var code: String {
            switch self {
            case .sunday: return "SU"
            case .monday: return "MO"
            case .tuesday: return "TU"
            case .wednesday: return "WE"
            case .thursday: return "TH"
            case .friday: return "FR"
            case .saturday: return "SA"
            }
        }

        /// 0 = Monday … 6 = Sunday: the order ISO 8601 weeks use, which the engine counts in.
        var isoIndex: Int { (rawValue + 5) % 7 }
    }

    /// RFC 5545 "weekdaynum": a weekday, every one (`MO`) or the n-th of the
    /// month or year (`2MO`, `-1FR`).
    public struct WeekdayNumber: Sendable, Hashable, CustomStringConvertible {
        /// ±1…53, or `nil` for every such weekday in the period.
        public let ordinal: Int?
        /// The weekday.
        public let weekday: Weekday

        /// Every `weekday` in the period.
        public static func every(_ weekday: Weekday) -> WeekdayNumber { WeekdayNumber(ordinal: nil, weekday: weekday) }
        /// The `ordinal`-th `weekday` of the month or year (negative: from the end).
        public static func nth(_ ordinal: Int, _ weekday: Weekday) -> WeekdayNumber { WeekdayNumber(ordinal: ordinal, weekday: weekday) }

        /// `MO`, `2TU`, `-1FR`.
        public var description: String {
            guard let ordinal else { return weekday.code }
            return "\(ordinal)\(weekday.code)"
        }
    }

    /// How the rule ends.
    public enum End: Sendable, Hashable {
        /// Forever.
        case never
        /// COUNT: after this many instances, DTSTART's included when it matches (≥ 1).
        case count(Int)
        /// UNTIL: the last possible instance, inclusive.
        case until(Until)
    }

    /// UNTIL's three forms (RFC 5545 §3.3.10: "the same value type as DTSTART";
    /// a zoned DTSTART takes a UTC UNTIL).
    public enum Until: Sendable, Hashable {
        /// `UNTIL=20261231`: a DATE. Instances on that day are included whatever
        /// their time (the wall time here is the day's midnight).
        case date(LocalDateTime)
        /// `UNTIL=20261231T090000`: a floating wall time, compared with wall times.
        case local(LocalDateTime)
        /// `UNTIL=20261231T140000Z`: a UTC instant (epoch seconds), compared with
        /// each instance's instant in the zone it is expanded in.
        case instant(Int)
    }
}
