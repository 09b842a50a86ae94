/// A shortcut for the search's longest loop: `advance(from:by: .weekOfYear,
/// until: .weekOfYear, is:)`, which walks week by week to the next week with a
/// given number. Week 53 exists in one year of five or six, so a search for
/// `{weekOfYear: 53, …}` walks hundreds of weeks per step, over a hundred steps
/// before Foundation gives up, and outside the constant-offset span where
/// `quietAdvance` applies (the walk crosses years of daylight-saving changes).
///
/// After its first step the walk lands on the first instant of a week, 00:00
/// of a Sunday, and steps by `interval(of: .weekOfYear)`. Across transitions
/// that leave local midnight alone (both sides an hour or more from it, on one
/// local day) every such landing is 00:00 of the Sunday seven days on, so the
/// landing where the week number matches is found on day numbers alone, then
/// taken through `midnight(ofDay:)` as the walk takes it. Any other transition
/// on the way (a skipped or repeated midnight, a lost day) leaves the walk to
/// the loop.
extension CalendarSearch {
    /// Transitions the shortcut checks before it gives the walk back.
    static let weekWalkTransitionLimit = 64

    func clearWeekAdvance(from start: Double, to week: Int) -> Double? {
        if calendar.value(of: .weekOfYear, at: start) == week { return start }
        // The loop's first step, as the loop takes it.
        let first = calendar.interval(of: .weekOfYear, containing: start).end
        let (firstDay, firstSecond) = CivilDate.floorDivide(calendar.localSeconds(first), 86_400)
        // A week that lost a day (Apia, December 2011) ends on a Monday: the loop's business.
        guard firstSecond == 0, CivilDate.weekday(ofDays: firstDay) == 1,
              let targetDay = Self.weekStart(onOrAfter: firstDay, numbered: week) else { return nil }
        let target = calendar.midnight(ofDay: targetDay)
        guard target >= first,
              calendar.transitionsLeaveMidnightAlone(from: Int(first.rounded(.down)), through: Int(target.rounded(.up)) + 86_400,
                                                      checkingAtMost: Self.weekWalkTransitionLimit),
              CivilDate.floorDivide(calendar.localSeconds(target), 86_400) == (targetDay, 0) else { return nil }
        return target
    }

    /// The first Sunday on or after `sunday` (a Sunday) in week `week` of its
    /// week-numbering year, within 40 years.
    static func weekStart(onOrAfter sunday: Int, numbered week: Int) -> Int? {
        guard week >= 1 else { return nil }
        let year = CivilYear.year(ofDay: sunday + 6)
        return weekStart(onOrAfter: sunday, numbered: week, weekYear: year,
                         starting: CivilYear.firstDayOfWeekYear(year), nextStarting: CivilYear.firstDayOfWeekYear(year + 1))
    }

    /// The same, given the Sunday's week-numbering year and the first days
    /// of that year and the next.
    @inline(__always)
    private static func weekStart(onOrAfter sunday: Int, numbered week: Int, weekYear: Int,
                                  starting first: Int, nextStarting next: Int) -> Int? {
        var (year, first, next) = (weekYear, first, next)
        for _ in 0..<40 {
            // Week-numbering years start on Sundays: the year has the week
            // when its Sunday comes before the next year's first.
            let start = first + 7 * (week - 1)
            if start < next && start >= sunday { return start }
            year += 1
            first = next
            next = CivilYear.firstDayOfWeekYear(year + 1)
        }
        return nil
    }

    /// Where the search's walk to week `week` of the year, from the day under
    /// `cursor`, ends on days: that day when its week has the number, else
    /// the next Sunday that starts such a week (`weekStart(onOrAfter:numbered:)`
    /// from the Sunday after the day), within 40 years; nil past them.
    ///
    /// The steps on days walk so twice a step (`matchedDay`); reading the
    /// day's week, then finding the year of the Sunday after it and where
    /// its week-numbering years start, took a tenth of the time of the
    /// slowest of them. The starts of the day's year and the next, computed
    /// once here, answer all three.
    @inline(__always)
    static func weekWalk(from cursor: DayCursor, to week: Int) -> Int? {
        let day = cursor.dayNumber
        let first = CivilYear.firstDayOfWeekYear(cursor.year)
        let next = CivilYear.firstDayOfWeekYear(cursor.year + 1)
        // The day's own week (`ZoneCalendar.weekOfYear(ofDay:inYear:)`).
        if (day >= next ? 1 : (day - first) / 7 + 1) == week { return day }
        guard week >= 1 else { return nil }
        // The Sunday after the day lies in the day's week-numbering year, or
        // in the next one once that has started (within 13 days of the day).
        let sunday = day - (cursor.weekday - 1) + 7
        guard sunday >= next else {
            return weekStart(onOrAfter: sunday, numbered: week, weekYear: cursor.year, starting: first, nextStarting: next)
        }
        return weekStart(onOrAfter: sunday, numbered: week, weekYear: cursor.year + 1, starting: next,
                         nextStarting: CivilYear.firstDayOfWeekYear(cursor.year + 2))
    }
}
