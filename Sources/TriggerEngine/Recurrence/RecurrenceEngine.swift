/// A `RecurrenceRule` compiled against one DTSTART: the internal engine behind
/// `RecurrenceInstances` and `RecurrenceTrigger`.
///
/// RFC 5545 §3.3.10: "Information, not contained in the rule, necessary to
/// determine the various recurrence instance start time and dates are derived
/// from the Start Time ("DTSTART") component attribute." So a YEARLY rule without
/// day parts gets DTSTART's month and day, a WEEKLY one DTSTART's weekday, every
/// rule coarser than HOURLY gets DTSTART's hour, and so on (the same defaults as
/// python-dateutil). Two defaults go further than dateutil, as libical does: a
/// YEARLY rule with BYWEEKNO but no day part takes DTSTART's weekday (dateutil:
/// every day of the week), and one with BYMONTHDAY but no BYMONTH takes
/// DTSTART's month (dateutil: every month). The parts become bit masks and
/// sorted lists.
///
/// The period of a YEARLY rule with BYWEEKNO is the week-numbering year (weeks
/// from WKST, week 1 holding 4 January), not the calendar year: INTERVAL counts
/// those years, BYSETPOS picks within one, and week 53 can end in January.
///
/// Everything happens in wall time ("local seconds"): periods are found by index
/// arithmetic from DTSTART's period, so a query costs the same however far
/// DTSTART lies in the past. `searchLimit` bounds the work of one search, so a
/// rule that can never match ends instead of spinning.
struct RecurrenceEngine: Sendable, Hashable {
    let frequency: RecurrenceRule.Frequency
    let interval: Int
    /// DTSTART, local seconds.
    let start: Int

    // MARK: Period grid
    /// YEARLY: DTSTART's year (its week-numbering year with BYWEEKNO).
    /// MONTHLY: its month index (year × 12 + month − 1).
    /// Otherwise the local seconds where DTSTART's period (week from WKST, day,
    /// hour, minute, second) begins.
    let basePeriod: Int
    /// Seconds in one period for WEEKLY and shorter; 0 for MONTHLY and YEARLY.
    let unitSeconds: Int

    // MARK: Day parts
    /// Bit m set for each month m in BYMONTH (or DTSTART's month by default); 0: any month.
    let monthMask: UInt16
    let months: [Int]
    /// BYMONTHDAY: bit d for day d, and bit d of `negativeMonthDayMask` for day −d.
    let monthDays: [Int]
    let monthDayMask: UInt32
    let negativeMonthDayMask: UInt32
    let yearDays: [Int]
    let weekNumbers: [Int]
    /// BYDAY without ordinals, bit i for ISO weekday i (0 = Monday).
    let weekdayMask: UInt8
    /// BYDAY with ordinals: (ordinal, ISO weekday).
    let nthWeekdays: [NthWeekday]
    /// Whether an ordinal weekday counts within the month (MONTHLY, or YEARLY with
    /// BYMONTH) rather than within the year (RFC 5545 §3.3.10, BYDAY).
    let nthInMonth: Bool
    /// WKST as an ISO weekday (0 = Monday).
    let weekStart: Int
    /// A YEARLY rule with BYWEEKNO: periods are week-numbering years.
    let weekYearPeriods: Bool

    // MARK: Time parts
    /// Limits on the period's own hour, minute and second for the sub-daily
    /// frequencies (bit set: allowed; all bits: no limit).
    let hourMask: UInt32
    let minuteMask: UInt64
    let secondMask: UInt64
    /// The offsets, in seconds, at which instances fall within a day (DAILY and
    /// longer) or within the period (HOURLY, MINUTELY, SECONDLY), as a sorted
    /// product `outer × middle × inner`: hours × minutes × seconds for a day,
    /// minutes × seconds for an hour, seconds for a minute.
    let outerOffsets: [Int]
    let middleOffsets: [Int]
    let innerOffsets: [Int]

    let setPositions: [Int]
    /// True when a part lists only values that cannot occur (BYSECOND=60).
    let neverMatches: Bool

    struct NthWeekday: Sendable, Hashable {
        var ordinal: Int
        var weekday: Int
    }

    /// Periods and skips one search may visit before it gives up. A rule that
    /// matches anything matches again within far fewer steps (the Gregorian
    /// calendar repeats every 400 years; day-level filters are skipped month by
    /// month and day by day, sub-daily ones hour by hour); only rules that can
    /// never match again, such as `FREQ=DAILY;INTERVAL=7;BYDAY=MO` from a Tuesday,
    /// reach it.
    static let searchLimit = 100_000

