/// The Gregorian calendar of one zone, with Foundation's definitions of every
/// field and period: what `Calendar.component(_:from:)`,
/// `dateInterval(of:for:)` and `date(byAdding:value:to:)` answer for a
/// Gregorian `Calendar` with `firstWeekday` 1 (Sunday) and
/// `minimumDaysInFirstWeek` 1, computed with civil arithmetic and the zone's
/// transition table instead of a call into Foundation.
///
/// Instants are `Double` seconds since 1970, as `Date` holds them, because the
/// search compares them with the caller's `after`, which may have a fraction.
struct ZoneCalendar: Sendable {
    let rules: ZoneRules
    /// The stretch around the query's instant where the offset is constant
    /// (`ZoneRules.constantSpan`): inside it an offset costs two comparisons
    /// instead of a search of the transition table. Empty when no instant was given.
    private let spanStart: Int, spanEnd: Int, spanOffset: Int
    /// The number of the table's transitions at or before the span (-1 when empty).
    private let spanIndex: Int
    /// The span shrunk by `quietMargin` at both ends. Every field, period and
    /// sum `ZoneCalendar` computes for an instant in here reads offsets only
    /// within the span, so each is plain fixed-offset arithmetic, which is what
    /// lets `CalendarSearch` skip its step-by-step loops (`CalendarSearch+QuietSteps`).
    let quietStart: Int, quietEnd: Int

    /// The farthest any computation here looks from the instant it is given:
    /// `instant(ofLocal:)` reads offsets up to 26 h from a wall time that is up
    /// to 14 h from its instant, `firstOccurrence` two days back. Three days cover both.
    static let quietMargin = 3 * 86_400

    /// The calendar of `rules`, with the offsets around `instant` (the start of
    /// a search) at hand.
    init(rules: ZoneRules, near instant: Double? = nil) {
        self.rules = rules
        if let instant, instant.isFinite, abs(instant) < 1e15 {
            (spanStart, spanEnd, spanOffset, spanIndex) = rules.constantSpan(containing: Int(instant.rounded(.down)))
        } else {
            (spanStart, spanEnd, spanOffset, spanIndex) = (0, 0, 0, -1)
        }
        quietStart = spanStart == Int.min ? Int.min : spanStart + Self.quietMargin
        quietEnd = spanEnd == Int.max ? Int.max : spanEnd - Self.quietMargin
    }

    /// Whether `instant` lies in the constant-offset span this calendar was made
    /// around (never for a calendar made without an instant).
    func spanContains(_ instant: Double) -> Bool {
        instant >= Double(spanStart) && instant < Double(spanEnd)
    }

    /// The offset at an instant: from the span when it lies inside, else from the table.
    @inline(__always)
    func offset(atUTC seconds: Int) -> Int {
        if seconds >= spanStart && seconds < spanEnd { return spanOffset }
        return rules.offset(atUTC: seconds)
    }

    /// The constant offset when both instants (and so everything between) lie
    /// in the quiet part of the span, else nil.
    @inline(__always)
    func quietOffset(from first: Int, to last: Int) -> Int? {
        first >= quietStart && last < quietEnd && first <= last ? spanOffset : nil
    }

    /// Whether every transition of the zone in `from...through` (epoch
    /// seconds) leaves local midnight alone. Within the constant-offset span
    /// there are none; within the table, its index answers; past it (folded
    /// by 400-year cycles) they are checked one by one, false when there are
    /// more than `limit`.
    func transitionsLeaveMidnightAlone(from: Int, through: Int, checkingAtMost limit: Int = 64) -> Bool {
        if from >= spanStart && through < spanEnd { return true }
        if let answer = rules.transitionsLeaveMidnightAlone(from: from, through: through) { return answer }
        var after = from - 1
        for _ in 0..<limit {
            guard let transition = rules.firstTransition(after: after), transition.at <= through else { return true }
            guard transition.leavesMidnightAlone else { return false }
            after = transition.at
        }
        return false
    }

