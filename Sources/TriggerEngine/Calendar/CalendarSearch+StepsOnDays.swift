/// The steps of a search for a set without a month or a year, with a week
/// unit, a weekday ordinal or a weekday (and a day, or none), taken on day
/// numbers until one may answer.
///
/// `{day: 3, weekOfMonth: 5}` never matches (the 3rd is in the first week),
/// but February's approximation could answer it (a candidate in February
/// whose week mismatches gives 1 March), so `cannotAnswer` lets it through.
/// Foundation's steps then settle into a rhythm that never meets February:
/// from the 10th of a month the match walks to the 5th week and on to the
/// 3rd of the next month, which mismatches; the search matches again from
/// the next month's 1st, finds the 3rd of the month after, mismatches, and
/// the next step searches from a week later, the 10th, two months on. Every
/// candidate lies in an odd month or every one in an even month, and after
/// 101 steps Foundation answers nil. Sets with a day and a week of the
/// month, a weekday ordinal or a week number take most of their steps so,
/// each a month or two long, and at a microsecond or more a step they were
/// the slowest of the random mix.
///
/// What a step does here depends on the calendar alone. Take a set with a
/// day and no year or month (the day is then the highest unit set, and
/// `_adjustedComponents` adds the searched month when the day is still
/// ahead in it; a week-numbering year only while the steps search from its
/// days, `weekYearDays`), with a week of the year, a week of the month, a
/// weekday ordinal or a weekday (its lowest unit is then a week or a day,
/// or the week-numbering year), in a zone whose transitions leave local midnight alone from the
/// search's start on, and a step from S, on a local day after the start's.
/// Then every walk of the match moves from midnight to midnight (or stays on
/// S's day, which the day's walk leaves at its midnight), so the candidate is
/// a day the walks reach on day numbers (`matchedDay`), at the set's time of
/// day (its hour, minute and second, 0 where not set, walked from that
/// midnight), which exists and shows the set's time units on a day without a
/// transition, or with one more than an hour after that time (the hour,
/// minute and second walks from midnight read no further), or wholly an
/// hour or more before it (the hour walk steps over the skipped or repeated
/// hour and goes on in plain wall-clock time), or with a jump ahead from a
/// reading on the hour to that time (the walk lands on the jump,
/// `hasTransition`); on any other day with a
/// transition the check stands back for a set with a time. The step then:
///
/// - answers, or may, when the candidate shows the set's date units, when it
///   lies in February and the unit that bailed is the day, the weekday ordinal
///   or the week of the month (February's approximation), when the month
///   bailed and the missing day's match (`adjustedForMissingDay`: the 1st of
///   the next month in S's year, walked from the start) shows its units, or
///   when the match again from the end of the period above the unit that
///   bailed shows the set's units: the search takes that step itself;
/// - else finds nothing and searches next from the end of S's month
///   (`bumpedDateUpToNextHigherUnitInComponents`), or, when the match again
///   lies on or after that, from that match plus one lowest unit: a week or a
///   day later at the same time of day, a day of no transition.
///
/// A set without a day (and without a year or a month), whose highest unit
/// is a time unit, the weekday, the weekday ordinal or the week of the month,
/// steps the same way: nothing adjusts its components, and no walk moves when
/// S's day shows every date unit, so the candidate keeps S's time only
/// where it shows them all, a step the search takes itself. Its next step
/// searches from the end of S's month (the ordinal or the week of the
/// month highest), of S's week (the weekday highest: the end of the week of
/// the month, the next Sunday) or of S's day, hour or minute (a time unit
/// highest), unless the match again lies on or after it; and the match
/// again, walked from the end of a week, a month or a week-numbering year,
/// lies past the end of S's day. These are the rare-match sets such as a
/// fifth weekday in a week the month lacks, whose searches took all 101
/// steps at three quarters of a microsecond each.
///
/// So the search follows its steps on day numbers, a hundred or two
/// nanoseconds each, to the first one that may answer and takes that one
/// from its date, or answers nil when none of the steps left may. (Steps
/// with a week number are a year or two apart and meet the same kinds of
/// year again within the 28-year cycle: a search keeps the outcomes.)
///
/// What the tests show of the conditions: without February's approximation,
/// the match again's units, the missing day's match, the check of
/// transitions on matched days, or four of the five years in the memo's
/// key, the seeded queries answer differently. Without the others they
/// answer the same (also 8,000 in zones whose transitions touch midnight):
/// the zone's midnights, the memo waiting for the year after the start's,
/// the hours of margin after and before the set's time, the whole-minute offset at the
/// match, the walks' limits, and a week unit or a weekday (without one the
/// lowest unit is a time unit and the next step's day needs more care).
/// Those keep the proof short or are the proof's own; dropping one needs a
/// proof, not a test.
extension CalendarSearch {
    /// What `stepsOnDays(from:start:stepsLeft:)` found.
    enum DayStepSkip: Equatable {
        /// The set or the zone does not qualify: do not ask again.
        case never
        /// `searching` is not (yet) a date to follow the steps from: ask later.
        case notYet
        /// No step left can answer: the search answers nil.
        case noAnswer
        /// The step from `searching`, `steps` steps on, is the first that may
        /// answer (zero steps: the step from the date asked about).
        case stepFrom(searching: Double, steps: Int)
    }