    /// Wall times from 10000-01-01 on are outside the engine's range: RFC 3339
    /// (and every instant the project reads or writes) ends with year 9999, so a
    /// series ends there, and a COUNT walk or a search stops there instead of
    /// walking on to where arithmetic could overflow. `FREQ=MONTHLY;COUNT=2000012`
    /// from 2026 thus ends in 9999 after 96,000 months instead of walking a
    /// million periods first.
    static let maximumWall = CivilDate.days(year: 10_000, month: 1, day: 1) * 86_400

    init(rule: RecurrenceRule, start dtstart: LocalDateTime) {
        frequency = rule.frequency
        interval = rule.interval
        start = dtstart.localSeconds
        let (year, month, day, hour, minute, second) = dtstart.fields
        let startDay = dtstart.dayNumber
        weekStart = rule.weekStart.isoIndex
        weekYearPeriods = frequency == .yearly && !rule.byWeekNo.isEmpty

        switch frequency {
        case .yearly:
            basePeriod = weekYearPeriods ? Self.weekYear(ofDay: startDay, weekStart: weekStart) : year
            unitSeconds = 0
        case .monthly: basePeriod = year * 12 + month - 1; unitSeconds = 0
        case .weekly:
            basePeriod = (startDay - Self.mod(Self.isoWeekday(startDay) - weekStart, 7)) * 86_400
            unitSeconds = 7 * 86_400
        case .daily: basePeriod = startDay * 86_400; unitSeconds = 86_400
        case .hourly: basePeriod = start - Self.mod(start, 3600); unitSeconds = 3600
        case .minutely: basePeriod = start - Self.mod(start, 60); unitSeconds = 60
        case .secondly: basePeriod = start; unitSeconds = 1
        }

        // Defaults from DTSTART (RFC 5545 §3.3.10; dateutil does the same).
        var byMonth = rule.byMonth
        var byMonthDay = rule.byMonthDay
        var byDay = rule.byDay
        if rule.byWeekNo.isEmpty, rule.byYearDay.isEmpty, byMonthDay.isEmpty, byDay.isEmpty {
            switch frequency {
            case .yearly:
                if byMonth.isEmpty { byMonth = [month] }
                byMonthDay = [day]
            case .monthly: byMonthDay = [day]
            case .weekly: byDay = [.every(RecurrenceRule.Weekday(rawValue: dtstart.weekday)!)]
            default: break
            }
        }
        if frequency == .yearly, rule.byYearDay.isEmpty {
            // RFC 5545 §3.3.10: what the rule leaves open comes from DTSTART
            // (libical master; dateutil expands to the whole week or every month).
            if !rule.byWeekNo.isEmpty, byDay.isEmpty, byMonthDay.isEmpty {
                byDay = [.every(RecurrenceRule.Weekday(rawValue: dtstart.weekday)!)]
            }
            if rule.byWeekNo.isEmpty, !rule.byMonthDay.isEmpty, byMonth.isEmpty { byMonth = [month] }
        }
        months = Array(Set(byMonth)).sorted()
        monthMask = months.reduce(0) { $0 | UInt16(1) << $1 }
        monthDays = Array(Set(byMonthDay)).sorted()
        monthDayMask = monthDays.filter { $0 > 0 }.reduce(0) { $0 | UInt32(1) << $1 }
        negativeMonthDayMask = monthDays.filter { $0 < 0 }.reduce(0) { $0 | UInt32(1) << -$1 }
        yearDays = Array(Set(rule.byYearDay)).sorted()
        weekNumbers = Array(Set(rule.byWeekNo)).sorted()
        weekdayMask = byDay.filter { $0.ordinal == nil }.reduce(0) { $0 | UInt8(1) << $1.weekday.isoIndex }
        nthWeekdays = Array(Set(byDay.compactMap { entry in entry.ordinal.map { NthWeekday(ordinal: $0, weekday: entry.weekday.isoIndex) } }))
            .sorted { ($0.ordinal, $0.weekday) < ($1.ordinal, $1.weekday) }
        nthInMonth = frequency == .monthly || (frequency == .yearly && !byMonth.isEmpty)

        // Times: an expanding part defaults to DTSTART's field; a limiting part
        // (the period's own field at HOURLY and shorter) limits only when given.
        // A leap second (60) never occurs on a POSIX clock and is dropped.
        let hours = Array(Set(rule.byHour)).sorted()
        let minutes = Array(Set(rule.byMinute)).sorted()
        let seconds = Array(Set(rule.bySecond.filter { $0 < 60 })).sorted()
        let never = !rule.bySecond.isEmpty && seconds.isEmpty
        func mask(_ values: [Int], limits: Bool) -> UInt64 {
            limits && !values.isEmpty ? values.reduce(0) { $0 | UInt64(1) << $1 } : ~0
        }
        hourMask = UInt32(truncatingIfNeeded: mask(hours, limits: frequency <= .hourly))
        minuteMask = mask(minutes, limits: frequency <= .minutely)
        secondMask = mask(seconds, limits: frequency == .secondly)
        let expandedHours = hours.isEmpty ? [hour] : hours
        let expandedMinutes = minutes.isEmpty ? [minute] : minutes
        let expandedSeconds = seconds.isEmpty ? [second] : seconds
        switch frequency {
        case .daily, .weekly, .monthly, .yearly:
            outerOffsets = expandedHours.map { $0 * 3600 }
            middleOffsets = expandedMinutes.map { $0 * 60 }
            innerOffsets = expandedSeconds
        case .hourly:
            outerOffsets = [0]; middleOffsets = expandedMinutes.map { $0 * 60 }; innerOffsets = expandedSeconds
        case .minutely:
            outerOffsets = [0]; middleOffsets = [0]; innerOffsets = expandedSeconds
        case .secondly:
            outerOffsets = [0]; middleOffsets = [0]; innerOffsets = [0]
        }
        setPositions = rule.bySetPos
        // BYSETPOS past every position a period can have selects nothing, ever:
        // `FREQ=MONTHLY;BYDAY=4SU,-1SU;BYSETPOS=4` has two days a month at most.
        let outOfReach = !rule.bySetPos.isEmpty && rule.bySetPos.allSatisfy { abs($0) > Self.maximumSetSize(rule) }
        neverMatches = never || outOfReach
    }