    /// The constant offset over `first...last` when both lie three days or
    /// more (`quietMargin`) inside one constant-offset span: the query's own
    /// (two comparisons) or, years from it, whichever span holds them (a
    /// bucket lookup). Nil nearer a transition.
    @inline(__always)
    func steadyOffset(from first: Int, to last: Int) -> Int? {
        guard first <= last else { return nil }
        if first >= quietStart && last < quietEnd { return spanOffset }
        let span = rules.constantSpan(containing: first - Self.quietMargin)
        return span.index >= 0 && last < span.end - Self.quietMargin ? span.offset : nil
    }

    /// The offset over `first...last` when both lie in one constant-offset
    /// span, however near its ends; else nil. Enough for a walk whose every
    /// read is an offset and arithmetic on it (the walks by seconds and by
    /// minutes: `CalendarSearch+QuietSteps`), where `steadyOffset` also keeps
    /// three days clear for the day arithmetic it vouches for.
    @inline(__always)
    func constantOffset(from first: Int, to last: Int) -> Int? {
        guard first <= last else { return nil }
        if first >= spanStart && last < spanEnd { return spanOffset }
        let span = rules.constantSpan(containing: first)
        return span.index >= 0 && last < span.end ? span.offset : nil
    }

    /// The instant of the wall time `wall` (local seconds), later than the
    /// quiet span, when everything Foundation's search reads on its way there
    /// from the span is plain wall-clock arithmetic; else nil. That holds when
    /// every transition from about a month before `startDay` (the local day
    /// of the search's start, in the quiet span: the search may read the 1st of
    /// its month) up to `wall` leaves local midnight alone (both sides of it on
    /// the same local day, an hour or more from midnight: days and months
    /// then start at 00:00 and step from midnight to midnight, which is also
    /// what rules out a lost day) and changes to an offset of whole minutes,
    /// and when the day of `wall` lies in the quiet part (`quietMargin`) of
    /// the span it falls in (the hour, minute and second steps of that day
    /// then meet no transition).
    func instantAcrossClearTransitions(ofLocal wall: Int, startDay: Int) -> Int? {
        guard spanIndex >= 0 else { return nil }
        let times = rules.transitionTimes, offsets = rules.offsets
        func clear(_ k: Int) -> Bool {
            ZoneRules.Transition(at: times[k], offsetBefore: offsets[k], offsetAfter: offsets[k + 1]).leavesMidnightAlone
                && offsets[k + 1] % 60 == 0
        }
        let earliest = (startDay - 34) * 86_400 - spanOffset
        var k = spanIndex - 1
        while k >= 0 && times[k] > earliest {
            guard clear(k) else { return nil }
            k -= 1
        }
        let dayStart = wall - CivilDate.floorDivide(wall, 86_400).remainder
        var index = spanIndex
        for _ in 0..<16 {
            let offset = offsets[index]
            let instant = wall - offset
            if index < times.count && instant >= times[index] {
                guard clear(index) else { return nil }
                index += 1
                continue
            }
            let begin = index > 0 ? times[index - 1] : Int.min
            let end = index < times.count ? times[index] : rules.coverageEnd
            guard begin <= dayStart - offset - Self.quietMargin, instant < end - Self.quietMargin else { return nil }
            return instant
        }
        return nil
    }

    /// The local fields of an instant.
    struct Fields {
        var dayNumber: Int
        var year: Int
        var month: Int
        var day: Int
        var secondOfDay: Int

