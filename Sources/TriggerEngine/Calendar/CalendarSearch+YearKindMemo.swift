/// Steps taken once per kind of year.
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
/// leap years; and so do the zone's transitions in them, once its offsets
/// follow the kinds of years (`ZoneRules.yearKindsFrom`: rules like "the first
/// Sunday of April", or no change at all), so the wall clock at each instant
/// does too. The date's offset is in the key beside its wall-clock second (a
/// repeated hour is passed twice). The only absolute year a step reads is
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
        /// The zone, whose offsets follow the kinds of years from `rules.yearKindsFrom` on.
        let rules: ZoneRules
        /// Years after the searched one whose kind a step may read.
        let reach: Int
        /// Where the next step searched from, less where this one did, by `key`:
        /// an open-addressed table (key 0 is an empty slot; no key is 0),
        /// made at the first step kept. A `Dictionary` cost about 80 ns a step
        /// in hashing and growing, which searches that never meet a kind twice
        /// (steps months apart) paid for nothing.
        private var slots: [(key: Int, advance: Double)] = []
        /// Slots in the table: a search keeps at most 101 steps.
        private static let slotCount = 256
        /// Slots filled.
        private var kept = 0
        /// Whether a step was ever looked up.
        private var lookedUp = false
        /// Whether the memo is not worth its keys any more: 48 steps kept and
        /// none looked up. Steps a year apart meet a kind again within 28
        /// years and a few; a search whose steps are months apart never does,
        /// and paid 40–50 ns a step for the keys.
        var isSpent: Bool { kept >= 48 && !lookedUp }

        init(rules: ZoneRules, reach: Int) {
            self.rules = rules
            self.reach = reach
        }

        /// The key of a step from `searching`: from bit 32 its wall-clock second
        /// of the year; bits 15–31 the offset there (a repeated hour's two
        /// passes differ only in it); bits 0–2 the weekday of 1 January of the
        /// year Y before (0…6), bits 3–4 Y mod 4, from bit 5 whether Y − 1, Y,
        /// … Y + `reach` are leap years. Nil when 1 January of Y − 1 is not a
        /// day after `start`, or lies before the zone's offsets follow the
        /// kinds of years (or the year is out of range).
        func key(searching: Double, start: Double) -> Int? {
            guard searching.isFinite, abs(searching) < 1e14 else { return nil }
            let whole = Int(searching.rounded(.down))
            let offset = rules.offset(atUTC: whole)
            let (day, second) = CivilDate.floorDivide(whole + offset, 86_400)
            guard let (year, dayOfYear, leap) = CivilYear.yearAndDayOfYear(day), year > 1,
                  year - 1 >= rules.yearKindsFrom, abs(offset) < 1 << 16 else { return nil }
            let previousLeap = Self.isLeap(year - 1)
            let previousJanuaryFirst = day - dayOfYear - (previousLeap ? 366 : 365)
            // A day of margin: the wall clock is never a day from UTC.
            guard Double((previousJanuaryFirst - 1) * 86_400) > start else { return nil }
            var kinds = (CivilDate.weekday(ofDays: previousJanuaryFirst) - 1) | (year & 3) << 3
            kinds |= previousLeap.bit << 5 | leap.bit << 6
            for ahead in 1...reach where Self.isLeap(year + ahead) { kinds |= 1 << (6 + ahead) }
            return (dayOfYear * 86_400 + second) << 32 | (offset + 1 << 16) << 15 | kinds
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
        mutating func run(from searching: Double, _ key: Int, start: Double,
                          stepsLeft: Int) -> (steps: Int, last: Double, next: Double)? {
            guard stepsLeft > 0, let advance = keptAdvance(key) else { return nil }
            lookedUp = true
            var steps = 1, last = searching, next = searching + advance
            while steps < stepsLeft, let key = self.key(searching: next, start: start), let advance = keptAdvance(key) {
                last = next
                next += advance
                steps += 1
            }
            return (steps, last, next)
        }

        /// Keeps a step from `searching` that found nothing and moved to `next`.
        mutating func keep(_ key: Int, searching: Double, next: Double) {
            // A search keeps at most its 101 steps; past half the table a step is simply not kept.
            guard kept < Self.slotCount / 2 else { return }
            if slots.isEmpty { slots = Array(repeating: (0, 0), count: Self.slotCount) }
            var slot = Self.slot(of: key)
            while slots[slot].key != 0 && slots[slot].key != key { slot = (slot + 1) & (Self.slotCount - 1) }
            if slots[slot].key == 0 { kept += 1 }
            slots[slot] = (key, next - searching)
        }

        /// The advance kept under `key`, if any.
        @inline(__always)
        private func keptAdvance(_ key: Int) -> Double? {
            guard !slots.isEmpty else { return nil }
            var slot = Self.slot(of: key)
            while slots[slot].key != 0 {
                if slots[slot].key == key { return slots[slot].advance }
                slot = (slot + 1) & (Self.slotCount - 1)
            }
            return nil
        }

        /// Where `key`'s probe starts: its bits mixed by a multiplication, the top eight.
        @inline(__always)
        private static func slot(of key: Int) -> Int {
            Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(key)) &* 0x9E37_79B9_7F4A_7C15) >> 56)
        }
    }

    /// A memo for this search's steps from `start`, or nil where the
    /// reasoning above does not hold: a year, a week-numbering year or week 53
    /// in the set, neither a month nor a week number (steps not a year apart,
    /// which would never repeat), or a zone whose offsets never follow the
    /// kinds of years.
    func yearKindMemo(after start: Double) -> YearKindMemo? {
        let set = pattern.set
        guard askingWhetherAnyAnswer, !set.contains(.year), !set.contains(.yearForWeekOfYear), pattern[.weekOfYear] != 53,
              set.contains(.month) || set.contains(.weekOfYear), calendar.rules.yearKindsFrom != Int.max else {
            return nil
        }
        let reach = pattern[.month] == 2 && set.contains(.day) ? 8 : 4
        return YearKindMemo(rules: calendar.rules, reach: reach)
    }
}
