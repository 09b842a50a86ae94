/// A way out of searches that cannot answer.
///
/// A component set whose date units contradict each other (`{month: 6,
/// weekOfYear: 39}`, `{weekOfMonth: 6, weekOfYear: 8}` in a February, a year
/// already past) makes Foundation take all its 101 steps, each stepping
/// through years, before it answers nil: the slowest queries of the random
/// mix. Foundation's search answers only with an exact match of every set unit
/// or with one of its approximations, and the approximations are flagged in
/// three places only (`adjustedForMismatches`):
///
/// - a skipped hour (`forwardDST`), when every other unit matches: not
///   possible when no day shows the date units;
/// - the start of March for a day February lacks (`leapDay`), when the
///   highest mismatched unit is the day, the weekday ordinal or the week of
///   the month and the candidate lies in February
///   (`februaryApproximationInReach` says when that cannot happen, and
///   `weekOfMonthCandidatesMissFebruary` for a week of the month with a
///   week number, walking the candidates where the former bounds them);
/// - the 1st of the next month for a day the month lacks
///   (`adjustedForMissingDay`, `leapDay`), which needs a day in the set (and
///   a month, set or added by the search) and the 1st of the following month
///   to show the set's other date units.
///
/// So when the set leaves February's approximation out as above, no day on
/// or after the start shows all its date units, and (with a day) no 1st of
/// the following month shows the others, the answer is nil, and
/// the search says so after a few steps instead of a hundred. Whether
/// any day shows the date units is decided on the calendar alone: every field
/// of a day (weekday, ordinal, week of month, week of year) depends only on
/// its day of the year and on the year's kind (leap or not, the weekday of 1
/// January), and the 28 years from 2001 hold all fourteen kinds.
extension CalendarSearch {
    /// Steps a search takes before it asks whether it can answer at all
    /// (most searches have answered by then and never ask).
    static let stepsBeforeAskingWhetherAnyAnswer = 4

    /// Whether the search can only end in nil, by the reasoning above; false
    /// whenever that is not certain.
    func cannotAnswer(after start: Double) -> Bool {
        let set = pattern.set
        let startDay = calendar.dayNumber(at: start)
        if let year = pattern[.year], !set.contains(.weekOfYear), !set.contains(.yearForWeekOfYear),
           !(set.contains(.day) && set.contains(.month)), CivilDate.date(fromDays: startDay).year >= year + 3 {
            // A year three or more behind the start, and no week number to
            // walk years on: every candidate lies within two years of that
            // year's 1 January, and so does February's approximation; the
            // approximation for a missing day, which moves to the search's
            // own year, needs a day and a month.
            return true
        }
        if let weekYear = pattern[.yearForWeekOfYear], pattern[.year] == nil,
           CivilDate.date(fromDays: startDay).year >= weekYear + yearsPastWeekYear
               || startIsPastEveryMatch(ofWeekYear: weekYear, startDay: startDay) {
            // A week-numbering year well behind the start: every match the
            // search tries (its own, February's, a missing day's) starts over
            // from that week year's start, since every date it starts from
            // (the searched one, a later one, 1 January of a year the search
            // adds) lies outside it, and moves a bounded way from there
            // (`yearsPastWeekYear`, or in days `daysPastWeekYearStart`). All of
            // them lie before the start, which no step accepts.
            return true
        }
        guard !februaryApproximationInReach || weekOfMonthCandidatesMissFebruary(after: start) else { return false }
        guard !Self.someDay(showing: pattern, onOrAfter: startDay - 1) else { return false }
        guard pattern[.day] != nil, !candidatesKeepTheMonthAndDay else { return true }
        // A day: the day after a missing one is the 1st of the month after
        // the one set (or the one the search adds, any month), with the set's
        // other date units (its year becomes the search's own: any year here).
        var following = pattern
        following[.year] = nil
        following[.month] = pattern[.month].map { $0 % 12 + 1 }
        following[.day] = 1
        return !Self.someDay(showing: following, onOrAfter: Int.min)
    }

