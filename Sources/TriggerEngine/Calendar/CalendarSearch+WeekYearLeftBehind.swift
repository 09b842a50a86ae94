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
/// does not advance) by the month added alone: one of twelve, or none. Every
/// match such a step tries lies in W, before the step's date, so a step that
/// finds nothing searches next from the end of its month, and the search's
/// steps from there on are known after thirteen kinds of step at most, each
/// asked once from a date that gives it: the search answers with the first
/// that answers (or nil at the first that ends it, or when none does) instead
/// of stepping on month by month, taking each step twice.
extension CalendarSearch {
    /// The week-numbering year of a set this applies to (a week-numbering year
    /// and a day, no year and no month), or nil.
    var weekYearOfDaySearch: Int? {
        guard let weekYear = pattern[.yearForWeekOfYear], pattern[.day] != nil, pattern[.year] == nil,
              pattern[.month] == nil, weekYear < 9_990 else { return nil }
        return weekYear
    }

    /// What the search from `searching`, a date in a calendar year after
    /// `weekYear`, comes to by the reasoning above, taking its steps in its own
    /// order: the step from `searching`, then one from the 1st of each month
    /// after (a step that finds nothing searches next from the end of its
    /// month: every match it tried lies in W, before that). Each step is one
    /// of the thirteen kinds and each kind is taken once. The first step that
    /// answers gives the answer, one that throws ends the search (nil), and
    /// when twelve months pass without either nothing can answer (nil);
    /// `stepsAhead` counts the steps before that one. Nil when the reasoning
    /// does not apply or a date cannot be made.
    ///
    /// `kindsFindingNothing` (bit 0 for none, bit m for month m) are the kinds
    /// this search's steps before W found to find nothing
    /// (`stepsOutsideTheWeekYear`): those steps started over at W's first day
    /// with the same month added, so they matched, approximated and were
    /// judged as the steps after W are, and are not taken again.
    func firstStepAfterWeekYear(_ weekYear: Int, start: Double, searching: Double,
                                kindsFindingNothing: UInt16 = 0) -> (answer: Double?, stepsAhead: Int)? {
        guard let day = pattern[.day] else { return nil }
        let fields = calendar.fields(searching)
        guard fields.year > weekYear else { return nil }
        // The outcome of each kind of step, by the month it adds (0: none).
        let afterTheWeekYear = stepsFromOutsideTheWeekYear
        var outcomes = (0...12).map { kindsFindingNothing & 1 << $0 != 0 ? StepKindOutcome.nothing : nil }
        // A kind that adds a month may be decided on day numbers, as before W
        // (`findsNothingOnDays`); the zone asked at the first such kind.
        let weekYearStart = ZoneCalendar.firstDayOfWeekYear(weekYear)
        var onDays: Bool?
        for ahead in 0...12 {
            let month = (fields.month - 1 + ahead) % 12 + 1
            let dayOfMonth = ahead == 0 ? fields.day : 1
            let kind = day > dayOfMonth ? month : 0
            if outcomes[kind] == nil && kind > 0 && afterTheWeekYear.missingDayFindsNothing {
                if onDays == nil { onDays = monthsMayBeMatchedOnDays(from: weekYearStart) }
                if onDays == true && findsNothingOnDays(monthAdded: kind, weekYearStart: weekYearStart) { outcomes[kind] = .nothing }
            }
            if outcomes[kind] == nil {
                // A step from a 1st adds its month; one from a 31st adds none.
                let from = ahead == 0 ? searching : localMidnight(month: kind == 0 ? 1 : kind, day: kind == 0 ? 31 : 1, after: weekYear)
                guard let from else { return nil }
                do {
                    outcomes[kind] = try afterTheWeekYear.step(start: start, searching: from).0.map(StepKindOutcome.answers) ?? .nothing
                } catch {
                    outcomes[kind] = .endsTheSearch
                }
            }
            switch outcomes[kind] {
            case let .answers(answer)?: return (answer, ahead)
            case .endsTheSearch?: return (nil, ahead)
            default: continue
            }
        }
        return (nil, 0)
    }

    /// What one kind of step does (see above).
    private enum StepKindOutcome {
        case nothing, endsTheSearch
        case answers(Double)
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
