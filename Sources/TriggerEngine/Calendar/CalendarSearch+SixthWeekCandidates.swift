/// February's approximation for a day in the sixth week of a month and a
/// week number, decided by walking the candidates rather than bounding them.
///
/// `{day: 24, weekday: 6, weekOfMonth: 6, weekOfYear: 36}` shows on no day (the
/// 24th is never in a sixth week), so only an approximation could answer it,
/// and the only one in reach is February's: a step whose first candidate
/// (`_matchingDate` from the searched date) lies in February with the day,
/// the weekday ordinal or the week of the month its highest mismatched unit.
/// `sixthWeekKeepsCandidatesFromFebruary` bounds how far the candidate lies
/// from the numbered week and gives up whenever that span meets a February;
/// with a day it always does (the day walk adds a month), and the search took
/// its 101 steps, a month apart, to answer nil (20–28 µs).
///
/// In a zone whose transitions from the start on all leave local midnight
/// alone, every walk of the match ends at 00:00 of the day the same walk on
/// day numbers ends on (`matchedDay`), and the time of day is then walked
/// from that midnight within the day. So the candidate's day is known
/// exactly from where the walk to the week number left it, which is some day
/// of that week in some year: the match goes on from there through the
/// sixth week (never in February), the ordinal, the weekday and the day.
/// Each of the seven days of the week, in a year of every kind followed by a
/// year of either length (2001–2028 holds every such pair, and the walks end
/// within the next year), gives one candidate day; when none of them lies in
/// February with the day, the ordinal or the week of the month as its
/// highest mismatch (the weekday ranks above the last two and sends the
/// search on by a week of the month instead), no step can take the
/// approximation.
///
/// A step from a day before the set's day adds the searched month to the
/// match, walked to after the week number; a candidate outside that month
/// mismatches the month first, so only February's could matter. From any
/// day of February the walks through the sixth week, the ordinal, the
/// weekday and the day never end in February (`SixthWeekCandidatesTests`
/// walks them all, over every kind of year): every year has a sixth week
/// between March and November, and from there the candidate stays within
/// the next few months.
extension CalendarSearch {
    /// Whether no step's first candidate takes February's approximation, for
    /// a set with a week number and the sixth week of the month and neither a
    /// year, a month nor a week-numbering year, searched from `start`, by the
    /// walks above; false whenever that is not certain.
    func sixthWeekCandidatesMissFebruary(after start: Double) -> Bool {
        guard pattern[.weekOfMonth] == 6, let week = pattern[.weekOfYear], pattern[.month] == nil, pattern[.year] == nil,
              pattern[.yearForWeekOfYear] == nil, start.isFinite, abs(start) < 1e15,
              calendar.rules.transitionsLeaveMidnightAlone(from: Int(start.rounded(.down)) - 2 * 86_400) else { return false }
        // The units walked after the sixth week, without the week number and the
        // week of the month (the walks to them have been taken by then).
        var below = pattern
        below[.weekOfYear] = nil
        below[.weekOfMonth] = nil
        for year in 2001...2028 {
            let weekStart = ZoneCalendar.firstDayOfWeekYear(year) + 7 * (week - 1)
            // Week 53 exists in some years only; where it does not, no walk ends in it.
            guard weekStart + 7 <= ZoneCalendar.firstDayOfWeekYear(year + 1) else { continue }
            // Consecutive days of the week mostly reach the same sixth week: walked once.
            var lastLanding = Int.min
            for day in weekStart...(weekStart + 6) {
                guard candidateMissesFebruary(from: DayCursor(dayNumber: day), below, year: year, lastLanding: &lastLanding)
                else { return false }
            }
        }
        return true
    }

    /// Whether the candidate the match reaches from `cursor` (a day of the
    /// numbered week) through the sixth week and `below` stays clear of
    /// February's approximation; true without looking when the sixth week
    /// it lands in is `lastLanding` (the same candidate), false when a walk
    /// runs out or leaves the year after `year`.
    private func candidateMissesFebruary(from cursor: DayCursor, _ below: CalendarPattern, year: Int,
                                         lastLanding: inout Int) -> Bool {
        guard let landed = Self.walk(toWeekOfMonth: 6, from: cursor, walkStart: cursor.dayNumber) else { return false }
        if landed.dayNumber == lastLanding { return true }
        lastLanding = landed.dayNumber
        guard let candidate = matchedDay(from: landed, below, before: Int.max), candidate.year <= year + 1 else { return false }
        guard candidate.month == 2 else { return true }
        switch Self.highestDateMismatch(of: pattern, candidate) {
        case .day?, .weekdayOrdinal?, .weekOfMonth?, nil: return false
        default: return true
        }
    }
}