    /// An upper bound on the instances one period of `rule` can hold, from its
    /// parts alone: the days the period spans, narrowed by each day-level part
    /// (each as a limit on its own, so the least of them bounds their
    /// intersection), times the times of day each expanding part adds.
    static func maximumSetSize(_ rule: RecurrenceRule) -> Int {
        let frequency = rule.frequency
        var days: Int
        switch frequency {
        case .yearly: days = 366
        case .monthly: days = 31
        case .weekly: days = 7
        default: days = 1
        }
        if frequency >= .weekly {
            if !rule.byDay.isEmpty {
                // A plain weekday occurs up to 53 times a year, 5 a month, once a
                // week; an ordinal one once per month listed (YEARLY with BYMONTH) or period.
                let plain = frequency == .yearly ? 53 : frequency == .monthly ? 5 : 1
                let ordinal = frequency == .yearly && !rule.byMonth.isEmpty ? rule.byMonth.count : 1
                days = min(days, Set(rule.byDay).reduce(0) { $0 + ($1.ordinal == nil ? plain : ordinal) })
            }
            if !rule.byMonthDay.isEmpty { days = min(days, Set(rule.byMonthDay).count * (frequency == .yearly ? 12 : 1)) }
            if !rule.byYearDay.isEmpty { days = min(days, Set(rule.byYearDay).count) }
            if frequency == .yearly, !rule.byWeekNo.isEmpty { days = min(days, Set(rule.byWeekNo).count * 7) }
        }
        // BYHOUR expands DAILY and longer periods, BYMINUTE HOURLY and longer,
        // BYSECOND MINUTELY and longer; in a shorter period each only limits.
        // Distinct values: at most 24, 60 and 61, so the product cannot overflow.
        let hours = frequency >= .daily && !rule.byHour.isEmpty ? Set(rule.byHour).count : 1
        let minutes = frequency >= .hourly && !rule.byMinute.isEmpty ? Set(rule.byMinute).count : 1
        let seconds = frequency >= .minutely && !rule.bySecond.isEmpty ? Set(rule.bySecond).count : 1
        return days * hours * minutes * seconds
    }
}

// MARK: - Calendar helpers

extension RecurrenceEngine {
    @inline(__always)
    static func mod(_ a: Int, _ b: Int) -> Int {
        let r = a % b
        return r < 0 ? r + b : r
    }

    @inline(__always)
    static func floorDiv(_ a: Int, _ b: Int) -> Int {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    /// 0 = Monday … 6 = Sunday (1970-01-01 was a Thursday).
    @inline(__always)
    static func isoWeekday(_ day: Int) -> Int { mod(day + 3, 7) }

    @inline(__always)
    static func yearLength(_ year: Int) -> Int { CivilDate.isLeapYear(year) ? 366 : 365 }

    /// The week-numbering year of `day` with weeks starting on ISO weekday
    /// `weekStart`: the calendar year of its week's fourth day (RFC 5545
    /// §3.3.10: week 1 is the first week with at least four days in the year).
    static func weekYear(ofDay day: Int, weekStart: Int) -> Int {
        CivilDate.date(fromDays: day - mod(isoWeekday(day) - weekStart, 7) + 3).year
    }
}
