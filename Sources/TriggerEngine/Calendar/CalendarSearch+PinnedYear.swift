/// A way out of searches pinned to a year they have left behind.
///
/// A set with a year (`{year: 2017, weekOfYear: 36, day: 26}`) or a
/// week-numbering year without a month or a day (`{yearForWeekOfYear: 2012,
/// weekOfMonth: 3}`) sends every step of Foundation's search back to that
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
///   missing day looks at the searched year (`adjustedForMissingDay`, which
///   needs a month and a day in the set: such sets are left out);
/// - accepting the candidate compares it with the search's start, the same
///   for every step.
///
/// So the first step past the pinned year that finds nothing is followed by
/// steps that find nothing, and the search can answer nil at once instead of
/// taking the rest of its 101 steps.
extension CalendarSearch {
    /// The last year in which a step's candidate may still depend on the date
    /// it searches from, or nil when the set does not pin one as above.
    var lastYearStepsDependOn: Int? {
        let set = pattern.set
        guard !(set.contains(.month) && set.contains(.day)) else { return nil }
        if let year = pattern[.year] { return year }
        // A week-numbering year W starts at the latest on 4 January of W and
        // ends at the latest on 3 January of W + 1: from W + 2 on, neither the
        // searched date nor a later one lies in it.
        if let weekYear = pattern[.yearForWeekOfYear], !set.contains(.month), !set.contains(.day) { return weekYear + 1 }
        return nil
    }

    /// Whether a step from `searching` that found nothing means every later
    /// step finds nothing (the search then answers nil).
    func emptyStepRepeats(from searching: Double) -> Bool {
        guard let lastYear = lastYearStepsDependOn else { return false }
        return calendar.fields(searching).year > lastYear
    }
}
