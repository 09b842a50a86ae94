/// `yearsPastWeekYear` counted in days, for a start just over a year past a
/// week-numbering year (`{day: 4, yearForWeekOfYear: 2028}` after October
/// 2029, which the two-year rule leaves to Foundation's 101 steps).
///
/// The reasoning is `cannotAnswer`'s for a week year well behind: once the
/// start lies past the week year W, every match a step tries (its own, a
/// match again after a mismatch, February's, a missing day's) starts over
/// from W's first day (or from 1 January of W, six days later at most, where a
/// set with a month makes the search add W as its year), and moves on through
/// the set's other units by at most: the numbered week's place in W, a year to
/// a month (set, or added when the day is the highest unit), the days
/// `candidateReach` allows for the week of the month, the ordinal and the
/// weekday, 61 to a day (Foundation's day walk stops at the end of the next
/// month), 29 to February's approximation (the end of the candidate's
/// February), and two days for the time of day and a skipped hour. A missing
/// day's match asks for the searched year, which no day of W shows. So when
/// the start lies more days past W's first day than that sum, and past W's
/// end, no step can accept a match.
extension CalendarSearch {
    /// The most days past the first day of its week-numbering year a step's
    /// match can lie, by the reasoning above, or nil when a 53rd week or a
    /// 6th week of the month makes it too far to be of use (`yearsPastWeekYear`
    /// counts those in years).
    var daysPastWeekYearStart: Int? {
        guard let lower = Self.candidateReach(after: pattern) else { return nil }
        var days = lower + 6 + 61 + 29 + 2
        if let week = pattern[.weekOfYear] {
            guard week <= 52 else { return nil }
            days += 7 * week
        }
        if pattern[.month] != nil || pattern[.day] != nil { days += 365 }
        return days
    }

    /// Whether the local day `startDay` lies past every match a step can try
    /// for the set's week-numbering year `weekYear` (see above).
    func startIsPastEveryMatch(ofWeekYear weekYear: Int, startDay: Int) -> Bool {
        guard let reach = daysPastWeekYearStart else { return false }
        let first = ZoneCalendar.firstDayOfWeekYear(weekYear)
        return startDay > first + reach && startDay >= ZoneCalendar.firstDayOfWeekYear(weekYear + 1)
    }
}
