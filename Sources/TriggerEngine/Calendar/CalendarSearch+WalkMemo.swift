/// The last walks to a week number and to a week of the month that one
/// search's steps on days took (`CalendarSearch+StepsOnDays`), to answer the
/// same walks from later days without walking.
///
/// Both walks visit every Sunday after the day they start from (a week at a
/// time; the walk to week 1 of a month, the next month's 1st, moves within
/// the month and then to that 1st) and stop at the day itself when its week
/// already has the number, else at the first Sunday that starts such a week.
/// So a walk from any day between a walk's start and its end ends where
/// that one did: none of the days before the end lies in such a week (the
/// Sunday starting its week would have stopped the first walk sooner), and
/// the Sundays after it are the first walk's. A step of a monthly rhythm
/// (`{day: 24, weekOfMonth: 6, weekOfYear: 40}` steps from every month's 1st)
/// walks from the 1st to the same week number for eleven months running,
/// and on from its month to the same month with a sixth week for two or
/// three; each step walks twice (the candidate, and the missing day's match
/// from 1 January), so each walk keeps two.
struct WalkMemo {
    /// A walk: to week `week`, from day `from`, ending on `end`.
    private struct Walk {
        var week = 0, from = Int.max
        /// (Never read before a walk sets it: `from` admits no day until then.)
        var end = DayCursor(firstOfMonth: 0, year: 1970, month: 1, weekday: 5, monthLength: 31)

        @inline(__always)
        func answers(_ week: Int, from day: Int) -> Bool { week == self.week && from <= day && day <= end.dayNumber }
    }

    private var weeksOfTheYear = (Walk(), Walk())
    private var weeksOfTheMonth = (Walk(), Walk())

    /// `CalendarSearch.weekWalk(from:to:)` as a cursor on the day it ends, or nil.
    @inline(__always)
    mutating func walk(toWeekOfYear week: Int, from cursor: DayCursor) -> DayCursor? {
        let day = cursor.dayNumber
        if weeksOfTheYear.0.answers(week, from: day) { return weeksOfTheYear.0.end }
        if weeksOfTheYear.1.answers(week, from: day) { return weeksOfTheYear.1.end }
        guard let reached = CalendarSearch.weekWalk(from: cursor, to: week) else { return nil }
        let end = reached == day ? cursor : DayCursor(dayNumber: reached)
        weeksOfTheYear = (Walk(week: week, from: day, end: end), weeksOfTheYear.0)
        return end
    }

    /// `CalendarSearch.walk(toWeekOfMonth:from:walkStart:)`: nil when the
    /// walk ends more than `dayStepWalkLimit` days after `walkStart` (it only
    /// moves forward, so its end is the day to check).
    @inline(__always)
    mutating func walk(toWeekOfMonth week: Int, from cursor: DayCursor, walkStart: Int) -> DayCursor? {
        let day = cursor.dayNumber
        var end: DayCursor
        if weeksOfTheMonth.0.answers(week, from: day) {
            end = weeksOfTheMonth.0.end
        } else if weeksOfTheMonth.1.answers(week, from: day) {
            end = weeksOfTheMonth.1.end
        } else {
            // Walked from the day itself, without a limit but the walk's own
            // from there (the memo keeps where the walk ends, not whether a
            // given start's limit allows it).
            guard let reached = CalendarSearch.walk(toWeekOfMonth: week, from: cursor, walkStart: day) else { return nil }
            end = reached
            weeksOfTheMonth = (Walk(week: week, from: day, end: end), weeksOfTheMonth.0)
        }
        return end.dayNumber - walkStart <= CalendarSearch.dayStepWalkLimit ? end : nil
    }
}
