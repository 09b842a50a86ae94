/// The search behind `CalendarTrigger.nextTriggerDate(after:in:)`: Foundation's
/// `Calendar.nextDate(after:matching:matchingPolicy: .nextTime,
/// repeatedTimePolicy: .first, direction: .forward)`, step for step, on
/// `ZoneCalendar`'s integer arithmetic instead of ICU-style field calls.
///
/// Why reproduce the steps rather than "the earliest matching instant": the
/// contract is Foundation's answer, and Foundation's answer is defined by its
/// search. `{day: 5, minute: 30}` fires at 00:30 on the 5th and never at 11:30;
/// `{day: 31}` after 5 April gives 1 May 00:00 (the nonexistent 31 April
/// approximated by the next time); `{month: 2, day: 29}` outside a leap year
/// gives 1 March. Each rule below names the Foundation step it reproduces
/// (swift-foundation, `Calendar_Enumerate.swift`).
struct CalendarSearch: Sendable {
    let calendar: ZoneCalendar
    let pattern: CalendarPattern

    /// Foundation gives up after 101 search steps without a result
    /// (`STOP_EXHAUSTIVE_SEARCH_AFTER_MAX_ITERATIONS` = 100, counted from 0).
    static let stepLimit = 101

    /// Whether a search checks whether it can answer at all
    /// (`CalendarSearch+NoAnswer` after a few steps, `CalendarSearch+PinnedYear`
    /// after each step that found nothing, `CalendarSearch+WeekYearLeftBehind`
    /// once past the week year) and skips the years in which it
    /// cannot (`CalendarSearch+StepsBeforeTheMonth`, and before a set's year
    /// `CalendarSearch+YearsBeforeThePinnedYear`), follows such steps on
    /// day numbers (`CalendarSearch+StepsOnDays`) or takes the steps outside a
    /// week-numbering year once per kind (`CalendarSearch+StepsOutsideTheWeekYear`);
    /// off only in the tests that compare those checks with the whole search.
    var askingWhetherAnyAnswer = true

    /// Whether this search's steps skip the missing day's match
    /// (`adjustedForMissingDay`) and take it to find nothing: set only on the
    /// copy that takes the steps a proof shows it finds nothing for (a
    /// week-numbering year's steps from outside it: `stepsFromOutsideTheWeekYear`).
    var missingDayFindsNothing = false

    /// Whether the steps on days look up the outcomes they kept by kind of
    /// year (`CalendarSearch+StepsOnDays`); off only in the tests that
    /// compare the steps with and without (everything else, the walks'
    /// bounds included, stays the same).
    var lookingUpDayStepOutcomes = true

    /// Raised where Foundation's search throws (a step that does not advance):
    /// the whole search then answers nil.
    struct Abort: Error {}

    /// What a step learned about an approximate match.
    private struct MatchFlags {
        var exact = true
        var forwardDST = false
        var leapDay = false
        /// The latest date an approximation's own match ended on (see `step(start:searching:reached:)`).
        var reached = -Double.infinity
    }

    /// This search with its calendar centred on the constant-offset span of
    /// `instant` (itself when it already is). A search kept across many queries
    /// (a dispatcher's shared search, a lazy sequence of fires) calls this
    /// before each: outside its span the closed-form answers do not apply and
    /// every query takes the step-by-step path. In a zone with daylight time
    /// that is a new calendar about twice a year.
    func centred(on instant: Double) -> CalendarSearch {
        calendar.spanContains(instant) ? self
            : CalendarSearch(calendar: ZoneCalendar(rules: calendar.rules, near: instant), pattern: pattern,
                             askingWhetherAnyAnswer: askingWhetherAnyAnswer)
    }

