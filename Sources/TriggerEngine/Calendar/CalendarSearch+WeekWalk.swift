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
        var year = CivilYear.year(ofDay: sunday + 6)
        for _ in 0..<40 {
            let first = ZoneCalendar.firstDayOfWeekYear(year)
            let weeks = (ZoneCalendar.firstDayOfWeekYear(year + 1) - first) / 7
            let day = first + 7 * (week - 1)
            if week <= weeks && day >= sunday { return day }
            year += 1
        }
        return nil
    }
}