    /// Days a walk on day numbers looks through before it gives the step
    /// back to the search (a walk to a 6th week of the month may take many
    /// months; the search then takes that step itself).
    static let dayStepWalkLimit = 800

    /// Days after the day a step searches from that its walks may reach
    /// (a week number's walk to its week, then `dayStepWalkLimit`).
    static let stepReach = 1_500

    /// `stepReach` for a 53rd week, which comes round only in a year that
    /// starts on a Saturday, or a leap year that starts on a Friday or a
    /// Saturday: five to eleven years apart (2022, then 2033), so its walk
    /// alone may take eleven years, and the searches of such sets passed
    /// every step back to the search, over a hundred microseconds each.
    static let weekFiftyThreeStepReach = 12 * 366 + dayStepWalkLimit

    /// Where the step following a step that found nothing searches from.
    enum NextSearch {
        /// 00:00 of the first day of the period after the searched one
        /// (`BumpedPeriod`: its month, or its week).
        case nextPeriod
        /// One lowest unit after the match again on this day, at the set's time.
        case afterMatch(DayCursor)
    }

    /// The period above a set's highest unit, whose end is where the step after
    /// one that found nothing searches from unless the match again lies
    /// past it (`bumpedDateUpToNextHigherUnitInComponents`).
    private enum BumpedPeriod {
        /// The searched month: a day, a weekday ordinal or a week of the month highest.
        case month
        /// The searched week (to the next Sunday): the weekday highest.
        case week
        /// The searched day, hour or minute: a time unit highest. Its end lies
        /// on or before the next midnight, and the match again, walked from
        /// the end of a week, a month or a week-numbering year, lies on a
        /// later day, so the search always moves on from the match again.
        case withinTheDay

        init?(above highest: CalendarUnit?) {
            switch highest {
            case .day?, .weekdayOrdinal?, .weekOfMonth?: self = .month
            case .weekday?: self = .week
            case .hour?, .minute?, .second?: self = .withinTheDay
            default: return nil
            }
        }

        /// The number of the first day after the period holding the day
        /// under `s` (the next day for a period within the day).
        @inline(__always)
        func firstDay(after s: DayCursor) -> Int {
            switch self {
            case .month: return s.dayNumber + s.monthLength - s.day + 1
            case .week: return s.dayNumber + 8 - s.weekday
            case .withinTheDay: return s.dayNumber + 1
            }
        }

        /// Moves `s` to `firstDay(after:)`.
        @inline(__always)
        func step(_ s: inout DayCursor) {
            switch self {
            case .month: s.stepToNextMonth()
            case .week: s.advance(days: 8 - s.weekday)
            case .withinTheDay: s.advance(days: 1)
            }
        }
    }

    /// The steps from `searching` on, followed on day numbers by the
    /// reasoning above, for a search from `start` with `stepsLeft` steps to go.
    /// After `stepsBeforeAsking` steps followed it asks `cannotAnswer`
    /// (which the search asks at its 4th step, and which ends many searches
    /// sooner than following all their steps); never when nil.
    func stepsOnDays(from searching: Double, start: Double, stepsLeft: Int, stepsBeforeAsking: Int? = nil) -> DayStepSkip {
        var memos = DayStepMemos()
        return stepsOnDays(from: searching, start: start, stepsLeft: stepsLeft, stepsBeforeAsking: stepsBeforeAsking, memos: &memos)
    }

    /// What the steps on days of one search keep from one call to the next:
    /// the outcomes by key and the walks. A search hands a step back (a
    /// transition near the set's time on a matched day, a walk past its
    /// reach), takes it, and follows the steps on days again; each call used
    /// to start with empty memos and met every kind of year anew.
    /// `{day: 4, minute: 44, weekOfMonth: 2, weekOfYear: 40}` in New York,
    /// whose candidate falls on the first Sunday of November (the clocks go
    /// back at 2:00, within an hour of 00:44) about one year in seven, took
    /// 36 µs so. The outcomes kept depend on the calendar, the set and the
    /// search's start alone (see `key` in the loop below), the same for every
    /// call of one search; the walks on the calendar alone.
    struct DayStepMemos {
        var steps = StepMemo()
        var walks = WalkMemo()
    }

