/// A way out of searches for a day in a week-numbering year they have left
/// behind.
///
/// `{day: 21, weekOfMonth: 6, yearForWeekOfYear: 2045}` asked in 2030 takes
/// Foundation's search to 2046 in a step or two and then month by month to its
/// 101st step, nil. The day is the highest unit set, so each step matches with
/// the searched month added while the day is still ahead in it
/// (`_adjustedComponents`), and that is the only way the date searched from
/// enters a step once it lies in a calendar year after the week year W. Take a
/// set with a week-numbering year and a day, and neither a year nor a month,
/// and a step from a date S in a year Y > W:
///
/// - the match (`_matchingDate`) has no year to set; S's week-numbering year is
///   Y or Y + 1, not W, so it starts over from W's first day, wherever S is,
///   and goes on through the set's units and the month added, if any;
/// - a match again after a mismatch starts from the end of a period holding S,
///   later still, so from W's first day too, with the set's own units;
/// - February's approximation and the skipped hour's read the candidate only;
/// - the missing day's approximation (a month added and the day or the month
///   mismatched) looks for the 1st of the next month in year Y with the set's
///   week-numbering year W: no date is both (every date of week year W lies
///   before 1 January of W + 1), so it finds nothing, whatever Y; its match
///   starts from the search's start, then W's first day, as the others;
/// - whether a candidate stands is decided against the search's start, the
///   same for every step.
///
/// So such a step answers or finds nothing (or ends the search, where a walk
/// does not advance) by the month added alone: one of twelve, or none. When
/// the step for each of those, asked once from a date that gives it, finds
/// nothing or ends the search, every step from a year after W does, and the
/// search answers nil as soon as it reaches one, instead of stepping on month
/// by month. (How the search moves between such steps does not matter: each
/// is one of the thirteen.)
extension CalendarSearch {
    /// The week-numbering year of a set this applies to (a week-numbering year
    /// and a day, no year and no month), or nil.
    var weekYearOfDaySearch: Int? {
        guard let weekYear = pattern[.yearForWeekOfYear], pattern[.day] != nil, pattern[.year] == nil,
              pattern[.month] == nil, weekYear < 9_990 else { return nil }
        return weekYear
    }

    /// Whether no step from a date in a calendar year after `weekYear` can
    /// answer the search from `start`, by the reasoning above; false whenever
    /// that is not certain. The months are asked from `month` on, the one the
    /// search is in: where the next steps answer, that is found first.
    func noStepAfterWeekYearAnswers(_ weekYear: Int, start: Double, fromMonth month: Int = 1) -> Bool {
        guard let day = pattern[.day], (1...12).contains(month) else { return false }
        // A 1st adds its month (unless the day is the 1st); a 31st adds none.
        var searched: [(month: Int, day: Int)] = day > 1 ? (0..<12).map { ((month - 1 + $0) % 12 + 1, 1) } : []
        searched.append((1, 31))
        for (month, dayOfMonth) in searched {
            guard let date = localMidnight(month: month, day: dayOfMonth, after: weekYear) else { return false }
            do {
                if try step(start: start, searching: date).0 != nil { return false }
            } catch {
                // A step that throws ends the search with nil wherever it comes up.
                continue
            }
        }
        return true
    }

    /// 00:00 (or the day's first instant) of `month`/`day` in the first year
    /// after `year` in which the zone keeps that local day, looking a few years on.
    private func localMidnight(month: Int, day: Int, after year: Int) -> Double? {
        for candidate in (year + 1)...(year + 8) {
            let date = calendar.midnight(ofDay: CivilDate.days(year: candidate, month: month, day: day))
            let fields = calendar.fields(date)
            if fields.year == candidate && fields.month == month && fields.day == day { return date }
        }
        return nil
    }
}