    /// How many years past a week-numbering year the start must lie for
    /// every match the search tries from that week year's start to lie before
    /// it. From there a search moves at most a year to the month, three months
    /// to a fifth weekday, a week to the weekday, two months to the day and
    /// one to February's approximation: all within the next year. A numbered
    /// week adds a year and a sixth week of the month up to two (five years,
    /// asked as six); a 53rd week adds twelve more (a year ending on a
    /// Saturday: 2022, then 2033).
    var yearsPastWeekYear: Int {
        let set = pattern.set
        if pattern[.weekOfYear] == 53 { return 18 }
        if set.contains(.weekOfYear) || set.contains(.weekOfMonth) { return 6 }
        return 2
    }

    /// Whether every step's candidate shows the set's month and day, so that
    /// the approximation for a missing day (which needs one of them
    /// mismatched) never comes up. The match sets the month, then the week of
    /// the month or the weekday ordinal, then the day: each moves forward from
    /// the 1st of the month (or a day of it before the day set; every search
    /// date after the first step is one of those or lies past the day, where
    /// the search moves on to the month's next year). A day the month always
    /// has is found in it when it lies on or after where the week or ordinal
    /// starts: week `k` starts on or before the `7(k-1)+1`th, ordinal `o` on
    /// it, and the 4th of each lies in every month. A weekday after a week of
    /// the month w walks from a day of week w, which ends on a Saturday on or
    /// before the `7w`th, to that week's day with the weekday or the next
    /// week's: on or before the `7w + k`th for weekday k (1 = Sunday), or the
    /// `7w`th for a Saturday; a day on or after that is found in the month too
    /// (`{month: 1, day: 9, weekday: 2, weekOfMonth: 1}`: the first Monday from
    /// week 1 is the 9th at the latest). With an ordinal o the two are walked
    /// together from the 1st, to the month's o-th such weekday, on or before
    /// the `7o`th (`{month: 1, day: 14, weekday: 2, weekdayOrdinal: 1}`). Any
    /// other weekday (up to six days on from anywhere), a week-numbering year,
    /// or a week number with a week of the month or an ordinal is left to the
    /// check below.
    ///
    /// Since the day after a missing one is a 1st, which shows ordinal 1 and
    /// week 1, only those two reach the check below at all; and a search
    /// that finds such a 1st answers within its first steps, before this is
    /// asked. The bound on the day (a day the month lacks) is proof-only.
    ///
    /// A week number w alone (no week of the month, ordinal or weekday) is
    /// matched first: the walk stays on the searched date when that lies in
    /// week w, else goes to the Sunday that starts week w, so it ends on a day
    /// of week w. When every day of month M that week w can hold (in any kind
    /// of year: `latestDayOfMonth(_:inWeekOfYear:)`) lies before the day d,
    /// the month walk then stays in M before d or goes to the 1st of M, a year
    /// on or not, and the day walk ends on the d-th of M, which M always has;
    /// the time of day is walked from that midnight. So every candidate shows
    /// M and d (its year may mismatch, and is then the highest unit that
    /// does), and the missing day's approximation, which needs the month or
    /// the day mismatched, never comes up. (`{month: 9, day: 26, weekOfYear:
    /// 41}`: week 41 never reaches September, and the search took 101 yearly
    /// steps, 60–140 µs, to answer nil.)
    var candidatesKeepTheMonthAndDay: Bool {
        guard let month = pattern[.month], let day = pattern[.day] else { return false }
        let set = pattern.set
        guard !set.contains(.yearForWeekOfYear), day <= CivilDate.daysInMonth(year: 2001, month: month) else { return false }
        let weekday = pattern[.weekday]
        if let week = pattern[.weekOfYear] {
            guard weekday == nil, !set.contains(.weekOfMonth), !set.contains(.weekdayOrdinal) else { return false }
            return (Self.latestDayOfMonth(month, inWeekOfYear: week) ?? 0) < day
        }
        switch (pattern[.weekOfMonth], pattern[.weekdayOrdinal]) {
        case (nil, nil): return weekday == nil
        case let (week?, nil):
            guard week <= 4 && day >= 7 * (week - 1) + 1 else { return false }
            guard let weekday else { return true }
            return 7 * week + (weekday == 7 ? 0 : weekday) <= day
        case let (nil, ordinal?):
            guard ordinal <= 4 && day >= 7 * (ordinal - 1) + 1 else { return false }
            guard weekday != nil else { return true }
            return day >= 7 * ordinal
        default: return false
        }
    }