        var hour: Int { secondOfDay / 3600 }
        var minute: Int { secondOfDay / 60 % 60 }
        var second: Int { secondOfDay % 60 }
        /// 1 = Sunday … 7 = Saturday.
        var weekday: Int { CivilDate.weekday(ofDays: dayNumber) }
        /// The how-many-th such weekday of the month: days 1–7 are 1, 8–14 are 2…
        var weekdayOrdinal: Int { (day - 1) / 7 + 1 }
        /// Weeks start on Sunday; the week holding the 1st is week 1.
        var weekOfMonth: Int {
            let firstWeekday = CivilDate.weekday(ofDays: dayNumber - day + 1)
            return (day + firstWeekday - 2) / 7 + 1
        }
        /// Week 1 is the Sunday-to-Saturday week holding 1 January, so the last
        /// days of December can belong to week 1 of the next year.
        var weekOfYearAndYear: (week: Int, year: Int) { ZoneCalendar.weekOfYear(ofDay: dayNumber, inYear: year) }

        func value(of unit: CalendarUnit) -> Int {
            switch unit {
            case .year: return year
            case .month: return month
            case .day: return day
            case .hour: return hour
            case .minute: return minute
            case .second: return second
            case .weekday: return weekday
            case .weekdayOrdinal: return weekdayOrdinal
            case .weekOfMonth: return weekOfMonth
            case .weekOfYear: return weekOfYearAndYear.week
            case .yearForWeekOfYear: return weekOfYearAndYear.year
            }
        }
    }

    /// The day number of the Sunday on or before 1 January of `year`: the first
    /// day of week 1 of that week-numbering year.
    @inline(__always)
    static func firstDayOfWeekYear(_ year: Int) -> Int {
        CivilYear.firstDayOfWeekYear(year)
    }

    /// The week of the year of day `dayNumber`, which lies in calendar year
    /// `year`, and its week-numbering year: `year`, or the next one from the
    /// Sunday that starts it.
    @inline(__always)
    static func weekOfYear(ofDay dayNumber: Int, inYear year: Int) -> (week: Int, year: Int) {
        if dayNumber >= firstDayOfWeekYear(year + 1) { return (1, year + 1) }
        return ((dayNumber - firstDayOfWeekYear(year)) / 7 + 1, year)
    }

    /// Wall-clock seconds (local seconds since 1970) at instant `t`, whole seconds.
    @inline(__always)
    func localSeconds(_ t: Double) -> Int {
        let whole = Int(t.rounded(.down))
        return whole + offset(atUTC: whole)
    }

    /// The local day (days since 1970-01-01) holding instant `t`.
    @inline(__always)
    func dayNumber(at t: Double) -> Int {
        CivilDate.floorDivide(localSeconds(t), 86_400).quotient
    }

    @inline(__always)
    func fields(_ t: Double) -> Fields {
        Self.fields(localSeconds: localSeconds(t))
    }

    @inline(__always)
    static func fields(localSeconds: Int) -> Fields {
        let (days, secondOfDay) = CivilDate.floorDivide(localSeconds, 86_400)
        let (year, month, day) = CivilDate.date(fromDays: days)
        return Fields(dayNumber: days, year: year, month: month, day: day, secondOfDay: secondOfDay)
    }

    @inline(__always)
    func value(of unit: CalendarUnit, at t: Double) -> Int {
        Self.value(of: unit, localSeconds: localSeconds(t))
    }

    /// The value of `unit` at a wall time; the time of day without a date.
    @inline(__always)
    static func value(of unit: CalendarUnit, localSeconds local: Int) -> Int {
        switch unit {
        case .hour: return CivilDate.floorDivide(local, 86_400).remainder / 3600
        case .minute: return CivilDate.floorDivide(local, 3600).remainder / 60
        case .second: return CivilDate.floorDivide(local, 60).remainder
        case .weekday: return CivilDate.weekday(ofDays: CivilDate.floorDivide(local, 86_400).quotient)
        default: return fields(localSeconds: local).value(of: unit)
        }
    }

    // MARK: - Wall times to instants

    /// What to do with a wall time that a spring-forward skipped.
    enum GapPolicy {
        /// The instant the clocks jumped: the first instant at or after the wall
        /// time (how Foundation finds the start of a day).
        case transition
        /// Shifted forward by the length of the gap, as ICU's field arithmetic does.
        case shiftForward
    }