    /// `stepsOnDays(from:start:stepsLeft:stepsBeforeAsking:)` with the memos
    /// of the search's earlier calls (`CalendarSearch.next` keeps them).
    func stepsOnDays(from searching: Double, start: Double, stepsLeft: Int, stepsBeforeAsking: Int?,
                     memos: inout DayStepMemos) -> DayStepSkip {
        let set = pattern.set
        guard pattern[.year] == nil, pattern[.month] == nil,
              set.contains(.weekOfYear) || set.contains(.weekOfMonth) || set.contains(.weekdayOrdinal) || set.contains(.weekday),
              let lowest = set.lowest, let bumped = BumpedPeriod(above: set.highest) else { return .never }
        // A week-numbering year W: the steps are followed while they search
        // from a day of W (see `weekYearDays`).
        let weekYearDays = self.weekYearDays
        if pattern[.yearForWeekOfYear] != nil && weekYearDays == nil { return .never }
        let startDay = calendar.dayNumber(at: start)
        let firstDay = calendar.dayNumber(at: searching)
        guard firstDay > startDay else { return .notYet }
        // The zone is checked from two days before the start (the missing
        // day's match walks from there) and then as far as the steps go, a
        // few years at a time. A step's walks stop `stepReach` days after the
        // day it searches from (a walk past that gives the step back).
        let weekFiftyThree = pattern[.weekOfYear] == 53
        let reach = weekFiftyThree ? Self.weekFiftyThreeStepReach : Self.stepReach
        var checkedThrough = firstDay + 2 * reach
        guard calendar.transitionsLeaveMidnightAlone(from: (startDay - 2) * 86_400, through: (checkedThrough + 3) * 86_400)
        else { return .never }
        var steps = StepsOnDays(day: pattern[.day], bumped: bumped, startDay: startDay, startYear: CivilDate.date(fromDays: startDay).year,
                                timed: set.contains(.hour) || set.contains(.minute) || set.contains(.second),
                                timeOfDay: (pattern[.hour] ?? 0) * 3600 + (pattern[.minute] ?? 0) * 60 + (pattern[.second] ?? 0),
                                readsAfterTime: set.contains(.hour) ? 3600 : 60,
                                missingDayMatchFails: Self.noFirstOfAMonthShows(pattern) && secondsStayInTheirMinuteAroundTheWeekYear,
                                lastDay: 0)
        var searched = DayCursor(dayNumber: firstDay)
        var last: NextSearch?
        var memo = memos.steps
        var walks = memos.walks
        // Handed back to the caller's memos on the way out, whatever the way.
        defer { (memos.steps, memos.walks) = (memo, walks) }
        // Outcomes are kept by kind of year for steps with a week number (see
        // `key` below: the kinds of five years, twelve for a 53rd week), and
        // by the lengths of months for sets with neither a day nor a week
        // number (`monthLengthsKey`).
        let keptOutcomes = pattern[.weekOfYear] != nil && weekYearDays == nil
        let keyedYears = weekFiftyThree ? 12 : 5
        let keptByMonthLengths = pattern[.day] == nil && pattern[.weekOfYear] == nil && pattern[.yearForWeekOfYear] == nil
        // The searched day's year, its key bits and the 1 January its walks stay
        // before. (Walks of steps whose outcomes are not kept are held to their reach alone.)
        var keyedYear = Int.min, yearKey = 0, walksEnd = keptOutcomes ? 0 : Int.max
        for taken in 0..<stepsLeft {
            if taken == stepsBeforeAsking && cannotAnswer(after: start) { return .noAnswer }
            if let weekYearDays, !weekYearDays.contains(searched.dayNumber) {
                // Outside W the match starts over from W's first day: the search's own step.
                return handingBack(after: taken, last: last, searched: searched, lowest: lowest)
            }
            // A step's outcome depends on the calendar around its day alone
            // (the start only on the missing day's way in the start's year):
            // on the day's month and day, and on the kind of its year and the
            // four after it (leap or not, the weekday of 1 January), within
            // which its walks are kept. Steps a year or two apart (with a week
            // number) meet the same again within the 28-year cycle. A 53rd
            // week's walk may take eleven years (2022, then 2033): its key
            // holds the kinds of twelve years and its walks stay within them;
            // its steps, five to eleven years apart, meet the same twelve
            // again within the 28-year cycle too. (Until the thirty-second
            // session they were never kept: New York's `{day: 6, hour: 6,
            // minute: 45, second: 50, weekday: 2, weekOfMonth: 5, weekOfYear:
            // 53}` took 100 steps to nil, 18 µs a query through the CLI, now 14.)
            if keptOutcomes && searched.year != keyedYear {
                keyedYear = searched.year
                yearKey = CivilDate.weekday(ofDays: CivilYear.januaryFirst(keyedYear)) << 9
                for ahead in 0..<keyedYears where CivilDate.isLeapYear(keyedYear + ahead) { yearKey |= 1 << (12 + ahead) }
                walksEnd = CivilYear.januaryFirst(keyedYear + keyedYears)
            }
            steps.lastDay = min(searched.dayNumber + reach, walksEnd)
            var clear = true
            if steps.lastDay > checkedThrough {
                let from = checkedThrough
                checkedThrough = searched.dayNumber + 2 * reach
                clear = calendar.transitionsLeaveMidnightAlone(from: from * 86_400, through: (checkedThrough + 3) * 86_400)
            }
            // (Not with a week-numbering year: where W ends decides too. Not
            // with a day and without a week number: steps a month or two apart
            // met the same key in none of the slow list's 3,153 steps, and the
            // memo cost 4 % of them.)
            let lengths = keptByMonthLengths ? Self.monthLengthsKey(of: searched) : nil
            let key = keptOutcomes && searched.year > steps.startYear
                ? searched.month | searched.day << 4 | yearKey : lengths?.key ?? -1
            let outcome: StepOutcome
            if key >= 0, lookingUpDayStepOutcomes, let known = memo.outcome(forKey: key, from: searched) {
                outcome = known
            } else {
                outcome = quietStep(from: searched, steps, walks: &walks)
                if key >= 0 && (lengths.map { Self.step(outcome, from: searched, endsBefore: $0.end, bumped: bumped) } ?? true) {
                    memo.keep(outcome, forKey: key, from: searched)
                }
            }
            var next = outcome.next
            if case .afterMatch? = next, lowest == .yearForWeekOfYear {
                // A week-numbering year is the lowest unit then: a match plus a
                // week year is the search's to take.
                next = nil
            }
            if steps.timed, next != nil,
               outcome.candidate.map({ hasTransition(onDay: $0, &steps) }) == true || outcome.again.map({ hasTransition(onDay: $0, &steps) }) == true {
                next = nil
            }
            guard clear, let next else { return handingBack(after: taken, last: last, searched: searched, lowest: lowest) }
            last = next
            switch next {
            case .nextPeriod:
                bumped.step(&searched)
            case let .afterMatch(matched):
                searched = matched
                searched.advance(days: lowest == .weekday ? 1 : 7)
            }
        }
        return .noAnswer
    }

