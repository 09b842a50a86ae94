/// The steps of a search for a set with a year, or a week-numbering year and
/// a month, taken in the years before it.
///
/// `{year: 2029, month: 3, day: 4, weekday: 2}` asked in 2000 answers 1 April
/// 2030, but only after 30 steps of Foundation's search, one a year from 2000
/// to 2030, at a microsecond each; `{year: 2024, day: 15, hour: 14}` asked in
/// 2003 took 21. Take a set with a year Y (the highest unit set, so
/// `_adjustedComponents` changes nothing) and a step from S, the first
/// instant of a year y ≤ Y − 2. What the step reads of S:
///
/// - the match (`_matchingDate`) starts over from Y's 1 January, S's year
///   not being Y, and walks on from there: the candidate does not depend on
///   S, and lies on or after that 1 January;
/// - a match again after a mismatch starts from the end of the period above
///   the unit that bailed holding S (a day, an hour, a minute, a week, a month
///   or a week-numbering year: all end by 4 January of y + 1, a year before
///   Y), so it too starts over from Y's 1 January;
/// - the missing day's approximation reads S's month and day (1 January, the
///   same in every such year), looks four years ahead of S for 29 February
///   (to a year's start, from which the match goes to Y's 1 January again:
///   the year is Y or another), and matches the 1st of the following month in
///   the later of Y and S's year, Y, from the search's start;
/// - February's approximation and the skipped hour's read the candidate
///   only, and whether a candidate stands is decided against the search's
///   start, the same for every step;
/// - where the next step searches from: the end of S's year, or one lowest
///   unit after the match when that lies on or after it (any match does: it
///   lies in Y or later).
///
/// So every such step finds what the step from the first of them found. When
/// that step found nothing and the search goes on from the end of its year,
/// the steps from the start of each year up to Y − 2 do the same, and the
/// search goes straight to the start of Y − 1, counting the steps passed over.
/// (Y − 1 is taken in full: a week-numbering year's end from there may lie in
/// Y, where the match stays.)
///
/// A week-numbering year W with a month and no year pins the same way, W in
/// Y's place. `_adjustedComponents` adds y itself (the month is the highest
/// unit set, and the date it builds lies in W, after S). The match goes to
/// y's 1 January and, y not being W, back to W's start, and on to the same
/// candidate C at every step, which lies in W − 1, W or W + 1, so never in y
/// (y ≤ W − 2): the year is C's highest mismatched unit, no match again
/// follows, February's approximation and the skipped hour need other units
/// mismatched, and the missing day's matches (29 February four years ahead,
/// and the 1st of the month after in y, from the start or y's 1 January)
/// go back to W's start too and mismatch the year. The step answers C if C
/// shows the set's units and lies after the start, and otherwise finds
/// nothing and goes on from the end of y (or one lowest unit after C when C
/// was returned, which lies past it): the same at every such step.
/// (`{month: 2, day: 1, weekdayOrdinal: 5, yearForWeekOfYear: 2032}` asked
/// in 2005 took a step a year to 2030, 28 µs, before 30 Nov 2026.)
///
/// What the tests show of the conditions: the seeded queries answer the same
/// also when the steps are passed over to Y or to Y + 1, from any date of
/// the year rather than its start, or after a step that found a match in Y:
/// the steps from Y find nothing either in those sets, and a match in Y is
/// found again from Y − 1. Those bounds are the proof's own; dropping one
/// needs a proof, not a test.
extension CalendarSearch {
    /// Where the search goes on after a step from `searching` found nothing
    /// and chose `next`, when that passes over steps by the reasoning above:
    /// the start of Y − 1 (or W − 1) and the number of steps passed over; nil otherwise.
    func yearsBeforeThePinnedYear(after searching: Double, next: Double) -> (searching: Double, passedOver: Int)? {
        guard let year = pattern[.year] ?? (pattern[.month] != nil ? pattern[.yearForWeekOfYear] : nil) else { return nil }
        let searchedYear = calendar.interval(of: .year, containing: searching)
        guard searching == searchedYear.start, next == searchedYear.end else { return nil }
        let passedOver = year - 2 - calendar.fields(searching).year
        guard passedOver >= 1 else { return nil }
        // Where the bump from any instant of Y − 2 leads, as the steps would reach it.
        return (calendar.interval(of: .year, containing: januaryFirst(year - 2)).end, passedOver)
    }
}
