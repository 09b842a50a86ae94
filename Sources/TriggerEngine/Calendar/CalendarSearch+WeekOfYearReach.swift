/// Where a week number lets a step's candidate fall, for the February check
/// of `CalendarSearch+NoAnswer`.
///
/// February's approximation answers only when the candidate a step first
/// matches (`_matchingDate` from the searched date) lies in February. That
/// match sets the week of the year before the week of the month, the weekday
/// ordinal, the weekday and the time of day, so for a set with a week number
/// and neither a month nor a day (no unit that sends the match months ahead,
/// and no month the search adds: it adds one only when the day or the month is
/// the highest unit set) the candidate lies within a bounded number of days
/// after a day of that numbered week:
///
/// - the week of the month: the first day on or after it with that week
///   number, at most 30 days on for weeks 1–4 and 56 for the 5th (the 6th,
///   up to 335, is left to the search);
/// - the weekday ordinal: at most 24 days on for the 1st–4th, 56 for the 5th;
///   with a weekday, the first day with both, at most 34 and 118;
/// - the weekday: at most 6 days; the hour, minute and second: the next
///   day or the one after.
///
/// (The bounds are the largest gaps over a 400-year cycle of the Gregorian
/// calendar; `WeekOfYearReachTests` checks them against the search's own
/// walks, in zones that skip or repeat days too.) A week number whose seven
/// days plus that bound meet no February in any kind of year (leap or not ×
/// the weekday of 1 January: the week's place and the next February's depend
/// on nothing else) keeps every candidate out of February.
extension CalendarSearch {
    /// Days added to the bound for zones whose walks skip or repeat a local day
    /// (Apia's lost 30 December 2011) and for the time of day's moves.
    static let weekOfYearReachSlack = 3

    /// Whether the set's week number keeps every step's first candidate out of
    /// February, by the reasoning above; false whenever that is not certain.
    var weekOfYearKeepsCandidatesFromFebruary: Bool {
        guard let week = pattern[.weekOfYear], pattern[.month] == nil else { return false }
        if pattern[.weekOfMonth] == 6 { return sixthWeekKeepsCandidatesFromFebruary(week) }
        guard pattern[.day] == nil else { return false }
        // Without a week of the month only the weekday ordinal can be the
        // mismatch, and only where it already showed on the day the match
        // reached in the numbered week, the weekday then moving up to six
        // days on (an ordinal the match walks to shows with the weekday).
        let reach = pattern[.weekOfMonth] == nil ? Self.weekOfYearReachSlack + 6 : Self.candidateReach(after: pattern)
        guard let reach else { return false }
        for year in Self.yearOfEachKind {
            let weekStart = ZoneCalendar.firstDayOfWeekYear(year) + 7 * (week - 1)
            // Week 53 exists in some years only; where it does not, no day shows it.
            guard weekStart + 7 <= ZoneCalendar.firstDayOfWeekYear(year + 1) else { continue }
            if Self.meetsFebruary(weekStart, weekStart + 6 + reach) { return false }
        }
        return true
    }

    /// The sixth week of a month, on its last one or two days, lies only in a
    /// month of 31 days that starts on a Friday or a Saturday or of 30 that
    /// starts on a Saturday, never in February. The week-of-month walk from a
    /// day of the numbered week lands in the first such month that ends on or
    /// after that day, and the candidate lies at most the units below it
    /// (ordinal, weekday) further on. Which month that is depends on the kind
    /// of the week's year and whether the next is a leap year: 2001–2028 holds
    /// every pair (the first such month follows within a year).
    ///
    /// A day (up to the 28th: `februaryApproximationInReach` answers for the
    /// others) moves the candidate up to 31 days further. When the search adds
    /// the searched month (the day is the highest unit and still ahead), the
    /// walk starts in that month and the candidate lies after it: the month
    /// mismatches, and the missing day's match, a 1st in a sixth week, never
    /// shows; so only steps without it matter, which start as above.
    private func sixthWeekKeepsCandidatesFromFebruary(_ week: Int) -> Bool {
        var below = pattern
        below[.weekOfMonth] = nil
        guard var reach = Self.candidateReach(after: below) else { return false }
        if pattern[.day] != nil { reach += 31 }
        for year in 2001...2028 {
            let weekStart = ZoneCalendar.firstDayOfWeekYear(year) + 7 * (week - 1)
            guard weekStart + 7 <= ZoneCalendar.firstDayOfWeekYear(year + 1) else { continue }
            for from in [weekStart, weekStart + 6] {
                guard let (sixthWeek, monthEnd) = Self.firstSixthWeek(endingOnOrAfter: from) else { return false }
                if Self.meetsFebruary(sixthWeek, monthEnd + reach) { return false }
            }
        }
        return true
    }

    /// The first and last day of the sixth week of the first month with one
    /// that ends on or after `day`, looked for in the next 24 months.
    static func firstSixthWeek(endingOnOrAfter day: Int) -> (first: Int, last: Int)? {
        var (year, month, _) = CivilDate.date(fromDays: day)
        for _ in 0..<24 {
            let first = CivilDate.days(year: year, month: month, day: 1)
            let length = CivilDate.daysInMonth(year: year, month: month)
            let offset = CivilDate.weekday(ofDays: first) - 1
            if length + offset > 35 && first + length - 1 >= day { return (first + 35 - offset, first + length - 1) }
            (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
        }
        return nil
    }

    /// Whether the days `first...last` meet a February (of the year of
    /// `first` or the next: the spans asked here are shorter than a year).
    static func meetsFebruary(_ first: Int, _ last: Int) -> Bool {
        let year = CivilDate.date(fromDays: first).year
        for februaryYear in [year, year + 1] {
            let februaryFirst = CivilDate.days(year: februaryYear, month: 2, day: 1)
            let februaryLast = CivilDate.days(year: februaryYear, month: 3, day: 1) - 1
            if first <= februaryLast && last >= februaryFirst { return true }
        }
        return false
    }

    /// The most days a match moves on from a day of its numbered week through
    /// the units below it (with `weekOfYearReachSlack`), or nil when a 6th week
    /// of the month makes that too far to be of use.
    static func candidateReach(after pattern: CalendarPattern) -> Int? {
        var days = weekOfYearReachSlack
        if let week = pattern[.weekOfMonth] {
            guard week <= 5 else { return nil }
            days += week == 5 ? 56 : 30
        }
        if let ordinal = pattern[.weekdayOrdinal] {
            switch (ordinal == 5, pattern[.weekday] != nil) {
            case (false, false): days += 24
            case (true, false): days += 56
            case (false, true): days += 34
            case (true, true): days += 118
            }
        }
        if pattern[.weekday] != nil { days += 6 }
        return days
    }
}