    /// The key of a step from `s` for a set with neither a day, a month, a
    /// year nor a week number, and the first day past what it describes.
    ///
    /// Such a step's walks (to the weekday ordinal, the weekday, the week of
    /// the month, each day by day or month by month) read the days from `s`
    /// to where they end, and nothing of a day but its day of the month,
    /// weekday and month length (no month number: that is the day's walk's,
    /// and no year). So when every day the step ends on (its candidate, its
    /// match again, the next day it searches from) lies before the 1st of
    /// the third month after `s`'s, the step from any day with the same day
    /// of the month and weekday, in a month of the same length followed by
    /// two more of the same lengths, ends on the same days counted from it.
    /// (The walks' limits count from their start too, and `hasTransition`
    /// and the zone's midnights are asked of each step apart.) The 1sts of
    /// months have at most seventy such keys (ten sequences of three lengths,
    /// seven weekdays), so in one search's hundred steps, monthly for such
    /// sets, many steps meet a key again and are looked up.
    static func monthLengthsKey(of s: DayCursor) -> (key: Int, end: Int) {
        // (Called every step: no array literal to iterate, and `s`'s own month length.)
        var key = s.day | s.weekday << 5 | 1 << 20 | (s.monthLength - 28) << 8
        var (year, month) = (s.year, s.month)
        var end = s.dayNumber - s.day + 1 + s.monthLength
        for shift in stride(from: 10, through: 12, by: 2) {
            (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
            let length = CivilDate.daysInMonth(year: year, month: month)
            key |= (length - 28) << shift
            end += length
        }
        return (key, end)
    }

    /// The step from `searched` handed back to the search after `taken` steps
    /// followed, the last of which chose `last`: from the date that step
    /// searched next (not yet, when none was followed).
    private func handingBack(after taken: Int, last: NextSearch?, searched: DayCursor, lowest: CalendarUnit) -> DayStepSkip {
        guard taken > 0, let last else { return .notYet }
        guard let instant = instant(of: last, before: searched, lowest: lowest) else { return .never }
        return .stepFrom(searching: instant, steps: taken)
    }

    /// A step on days: where the next one searches from (nil when the step
    /// may answer), and the days it matched on, whose time of day a
    /// transition could move: the candidate, and the match again.
    struct StepOutcome {
        var next: NextSearch?
        var candidate: Int?
        var again: Int?
    }

    /// Whether the step from `s` goes on (is not handed back) and every day
    /// it ends on lies before day `end` (see `monthLengthsKey`).
    private static func step(_ outcome: StepOutcome, from s: DayCursor, endsBefore end: Int, bumped: BumpedPeriod) -> Bool {
        let nextDay: Int
        switch outcome.next {
        case nil: return false
        case .nextPeriod?: nextDay = bumped.firstDay(after: s)
        case let .afterMatch(matched)?: nextDay = matched.dayNumber
        }
        return nextDay < end && (outcome.candidate ?? s.dayNumber) < end && (outcome.again ?? s.dayNumber) < end
    }

    /// The outcomes of the steps of one search by the key above, kept as
    /// offsets in days from the searched day (twelve bits each: under
    /// `stepReach`, and a 53rd week's outcome further out is not kept) with
    /// the key, packed in one word: a table of 128 pairs of slots, a key in
    /// either slot of its pair (a new key takes the first, moving
    /// what was there to the second). A search meets 28 or more keys; with one
    /// slot a key, two that met in a slot replaced each other all the way: in
    /// the slow list's week-number searches 19,628 of 35,014 steps found no
    /// outcome kept, where 28 a search (the first round of the cycle) is all
    /// that a full table would miss. The first three outcomes wait in the
    /// memo itself, and the table is made with the fourth: most searches end
    /// before, and making it was a cost they need not pay (those three,
    /// until 29 Nov 2026 not kept at all, missed again a cycle later).
    struct StepMemo {
        private var entries: [UInt64] = []
        /// The outcomes kept before the table is made (0: none).
        private var early: (UInt64, UInt64, UInt64) = (0, 0, 0)
        private static let none: UInt64 = 0xFFF

        func outcome(forKey key: Int, from s: DayCursor) -> StepOutcome? {
            let tag = UInt64(key) + 1
            var entry: UInt64
            if entries.isEmpty {
                if early.0 >> 40 == tag { entry = early.0 } else if early.1 >> 40 == tag { entry = early.1 }
                else if early.2 >> 40 == tag { entry = early.2 } else { return nil }
            } else {
                let first = Self.slots(key)
                entry = entries[first]
                if entry >> 40 != tag {
                    entry = entries[first + 1]
                    guard entry >> 40 == tag else { return nil }
                }
            }
            var result = StepOutcome()
            switch entry >> 36 & 3 {
            case 1: result.next = .nextPeriod
            case 2:
                var matched = s
                matched.advance(days: Int(entry & Self.none))
                result.next = .afterMatch(matched)
            default: break
            }
            let candidate = entry >> 12 & Self.none, again = entry >> 24 & Self.none
            if candidate != Self.none { result.candidate = s.dayNumber + Int(candidate) }
            if again != Self.none { result.again = s.dayNumber + Int(again) }
            return result
        }

        mutating func keep(_ outcome: StepOutcome, forKey key: Int, from s: DayCursor) {
            guard Self.fits(outcome, from: s) else { return }
            var entry = (UInt64(key) + 1) << 40
            switch outcome.next {
            case nil: break
            case .nextPeriod?: entry |= 1 << 36
            case let .afterMatch(matched)?: entry |= 2 << 36 | UInt64(matched.dayNumber - s.dayNumber)
            }
            entry |= (outcome.candidate.map { UInt64($0 - s.dayNumber) } ?? Self.none) << 12
            entry |= (outcome.again.map { UInt64($0 - s.dayNumber) } ?? Self.none) << 24
            if entries.isEmpty {
                if early.0 == 0 { early.0 = entry; return }
                if early.1 == 0 { early.1 = entry; return }
                if early.2 == 0 { early.2 = entry; return }
                entries = [UInt64](repeating: 0, count: 256)
                put(early.0)
                put(early.1)
                put(early.2)
            }
            put(entry)
        }

        /// Whether every day of `outcome` lies within twelve bits' worth of
        /// days after `s` (a 53rd week's walks may reach past them).
        private static func fits(_ outcome: StepOutcome, from s: DayCursor) -> Bool {
            let limit = s.dayNumber + Int(none)
            if case let .afterMatch(matched)? = outcome.next, matched.dayNumber >= limit { return false }
            return (outcome.candidate ?? s.dayNumber) < limit && (outcome.again ?? s.dayNumber) < limit
        }

        /// Puts `entry` in the first slot of its key's pair, moving what was there to the second.
        private mutating func put(_ entry: UInt64) {
            let first = Self.slots(Int(entry >> 40) - 1)
            entries[first + 1] = entries[first]
            entries[first] = entry
        }

        /// The first of the key's two slots.
        private static func slots(_ key: Int) -> Int { Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 57) << 1 }
    }

