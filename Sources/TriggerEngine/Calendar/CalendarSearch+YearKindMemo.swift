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
/// the set, a step from a date in year Y reads the calendar from a week before
/// that date (a day's margin for the wall clock: never before 23 December of
/// Y − 1) up to a month past the latest date it produces (`step(start:searching:reached:)`:
/// each walk moves forward to the match it returns and reads at most to the
/// end of that match's month; the search's approximations start over from 1
/// January of Y or Y + 1, or for 29 February from the next leap year, and their
/// matches are among the dates produced). Call the year holding that last
/// date Z. Every field of every date in between — day of the year, month and
/// its length, day, weekday, ordinal, week of the month, week number —
/// follows from the weekday of 1 January of Y and which of the years Y … Z − 1
/// are leap years, and of Z too once the reading passes 28 February of Z. So
/// do the zone's transitions in them, once its offsets follow the kinds of
/// years (`ZoneRules.yearKindsFrom`: rules like "the first Sunday of April",
/// or no change at all), when the kinds of Y − 1 (for its last week) and of Z
/// are in the key too; a zone that no longer changes offset needs neither.
/// So the wall clock at each instant follows as well. The date's offset is in
/// the key beside its wall-clock second (a repeated hour is passed twice). The
/// only absolute year a step reads is Y modulo 4 (29 February's four-year
/// look ahead), kept in the key for sets that can take it. The query's start
/// matters only through comparisons with candidates; a step is looked up only
/// when 1 January of Y − 1 lies after the start, where every candidate does.
///
/// So a step that found nothing is kept under a key holding the leap years
/// it read, Y to Z (how many is in the key too), and a later step is looked up
/// under each count a kept step had. Two dates at the same second of years
/// whose keys agree lie a whole number of weeks apart; the second step reads
/// the same dates as the first, shifted by exactly that, for as long as they
/// agree, and the first read nothing beyond them: the second finds nothing
/// where the first did, and searches on from as far ahead.
///
/// Keys repeat every 28 years between century years that are not leap years
/// (2100), and across one: 2105's matches 2037's (96 years on, 1 January is a
/// Saturday in 2005 and 2101 and the leap years agree to 2196). A step that
/// reads only Y and the start of Y + 1 keys on 14 kinds, one that reads
/// into Y + 1 on 21 (28 years hold each kind with a leap year once and each
/// without twice). So 101 yearly steps take 20–35 and look up the rest
/// (`{month: 12, day: 14, minute: 3, second: 38, weekOfYear: 1}` in UTC took
/// 38 when every key held the kinds of Y − 1 to Y + 4, 24 µs a query
/// through the CLI, and takes 20, 15.5 µs).
extension CalendarSearch {
    /// The steps a search took that found nothing, by kind (see above).
    struct YearKindMemo {
        /// The zone, whose offsets follow the kinds of years from `rules.yearKindsFrom` on.
        let rules: ZoneRules
        /// Whether the set can take 29 February's four-year look ahead, which
        /// reads the year modulo 4.
        let readsYearModFour: Bool
        /// Whether the zone still changes offset from `rules.yearKindsFrom`
        /// on: then the kinds of Y − 1 and Z are in the key (see above).
        let zoneChangesOffset: Bool
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
        /// The fewest and the most leap years a kept step's key holds: a step
        /// is looked up under each count in between.
        private var fewestLeapYears = Self.mostLeapYears + 1, mostKeptLeapYears = -1
        /// The most leap years a key holds (bits 10–21); a step reading
        /// further is not kept.
        private static let mostLeapYears = 12
        /// How far past the latest date a step produced it may read (a month
        /// to that month's end) and a day for the wall clock.
        private static let readingMargin = 33.0 * 86_400
        /// Whether the memo is not worth its keys any more: 48 steps kept and
        /// none looked up. Steps a year apart meet a kind again within 28
        /// years and a few; a search whose steps are months apart never does,
        /// and paid 40–50 ns a step for the keys.
        var isSpent: Bool { kept >= 48 && !lookedUp }

        /// Where a step searches from, as the key needs it: the key without
        /// its leap years, and the year Y.
        struct Place {
            /// Bits 39–63 the wall-clock second of the year; bits 22–38 the
            /// offset there (a repeated hour's two passes differ only in it);
            /// bits 0–2 the weekday of 1 January of Y (0…6), bits 3–4 Y mod 4
            /// (when read), bit 5 whether Y − 1 is a leap year (when read).
            let partialKey: Int
            let year: Int
        }

        init(rules: ZoneRules, readsYearModFour: Bool) {
            self.rules = rules
            self.readsYearModFour = readsYearModFour
            if rules.yearKindsFrom == Int.min {
                zoneChangesOffset = false
            } else {
                // A day of margin: the wall clock is never a day from UTC.
                let kindsStart = (CivilYear.januaryFirst(rules.yearKindsFrom) - 1) * 86_400
                zoneChangesOffset = (rules.transitionTimes.last ?? Int.min) >= kindsStart
            }
        }

