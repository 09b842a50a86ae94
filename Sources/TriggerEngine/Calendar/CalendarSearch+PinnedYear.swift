/// A way out of searches pinned to a year they have left behind.
///
/// A set with a year (`{year: 2017, weekOfYear: 36, day: 26}`) or a
/// week-numbering year without a month or a day (`{yearForWeekOfYear: 2012,
/// weekOfMonth: 3}`; with a month, see below) sends every step of Foundation's search back to that
/// year: `_matchingDate` starts from its 1 January (or the start of its week
/// year) whenever the searched date lies in another. Once the search has moved
/// past that year, each step therefore starts from the same date with the same
/// components and finds the same candidate:
///
/// - the components the step matches are the set's own (`_adjustedComponents`
///   changes them only when the month or the day is the highest unit set, and a
///   year outranks both; the week-numbering case has neither);
/// - the candidate's approximations read the searched date only where they
///   match again from the end of the period containing it (a later date, in a
///   later year, which sends the match back to the pinned year too) or where a
///   missing day looks at the searched year (`adjustedForMissingDay`);
/// - accepting the candidate compares it with the search's start, the same
///   for every step.
///
/// The missing day's approximation is the one step that differs from year to
/// year (it matches the 1st of the following month in the searched year). It
/// needs a month and a day in the set and a candidate whose highest mismatched
/// unit is the year or the month, with the month or the day among the
/// mismatched ones. So a set without both a month and a day qualifies as it
/// is; a set with both qualifies when that one candidate, matched from the
/// pinned year's 1 January as every step past the year matches it, does not
/// take that way (`{year: 2009, month: 12, day: 18}` finds 18 December 2009
/// exactly, before the start, at every step; `{year: 2009, month: 2, day: 30}`
/// does not qualify). With a week-numbering year W as well, it qualifies
/// once the searched year is past W too: every date of week year W lies in
/// W − 1 or W, so no 1st of a later year shows it, and the missing day's
/// approximation finds nothing (`{year: 2001, month: 2, day: 3, weekday: 4,
/// weekdayOrdinal: 3, yearForWeekOfYear: 2014}` asked in 2037 took 101 steps).
/// The seeded tests catch the check from W − 1 on, not from W itself, whose
/// 1sts do lie in week year W: that bound is the proof's own.
///
/// A week-numbering year W with a month (and no year) pins too, from W +
/// `yearsPastWeekYear` on. `_adjustedComponents` adds the searched year Y
/// (or the next), so the components change from step to step, but only in
/// the year: the match goes to Y's 1 January and from there, since Y is not
/// W, back to W's start, and on to the same candidate C at every step, which
/// lies before Y (every match from W's start lies before that year). So the
/// year is C's highest mismatched unit: no February approximation (it needs
/// the day, the ordinal or the week of the month), no skipped hour (it needs
/// every other unit matched), and the missing day's match (with a day) is
/// the 1st of the month after in year Y, matched from the start back to W's
/// start, which lies before Y too and mismatches. The step answers C if C
/// shows the set's units and lies after the start, the same at every step.
///
/// So the first step past the pinned year that finds nothing is followed by
/// steps that find nothing, and the search can answer nil at once instead of
/// taking the rest of its 101 steps.
extension CalendarSearch {
    /// The last year in which a step's candidate may still depend on the date
    /// it searches from, or nil when the set does not pin one as above.
    var lastYearStepsDependOn: Int? {
        guard let year = pinnedYear else { return nil }
        guard pattern[.year] != nil, pattern.set.contains(.month) && pattern.set.contains(.day) else { return year }
        if pinnedCandidateSkipsMissingDay(year) { return year }
        return pattern[.yearForWeekOfYear].map { max(year, $0) }
    }

    /// The year the set pins as above, before asking whether a set with a
    /// month and a day keeps out of the missing day's approximation.
    private var pinnedYear: Int? {
        let set = pattern.set
        if let year = pattern[.year] { return year }
        // A week-numbering year W starts at the latest on 4 January of W and
        // ends at the latest on 3 January of W + 1: from W + 2 on, neither the
        // searched date nor a later one lies in it.
        if let weekYear = pattern[.yearForWeekOfYear], !set.contains(.month), !set.contains(.day) { return weekYear + 1 }
        // With a month (see above): from W + `yearsPastWeekYear` on.
        if let weekYear = pattern[.yearForWeekOfYear], set.contains(.month) { return weekYear + yearsPastWeekYear - 1 }
        return nil
    }

    /// Whether the candidate every step past `year` finds (matched from that
    /// year's 1 January, where `_matchingDate` sends any date of another year)
    /// keeps the step out of the missing day's approximation: its highest
    /// mismatched unit is below the month, or neither its month nor its day
    /// mismatches. False when the match throws (the search then ends anyway).
    private func pinnedCandidateSkipsMissingDay(_ year: Int) -> Bool {
        guard let candidate = try? matchingDate(after: januaryFirst(year), pattern) else { return false }
        let mismatched = mismatches(at: candidate, pattern)
        guard let bailed = mismatched.highest, bailed == .year || bailed == .month else { return true }
        return !mismatched.contains(.month) && !mismatched.contains(.day)
    }

    /// Whether a step from `searching` that found nothing means every later
    /// step finds nothing (the search then answers nil). `verdict` keeps the
    /// answer for a set with a month and a day once asked, so that the
    /// candidate is matched once per search, not once per step.
    func emptyStepRepeats(from searching: Double, verdict: inout Bool?) -> Bool {
        guard let year = pinnedYear, calendar.fields(searching).year > year else { return false }
        guard pattern[.year] != nil, pattern.set.contains(.month) && pattern.set.contains(.day) else { return true }
        // Past a week-numbering year W too, the missing day's match (the 1st of
        // a month in the searched year, in week year W) finds nothing: W's days
        // lie in W − 1 and W.
        if let weekYear = pattern[.yearForWeekOfYear], calendar.fields(searching).year > weekYear { return true }
        if let verdict { return verdict }
        let answer = pinnedCandidateSkipsMissingDay(year)
        verdict = answer
        return answer
    }
}
