/// Steps over the years of a search for a month and a day in which no step
/// can answer.
///
/// `{month: 7, day: 20, weekdayOrdinal: 1}` never matches (the 20th is always
/// a third weekday), but the 1st of August is always a first one, so the
/// missing day's approximation might answer it and `cannotAnswer` lets it
/// through; Foundation then takes all its 101 steps, one a year, and answers
/// nil. Which years' steps can answer is a matter of the calendar, by the
/// following.
///
/// Take a set with a month M and a day d, without a year, a week-numbering
/// year or a week number (the month is then the highest unit set, and nothing
/// walks before the month), in a zone whose transitions leave local midnight
/// alone (no day lost, every day and month starting at 00:00), and a step
/// from a date S in a year Y after the year of the search's start, in a month
/// before M. It pins the year to Y (`_adjustedComponents`: S lies before the
/// date the components give in Y), and its match from S finds the year,
/// walks to the 1st of M, and from there through the week of the month, the
/// weekday ordinal and the weekday (`walkFromTheFirst`). Then either:
///
/// - (a) that walk ends in M on or before the d-th, a day M has: the day walk
///   ends on the d-th of M, and the time of day on that day (an hour or more
///   from any transition's midnight). When that day does not show the set's
///   date units, the candidate's year, month and day match and some unit
///   below mismatches: no skipped hour (it needs every date unit to match),
///   no missing day (it needs the year or the month to bail), and no
///   February (the candidate lies in M; asked only for March on). The
///   search matches again from the end of the period above the unit that
///   bailed (a day, an hour, a month or a week holding S, all ending before
///   the 1st of M when S's month is M − 2 or earlier), from where the walk
///   gives the same day of M: no match again, and the next step starts at the
///   end of the year holding S, 1 January of Y + 1;
/// - (b) or it ends in M after the d-th, or d is a day M lacks: the day walk
///   goes on into the next month, so the candidate's month mismatches, and the
///   search takes the missing day's way (`adjustedForMissingDay`; for
///   February, its look four years ahead matches from 1 January of Y again,
///   the same candidate). That matches the 1st of the month after M in Y,
///   from Y's 1 January since the start lies in an earlier year, through the
///   other units: when that 1st does not show them the match misses it, the
///   step finds nothing, and the next starts at 1 January of Y + 1. (December
///   differs: see `stepMayAnswer`.)
///
/// A walk that leaves M (a 5th ordinal, a 5th week of the month or a weekday
/// M has no more of) ends within the next few months: a candidate in another
/// month, which is case (b) again, for M up to November.
///
/// Anything else (a 6th week of the month, or a walk leaving December, or the
/// day (a) or (b) reaches shows the units, or (a) with S in the month before
/// M or in February) is a year whose step may answer, and the search takes
/// it. Each year's case depends on the year's kind only (leap or not × the
/// weekday of 1 January fixes M's days and the next month's 1st), and from
/// the second year on S is 1 January. So the search can go straight to
/// 1 January of the first year whose step may answer, or answer nil when no
/// such year is left in its 101 steps. (The start's year, the zone and the
/// two months before M keep the proof short: the tests' seeded queries answer
/// the same without each of them, so dropping one needs a proof, not a test.)
extension CalendarSearch {
    /// What `yearsWithoutAnswer(from:start:stepsLeft:)` found.
    enum YearSkip: Equatable {
        /// The set or the zone does not qualify: do not ask again.
        case never
        /// `searching` is not (yet) a date to skip from: ask at a later step.
        case notYet
        /// No step left can answer: the search answers nil.
        case noAnswer
        /// The step from 1 January of `year`, `steps` steps on, is the first
        /// that may answer (zero steps: the step from `searching` itself).
        case stepFrom(year: Int, steps: Int)
    }