    /// Whether a candidate in February could mismatch first at the day, the
    /// weekday ordinal or the week of the month, so that Foundation answers
    /// with the start of March: only with one of those set, and not when a
    /// month other than February is (it then mismatches first). A day up to
    /// the 28th is found in the month or the next one, so it mismatches only
    /// at the end of a December, never in February; and on that day the
    /// weekday ordinal is fixed, so an ordinal that agrees with the day never
    /// mismatches there either. Without a day, an ordinal the match walks to
    /// shows (with the weekday, when one is set), and so does a week of the
    /// month with nothing after it: the time of day moves within the day,
    /// since every search date after the first step starts the period above
    /// the highest unit set (a day, an hour, a minute) or repeats a match's
    /// time.
    ///
    /// A week number without a month or a day narrows it further
    /// (`weekOfYearKeepsCandidatesFromFebruary`). A February set with the
    /// 30th or 31st never has a candidate in February: the month walk ends in
    /// February, the walks after it stay there or go on past it, and the day
    /// walk from a day of February goes on to that day of March (February
    /// lacks it, and March is one month on: Foundation's walk stops short only
    /// before a month two or more away). (`{month: 2, day: 30, weekOfYear: 6}`
    /// took 101 yearly steps.)
    var februaryApproximationInReach: Bool {
        if let month = pattern[.month], month != 2 { return false }
        if candidatesPassThePinnedFebruary { return false }
        let day = pattern[.day]
        if pattern[.month] == 2, let day, day >= 30 { return false }
        if let day, day > 28 { return true }
        let set = pattern.set
        // A unit the match sets stays matched unless a unit matched after it
        // moves the day: the weekday ordinal after the week of the month, the
        // weekday after both, the day last of all.
        var inReach = set.contains(.weekOfMonth)
            && (set.contains(.weekdayOrdinal) || set.contains(.weekday) || day != nil)
        if let ordinal = pattern[.weekdayOrdinal] {
            if let day {
                if (day - 1) / 7 + 1 != ordinal { inReach = true }
            } else if let weekday = pattern[.weekday], weekdayWalkMayLeaveTheOrdinalInFebruary(ordinal, weekday: weekday) {
                inReach = true
            }
        }
        return inReach && !weekOfYearKeepsCandidatesFromFebruary
    }

    /// Whether, for a set with a weekday ordinal and a weekday and no day,
    /// a candidate in February may miss the ordinal: where the walk to the
    /// ordinal starts on a day already showing it, the walk stops there, and
    /// the weekday's walk then moves up to six days on, into the next ordinal.
    /// Without February set, any month's walk can start so. A February set's
    /// walk starts where the week number's walk ends (a day of the numbered
    /// week: the search date itself, or the Sunday starting the week) or on 1
    /// February, whose ordinal's days run to the 7th, beyond any weekday's
    /// walk from it; so only days of the numbered week in February that show
    /// the ordinal, and whose walk to the weekday ends in the next ordinal
    /// within February, can. A fifth has one day in February, the 29th, and
    /// the days after it lie in March. (The time of day moves no day on: see
    /// `februaryApproximationInReach`.)
    private func weekdayWalkMayLeaveTheOrdinalInFebruary(_ ordinal: Int, weekday: Int) -> Bool {
        guard pattern[.month] == 2 else { return true }
        if ordinal == 5 { return false }
        guard let week = pattern[.weekOfYear] else { return true }
        for year in Self.yearOfEachKind {
            let february = CivilDate.days(year: year, month: 2, day: 1)
            let length = CivilDate.daysInMonth(year: year, month: 2)
            let weekStart = ZoneCalendar.firstDayOfWeekYear(year) + 7 * (week - 1)
            // The week's days in February (none, for most weeks).
            let first = max(weekStart, february), end = min(weekStart + 7, february + length)
            guard first < end else { continue }
            for dayNumber in first..<end {
                let day = dayNumber - february + 1
                guard (day - 1) / 7 + 1 == ordinal else { continue }
                let landing = day + (weekday - CivilDate.weekday(ofDays: dayNumber) + 7) % 7
                if landing <= length && (landing - 1) / 7 + 1 != ordinal { return true }
            }
        }
        return false
    }