    /// The next matching instant strictly after `start`, or nil; nil too when
    /// the match is past year 9999 (`InstantBounds`: the series ends there,
    /// where Foundation would go on to `yearForWeekOfYear=20046`).
    /// - Complexity: at most `stepLimit` steps; each step is a bounded number of
    ///   O(log t) field computations.
    func next(after start: Double) -> Double? {
        next(after: start, searchingFrom: start)
    }

    /// `next(after:)` with its first step searching from `first` instead of
    /// `start` (matches are still compared with `start`): the rest of a search
    /// whose steps have reached `first`, with the whole step budget. The
    /// tests' way to check what a shortcut claims about the steps from a date.
    func next(after start: Double, searchingFrom first: Double) -> Double? {
        guard !pattern.set.isEmpty, start < InstantBounds.seconds.upperBound else { return nil }
        if first == start, let direct = directNext(after: start) { return InstantBounds.fire(direct) }
        var searching = first
        var pinnedVerdict: Bool?
        // The search re-centred for long searches (below); a plain value, not an
        // optional: unwrapping one copied the whole search, retaining its zone,
        // at every step (a sixth of a Sydney search crossing a transition a step).
        var recentred = self
        var skippingYears = askingWhetherAnyAnswer
        var followingDays = askingWhetherAnyAnswer
        var outsideWeekYear = askingWhetherAnyAnswer
        var weekYearBehind = askingWhetherAnyAnswer ? weekYearOfDaySearch : nil
        // The kinds of step before a week-numbering year found to find nothing,
        // for the steps after it too (`CalendarSearch+StepsOutsideTheWeekYear`).
        var kindsFindingNothing: UInt16 = 0
        // What the steps on days learnt, for their next call (`DayStepMemos`).
        var dayStepMemos = DayStepMemos()
        // The steps that found nothing, by kind of year (`CalendarSearch+YearKindMemo`).
        var yearKinds = yearKindMemo(after: start)
        var stepIndex = 0
        while stepIndex < Self.stepLimit {
            if stepIndex == Self.stepsBeforeAskingWhetherAnyAnswer && askingWhetherAnyAnswer && cannotAnswer(after: start) {
                return nil
            }
            if stepIndex >= 1, let weekYear = weekYearBehind {
                // A day in a week-numbering year left behind: asked once, from
                // the second step on (`CalendarSearch+WeekYearLeftBehind`).
                // Its thirteen steps each start over in that week year, far
                // from the calendar's centre: the cheap check goes first.
                if calendar.fields(searching).year > weekYear {
                    weekYearBehind = nil
                    if cannotAnswer(after: start) { return nil }
                    if let (answer, ahead) = firstStepAfterWeekYear(weekYear, start: start, searching: searching,
                                                                    kindsFindingNothing: kindsFindingNothing) {
                        guard let answer, stepIndex + ahead < Self.stepLimit else { return nil }
                        return InstantBounds.fire(answer)
                    }
                }
            }
            if skippingYears && stepIndex >= Self.stepsBeforeAskingWhetherAnyAnswer {
                // Years whose steps cannot answer (`CalendarSearch+StepsBeforeTheMonth`)
                // are passed over to 1 January of the first that may.
                switch yearsWithoutAnswer(from: searching, start: start, stepsLeft: Self.stepLimit - stepIndex) {
                case .never: skippingYears = false
                case .notYet: break
                case .noAnswer: return nil
                case let .stepFrom(year, steps):
                    if steps > 0 {
                        searching = januaryFirst(year)
                        stepIndex += steps
                    }
                }
            }
            if outsideWeekYear && stepIndex >= 1 {
                // Steps years before the set's week-numbering year, or after
                // it, are taken once per kind (`CalendarSearch+StepsOutsideTheWeekYear`);
                // the search takes those from W − 1 to W itself.
                switch stepsOutsideTheWeekYear(from: searching, start: start, stepsLeft: Self.stepLimit - stepIndex,
                                               kindsFindingNothing: &kindsFindingNothing) {
                case .never: outsideWeekYear = false
                case .noAnswer: return nil
                case let .answered(answer, _): return answer.flatMap(InstantBounds.fire)
                case let .stepFrom(date, steps):
                    searching = date
                    stepIndex += steps
                    if stepIndex >= Self.stepLimit { return nil }
                }
            }
            if followingDays && stepIndex >= 1 {
                // Steps of a set without a month or a year that cannot answer
                // (`CalendarSearch+StepsOnDays`) are followed on day numbers,
                // from the second step on (a step taken costs as much as ten
                // followed; `cannotAnswer` is asked on the way, at the 4th).
                let asking = stepIndex < Self.stepsBeforeAskingWhetherAnyAnswer ? Self.stepsBeforeAskingWhetherAnyAnswer - stepIndex : nil
                switch stepsOnDays(from: searching, start: start, stepsLeft: Self.stepLimit - stepIndex, stepsBeforeAsking: asking,
                                   memos: &dayStepMemos) {
                case .never: followingDays = false
                case .notYet: break
                case .noAnswer: return nil
                case let .stepFrom(date, steps):
                    searching = date
                    stepIndex += steps
                }
            }
            do {
                let (result, newSearchDate): (Double?, Double)
                if stepIndex < Self.stepsBeforeAskingWhetherAnyAnswer {
                    (result, newSearchDate) = try step(start: start, searching: searching)
                } else {
                    // A long search steps on a calendar centred on the constant-offset
                    // span of the date it searches from: a step years from the start
                    // otherwise reads every offset from the transition table instead
                    // of with two comparisons. (The first steps keep the query's own
                    // calendar: for short searches re-centring cost more than it saved.)
                    let place = yearKinds?.place(searching: searching, start: start)
                    if let place, let run = yearKinds?.run(from: searching, place, start: start,
                                                           stepsLeft: Self.stepLimit - stepIndex) {
                        // Steps of kinds already taken, looked up one after another;
                        // the checks above are asked again after the last of them.
                        searching = run.last
                        stepIndex += run.steps - 1
                        (result, newSearchDate) = (nil, run.next)
                    } else {
                        if !recentred.calendar.spanContains(searching) { recentred = recentred.centred(on: searching) }
                        var reached = searching
                        (result, newSearchDate) = try recentred.step(start: start, searching: searching, reached: &reached)
                        if let place, result == nil {
                            yearKinds?.keep(place, reached: reached, searching: searching, next: newSearchDate)
                            if yearKinds?.isSpent == true { yearKinds = nil }
                        }
                    }
                }
                if let result { return InstantBounds.fire(result) }
                if askingWhetherAnyAnswer && emptyStepRepeats(from: searching, verdict: &pinnedVerdict) { return nil }
                if askingWhetherAnyAnswer, let skip = yearsBeforeThePinnedYear(after: searching, next: newSearchDate) {
                    // The steps from the years before the set's year, passed over
                    // (`CalendarSearch+YearsBeforeThePinnedYear`); whether the search
                    // can answer at all is still asked where the 4th step would.
                    if stepIndex < Self.stepsBeforeAskingWhetherAnyAnswer
                        && stepIndex + 1 + skip.passedOver > Self.stepsBeforeAskingWhetherAnyAnswer && cannotAnswer(after: start) {
                        return nil
                    }
                    searching = skip.searching
                    stepIndex += skip.passedOver
                } else {
                    searching = newSearchDate
                }
            } catch {
                return nil
            }
            stepIndex += 1
        }
        return nil
    }

