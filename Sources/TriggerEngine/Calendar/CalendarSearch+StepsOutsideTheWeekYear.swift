/// The steps of a search for a week-numbering year W taken years before W,
/// or, for a set without a day, after it.
///
/// `{day: 7, hour: 18, minute: 11, weekdayOrdinal: 3, yearForWeekOfYear: 2031}`
/// asked in 2005 takes Foundation's search month by month through 2005–2013,
/// 101 steps of a microsecond or more, to nil; `{minute: 38, weekday: 2,
/// weekOfMonth: 1, yearForWeekOfYear: 2015}` asked in 2007 jumps into 2015 at
/// its first step and, past it, goes on hour by hour. Take a set with a
/// week-numbering year W and neither a year nor a month, and a step from a
/// date S before W whose calendar month ends by W's first day (any date of
/// W − 2 or earlier, the first eleven months of W − 1, and its December
/// when W starts on 1 January), or (for a set without a day) after W:
///
/// - `_adjustedComponents` adds S's month when the set has a day still ahead
///   of S's (the day is then the highest unit set); nothing else of S enters;
/// - the match (`_matchingDate`) has no year to set, and S's week-numbering
///   year is not W (after W: from W + 1's first day on, which may be one of
///   the last days of W's calendar year), so it starts over from W's first
///   day and walks on from there through the set's units: the candidate does
///   not depend on S;
/// - a match again after a mismatch starts from the end of a period holding
///   S (a day, a week, a month, or S's week-numbering year), which lies
///   outside W or is its first day (S's month ends by then, and so does a
///   week holding S: W starts on a Sunday): from W's first day too;
/// - the missing day's approximation (a set with a day, before W) looks for
///   the 1st of the month after S's in S's year, with W: starting from the
///   search's start or from 1 January of S's year, the match goes over to
///   W's first day, and what it finds lies in W's year or the next, or in
///   W − 1's last days, never on a 1st of S's year: nothing, whatever S;
/// - February's approximation and the skipped hour's read the candidate
///   only, and whether a candidate stands is decided against the search's
///   start, the same for every step.
///
/// So the step's outcome depends on its kind alone, the month added or none
/// (`kind(of:)`): it answers, ends the search, finds nothing and leaves the
/// search to go on from the end of S's period
/// (`bumpedDateUpToNextHigherUnitInComponents`), or, before W, finds
/// nothing after a match in W, from which the search goes on. The first
/// three stay the same from one S of the kind to another, and only the third
/// is followed here: the steps are taken once per kind and then passed over
/// period by period, and the search answers nil once every kind they can meet
/// is known to find nothing and, before W, the steps left cannot reach the
/// month before W's first day (a period is a month at most, or a
/// week-numbering year); after W they never come back. (After W, a set with a day is
/// `CalendarSearch+WeekYearLeftBehind`'s.)
///
/// After W starts on W + 1's first day, which lies in W's December unless W + 1
/// starts on 1 January: until 30 Nov 2026 the check waited for W + 1's calendar
/// year, and `{minute: 47, weekday: 3, weekdayOrdinal: 4, yearForWeekOfYear:
/// 2026}` asked in 2004 took its 101 steps hour by hour through 28–31 December
/// 2026 (week 1 of 2027), 48 µs, to nil.
///
/// What the tests show of the conditions: without the kind, the check that
/// a step left the search to its period's end, or the steps after W, the
/// seeded queries answer differently or the check claims fewer nils. With
/// every date before W's first day (W − 1's December, whose month ends
/// inside W, too) or a day for the month a step may move on by, they answer
/// the same, also from dates of W − 1 alone: those bounds are the proof's own.
extension CalendarSearch {
    /// What `stepsOutsideTheWeekYear(from:start:stepsLeft:)` found.
    enum WeekYearStepSkip: Equatable {
        /// The set does not qualify: do not ask again.
        case never
        /// No step left can answer: the search answers nil.
        case noAnswer
        /// The step from `searching`, `steps` steps on, is one to take in full
        /// (zero steps: the step from the date asked about).
        case stepFrom(searching: Double, steps: Int)
        /// A step taken here, `steps` steps on, answered (nil: it ended the search).
        case answered(Double?, steps: Int)
    }

    /// The steps from `searching` on, by the reasoning above, for a search
    /// from `start` with `stepsLeft` steps to go.
    func stepsOutsideTheWeekYear(from searching: Double, start: Double, stepsLeft: Int) -> WeekYearStepSkip {
        var kindsFindingNothing: UInt16 = 0
        return stepsOutsideTheWeekYear(from: searching, start: start, stepsLeft: stepsLeft, kindsFindingNothing: &kindsFindingNothing)
    }