    /// The years without an answer from `searching` on, by the reasoning
    /// above, for a search from `start` with `stepsLeft` steps to go.
    func yearsWithoutAnswer(from searching: Double, start: Double, stepsLeft: Int) -> YearSkip {
        guard let month = pattern[.month], let day = pattern[.day], month >= 2, pattern[.year] == nil,
              pattern[.yearForWeekOfYear] == nil, pattern[.weekOfYear] == nil else { return .never }
        let fields = calendar.fields(searching)
        guard fields.month < month, fields.year > calendar.fields(start).year else { return .notYet }
        let from = Int(searching.rounded(.down))
        guard calendar.transitionsLeaveMidnightAlone(from: from, through: from + (stepsLeft + 1) * 366 * 86_400) else {
            return .notYet
        }
        // The first year's step starts from S; every later one from 1 January.
        if Self.stepMayAnswer(pattern, month: month, day: day, year: fields.year, searchedMonth: fields.month) {
            return .stepFrom(year: fields.year, steps: 0)
        }
        var kinds = [Int8](repeating: -1, count: 14)
        for steps in 1..<max(1, stepsLeft) {
            let year = fields.year + steps
            let kind = (CivilDate.isLeapYear(year) ? 7 : 0) + CivilDate.weekday(ofDays: CivilDate.days(year: year, month: 1, day: 1)) - 1
            if kinds[kind] < 0 {
                kinds[kind] = Self.stepMayAnswer(pattern, month: month, day: day, year: year, searchedMonth: 1) ? 1 : 0
            }
            if kinds[kind] == 1 { return .stepFrom(year: year, steps: steps) }
        }
        return .noAnswer
    }

    /// Whether the step from a date in `searchedMonth` of `year` may answer,
    /// on the calendar: false only for cases (a) and (b) above when the day
    /// they reach does not show the set's units.
    static func stepMayAnswer(_ pattern: CalendarPattern, month: Int, day: Int, year: Int, searchedMonth: Int) -> Bool {
        guard let walked = walkFromTheFirst(pattern, month: month, year: year) else {
            // (b), the walk leaving M: with a week of the month up to the 5th
            // (a 6th may walk on for many months) it ends within the next few
            // months, not in December (then the following 1st is January's,
            // of the year before the candidate's).
            guard month <= 11, pattern[.weekOfMonth].map({ $0 <= 5 }) ?? true else { return true }
            return followingFirstShowsUnits(pattern, month: month, firstDay: CivilDate.days(year: year, month: month + 1, day: 1))
        }
        if walked.day <= day && day <= walked.monthLength {
            // (a): the candidate is the d-th of M.
            guard month >= 3 && searchedMonth <= month - 2 else { return true }
            return showsDateUnits(of: pattern, DayCursor(dayNumber: walked.dayNumber + day - walked.day))
        }
        // (b), December: the day walk stops at the 31st (Foundation's day walk
        // ends where the month number is two or more away, and January's is
        // eleven), so the candidate's day mismatches and the search matches again
        // from the end of the period holding S, from the 1st of December when S
        // lies in October or earlier: the 31st again, which shows no other day.
        if month == 12 { return searchedMonth > month - 2 }
        return followingFirstShowsUnits(pattern, month: month, firstDay: walked.dayNumber + walked.monthLength - walked.day + 1)
    }

    /// Whether the 1st of the month after `month` (the day number `firstDay`)
    /// shows the set's units other than the month and the day: then the
    /// missing day's match, which walks from that 1st through them, stays on it.
    private static func followingFirstShowsUnits(_ pattern: CalendarPattern, month: Int, firstDay: Int) -> Bool {
        var following = pattern
        following[.month] = month % 12 + 1
        following[.day] = 1
        return showsDateUnits(of: following, DayCursor(dayNumber: firstDay))
    }

    /// Where `_matchingDate`'s walk from the 1st of `month` in `year` through
    /// the set's week of the month, weekday ordinal and weekday ends, or nil
    /// when it leaves the month. The walks, on days: the first day from there
    /// in the week of the month; unless that day shows the ordinal, the first
    /// day after it with the ordinal (and the weekday, when set); the first
    /// day from there on the weekday.
    static func walkFromTheFirst(_ pattern: CalendarPattern, month: Int, year: Int) -> DayCursor? {
        var cursor = DayCursor(dayNumber: CivilDate.days(year: year, month: month, day: 1))
        /// Steps on while `goOn` holds (at least once when `once`); false when that leaves the month.
        func step(once: Bool = false, while goOn: (DayCursor) -> Bool) -> Bool {
            var first = once
            while first || goOn(cursor) {
                first = false
                cursor.step()
                if cursor.month != month { return false }
            }
            return true
        }
        if let week = pattern[.weekOfMonth], !step(while: { $0.weekOfMonth != week }) { return nil }
        if let ordinal = pattern[.weekdayOrdinal], cursor.weekdayOrdinal != ordinal {
            let weekday = pattern[.weekday]
            guard step(once: true, while: { $0.weekdayOrdinal != ordinal || (weekday != nil && $0.weekday != weekday) }) else {
                return nil
            }
        }
        if let weekday = pattern[.weekday], !step(while: { $0.weekday != weekday }) { return nil }
        return cursor
    }
}