    // MARK: - One step (`_enumerateDatesStep`)

    /// One step of the search from `searching`: the match it accepts, if any,
    /// and where the next step searches from.
    func step(start: Double, searching: Double) throws(Abort) -> (Double?, Double) {
        var reached = searching
        return try step(start: start, searching: searching, reached: &reached)
    }

    /// `step(start:searching:)`, raising `reached` to the latest date the step
    /// produced: a match (its own, an approximation's, the date its pinned
    /// year names) or where the next step searches from. Every walk moves
    /// forward from where it starts to the match it returns, and reads the
    /// calendar no later than a day (an hour, a month's end for the week of
    /// the month) past it; what the step reads lies between a week before
    /// `searching` and a month past `reached` (`CalendarSearch+YearKindMemo`
    /// keys the step on the kinds of those years only).
    func step(start: Double, searching: Double, reached: inout Double) throws(Abort) -> (Double?, Double) {
        let toMatch = adjustedPattern(at: searching, reached: &reached)
        let unadjusted = try matchingDate(after: searching, toMatch)
        reached = max(reached, unadjusted)
        let (result, next) = try adjustedResult(unadjusted, start: start, toMatch: toMatch, searching: searching, reached: &reached)
        reached = max(reached, next)
        return (result, next)
    }

    /// `_adjustedComponents`: when month is the highest unit set, the search
    /// pins the year (next year once this year's date has passed); when day is,
    /// it pins the current month if the day is still ahead in it.
    private func adjustedPattern(at searching: Double, reached: inout Double) -> CalendarPattern {
        var adjusted = pattern
        switch pattern.set.highest {
        case .month?:
            let year = calendar.fields(searching).year
            adjusted[.year] = year
            let named = date(from: adjusted)
            reached = max(reached, named)
            if searching > named { adjusted[.year] = year + 1 }
        case .day?:
            let fields = calendar.fields(searching)
            if let day = pattern[.day], day > fields.day { adjusted[.month] = fields.month }
        default:
            break
        }
        return adjusted
    }