    /// The same, starting from the kinds of step this search already found
    /// to find nothing (bit 0 for none, bit m for month m: each kind's step
    /// starts over at W's first day, so what one found holds for the search)
    /// and adding those it finds. `firstStepAfterWeekYear` takes them too.
    func stepsOutsideTheWeekYear(from searching: Double, start: Double, stepsLeft: Int,
                                 kindsFindingNothing known: inout UInt16) -> WeekYearStepSkip {
        guard let weekYear = pattern[.yearForWeekOfYear], pattern[.year] == nil, pattern[.month] == nil,
              weekYear < 9_990, weekYear > 2 else { return .never }
        // W's first day: before it, a step qualifies when the month holding
        // its date ends by then (see above), from W − 1's first eleven months on.
        let weekYearStart = ZoneCalendar.firstDayOfWeekYear(weekYear)
        // After W, for a set without a day (one with a day is WeekYearLeftBehind's):
        // from W + 1's first day, which may lie in W's last days of December.
        let firstDayAfter = pattern[.day] == nil ? ZoneCalendar.firstDayOfWeekYear(weekYear + 1) : Int.max
        // The kinds the steps after the first can meet: each starts its period,
        // a month's 1st when the set has a day (the day is then the highest unit).
        let later: UInt16 = pattern[.day].map { $0 > 1 ? 0b1_1111_1111_1110 : 1 } ?? 1
        // A date a month before W's first day lies in a month that ends by then.
        let stopDay = weekYearStart - 31
        // The longest period a step moves on by: a month (and an hour of a
        // transition), or a week-numbering year above a week number or alone.
        let highest = pattern.set.highest
        let periodDays = highest == .weekOfYear || highest == .yearForWeekOfYear ? 372 : 32
        // Before W, a step's missing day finds nothing (see `stepsFromOutsideTheWeekYear`).
        let beforeTheWeekYear = stepsFromOutsideTheWeekYear
        // Whether a step before W may be decided on day numbers (`findsNothingOnDays`):
        // asked of the zone at the first such step.
        var onDays: Bool?
        var searched = searching
        var taken = 0
        while taken < stepsLeft {
            let fields = calendar.fields(searched)
            let day = fields.dayNumber
            let after = day >= firstDayAfter
            let monthEnd = day - fields.day + 1 + CivilDate.daysInMonth(year: fields.year, month: fields.month)
            guard monthEnd <= weekYearStart || after else { return .stepFrom(searching: searched, steps: taken) }
            if taken > 0 && known & later == later
                && (after || day + periodDays * (stepsLeft - taken) < stopDay) {
                return .noAnswer
            }
            let kind = kind(of: fields)
            let periodEnd = bumped(searched, matchDate: nil) ?? searched
            guard periodEnd > searched else { return .stepFrom(searching: searched, steps: taken) }
            if known & 1 << kind == 0 && kind > 0 && !after && beforeTheWeekYear.missingDayFindsNothing {
                if onDays == nil { onDays = monthsMayBeMatchedOnDays(from: weekYearStart) }
                if onDays == true && findsNothingOnDays(monthAdded: kind, weekYearStart: weekYearStart) { known |= 1 << kind }
            }
            if known & 1 << kind == 0 {
                let (result, next): (Double?, Double)
                do {
                    // (Not `(after ? self : beforeTheWeekYear).step`: that copies the
                    // search, retaining and releasing its zone's tables, every step.)
                    if after {
                        (result, next) = try step(start: start, searching: searched)
                    } else {
                        (result, next) = try beforeTheWeekYear.step(start: start, searching: searched)
                    }
                } catch {
                    return .answered(nil, steps: taken)
                }
                if let result { return .answered(result, steps: taken) }
                // A match in W ahead: the search goes on from there, its own step.
                guard next == periodEnd else { return .stepFrom(searching: next, steps: taken + 1) }
                known |= 1 << kind
            }
            searched = periodEnd
            taken += 1
        }
        return .noAnswer
    }

