/// Steps taken once per kind of year, in a zone whose offset never changes.
///
/// A set with a month or a week number and no year that cannot answer
/// (`{month: 12, day: 14, minute: 3, second: 38, weekOfYear: 1}`: 14
/// December is never in week 1, yet 29–31 December can be, so no shortcut
/// proves it nil) makes Foundation take all its 101 steps, a year or two
/// each, 40–70 µs. Those steps repeat: from the same time of the year in a
/// year of the same kind, a step finds the same nothing and moves on by the
/// same amount. So each step that finds nothing is kept under its kind, and a
/// later step of that kind is answered from it without being taken.
///
/// Why the kind decides the step. Without a year or a week-numbering year in
/// the set, a step from a date in year Y reads the calendar only from 1
/// January of Y − 1 (a week or a day back) up to 1 January of Y + 1 + `reach`:
/// the week number walks at most a year and a week (week 53, which can take a
/// decade, is left out), the month at most a year, the week of the month up to
/// a year, the ordinal, weekday and day a few months, the time of day a day;
/// the search's own approximations start over from 1 January of Y or Y + 1
/// (a missing day's next month) or, for 29 February, from the next leap year
/// (`reach` 8 instead of 4). Every field of every date in those years — day of
/// the year, month, day, weekday, ordinal, week of the month, week number —
/// follows from the weekday of 1 January of Y − 1 and which of the years are
/// leap years; and the zone's offset is one constant (`constantOffsetForever`),
/// so wall-clock time is UTC shifted. The only absolute year a step reads is
/// Y modulo 4 (29 February's four-year look ahead), kept in the key too. The
/// query's start matters only through comparisons with candidates; a step is
/// looked up only when 1 January of Y − 1 lies after the start, where every
/// candidate does. So two dates at the same second of years whose keys agree
/// lie a whole number of weeks apart, and every date and comparison the two
/// steps make are shifted by exactly that: the second step finds nothing
/// where the first did, and searches on from as far ahead.
///
/// Keys repeat every 28 years between century years that are not leap years
/// (2100), and across one: 2105's matches 2037's (96 years on, 1 January is a
/// Saturday in 2005 and 2101 and the leap years agree to 2196). So 101 yearly
/// steps take about 30 and look up the rest.
extension CalendarSearch {
    /// The steps a search took that found nothing, by kind (see above).
    struct YearKindMemo {
        /// The zone's one offset, seconds east of UTC.
        let offset: Int
        /// Years after the searched one whose kind a step may read.
        let reach: Int
        /// Where the next step searched from, less where this one did, by `key`.
        private var advances: [Int: Double] = [:]

        init(offset: Int, reach: Int) {
            self.offset = offset
            self.reach = reach
        }

        /// The key of a step from `searching`: from bit 20 its second of the
        /// year; bits 0–2 the weekday of 1 January of the year Y before (0…6),
        /// bits 3–4 Y mod 4, from bit 5 whether Y − 1, Y, … Y + `reach` are
        /// leap years. Nil when 1 January of Y − 1 is not after `start` (or
        /// the year is out of range).
        func key(searching: Double, start: Double) -> Int? {
            guard searching.isFinite, abs(searching) < 1e14 else { return nil }
            let local = Int(searching.rounded(.down)) + offset
            let (day, second) = CivilDate.floorDivide(local, 86_400)
            guard let (year, dayOfYear, leap) = CivilYear.yearAndDayOfYear(day), year > 1 else { return nil }
            let previousLeap = Self.isLeap(year - 1)
            let previousJanuaryFirst = day - dayOfYear - (previousLeap ? 366 : 365)
            guard Double(previousJanuaryFirst * 86_400 - offset) > start else { return nil }
            var kinds = (CivilDate.weekday(ofDays: previousJanuaryFirst) - 1) | (year & 3) << 3
            kinds |= previousLeap.bit << 5 | leap.bit << 6
            for ahead in 1...reach where Self.isLeap(year + ahead) { kinds |= 1 << (6 + ahead) }
            return (dayOfYear * 86_400 + second) << 20 | kinds
        }

        /// `CivilDate.isLeapYear` for years ≥ 1 without a division: for a multiple
        /// of 4, a multiple of 100 is one of 25, and of 400 then one of 16.
        @inline(__always)
        private static func isLeap(_ year: Int) -> Bool {
            year & 3 == 0 && (year % 25 != 0 || year & 15 == 0)
        }

        /// The steps from `searching` (of kind `key`) on that were kept, up to
        /// `stepsLeft` of them, looked up one after another: how many, where
        /// the last searched from and where it moved to; nil when the first
        /// was not kept.
        func run(from searching: Double, _ key: Int, start: Double,
                 stepsLeft: Int) -> (steps: Int, last: Double, next: Double)? {
            guard stepsLeft > 0, let advance = advances[key] else { return nil }
            var steps = 1, last = searching, next = searching + advance
            while steps < stepsLeft, let key = self.key(searching: next, start: start), let advance = advances[key] {
                last = next
                next += advance
                steps += 1
            }
            return (steps, last, next)
        }

        /// Keeps a step from `searching` that found nothing and moved to `next`.
        mutating func keep(_ key: Int, searching: Double, next: Double) {
            advances[key] = next - searching
        }
    }

    /// A memo for this search's steps from `start`, or nil where the
    /// reasoning above does not hold: a year, a week-numbering year or week 53
    /// in the set, neither a month nor a week number (steps not a year apart,
    /// which would never repeat), or a zone whose offset changes after the start.
    func yearKindMemo(after start: Double) -> YearKindMemo? {
        let set = pattern.set
        guard askingWhetherAnyAnswer, !set.contains(.year), !set.contains(.yearForWeekOfYear), pattern[.weekOfYear] != 53,
              set.contains(.month) || set.contains(.weekOfYear), start.isFinite, abs(start) < 1e14,
              let offset = calendar.rules.constantOffsetForever(from: Int(start.rounded(.down)) - 2 * 366 * 86_400) else {
            return nil
        }
        let reach = pattern[.month] == 2 && set.contains(.day) ? 8 : 4
        return YearKindMemo(offset: offset, reach: reach)
    }
}