    /// `_adjustedDate`: accept, approximate or reject the candidate, and choose
    /// where the next step searches from.
    private func adjustedResult(_ candidate: Double, start: Double, toMatch: CalendarPattern,
                                searching: Double, reached: inout Double) throws(Abort) -> (Double?, Double) {
        var searching = searching
        var flags = MatchFlags()
        let adjusted = try adjustedForMismatches(start: start, searching: searching, matchDate: candidate,
                                                 toMatch: toMatch, flags: &flags)
        reached = max(reached, flags.reached)
        guard let matchDate = adjusted else {
            if let bumped = bumped(searching, matchDate: nil) { searching = bumped }
            return (nil, searching)
        }
        reached = max(reached, matchDate)
        let matches = mismatches(at: matchDate, pattern).isEmpty
        if let bumped = bumped(searching, matchDate: matchDate) { searching = bumped }
        if matches { flags.exact = true } else { flags.exact = false }
        if start > matchDate {
            // Behind the start: when the hour repeats (fall back), the next step
            // searches from an hour later instead of the next day.
            if toMatch.set.highest == .hour {
                let potential = matchDate + 3600
                if calendar.value(of: .hour, at: matchDate) == calendar.value(of: .hour, at: potential) {
                    searching = potential
                }
            }
            return (nil, searching)
        }
        // An inexact match stands only where the requested time does not exist
        // (a spring-forward gap, a day the month lacks): `.nextTime` policy.
        if !flags.exact && !(flags.forwardDST || flags.leapDay) { return (nil, searching) }
        if start == matchDate { return (nil, searching) }
        return (matchDate, searching)
    }

    /// `bumpedDateUpToNextHigherUnitInComponents`: the start of the next period
    /// of the unit above the highest one set, or one lowest unit past the match.
    func bumped(_ searching: Double, matchDate: Double?) -> Double? {
        guard let highest = pattern.set.highest else { return nil }
        let unit = (highest == .year || highest == .yearForWeekOfYear) ? highest : highest.nextHigher ?? highest
        var result = calendar.interval(of: unit, containing: searching).end
        if let matchDate, matchDate >= result, let lowest = pattern.set.lowest {
            result = calendar.addingOne(lowest, to: matchDate)
        }
        return result
    }