    /// What the steps on days share: the set's day, the start, how far the
    /// walks may go, whether the set has a time of day, and the local days
    /// of the last two transitions looked up.
    private struct StepsOnDays {
        let day: Int?, bumped: BumpedPeriod, startDay: Int, startYear: Int, timed: Bool
        /// The set's time of day in seconds (0 for the units not set).
        let timeOfDay: Int
        /// How far after `timeOfDay` a step reads its matched day: an hour
        /// for a set with an hour, a minute without (see `hasTransition`).
        let readsAfterTime: Int
        /// Whether a step whose month mismatches finds nothing without the
        /// missing day's match being walked (see `quietStep`): the same for
        /// every step of a search, so asked once.
        let missingDayMatchFails: Bool
        /// The day the step's walks stay before.
        var lastDay: Int
        /// No transition falls on a local day strictly between these two.
        var quietAfter = Int.max, quietBefore = Int.min
    }

    /// The step from the local day under `s` on day numbers, as if no
    /// transition fell on the days it matches (the caller checks those).
    private func quietStep(from s: DayCursor, _ steps: StepsOnDays, walks: inout WalkMemo) -> StepOutcome {
        var outcome = StepOutcome()
        var toMatch = pattern
        if let day = steps.day, day > s.day { toMatch[.month] = s.month }
        guard let candidate = matchedDay(from: s, toMatch, before: steps.lastDay, walks: &walks) else { return outcome }
        outcome.candidate = candidate.dayNumber
        guard let bailed = Self.highestDateMismatch(of: toMatch, candidate) else { return outcome }
        if bailed == .month {
            // The missing day's way: the 1st of the month after, in S's year,
            // matched from the start (or from 1 January when the start lies in
            // an earlier year; with a week-numbering year, from W's first day).
            if steps.missingDayMatchFails {
                // Its match mismatches wherever its walks end, so the step
                // finds nothing; also where the walk here would have run past
                // its limits and handed the step back (the search's own walks
                // on days then go on, a day or more at a time, within the
                // zone checked above, and end on a mismatch too). Not walked:
                // it was half of the steps of `{day: 27, minute: 15, weekday: 6,
                // weekdayOrdinal: 5, weekOfYear: 18}` in Sydney. With a
                // week-numbering year the match walks back to W's first day,
                // maybe before the zone checked, where no throw can end it
                // first either (walks advance, no sixth ordinal is set) but
                // seconds carried past a minute, which needs a minute, a
                // second and an offset of seconds: that step is the
                // search's. (`{day: 6, hour: 11, minute: 44, weekdayOrdinal: 3,
                // yearForWeekOfYear: 2029}` handed a step back every month of W.)
                outcome.next = .nextPeriod
                return outcome
            }
            // (Otherwise, with a week-numbering year, its match walks back to W: left to the search.)
            guard pattern[.yearForWeekOfYear] == nil else { return outcome }
            var following = toMatch
            following[.year] = s.year
            following[.month] = s.month % 12 + 1
            following[.day] = 1
            let from: DayCursor
            if s.month < 12 && pattern[.weekOfYear] == nil {
                // Without a week number the match walks first to the month,
                // from a date before it in S's year: to its 1st.
                var nextMonth = s
                nextMonth.stepToNextMonth()
                from = nextMonth
            } else {
                from = steps.startYear == s.year ? DayCursor(dayNumber: steps.startDay) : DayCursor(year: s.year, month: 1)
            }
            guard let inner = matchedDay(from: from, following, before: steps.lastDay, walks: &walks),
                  Self.highestDateMismatch(of: following, inner) != nil else { return outcome }
            outcome.next = .nextPeriod
            return outcome
        }
        var periodEnd = s
        switch bailed.nextHigher {
        case .month?:
            // February's approximation.
            guard candidate.month != 2 else { return outcome }
            periodEnd.stepToNextMonth()
        case .weekOfMonth?:
            periodEnd.advance(days: 8 - s.weekday)
        case .yearForWeekOfYear?:
            periodEnd = DayCursor(dayNumber: ZoneCalendar.firstDayOfWeekYear(Self.weekOfYear(s).year + 1))
        default:
            return outcome
        }
        guard let again = matchedDay(from: periodEnd, pattern, before: steps.lastDay, walks: &walks) else { return outcome }
        outcome.again = again.dayNumber
        guard Self.highestDateMismatch(of: pattern, again) != nil else { return outcome }
        if again.dayNumber >= steps.bumped.firstDay(after: s) {
            outcome.next = .afterMatch(again)
        } else if steps.bumped != .withinTheDay {
            outcome.next = .nextPeriod
        }
        return outcome
    }