    /// This search for the steps from outside the week-numbering year W of a
    /// set with a day that `stepsOutsideTheWeekYear` (before W) and
    /// `firstStepAfterWeekYear` (after it) take once per kind: both proofs
    /// show that such a step's missing day's match, asked for the 1st of a
    /// month in the step's calendar year with W, finds nothing, and it is
    /// not matched. Its match (from the search's start through W's first
    /// day and the set's units) took a third of each such step, a step a
    /// microsecond and a half, twelve of them a search. What skipping it could
    /// change is a throw that ends the search: of Foundation's throws, the
    /// sixth ordinal's is thrown by the step's own match first, walks that do
    /// not advance need an instant past the years the search handles, and the
    /// one of seconds carried past a minute needs a minute and a second set
    /// and an offset of seconds (New York's local mean time before 1883: the
    /// tests meet it), where the match is kept
    /// (`secondsStayInTheirMinuteAroundTheWeekYear`).
    var stepsFromOutsideTheWeekYear: CalendarSearch {
        guard pattern[.day] != nil, pattern[.month] == nil, secondsStayInTheirMinuteAroundTheWeekYear else { return self }
        var search = self
        search.missingDayFindsNothing = true
        return search
    }

    /// Days after W's first day that `findsNothingOnDays` lets a match walk.
    private static let daysMatchedOnDays = 1_500

    /// Whether the zone's transitions leave local midnight alone from two days
    /// before W's first day to `daysMatchedOnDays` after it (and three more),
    /// where `findsNothingOnDays` walks.
    func monthsMayBeMatchedOnDays(from weekYearStart: Int) -> Bool {
        calendar.transitionsLeaveMidnightAlone(from: (weekYearStart - 2) * 86_400,
                                               through: (weekYearStart + Self.daysMatchedOnDays + 3) * 86_400)
    }

    /// Whether the step of a kind that adds month `month` (the set's day
    /// still ahead), taken before W (or after it: `firstStepAfterWeekYear`),
    /// finds nothing and leaves the search to the end of its period, decided
    /// on day numbers rather than taken: a full step is a microsecond and a
    /// half, and a search before W took one for each of the twelve months.
    ///
    /// The step's match starts over at W's first day, 00:00, and walks through
    /// the set's units with the month added. Where the zone's transitions
    /// leave midnight alone (`monthsMayBeMatchedOnDays`), its date walks go
    /// from midnight to midnight, so its candidate lies on the day
    /// `matchedDay` reaches, and where no transition comes within three days
    /// of that day (`steadyOffset`: three days clear), the walks of the time of
    /// day stay on it.
    /// When that day's month is not the month added, the month is the
    /// highest unit that mismatches (the set has no year), so the missing
    /// day's approximation is asked, which finds nothing before W and after
    /// it (`stepsFromOutsideTheWeekYear`), and the step returns nothing with the
    /// end of its period (`bumpedDateUpToNextHigherUnitInComponents`) as the
    /// next date to search from. No throw can come first: the walks on days
    /// advance, no month has a sixth ordinal (the set's values are checked),
    /// and the throw of seconds carried past a minute needs a minute, a
    /// second and an offset of seconds, which `stepsFromOutsideTheWeekYear`
    /// leaves to the full step.
    /// Any other outcome (a match, February's approximation, a walk past
    /// `daysMatchedOnDays`) is left to the full step.
    func findsNothingOnDays(monthAdded month: Int, weekYearStart: Int) -> Bool {
        var toMatch = pattern
        toMatch[.month] = month
        guard let candidate = matchedDay(from: DayCursor(dayNumber: weekYearStart), toMatch,
                                         before: weekYearStart + Self.daysMatchedOnDays),
              Self.highestDateMismatch(of: toMatch, candidate) == .month else { return false }
        let midnight = candidate.dayNumber * 86_400
        return calendar.steadyOffset(from: midnight - 86_400, to: midnight + 2 * 86_400) != nil
    }

    /// Whether a match in or after the set's week-numbering year W (whose
    /// walks start over at W's first day) cannot throw for seconds carried
    /// past its minute: the set lacks a minute or a second, or every offset
    /// of the zone from a year before W's first day on is a whole number of
    /// minutes (`ZoneRules.offsetsAreWholeMinutes(from:)`). True without W.
    var secondsStayInTheirMinuteAroundTheWeekYear: Bool {
        guard let weekYear = pattern[.yearForWeekOfYear], pattern[.minute] != nil, pattern[.second] != nil else { return true }
        return calendar.rules.offsetsAreWholeMinutes(from: (ZoneCalendar.firstDayOfWeekYear(weekYear) - 366) * 86_400)
    }

    /// The kind of a step from a date with these fields: the month
    /// `_adjustedComponents` adds (the set's day still ahead), or 0.
    private func kind(of fields: ZoneCalendar.Fields) -> Int {
        guard let day = pattern[.day], day > fields.day else { return 0 }
        return fields.month
    }
}