    /// The set units whose value at `t` differs from `pattern`'s.
    func mismatches(at t: Double, _ pattern: CalendarPattern) -> CalendarUnitSet {
        let fields = calendar.fields(t)
        var mismatched = CalendarUnitSet()
        var remaining = pattern.set.rawValue
        while remaining != 0 {
            let unit = CalendarUnit(rawValue: remaining.trailingZeroBitCount)!
            remaining &= remaining - 1
            if fields.value(of: unit) != pattern[unit] { mismatched.insert(unit) }
        }
        return mismatched
    }

    // MARK: - Approximations (`_adjustedDateForMismatches`)

    private func adjustedForMismatches(start: Double, searching: Double, matchDate: Double, toMatch: CalendarPattern,
                                       flags: inout MatchFlags) throws(Abort) -> Double? {
        let mismatched = mismatches(at: matchDate, toMatch)
        if mismatched == CalendarUnitSet(.hour), let shifted = adjustedForMissingHour(matchDate) {
            flags.exact = false
            flags.forwardDST = true
            return shifted
        }
        guard let bailed = mismatched.highest else { return matchDate }
        let nextUnit = (bailed == .year || bailed == .yearForWeekOfYear) ? bailed : bailed.nextHigher ?? bailed
        if nextUnit == .year {
            guard toMatch[.month] != nil, toMatch[.day] != nil else { return matchDate }
            if mismatched.contains(.month) || mismatched.contains(.day) {
                return try adjustedForMissingDay(start: start, searching: searching, matchDate: matchDate,
                                                 toMatch: toMatch, flags: &flags)
            }
            return matchDate
        }
        if nextUnit == .month && calendar.fields(matchDate).month == 2 {
            // A day February lacks (30, 31, or 29 outside a leap year): the next
            // time is the start of March.
            flags.leapDay = true
            flags.exact = false
            return calendar.interval(of: .month, containing: matchDate).end
        }
        let rematched = try matchingDate(after: calendar.interval(of: nextUnit, containing: searching).end, pattern)
        flags.reached = max(flags.reached, rematched)
        return rematched
    }

    /// `_adjustedDateForMismatchedHour`: an hour the clocks skipped; `.nextTime`
    /// takes the first instant after the gap.
    private func adjustedForMissingHour(_ matchDate: Double) -> Double? {
        let found = calendar.interval(of: .hour, containing: matchDate)
        let current = calendar.value(of: .hour, at: found.start)
        let following = calendar.value(of: .hour, at: found.end)
        if following - current > 1 || (current == 23 && following > 0) { return found.end }
        let previous = calendar.value(of: .hour, at: found.start - 1)
        if current - previous > 1 || (previous == 23 && current > 0) { return found.start }
        return nil
    }

    /// `_adjustedDateForMismatchedLeapMonthOrDay` for the Gregorian calendar:
    /// 29 February looks four years ahead; any other missing day becomes the
    /// start of the first day of the following month.
    private func adjustedForMissingDay(start: Double, searching: Double, matchDate: Double, toMatch: CalendarPattern,
                                       flags: inout MatchFlags) throws(Abort) -> Double? {
        let searched = calendar.fields(searching)
        guard let desiredMonth = toMatch[.month], let desiredDay = toMatch[.day],
              searched.day != desiredDay || searched.month != desiredMonth else { return nil }
        // What it would match is known to find nothing (see `missingDayFindsNothing`).
        if missingDayFindsNothing && pattern[.month] == nil { return nil }
        var result: Double? = matchDate
        var found = false
        if desiredMonth == 2 && pattern[.month] == 2 {
            let leapward = calendar.addingYears(4 - searched.year % 4, to: searching)
            let inner = try matchingDate(after: calendar.interval(of: .year, containing: leapward).start, toMatch)
            flags.reached = max(flags.reached, inner)
            found = mismatches(at: inner, toMatch).isEmpty
            result = inner
        }
        if !found {
            var following = toMatch
            following[.year] = max(toMatch[.year] ?? searched.year, searched.year)
            following[.month] = desiredMonth % 12 + 1
            following[.day] = 1
            let inner = try matchingDate(after: start, following)
            flags.reached = max(flags.reached, inner)
            if mismatches(at: inner, following).isEmpty {
                result = calendar.interval(of: .day, containing: inner).start
            } else {
                result = nil
            }
            flags.exact = false
            flags.leapDay = true
        }
        return result
    }