        /// Where a step from `searching` searches from; nil when 1 January of
        /// Y − 1 is not a day after `start`, or lies before the zone's offsets
        /// follow the kinds of years (or the year is out of range).
        func place(searching: Double, start: Double) -> Place? {
            guard searching.isFinite, abs(searching) < 1e14 else { return nil }
            let whole = Int(searching.rounded(.down))
            let offset = rules.offset(atUTC: whole)
            let (day, second) = CivilDate.floorDivide(whole + offset, 86_400)
            guard let (year, dayOfYear, _) = CivilYear.yearAndDayOfYear(day), year > 1,
                  year - 1 >= rules.yearKindsFrom, abs(offset) < 1 << 16 else { return nil }
            let januaryFirst = day - dayOfYear
            let previousLeap = Self.isLeap(year - 1)
            // A day of margin: the wall clock is never a day from UTC.
            guard Double((januaryFirst - (previousLeap ? 366 : 365) - 1) * 86_400) > start else { return nil }
            var kinds = CivilDate.weekday(ofDays: januaryFirst) - 1
            if readsYearModFour { kinds |= (year & 3) << 3 }
            if zoneChangesOffset { kinds |= previousLeap.bit << 5 }
            return Place(partialKey: (dayOfYear * 86_400 + second) << 39 | (offset + 1 << 16) << 22 | kinds, year: year)
        }

        /// The key of a step from `place` reading `count` leap years, Y on.
        func key(_ place: Place, leapYears count: Int) -> Int {
            var key = place.partialKey | count << 6
            for ahead in 0..<count where Self.isLeap(place.year + ahead) { key |= 1 << (10 + ahead) }
            return key
        }

        /// How many leap years, Y on, a step from `place` that produced dates
        /// up to `reached` read (see above); nil past `mostLeapYears`.
        func leapYears(_ place: Place, reached: Double) -> Int? {
            let last = reached + Self.readingMargin
            guard last.isFinite, abs(last) < 1e14,
                  let (year, dayOfYear, _) = CivilYear.yearAndDayOfYear(Int((last / 86_400).rounded(.down))) else { return nil }
            // Through 28 February of Z a fixed zone's dates need Z's first weekday only.
            let count = year - place.year + (zoneChangesOffset || dayOfYear >= 59 ? 1 : 0)
            return count <= Self.mostLeapYears ? max(count, 0) : nil
        }

        /// `CivilDate.isLeapYear` for years ≥ 1 without a division: for a multiple
        /// of 4, a multiple of 100 is one of 25, and of 400 then one of 16.
        @inline(__always)
        private static func isLeap(_ year: Int) -> Bool {
            year & 3 == 0 && (year % 25 != 0 || year & 15 == 0)
        }

        /// The steps from `searching` (at `place`) on that were kept, up to
        /// `stepsLeft` of them, looked up one after another: how many, where
        /// the last searched from and where it moved to; nil when the first
        /// was not kept.
        mutating func run(from searching: Double, _ place: Place, start: Double,
                          stepsLeft: Int) -> (steps: Int, last: Double, next: Double)? {
            guard stepsLeft > 0, let advance = keptAdvance(place) else { return nil }
            lookedUp = true
            var steps = 1, last = searching, next = searching + advance
            while steps < stepsLeft, let place = self.place(searching: next, start: start), let advance = keptAdvance(place) {
                last = next
                next += advance
                steps += 1
            }
            return (steps, last, next)
        }

        /// Keeps a step from `searching` (at `place`) that found nothing,
        /// produced dates up to `reached` and moved to `next`.
        mutating func keep(_ place: Place, reached: Double, searching: Double, next: Double) {
            // A search keeps at most its 101 steps; past half the table a step is simply not kept.
            guard kept < Self.slotCount / 2, let count = leapYears(place, reached: reached) else { return }
            if slots.isEmpty { slots = Array(repeating: (0, 0), count: Self.slotCount) }
            let key = key(place, leapYears: count)
            var slot = Self.slot(of: key)
            while slots[slot].key != 0 && slots[slot].key != key { slot = (slot + 1) & (Self.slotCount - 1) }
            if slots[slot].key == 0 { kept += 1 }
            slots[slot] = (key, next - searching)
            fewestLeapYears = min(fewestLeapYears, count)
            mostKeptLeapYears = max(mostKeptLeapYears, count)
        }

        /// The advance kept for a step from `place`, under any count of leap years kept.
        private func keptAdvance(_ place: Place) -> Double? {
            guard !slots.isEmpty, fewestLeapYears <= mostKeptLeapYears else { return nil }
            var key = key(place, leapYears: fewestLeapYears)
            for count in fewestLeapYears...mostKeptLeapYears {
                if count > fewestLeapYears {
                    // One more year: its bit, and the count one higher (bits 6–9).
                    key += 1 << 6
                    if Self.isLeap(place.year + count - 1) { key |= 1 << (10 + count - 1) }
                }
                if let advance = keptAdvance(key) { return advance }
            }
            return nil
        }

        /// The advance kept under `key`, if any.
        @inline(__always)
        private func keptAdvance(_ key: Int) -> Double? {
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
        return YearKindMemo(rules: calendar.rules, readsYearModFour: pattern[.month] == 2 && set.contains(.day))
    }
}