    /// Whether the set's weekday ordinal or week of the month is one no 1st
    /// of a month shows (a 1st has ordinal 1 and lies in week 1 of its month).
    @inline(__always)
    static func noFirstOfAMonthShows(_ p: CalendarPattern) -> Bool {
        (p[.weekdayOrdinal] ?? 1) != 1 || (p[.weekOfMonth] ?? 1) != 1
    }

    /// The day `_matchingDate` reaches from the local day under `from` (at any time of
    /// it) through the date units of `p`, each walk as the search's own loop
    /// takes it on days (by whole weeks or months where the loop's days
    /// between cannot stop it); nil when a walk goes on for more than
    /// `dayStepWalkLimit` days or reaches `lastDay`.
    func matchedDay(from: DayCursor, _ p: CalendarPattern, before lastDay: Int) -> DayCursor? {
        var walks = WalkMemo()
        return matchedDay(from: from, p, before: lastDay, walks: &walks)
    }

    /// The same, answering the walks to a week number and to a week of the
    /// month from `walks` where it can, and keeping them there.
    @inline(__always)
    func matchedDay(from: DayCursor, _ p: CalendarPattern, before lastDay: Int, walks: inout WalkMemo) -> DayCursor? {
        var cursor = from
        if let year = p[.year], cursor.year != year {
            cursor = DayCursor(dayNumber: CivilDate.days(year: year, month: 1, day: 1))
        }
        if let weekYear = p[.yearForWeekOfYear], Self.weekOfYear(cursor).year != weekYear {
            cursor = DayCursor(dayNumber: ZoneCalendar.firstDayOfWeekYear(weekYear))
        }
        if let week = p[.weekOfYear] {
            // To the next Sunday, then week by week.
            guard let reached = walks.walk(toWeekOfYear: week, from: cursor), reached.dayNumber < lastDay else { return nil }
            cursor = reached
        }
        let walkStart = cursor.dayNumber
        if let month = p[.month] { cursor.advance(toMonth: month) }
        if let week = p[.weekOfMonth] {
            guard let reached = walks.walk(toWeekOfMonth: week, from: cursor, walkStart: walkStart) else { return nil }
            cursor = reached
        }
        if let ordinal = p[.weekdayOrdinal], cursor.weekdayOrdinal != ordinal {
            // Day by day to the ordinal: its first day in this month, or a
            // later month's (the ordinal only grows within a month). No month
            // has a sixth: that walk runs out.
            let origin = cursor
            guard (1...5).contains(ordinal) else { return nil }
            cursor.advance(toWeekdayOrdinal: ordinal)
            guard cursor.dayNumber - walkStart <= Self.dayStepWalkLimit else { return nil }
            if let weekday = p[.weekday], cursor.weekday != weekday {
                // The first day after the origin with both: in each month
                // from the origin's, the weekday among the ordinal's days.
                cursor = origin
                guard cursor.advance(toWeekday: weekday, ordinal: ordinal, within: Self.dayStepWalkLimit, of: walkStart)
                else { return nil }
            }
        }
        if let weekday = p[.weekday], cursor.weekday != weekday { cursor.advance(days: (weekday - cursor.weekday + 7) % 7) }
        if let day = p[.day], cursor.day != day { cursor.advance(toDayOfMonth: day) }
        return cursor.dayNumber < lastDay ? cursor : nil
    }