    /// The instant of a wall time; a repeated wall time is its first occurrence.
    /// - Complexity: O(log t) in the zone's transitions.
    @inline(__always)
    func instant(ofLocal wall: Int, gap: GapPolicy) -> Int {
        // Offsets lie within ±26 h: when the offset is the same a day and more on
        // either side and at the candidate, the wall time is not near a transition.
        let early = offset(atUTC: wall - 93_600)
        let candidate = wall - early
        if offset(atUTC: wall + 93_600) == early, offset(atUTC: candidate) == early {
            return candidate
        }
        switch rules.resolve(LocalDateTime(localSeconds: wall)) {
        case .unique(let instant): return instant
        case .repeated(let first, _): return first
        case .skipped(let transition, let offsetBefore, _):
            return gap == .transition ? transition : wall - offsetBefore
        }
    }

    /// The first instant of the local day `dayNumber` (midnight, or the end of
    /// a gap that swallowed midnight).
    @inline(__always)
    func startOfDay(_ dayNumber: Int) -> Double {
        Double(instant(ofLocal: dayNumber * 86_400, gap: .transition))
    }

    // MARK: - Periods

    /// `Calendar.dateInterval(of:for:)`: the period of `unit` holding `t`, as
    /// its first instant and the first instant of the next one, with
    /// Foundation's definitions. Hours are always 3600 s long and start where
    /// the local clock shows a whole hour; minutes and seconds are cut in UTC.
    /// Days and weeks start at the first instant of their first day; months
    /// and years at 00:00 of their first day (a skipped midnight moved forward
    /// by the gap). The end is found by adding one unit to the start and
    /// taking 00:00 of the day that lands on, which is why Apia's week of
    /// 25 December 2011, the week that lost a day, ends on 2 January.
    func interval(of unit: CalendarUnit, containing t: Double) -> (start: Double, end: Double) {
        steadyInterval(of: unit, containing: t) ?? fieldInterval(of: unit, containing: t)
    }

    /// `interval(of:containing:)` by field arithmetic, without the shortcut
    /// (the tests' oracle for it).
    func fieldInterval(of unit: CalendarUnit, containing t: Double) -> (start: Double, end: Double) {
        switch unit {
        case .second:
            let start = t.rounded(.down)
            return (start, start + 1)
        case .minute:
            let start = (t / 60).rounded(.down) * 60
            return (start, start + 60)
        case .hour:
            let whole = Int(t.rounded(.down))
            let local = whole + offset(atUTC: whole)
            let start = Double(whole - CivilDate.floorDivide(local, 3600).remainder)
            return (start, start + 3600)
        case .day, .weekday, .weekdayOrdinal:
            let start = startOfDay(dayNumber(at: t))
            return (start, midnight(ofDayAt: addingDays(1, to: start)))
        case .weekOfMonth, .weekOfYear:
            let day = dayNumber(at: t)
            let start = startOfDay(day - (CivilDate.weekday(ofDays: day) - 1))
            return (start, midnight(ofDayAt: addingDays(7, to: start)))
        case .month:
            let f = fields(t)
            let start = midnight(ofDay: f.dayNumber - f.day + 1)
            return (start, midnight(ofDayAt: addingOne(.month, to: start)))
        case .year:
            let start = midnight(ofDay: CivilDate.days(year: fields(t).year, month: 1, day: 1))
            return (start, midnight(ofDayAt: addingOne(.year, to: start)))
        case .yearForWeekOfYear:
            let start = startOfDay(Self.firstDayOfWeekYear(fields(t).weekOfYearAndYear.year))
            return (start, midnight(ofDayAt: addingOne(.yearForWeekOfYear, to: start)))
        }
    }