    /// Whether a February set's candidates all lie past the February of the
    /// year the search pins, because a unit matched after that year and
    /// before the time of day passes it. Without a week-numbering year (which
    /// can send the match back before the pinned year's February) the year is
    /// set or pinned by the search (the month is the highest unit otherwise),
    /// and the match walks forward to it, then through the week of the year,
    /// to the next February, and on through the week of the month, the
    /// weekday ordinal, the weekday and the day, each walk forward only. One
    /// of them leaves that February when:
    ///
    /// - the week of the year is the 11th or later, whose days lie after
    ///   February in every kind of year (`firstWeekAfterFebruary`): the month's
    ///   walk then goes on to a later February;
    /// - the week of the month is the 6th, which February never has (29 days
    ///   from a Saturday end in the fifth);
    /// - the weekday ordinal's days (the `7o − 6`th to the `7o`th) all lie
    ///   before the earliest day the match can stand on after the week of the
    ///   month (week `w` starts on the `7w − 12`th at the earliest, when the
    ///   1st is a Saturday);
    /// - the day lies before the earliest day after those two (the ordinal's
    ///   first day, or the week's): the day walk goes on to March.
    ///
    /// The weekday walk moves at most six days on, and only forward. So no
    /// candidate lies in the pinned year's February, and one in a later
    /// February mismatches the year first: February's approximation, which
    /// needs a candidate in February whose highest mismatched unit is the
    /// day, the weekday ordinal or the week of the month, never answers.
    /// (With a week-numbering year the seeded sets answer the same, but
    /// leaving it out keeps the proof short.)
    var candidatesPassThePinnedFebruary: Bool {
        guard pattern[.month] == 2, pattern[.yearForWeekOfYear] == nil else { return false }
        if let week = pattern[.weekOfYear], week >= Self.firstWeekAfterFebruary { return true }
        // The earliest day of February the match can stand on after each walk.
        var earliest = 1
        if let week = pattern[.weekOfMonth] {
            if week == 6 { return true }
            earliest = max(earliest, 7 * week - 12)
        }
        if let ordinal = pattern[.weekdayOrdinal] {
            if 7 * ordinal < earliest { return true }
            earliest = max(earliest, 7 * ordinal - 6)
        }
        if let day = pattern[.day], day < earliest { return true }
        return false
    }

    /// The last day of month `month` that lies in week `week` of the year
    /// (as `ZoneCalendar.weekOfYear` numbers it: 28 to 31 December may be week
    /// 1) in some kind of year, or nil when none does.
    static func latestDayOfMonth(_ month: Int, inWeekOfYear week: Int) -> Int? {
        guard (1...12).contains(month), (1...53).contains(week) else { return nil }
        let latest = latestDaysInWeeksOfYear[(month - 1) * 54 + week]
        return latest > 0 ? Int(latest) : nil
    }

    /// `latestDayOfMonth(_:inWeekOfYear:)` for every month and week (54 slots a
    /// month, week 0 unused), over the 28 years from 2001, which hold all
    /// fourteen kinds of year.
    private static let latestDaysInWeeksOfYear: [Int8] = {
        var latest = [Int8](repeating: 0, count: 12 * 54)
        for year in 2001...2028 {
            for month in 1...12 {
                for day in 1...CivilDate.daysInMonth(year: year, month: month) {
                    let week = ZoneCalendar.weekOfYear(ofDay: CivilDate.days(year: year, month: month, day: day), inYear: year).week
                    latest[(month - 1) * 54 + week] = max(latest[(month - 1) * 54 + week], Int8(day))
                }
            }
        }
        return latest
    }()

    /// The first week of the year whose days lie after February in every
    /// kind of year: week 10 holds 27 February when 1 January is a Saturday
    /// (`NoAnswerTests` checks both over a 400-year cycle).
    static let firstWeekAfterFebruary = 11