    // MARK: - Matching unit by unit (`_matchingDate`)

    /// Moves forward from `start` to the first instant where each set unit, from
    /// the largest down, takes its value; a unit that already matches clears
    /// the smaller ones (day, hour, minute, second) or is left alone (the rest).
    func matchingDate(after start: Double, _ p: CalendarPattern) throws(Abort) -> Double {
        var t = start
        if let year = p[.year], calendar.fields(t).year != year {
            t = januaryFirst(year)
        }
        if let weekYear = p[.yearForWeekOfYear], calendar.value(of: .yearForWeekOfYear, at: t) != weekYear {
            t = calendar.interval(of: .yearForWeekOfYear, containing: januaryFirst(weekYear)).start
        }
        if let week = p[.weekOfYear] {
            t = try advance(from: t, by: .weekOfYear, until: .weekOfYear, is: week)
        }
        if let month = p[.month] {
            t = try advance(from: t, by: .month, until: .month, is: month)
        }
        if let week = p[.weekOfMonth] {
            t = try matchWeekOfMonth(from: t, week)
        }
        if let ordinal = p[.weekdayOrdinal] {
            t = try matchWeekdayOrdinal(from: t, ordinal, weekday: p[.weekday])
        }
        if let weekday = p[.weekday] {
            t = try advance(from: t, by: .day, until: .weekday, is: weekday)
        }
        if let day = p[.day] {
            t = try matchDay(from: t, day)
        }
        if let hour = p[.hour] {
            t = try matchHour(from: t, hour)
        }
        if let minute = p[.minute] {
            t = calendar.value(of: .minute, at: t) == minute
                ? calendar.interval(of: .minute, containing: t).start
                : try advance(from: t, by: .minute, until: .minute, is: minute)
        }
        if let second = p[.second] {
            if calendar.value(of: .second, at: t) == second {
                t = t.rounded(.down)
            } else {
                t = try advance(from: t, by: .second, until: .second, is: second)
                // Foundation steps back a minute when the seconds carried it past
                // the minute asked for; stepping back fails its own forward check.
                if start < t, let minute = p[.minute], calendar.value(of: .minute, at: t) > minute { throw Abort() }
            }
        }
        return t
    }

    /// `date(from: DateComponents(era: 1, year: year))`: 1 January, 00:00.
    func januaryFirst(_ year: Int) -> Double {
        Double(calendar.instant(ofLocal: CivilDate.days(year: year, month: 1, day: 1) * 86_400, gap: .shiftForward))
    }

    /// Steps to the start of the next `period` until `unit` shows `value`
    /// (nothing to do when it already does).
    private func advance(from start: Double, by period: CalendarUnit, until unit: CalendarUnit,
                         is value: Int) throws(Abort) -> Double {
        if period == .weekOfYear && unit == .weekOfYear, let shortcut = clearWeekAdvance(from: start, to: value) {
            return shortcut
        }
        if let shortcut = clearAdvance(from: start, by: period, until: unit, is: value) { return shortcut }
        if let shortcut = quietAdvance(from: start, by: period, until: unit, is: value) { return shortcut }
        return try walk(from: start, by: period, until: unit, is: value)
    }