    /// `interval(of:containing:)` for a period of a day or more whose two ends,
    /// with three days on either side, each lie in a constant-offset span
    /// (`steadyOffset`): then it runs from 00:00 of its first day to 00:00 of
    /// the next period's, on day numbers, each end at its own offset. (Field
    /// arithmetic reads nothing between the ends: a month or a year across a
    /// daylight-saving change, which no single span holds, is answered here
    /// too; before, every year and a third of the months in such a zone took
    /// the field arithmetic's dozen table lookups.) Nil otherwise.
    @inline(__always)
    func steadyInterval(of unit: CalendarUnit, containing t: Double) -> (start: Double, end: Double)? {
        let whole = Int(t.rounded(.down))
        guard let offset = steadyOffset(from: whole, to: whole) else { return nil }
        let day = CivilDate.floorDivide(whole + offset, 86_400).quotient
        let first: Int, next: Int
        switch unit {
        case .day, .weekday, .weekdayOrdinal:
            (first, next) = (day, day + 1)
        case .weekOfMonth, .weekOfYear:
            first = day - (CivilDate.weekday(ofDays: day) - 1)
            next = first + 7
        case .month:
            let (year, month, dayOfMonth) = CivilDate.date(fromDays: day)
            first = day - dayOfMonth + 1
            next = first + CivilDate.daysInMonth(year: year, month: month)
        case .year:
            let year = CivilDate.date(fromDays: day).year
            first = CivilDate.days(year: year, month: 1, day: 1)
            next = CivilDate.days(year: year + 1, month: 1, day: 1)
        case .yearForWeekOfYear:
            // The week year holding the day: its calendar year's, or the next
            // one's from the Sunday that starts it.
            let weekYear = Self.weekOfYear(ofDay: day, inYear: CivilYear.year(ofDay: day)).year
            first = Self.firstDayOfWeekYear(weekYear)
            next = Self.firstDayOfWeekYear(weekYear + 1)
        default:
            return nil
        }
        guard let start = steadyMidnight(ofDay: first, near: offset), let end = steadyMidnight(ofDay: next, near: offset)
        else { return nil }
        return (Double(start), Double(end))
    }

    /// 00:00 of local day `day` as an instant, when three days around it lie
    /// in one constant-offset span (no gap or repeat comes near); the offset
    /// `guess` (that of a nearby instant) is tried first.
    @inline(__always)
    private func steadyMidnight(ofDay day: Int, near guess: Int) -> Int? {
        let wall = day * 86_400
        guard let offset = steadyOffset(from: wall - guess, to: wall - guess) else { return nil }
        if offset == guess { return wall - offset }
        return steadyOffset(from: wall - offset, to: wall - offset) == offset ? wall - offset : nil
    }

    /// `date(from:)` of a day at 00:00:00: a skipped midnight moves forward by
    /// the gap, a repeated one is its first occurrence.
    @inline(__always)
    func midnight(ofDay dayNumber: Int) -> Double {
        Double(instant(ofLocal: dayNumber * 86_400, gap: .shiftForward))
    }

    /// 00:00 of the local day holding `t`.
    @inline(__always)
    func midnight(ofDayAt t: Double) -> Double {
        midnight(ofDay: dayNumber(at: t))
    }

    /// The number of weeks of the month holding `t` (the week of month of its
    /// last day): `Calendar.range(of: .weekOfMonth, in: .month, for:)`'s count.
    func weeksInMonth(containing t: Double) -> Int {
        let f = fields(t)
        let last = CivilDate.daysInMonth(year: f.year, month: f.month)
        let firstWeekday = CivilDate.weekday(ofDays: f.dayNumber - f.day + 1)
        return (last + firstWeekday - 2) / 7 + 1
    }

    // MARK: - Arithmetic