    /// Whether a day on or after `firstDay` shows every date unit of
    /// `pattern` (year, month, day, weekday, weekday ordinal, week of month,
    /// week of year, week-numbering year). True when the candidates are too many to
    /// look through, over 2,000 days (the caller then searches as before): a
    /// set with neither a month, a numbered week, a year, a day nor a weekday.
    /// Only the days showing the set's day of the month and weekday are looked
    /// at: a weekday leaves one day in seven (730 in the fourteen kinds of year).
    static func someDay(showing pattern: CalendarPattern, onOrAfter firstDay: Int) -> Bool {
        // The years to look at: the one set (with its neighbours for a
        // week-numbering year), or one of each kind.
        let years: [Int]
        if let year = pattern[.year] {
            years = [year]
        } else if let weekYear = pattern[.yearForWeekOfYear] {
            years = [weekYear - 1, weekYear, weekYear + 1]
        } else {
            years = yearOfEachKind
        }
        let pinned = pattern[.year] != nil || pattern[.yearForWeekOfYear] != nil
        let wantedDay = pattern[.day]
        // A weekday out of 1…7 shows on no day; the days are looked at one by one.
        let wantedWeekday = pattern[.weekday].flatMap { (1...7).contains($0) ? $0 : nil }
        var looked = 0
        for year in years {
            // The days of the year to look at: the numbered week's (of `year`
            // as a week-numbering year, unless the calendar year is set: its
            // last days may be week 1 of the next; the week's days in another
            // calendar year, the end of a December, have fields `year`'s kind
            // decides too), or the month's, or all. Seven days rather than a
            // month's thirty when both are set: the month is checked per day.
            var from = CivilDate.days(year: year, month: 1, day: 1)
            var through = CivilDate.days(year: year + 1, month: 1, day: 1) - 1
            if let week = pattern[.weekOfYear], pattern[.year] == nil {
                from = ZoneCalendar.firstDayOfWeekYear(year) + 7 * (week - 1)
                through = from + 6
            } else if let month = pattern[.month] {
                from = CivilDate.days(year: year, month: month, day: 1)
                through = from + CivilDate.daysInMonth(year: year, month: month) - 1
            }
            if pinned { from = max(from, firstDay) }
            guard from <= through else { continue }
            var cursor = DayCursor(dayNumber: from)
            while cursor.dayNumber <= through {
                if let day = wantedDay, cursor.day != day {
                    // Only that day of each month can show the units.
                    if cursor.day < day && day <= cursor.monthLength {
                        cursor.step(withinMonth: day - cursor.day)
                    } else {
                        cursor.stepToNextMonth()
                    }
                    continue
                }
                if let weekday = wantedWeekday, cursor.weekday != weekday {
                    // Only that weekday can show the units: a week's days, one looked at.
                    cursor.advance(days: (weekday - cursor.weekday + 7) % 7)
                    continue
                }
                looked += 1
                guard looked <= 2_000 else { return true }
                if showsDateUnits(of: pattern, cursor) { return true }
                cursor.step()
            }
        }
        return false
    }

    /// A year of each of the fourteen kinds (leap or not × the weekday of
    /// 1 January), all found in 2001–2028.
    static let yearOfEachKind: [Int] = {
        var seen = Set<Int>(), years: [Int] = []
        for year in 2001...2028 {
            let kind = (CivilDate.isLeapYear(year) ? 8 : 0) + CivilDate.weekday(ofDays: CivilDate.days(year: year, month: 1, day: 1))
            if seen.insert(kind).inserted { years.append(year) }
        }
        return years
    }()

    /// The units a `DayCursor` reads off a day, made once rather than per day looked at.
    private static let dayUnits: [CalendarUnit] = [.year, .month, .day, .weekday, .weekdayOrdinal, .weekOfMonth]

    /// Whether the day under `cursor` shows every date unit of `pattern`.
    static func showsDateUnits(of pattern: CalendarPattern, _ cursor: DayCursor) -> Bool {
        for unit in dayUnits {
            if let value = pattern[unit], cursor.value(of: unit) != value { return false }
        }
        if pattern[.weekOfYear] != nil || pattern[.yearForWeekOfYear] != nil {
            let (week, weekYear) = ZoneCalendar.fields(localSeconds: cursor.dayNumber * 86_400).weekOfYearAndYear
            if let value = pattern[.weekOfYear], week != value { return false }
            if let value = pattern[.yearForWeekOfYear], weekYear != value { return false }
        }
        return true
    }
}
