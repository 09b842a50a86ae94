/// February's approximation for a week of the month with a week number,
/// decided by walking the candidates rather than bounding them.
///
/// `{day: 24, weekday: 6, weekOfMonth: 6, weekOfYear: 36}` shows on no day (the
/// 24th is never in a sixth week), nor does `{weekday: 4, weekOfMonth: 4,
/// weekOfYear: 53}` (week 53's days are a December's last, in its fifth or
/// sixth week), so only an approximation could answer them, and the only one
/// in reach is February's: a step whose first candidate (`_matchingDate`
/// from the searched date) lies in February with the day, the weekday
/// ordinal or the week of the month its highest mismatched unit.
/// `weekOfYearKeepsCandidatesFromFebruary` bounds how far the candidate lies
/// from the numbered week and gives up whenever that span meets a February;
/// with a day, or after week 48 or so, it always does, and the search took
/// its 101 steps to answer nil (20–28 µs).
///
/// In a zone whose transitions from the start on all leave local midnight
/// alone, every walk of the match ends at 00:00 of the day the same walk on
/// day numbers ends on (`matchedDay`), and a day walk ends at its midnight.
/// So the candidate's day is known exactly from where the walk to the week
/// number left it, which is some day of that week in some year: the match
/// goes on from there through the week of the month, the ordinal, the
/// weekday and the day. Each of the seven days of the week, in a year of
/// every kind followed by a year of either length (2001–2028 holds every
/// such pair, and the walks end within the next year), gives one candidate
/// day; the time of day is then walked from that midnight within the day,
/// or, without a day in the set, from the searched date's own time when no
/// walk moved it, which may carry it into the next day. When none of those
/// days lies in February with the day, the ordinal or the week of the month
/// as its highest mismatch (the weekday ranks above the last two and sends
/// the search on by a week of the month instead), no step can take the
/// approximation.
///
/// What the search may add is the searched month, for a set whose day is its
/// highest unit and still ahead; a candidate outside that month mismatches
/// the month first, so only February's could matter. Without a day it adds
/// nothing. With a sixth week of the month, from any day of February the
/// walks through it, the ordinal, the weekday and the day never end in
/// February (`WeekOfMonthCandidatesTests` walks them all, over every kind of
/// year): every year has a sixth week between March and November, and from
/// there the candidate stays within the next few months. With a day and an
/// earlier week of the month they do end there (`{day: 17, weekOfMonth: 2}`
/// from 1 February), and the check declines.
extension CalendarSearch {
    /// Whether no step's first candidate takes February's approximation, for
    /// a set with a week number and a week of the month (the sixth, when it
    /// has a day) and neither a year, a month nor a week-numbering year,
    /// searched from `start`, by the walks above; false whenever that is not
    /// certain.
    func weekOfMonthCandidatesMissFebruary(after start: Double) -> Bool {
        guard let weekOfMonth = pattern[.weekOfMonth], let week = pattern[.weekOfYear],
              weekOfMonth == 6 || pattern[.day] == nil, pattern[.month] == nil, pattern[.year] == nil,
              pattern[.yearForWeekOfYear] == nil, start.isFinite, abs(start) < 1e15,
              calendar.rules.transitionsLeaveMidnightAlone(from: Int(start.rounded(.down)) - 2 * 86_400) else { return false }
        // The units walked after the week of the month, without the week number and the
        // week of the month (the walks to them have been taken by then).
        var below = pattern
        below[.weekOfYear] = nil
        below[.weekOfMonth] = nil
        for year in 2001...2028 {
            let weekStart = ZoneCalendar.firstDayOfWeekYear(year) + 7 * (week - 1)
            // Week 53 exists in some years only; where it does not, no walk ends in it.
            guard weekStart + 7 <= ZoneCalendar.firstDayOfWeekYear(year + 1) else { continue }
            // Consecutive days of the week mostly reach the same week of the month: walked once.
            var lastLanding = Int.min
            for day in weekStart...(weekStart + 6) {
                guard candidateMissesFebruary(from: DayCursor(dayNumber: day), weekOfMonth, below, year: year,
                                              lastLanding: &lastLanding) else { return false }
            }
        }
        return true
    }

    /// Whether the candidate the match reaches from `cursor` (a day of the
    /// numbered week) through week `weekOfMonth` of a month and `below` stays
    /// clear of February's approximation; true without looking when the week
    /// it lands in starts on `lastLanding` (the same candidate), false when a
    /// walk runs out or leaves the year after `year`.
    private func candidateMissesFebruary(from cursor: DayCursor, _ weekOfMonth: Int, _ below: CalendarPattern, year: Int,
                                         lastLanding: inout Int) -> Bool {
        guard let landed = Self.walk(toWeekOfMonth: weekOfMonth, from: cursor, walkStart: cursor.dayNumber) else { return false }
        // A landing on the day walked from keeps the searched date's time (and
        // may pass midnight): not the same candidate as one reached at midnight.
        let key = landed.dayNumber == cursor.dayNumber ? ~landed.dayNumber : landed.dayNumber
        if key == lastLanding { return true }
        lastLanding = key
        guard let candidate = matchedDay(from: landed, below, before: Int.max), candidate.year <= year + 1 else { return false }
        guard takesNoFebruaryApproximation(candidate) else { return false }
        // Without a day, a candidate on the day walked from keeps its time, and the
        // time of day walked on from there may reach the next day. (Only when that
        // day shows every date unit: `cannotAnswer` then declines anyway.)
        guard below[.day] == nil, candidate.dayNumber == cursor.dayNumber else { return true }
        var next = candidate
        next.step()
        return takesNoFebruaryApproximation(next)
    }

    /// Whether a first candidate on the day under `cursor` stays clear of
    /// February's approximation: outside February, or with a unit ranked above
    /// the day's, the ordinal's and the week of the month's mismatched first.
    private func takesNoFebruaryApproximation(_ cursor: DayCursor) -> Bool {
        guard cursor.month == 2 else { return true }
        switch Self.highestDateMismatch(of: pattern, cursor) {
        case .day?, .weekdayOrdinal?, .weekOfMonth?, nil: return false
        default: return true
        }
    }
}