    /// `Calendar.date(byAdding: .day, value: days, to: t)` for days ≥ 0, as
    /// Foundation's Gregorian calendar does it: elapsed days, then corrected by
    /// the change of offset when that keeps the wall-clock time (so a DST change
    /// keeps 09:00 at 09:00, while Apia's dropped day moves the clock a day on),
    /// and a time the clocks repeat is taken at its first occurrence.
    func addingDays(_ days: Int, to t: Double) -> Double {
        let whole = t.rounded(.down)
        let fraction = t - whole
        let unadjusted = Int(whole) + days * 86_400
        var result = unadjusted
        let previousOffset = offset(atUTC: Int(whole))
        let previousWall = CivilDate.floorDivide(Int(whole) + previousOffset, 86_400).remainder
        let newOffset = offset(atUTC: unadjusted)
        if CivilDate.floorDivide(unadjusted + newOffset, 86_400).remainder != previousWall, newOffset != previousOffset {
            result = unadjusted + previousOffset - newOffset
            let wall = CivilDate.floorDivide(result + offset(atUTC: result), 86_400).remainder
            if wall != previousWall && previousOffset < newOffset { result = unadjusted }
        }
        if days > 0 { result = firstOccurrence(result) }
        return Double(result) + fraction
    }

    /// An instant inside the hour a fall-back repeats, moved to the same wall
    /// time's first occurrence (`timeZoneTransitionInterval` in Foundation).
    @inline(__always)
    private func firstOccurrence(_ instant: Int) -> Int {
        // Quick exit: no offset change in the two days before.
        if offset(atUTC: instant - 172_800) == offset(atUTC: instant) { return instant }
        guard let transition = rules.firstTransition(after: instant - 172_800), transition.at <= instant else { return instant }
        let repeated = transition.offsetBefore - transition.offsetAfter
        if repeated > 0 && instant < transition.at + repeated { return instant - repeated }
        return instant
    }

    /// `Calendar.date(byAdding: unit, value: 1, to: t)`: hours, minutes and
    /// seconds are elapsed time; days and weeks go through `addingDays`;
    /// months and years keep the wall-clock time (the day clamped to the
    /// month's length, a skipped time moved forward by the gap, a repeated one
    /// at its first occurrence); a week-numbering year keeps the week and weekday.
    func addingOne(_ unit: CalendarUnit, to t: Double) -> Double {
        switch unit {
        case .second: return t + 1
        case .minute: return t + 60
        case .hour: return t + 3600
        case .day, .weekday: return addingDays(1, to: t)
        case .weekdayOrdinal, .weekOfMonth, .weekOfYear: return addingDays(7, to: t)
        case .month, .year, .yearForWeekOfYear: break
        }
        let fraction = t - t.rounded(.down)
        let f = fields(t)
        let day: Int
        switch unit {
        case .month:
            let (year, month) = f.month == 12 ? (f.year + 1, 1) : (f.year, f.month + 1)
            day = CivilDate.days(year: year, month: month, day: min(f.day, CivilDate.daysInMonth(year: year, month: month)))
        case .yearForWeekOfYear:
            let (week, year) = f.weekOfYearAndYear
            day = Self.firstDayOfWeekYear(year + 1) + (week - 1) * 7 + (f.weekday - 1)
        default:
            day = CivilDate.days(year: f.year + 1, month: f.month, day: min(f.day, CivilDate.daysInMonth(year: f.year + 1, month: f.month)))
        }
        return Double(instant(ofLocal: day * 86_400 + f.secondOfDay, gap: .shiftForward)) + fraction
    }

    /// `Calendar.date(byAdding: .year, value: years, to: t)`.
    func addingYears(_ years: Int, to t: Double) -> Double {
        let fraction = t - t.rounded(.down)
        let f = fields(t)
        let year = f.year + years
        let day = CivilDate.days(year: year, month: f.month, day: min(f.day, CivilDate.daysInMonth(year: year, month: f.month)))
        return Double(instant(ofLocal: day * 86_400 + f.secondOfDay, gap: .shiftForward)) + fraction
    }
}