    /// The search's walk to week `week` of a month, on days: week by week to
    /// the next Sunday, except that week 1 is the next month's 1st, reached
    /// from the last week of this one. Taken a month at a time: the walk's
    /// Sundays in a month show its weeks in order, so it stops at the Sunday
    /// that starts week `week` when the month has that week still ahead, and
    /// otherwise passes to the next month's first Sunday (its 1st when that is
    /// a Sunday); week 1 is always the next month's 1st. (Week by week, a walk
    /// to a 6th week, which three months in ten have, took a dozen steps or
    /// more; `StepsOnDaysTests` holds this to that walk.) Nil when the walk
    /// goes past `dayStepWalkLimit` days after `walkStart`: the walk only
    /// moves forward, so its last day is the one to check.
    @inline(__always)
    static func walk(toWeekOfMonth week: Int, from start: DayCursor, walkStart: Int) -> DayCursor? {
        var cursor = start
        if cursor.weekOfMonth == week { return cursor }
        if week == 1 {
            cursor.stepToNextMonth()
        } else if cursor.weekOfMonth < week && week <= cursor.weeksInMonth {
            cursor.step(withinMonth: 7 * (week - 1) - cursor.firstWeekday + 2 - cursor.day)
        } else {
            // The months after, on their 1sts alone (the day number, the weekday and
            // the length) until one has the week: a walk to a 6th week passes three
            // or four months on average, and carrying a whole cursor through them
            // was an eighth of the time of the searches that follow their steps here.
            // (A month has week `week` when `(length + firstWeekday - 2) / 7 + 1 >= week`,
            // asked without the division; and the next 1st's weekday moves on
            // by the length less four weeks, without the remainder.)
            let lengthAndWeekdayNeeded = 7 * (week - 1) + 2
            var year = cursor.year, month = cursor.month
            var first = cursor.dayNumber - cursor.day + 1 + cursor.monthLength
            var firstWeekday = (cursor.firstWeekday - 1 + cursor.monthLength) % 7 + 1
            while true {
                if month == 12 { (year, month) = (year + 1, 1) } else { month += 1 }
                let length = CivilDate.daysInMonth(year: year, month: month)
                if length + firstWeekday >= lengthAndWeekdayNeeded {
                    cursor = DayCursor(firstOfMonth: first, year: year, month: month, weekday: firstWeekday, monthLength: length)
                    cursor.step(withinMonth: 7 * (week - 1) - firstWeekday + 1)
                    break
                }
                // The walk passes this month at its first Sunday or its 1st, so
                // the walk's limit applies from here on: it only moves forward.
                guard first - walkStart <= dayStepWalkLimit else { return nil }
                first += length
                firstWeekday += length - 28
                if firstWeekday > 7 { firstWeekday -= 7 }
            }
        }
        return cursor.dayNumber - walkStart <= dayStepWalkLimit ? cursor : nil
    }

    /// The days of the set's week-numbering year W, if it has one. From a day
    /// of W the match's walk to W stays put, so a step is the step without
    /// it, W one more unit to mismatch; from a day outside, the match starts
    /// over at W's first day, and the search takes that step itself. A unit
    /// that bails at W alone, a match plus one week year (W is then the
    /// lowest unit) and the missing day's match (which walks back to W) are
    /// left to the search too.
    var weekYearDays: Range<Int>? {
        guard let weekYear = pattern[.yearForWeekOfYear], weekYear < 9_990 else { return nil }
        return ZoneCalendar.firstDayOfWeekYear(weekYear)..<ZoneCalendar.firstDayOfWeekYear(weekYear + 1)
    }

    /// The week of the year and its week-numbering year of the day under `cursor`.
    @inline(__always)
    static func weekOfYear(_ cursor: DayCursor) -> (week: Int, year: Int) {
        ZoneCalendar.weekOfYear(ofDay: cursor.dayNumber, inYear: cursor.year)
    }

    /// The highest of the date units of `p` (year, month, day, weekday,
    /// ordinal, week of the month, week of the year, week-numbering year, in
    /// `CalendarUnitSet.highest`'s order) that the day under `cursor` does not
    /// show, or nil when it shows them all. Checked in that order and left at
    /// the first: the steps on days ask only which unit bailed, or whether any
    /// did, and building the whole set was a twentieth of their time.
    static func highestDateMismatch(of p: CalendarPattern, _ cursor: DayCursor) -> CalendarUnit? {
        if let value = p[.year], cursor.year != value { return .year }
        if let value = p[.month], cursor.month != value { return .month }
        if let value = p[.day], cursor.day != value { return .day }
        if let value = p[.weekday], cursor.weekday != value { return .weekday }
        if let value = p[.weekdayOrdinal], cursor.weekdayOrdinal != value { return .weekdayOrdinal }
        if let value = p[.weekOfMonth], cursor.weekOfMonth != value { return .weekOfMonth }
        if p[.weekOfYear] != nil || p[.yearForWeekOfYear] != nil {
            let (week, weekYear) = weekOfYear(cursor)
            if let value = p[.weekOfYear], week != value { return .weekOfYear }
            if let value = p[.yearForWeekOfYear], weekYear != value { return .yearForWeekOfYear }
        }
        return nil
    }