    /// `advance`'s loop itself, without the shortcuts (the tests' oracle for them).
    func walk(from start: Double, by period: CalendarUnit, until unit: CalendarUnit,
              is value: Int) throws(Abort) -> Double {
        var t = start
        while calendar.value(of: unit, at: t) != value {
            let next = calendar.interval(of: period, containing: t).end
            guard next > t else { throw Abort() }
            t = next
        }
        return t
    }

    /// `dateAfterMatchingWeekOfMonth`: week by week, except that week 1 of the
    /// next month is reached day by day from the last week of this one.
    private func matchWeekOfMonth(from start: Double, _ week: Int) throws(Abort) -> Double {
        if let shortcut = clearWeekOfMonth(from: start, week) { return shortcut }
        return try weekOfMonthLoop(from: start, week)
    }

    /// `matchWeekOfMonth`'s loop itself, without the shortcut (the tests' oracle for it).
    func weekOfMonthLoop(from start: Double, _ week: Int) throws(Abort) -> Double {
        var t = start
        var current = calendar.value(of: .weekOfMonth, at: t)
        while current != week {
            let found = calendar.interval(of: .weekOfMonth, containing: t)
            var next = found.end
            if week == 1 && current == calendar.weeksInMonth(containing: t) {
                next = found.start
                while calendar.fields(next).day != 1 { next = calendar.addingOne(.day, to: next) }
            }
            current = calendar.value(of: .weekOfMonth, at: next)
            guard next > t else { throw Abort() }
            t = next
        }
        return t
    }

    /// `dateAfterMatchingWeekdayOrdinal`: day by day to the ordinal, then to
    /// the weekday with that ordinal when a weekday is set too.
    private func matchWeekdayOrdinal(from start: Double, _ ordinal: Int, weekday: Int?) throws(Abort) -> Double {
        var currentOrdinal = calendar.value(of: .weekdayOrdinal, at: start)
        guard currentOrdinal != ordinal else { return start }
        // No month has a sixth or seventh of any weekday: the day-by-day search
        // never ends, and Foundation answers nil.
        guard ordinal <= 5 else { throw Abort() }
        var t = try advance(from: start, by: .day, until: .weekdayOrdinal, is: ordinal)
        currentOrdinal = ordinal
        guard let weekday else { return t }
        var currentWeekday = calendar.value(of: .weekday, at: t)
        if currentWeekday == weekday { return t }
        // Both ways below walk from the day of `start` (which does not show
        // the ordinal) to the next day showing the weekday and the ordinal.
        if let shortcut = clearWeekdayWithOrdinal(after: start, weekday: weekday, ordinal: ordinal) { return shortcut }
        if currentWeekday > weekday {
            t = calendar.interval(of: .day, containing: start).start
            currentWeekday = calendar.value(of: .weekday, at: t)
            currentOrdinal = calendar.value(of: .weekdayOrdinal, at: t)
        } else {
            t = start
        }
        while currentWeekday != weekday || currentOrdinal != ordinal {
            let next = calendar.interval(of: .day, containing: t).end
            currentWeekday = calendar.value(of: .weekday, at: next)
            currentOrdinal = calendar.value(of: .weekdayOrdinal, at: next)
            guard next > t else { throw Abort() }
            t = next
        }
        return t
    }

    /// `dateAfterMatchingDay`: day by day, but never past the end of the next
    /// month (a day it lacks leaves the search at that month's last day).
    private func matchDay(from start: Double, _ day: Int) throws(Abort) -> Double {
        if let shortcut = clearMatchDay(from: start, day) { return shortcut }
        return try matchDayLoop(from: start, day)
    }

    /// `matchDay`'s loop itself, without the shortcut (the tests' oracle for it).
    func matchDayLoop(from start: Double, _ day: Int) throws(Abort) -> Double {
        var fields = calendar.fields(start)
        guard fields.day != day else { return calendar.interval(of: .day, containing: start).start }
        let originalMonth = fields.month
        var t = start
        repeat {
            let found = calendar.interval(of: .day, containing: t)
            fields = calendar.fields(found.end)
            guard found.end > t else { throw Abort() }
            t = found.end
            if abs(fields.month - originalMonth) >= 2 {
                return t - (found.end - found.start)
            }
        } while fields.day != day
        return t
    }