    /// Whether a transition falls on local day `day` (both its sides do, in a
    /// zone whose transitions leave midnight alone) that the set's time of day
    /// could meet: one from an hour before that time to an hour after it (a
    /// minute after it for a set without an hour). The hour, minute and
    /// second walks from midnight read the day up to that time and the hour
    /// after it; a transition more than an hour after the time is never read.
    /// A set without an hour reads less: its time lies in the day's first
    /// hour, its minute and second walks move a minute or a second at a time
    /// up to it, the step then reads the candidate's own fields (`mismatches`;
    /// no hour of it can mismatch, which alone would read the hour around it,
    /// `adjustedForMissingHour`), and where the next step searches from lies
    /// on another day (see the file's note on sets without a day); so a
    /// transition more than a minute after its time is never read. A transition whose
    /// later wall reading is an hour or more before the time is passed
    /// through, the time existing on that day:
    ///
    /// - An hour's interval is 3,600 s long and holds the instant it is asked
    ///   for (`fieldInterval`), so each move of the hour walk is at most an
    ///   hour, and its first position at or after the transition T is less
    ///   than an hour after T. The set's time comes an hour or more after T:
    ///   T + (time − later wall) where the clock jumps ahead, T + (time −
    ///   earlier wall) where it goes back.
    /// - Before T every reading is below the later wall, an hour or more
    ///   below the time, so below its hour's start: the walk first shows the
    ///   set's hour after T, at the latest at the time itself, and from T on
    ///   the clock runs plain (another transition that day is looked for
    ///   below). The minute and second walks go on from there, plain.
    ///
    /// A jump ahead ending at the set's time, for a set with an hour, is
    /// passed through too when its earlier reading is on the hour and no
    /// transition came before it that day (New York's 2:00 → 3:00 until
    /// 2006, on the first Sunday of April, and a set at 3:00):
    ///
    /// - Before T every reading is below the earlier one, which is on the
    ///   hour, so every hour read is below the set's (the later reading's);
    ///   the hour interval holding the instants just before T starts an hour
    ///   before the earlier reading and ends at T itself.
    /// - The walk's last move before T is to that interval (or it starts in
    ///   it). When the hour read at T is two past the one before (a jump of
    ///   an hour), Foundation's walk stays once at the interval's start,
    ///   taking the skipped hour as read, and moves to T at its next move;
    ///   after a jump of half an hour or two hours it moves to T at once.
    ///   Either way its first position at or after T is T, which reads the
    ///   set's hour, minute and second: the time exists and the minute and
    ///   second walks stay there, the clock running plain after it.
    ///
    /// (Off the hour, the interval before T would end past it: Chatham's
    /// 2:45 → 3:45 reads 4:00 at the interval's end.)
    ///
    /// (Until the thirtieth session the bound was "more than an hour", which
    /// made New York's 3:00 on the first Sunday of November take every such
    /// step in full: `{hour: 3, weekday: 1, weekdayOrdinal: 1, weekOfMonth:
    /// 5}` was among the random mix's slowest sets; its steps on the first
    /// Sundays of April before 2007 were handed back until the thirty-third
    /// passed the jump ahead ending at its time.) The days between the
    /// transitions found are kept for the next day asked about.
    private func hasTransition(onDay day: Int, _ steps: inout StepsOnDays) -> Bool {
        if steps.quietAfter < day && day < steps.quietBefore { return false }
        // The instants of a local day lie within 26 hours of its UTC namesake:
        // transitions up to `after` fall on earlier days.
        var after = day * 86_400 - 93_600
        // Whether a transition passed through falls on `day` itself.
        var passedOnDay = false
        while true {
            guard let transition = calendar.rules.firstTransition(after: after) else {
                (steps.quietAfter, steps.quietBefore) = (passedOnDay ? day : day - 1, Int.max)
                return false
            }
            let transitionDay = CivilDate.floorDivide(transition.at + transition.offsetBefore, 86_400).quotient
            if transitionDay == day {
                let earlierWall = min(transition.offsetBefore, transition.offsetAfter) + transition.at
                let laterWall = max(transition.offsetBefore, transition.offsetAfter) + transition.at
                let earlierSecond = CivilDate.floorDivide(earlierWall, 86_400).remainder
                if earlierSecond > steps.timeOfDay + steps.readsAfterTime { return false }
                let later = CivilDate.floorDivide(laterWall, 86_400)
                // (A set with an hour reads an hour past its time.)
                let endsAtTheTime = !passedOnDay && steps.readsAfterTime == 3600 && transition.offsetAfter > transition.offsetBefore
                    && earlierSecond % 3600 == 0 && later.quotient == day && later.remainder == steps.timeOfDay
                guard later.remainder + 3600 <= steps.timeOfDay || endsAtTheTime else { return true }
                // Wholly an hour or more before the time, or a jump ahead ending at
                // it: look for another on the same day.
                passedOnDay = true
            } else if transitionDay > day {
                (steps.quietAfter, steps.quietBefore) = (passedOnDay ? day : day - 1, transitionDay)
                return false
            }
            after = transition.at
        }
    }

    /// The instant the search searches from after the step that found nothing
    /// and chose `next` (`searched` is its day), as the step computes it; nil
    /// when the set's time on the match's day is not plain wall-clock arithmetic.
    private func instant(of next: NextSearch, before searched: DayCursor, lowest: CalendarUnit) -> Double? {
        switch next {
        case .nextPeriod:
            return calendar.midnight(ofDay: searched.dayNumber)
        case let .afterMatch(matched):
            let timeOfDay = (pattern[.hour] ?? 0) * 3600 + (pattern[.minute] ?? 0) * 60 + (pattern[.second] ?? 0)
            let wall = matched.dayNumber * 86_400 + timeOfDay
            let instant = calendar.instant(ofLocal: wall, gap: .shiftForward)
            // Minutes are cut in UTC: the match lands on the wall time only with an offset of whole minutes.
            guard calendar.localSeconds(Double(instant)) == wall, (wall - instant) % 60 == 0 else { return nil }
            return calendar.addingOne(lowest, to: Double(instant))
        }
    }
}