    /// `dateAfterMatchingHour`: hour by hour, stopping before a skipped hour
    /// (the approximation step moves past the gap); hour 0 on a day that starts
    /// later (midnight skipped) is the start of that day.
    private func matchHour(from start: Double, _ hour: Int) throws(Abort) -> Double {
        if let shortcut = quietMatchHour(from: start, hour) { return shortcut }
        var t = start
        var current = calendar.value(of: .hour, at: t)
        if hour == 0 {
            let dayStart = calendar.interval(of: .day, containing: t).start
            let firstHour = calendar.value(of: .hour, at: dayStart)
            if firstHour != 0 && current == firstHour { return dayStart }
        }
        guard current != hour else { return calendar.interval(of: .hour, containing: t).start }
        repeat {
            let last = t
            let found = calendar.interval(of: .hour, containing: t)
            let previous = current
            current = calendar.value(of: .hour, at: found.end)
            if current - previous == 2 || (previous == 23 && current == 1) {
                current -= 1
                t = found.start
            } else {
                t = found.end
            }
            if t == last && previous == current { throw Abort() }
        } while current != hour
        return t
    }

    // MARK: - `date(from:)`

    /// `Calendar.date(from:)` for the components the search builds (year always
    /// set): which fields win follows Foundation's `ResolvedDateComponents`.
    private func date(from p: CalendarPattern) -> Double {
        var year = p[.yearForWeekOfYear] ?? p[.year] ?? 1
        let month = p[.month] ?? 1
        let monthStart = CivilDate.days(year: year, month: month, day: 1)
        // Day numbers relative to the day before the 1st of the month.
        func weekBased(firstOf periodStart: Int, week: Int?, weekday: Int?) -> Int {
            let first = CivilDate.weekday(ofDays: periodStart) - 1
            let dow = (weekday ?? 1) - 1
            return periodStart - 1 + dow - first + 1 + ((week ?? 1) - 1) * 7
        }
        let dayNumber: Int
        if let day = p[.day] {
            if p[.yearForWeekOfYear] != nil, let week = p[.weekOfYear], let month = p[.month] {
                if month == 1 && week >= 52 { year += 1 } else if month > 1 && week == 1 { year -= 1 }
            }
            dayNumber = CivilDate.days(year: year, month: month, day: 1) - 1 + day
        } else if let week = p[.weekOfYear], let weekday = p[.weekday] {
            dayNumber = weekBased(firstOf: CivilDate.days(year: year, month: 1, day: 1), week: week, weekday: weekday)
        } else if let week = p[.weekOfMonth], let weekday = p[.weekday] {
            dayNumber = weekBased(firstOf: monthStart, week: week, weekday: weekday)
        } else if let ordinal = p[.weekdayOrdinal], let weekday = p[.weekday] {
            var date = (weekday - 1) - (CivilDate.weekday(ofDays: monthStart) - 1) + 1
            if date < 1 { date += 7 }
            dayNumber = monthStart - 1 + date + (ordinal - 1) * 7
        } else if p[.yearForWeekOfYear] != nil {
            // A week-numbering year outranks the calendar year here (observed on
            // Foundation: {year, month, yearForWeekOfYear} resolves in week 1).
            dayNumber = weekBased(firstOf: CivilDate.days(year: year, month: 1, day: 1), week: p[.weekOfYear], weekday: p[.weekday])
        } else {
            dayNumber = monthStart
        }
        let seconds = (p[.hour] ?? 0) * 3600 + (p[.minute] ?? 0) * 60 + (p[.second] ?? 0)
        return Double(calendar.instant(ofLocal: dayNumber * 86_400 + seconds, gap: .shiftForward))
    }
}
