import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The early nil of `CalendarSearch+NoAnswer` against the whole search, and
/// the sets it cuts short against Foundation.
///
/// Counts in the tests' comments are of all their shards: by default each runs the first
/// half of them (`TestShards`; `TRIGGERENGINE_ALL_SHARDS=1` runs all).
@Suite("Calendar search: sets that cannot answer")
struct NoAnswerTests {
    static let zones = WeekWalkTests.zones

    /// A random set leaning to the contradictions the check is for: a month
    /// and a week number, a sixth week of a month, a year already past,
    /// weekday ordinals with and without a month, days (which may not be
    /// cut short without a month) and times of day.
    static func pattern(_ generator: inout CalendarQueryGenerator, year: Int) -> CalendarPattern {
        var pattern = CalendarPattern()
        repeat {
            if generator.chance(0.5) { pattern[.month] = generator.int(1...12) }
            if generator.chance(0.4) { pattern[.weekOfYear] = generator.chance(0.3) ? 53 : generator.int(1...53) }
            if generator.chance(0.2) { pattern[.weekOfMonth] = generator.chance(0.4) ? 6 : generator.int(1...5) }
            if generator.chance(0.2) { pattern[.weekdayOrdinal] = generator.chance(0.4) ? 5 : generator.int(1...4) }
            if generator.chance(0.3) { pattern[.weekday] = generator.int(1...7) }
            if generator.chance(0.15) { pattern[.year] = year + generator.int(-8...3) }
            if generator.chance(0.1) { pattern[.yearForWeekOfYear] = year + generator.int(-3...3) }
            if generator.chance(0.3) { pattern[.day] = generator.int(1...31) }
            if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
            if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
        } while pattern.set.count < 2
        if generator.chance(0.25) {
            // The shapes cut short without a month: a day up to the 28th
            // against a week number, maybe with a weekday.
            pattern[.month] = nil
            pattern[.weekdayOrdinal] = nil
            pattern[.weekOfMonth] = nil
            pattern[.day] = generator.int(1...28)
            pattern[.weekOfYear] = generator.chance(0.3) ? 53 : generator.int(1...53)
        }
        return pattern
    }

    /// 3,000 seeded sets and starts in nine zones: with the check, the search
    /// answers exactly what it answers without it, and the check cuts a good
    /// share of them short (so the comparison is not empty).
    @Test(arguments: TestShards.of(2))
    func theCheckNeverChangesAnAnswer(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x0A45_0000 + UInt64(shard), count: 1_500, zones: Self.zones) { generator, year in
            Self.pattern(&generator, year: year)
        }
        let cutShort = comparison.outcomes.filter { $0.search.cannotAnswer(after: $0.after) }.count
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(cutShort >= 300, "the check applied to \(cutShort) of 1,500")
    }

    /// February's approximation in reach or not: sets without a month (or
    /// with February) holding a day up to the 28th with a weekday ordinal
    /// that agrees with it or not, a week of the month, or a later day. With
    /// the check the search answers what it answers without it, and the
    /// check cuts some of them short.
    @Test func februaryApproximationIsKeptWhereItCanAnswer() throws {
        let comparison = try EarlyNilComparison(seed: 0x0A45_FEB0, count: 1_500, zones: Self.zones) { generator, _ in
            var pattern = CalendarPattern()
            if generator.chance(0.3) { pattern[.month] = 2 }
            let day = generator.chance(0.15) ? generator.int(29...31) : generator.int(1...28)
            pattern[.day] = day
            switch generator.int(0...3) {
            case 0: pattern[.weekdayOrdinal] = (day - 1) / 7 + 1
            case 1: pattern[.weekdayOrdinal] = generator.int(1...5)
            case 2: pattern[.weekOfMonth] = generator.int(1...6)
            default: break
            }
            if generator.chance(0.5) { pattern[.weekOfYear] = generator.int(1...53) }
            if generator.chance(0.4) { pattern[.weekday] = generator.int(1...7) }
            if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
            return pattern
        }
        let cutShort = comparison.outcomes.filter { $0.search.cannotAnswer(after: $0.after) }.count
        let answered = comparison.outcomes.filter { $0.answer != nil }.count
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(cutShort >= 150 && answered >= 150, "cut short \(cutShort), answered \(answered) of 1,500")
    }

    /// February's approximation without a day: a week of the month or a
    /// weekday ordinal stays matched at a step's candidate unless a unit
    /// matched after it (the ordinal, the weekday) moves the day. Sets with
    /// one or both of them, a weekday or not, a week number (or February, or
    /// no month) and times of day that may walk into the next day, from
    /// starts at any time of day: with the check the search answers what it
    /// answers without it; the check cuts sets without a weekday short, and
    /// sets with one still reach the approximation (1 March).
    @Test(arguments: TestShards.of(2))
    func aWeekOfTheMonthOrAnOrdinalStaysMatchedUnlessAWeekdayMovesIt(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x0A45_FEB8 + UInt64(shard), count: 1_500, zones: Self.zones) { generator, _ in
            var pattern = CalendarPattern()
            switch generator.int(0...2) {
            case 0: pattern[.weekOfMonth] = generator.chance(0.3) ? 6 : generator.int(1...5)
            case 1: pattern[.weekdayOrdinal] = generator.int(1...5)
            default:
                pattern[.weekOfMonth] = generator.int(1...6)
                pattern[.weekdayOrdinal] = generator.int(1...5)
            }
            if generator.chance(0.7) { pattern[.weekOfYear] = generator.int(1...53) } else if generator.chance(0.5) { pattern[.month] = 2 }
            if generator.chance(0.35) { pattern[.weekday] = generator.int(1...7) }
            if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
            if generator.chance(0.4) { pattern[.minute] = generator.int(0...59) }
            if generator.chance(0.3) { pattern[.second] = generator.int(0...59) }
            return pattern
        }
        let withoutWeekday = comparison.outcomes.filter { $0.pattern[.weekday] == nil }
        let cutShort = withoutWeekday.filter { $0.search.cannotAnswer(after: $0.after) }.count
        let firstOfMarch = comparison.outcomes.filter { outcome in
            guard outcome.pattern[.weekday] != nil, let answer = outcome.answer else { return false }
            let fields = outcome.search.calendar.fields(answer)
            return fields.month == 3 && fields.day == 1 && outcome.search.mismatches(at: answer, outcome.pattern) != []
        }.count
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(cutShort >= 200 && firstOfMarch >= 5, "cut short \(cutShort) of \(withoutWeekday.count) without a weekday; 1 March \(firstOfMarch)")
    }

    /// A weekday ordinal with a weekday: February sets (a fifth is never
    /// approximated: February's one day of a fifth ordinal is the 29th, and
    /// the weekday's walk from it goes on into March; another ordinal only
    /// where a day of the numbered week in February shows it and the walk to
    /// the weekday stays in February) against the same sets without a month,
    /// whose match may start on a fifth ordinal at the end of January and walk
    /// to a weekday in February, where the ordinal mismatches and Foundation
    /// answers 1 March. Week numbers around February's (4–10) most of the
    /// time, times of day. With the check the search answers what it answers
    /// without it; the check cuts most February sets short, and sets without
    /// a month do reach 1 March (so a check that cut them short too would
    /// show here).
    @Test(arguments: TestShards.of(2))
    func aWeekdayOrdinalOfFebruaryReachesTheApproximationOnlyFromItsWeek(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x0A45_F5F0 + UInt64(shard), count: 1_500, zones: Self.zones) { generator, _ in
            var pattern = CalendarPattern()
            pattern[.weekdayOrdinal] = generator.chance(0.5) ? 5 : generator.int(1...4)
            pattern[.weekday] = generator.int(1...7)
            if generator.chance(0.5) { pattern[.month] = 2 }
            if generator.chance(0.8) { pattern[.weekOfYear] = generator.chance(0.6) ? generator.int(4...10) : generator.int(1...53) }
            if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
            if generator.chance(0.3) { pattern[.second] = generator.int(0...59) }
            return pattern
        }
        let february = comparison.outcomes.filter { $0.pattern[.month] == 2 }
        let cutShort = february.filter { $0.search.cannotAnswer(after: $0.after) }.count
        let approximated = comparison.outcomes.filter { outcome in
            guard outcome.pattern[.month] == nil, let answer = outcome.answer else { return false }
            let fields = outcome.search.calendar.fields(answer)
            return fields.month == 3 && fields.day == 1 && outcome.search.mismatches(at: answer, outcome.pattern) != []
        }.count
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(cutShort >= february.count / 2 && approximated >= 5,
                "cut short \(cutShort) of \(february.count) February sets; 1 March \(approximated) without a month")
    }

    /// February sets whose candidates pass the pinned year's February: month
    /// 2 with the sixth week of the month, which no February has, a week
    /// number from the 11th on, a weekday ordinal whose days lie before the
    /// week of the month's, or a day before both; with any of a weekday, a
    /// year near the start's, a week-numbering year and times of day. With
    /// the check the search answers what it answers without it (nil, after
    /// Foundation's 101 steps through years), and the check cuts nearly all
    /// of them short; the sets one unit away (a fifth week, weeks 1–10, an
    /// ordinal or a day that may stand in February, a week-numbering year)
    /// answer the same too, some of them 1 March.
    @Test(arguments: TestShards.of(2))
    func candidatesPastThePinnedFebruaryNeverReachTheApproximation(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x0A45_F6B0 + UInt64(shard), count: 1_500, zones: Self.zones) { generator, year in
            var pattern = CalendarPattern()
            pattern[.month] = 2
            switch generator.int(0...3) {
            case 0:
                pattern[.weekOfMonth] = generator.chance(0.8) ? 6 : 5
                if generator.chance(0.2) { pattern[.weekOfYear] = generator.int(1...53) }
            case 1:
                pattern[.weekOfYear] = generator.chance(0.8) ? generator.int(11...53) : generator.int(1...10)
                if generator.chance(0.3) { pattern[.weekOfMonth] = generator.int(1...6) }
            case 2:
                pattern[.weekOfMonth] = generator.int(1...5)
                pattern[.weekdayOrdinal] = generator.int(1...5)
            default:
                if generator.chance(0.5) { pattern[.weekOfMonth] = generator.int(1...5) } else { pattern[.weekdayOrdinal] = generator.int(1...5) }
                pattern[.day] = generator.int(1...28)
            }
            if pattern[.day] == nil && generator.chance(0.4) {
                pattern[.day] = generator.chance(0.2) ? generator.int(29...31) : generator.int(1...28)
            }
            if pattern[.weekdayOrdinal] == nil && generator.chance(0.2) { pattern[.weekdayOrdinal] = generator.int(1...5) }
            if generator.chance(0.4) { pattern[.weekday] = generator.int(1...7) }
            if generator.chance(0.15) { pattern[.year] = year + generator.int(-2...3) }
            if generator.chance(0.1) { pattern[.yearForWeekOfYear] = year + generator.int(-2...3) }
            if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
            if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
            if generator.chance(0.2) { pattern[.second] = generator.int(0...59) }
            return pattern
        }
        let passing = comparison.outcomes.filter { $0.search.candidatesPassThePinnedFebruary }
        let byWeekNumber = passing.filter { ($0.pattern[.weekOfYear] ?? 0) >= CalendarSearch.firstWeekAfterFebruary }.count
        let byOrdinalOrDay = passing.filter { ($0.pattern[.weekOfYear] ?? 0) < CalendarSearch.firstWeekAfterFebruary
                                                && $0.pattern[.weekOfMonth] != 6 }.count
        let cutShort = passing.filter { $0.search.cannotAnswer(after: $0.after) }.count
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(passing.allSatisfy { $0.answer == nil }, "a set past the pinned February answered")
        #expect(comparison.firstsOfMarch >= 20, "1 March \(comparison.firstsOfMarch)")
        #expect(passing.count >= 800 && byWeekNumber >= 250 && byOrdinalOrDay >= 250 && cutShort >= passing.count - 40,
                "cut short \(cutShort) of \(passing.count) (\(byWeekNumber) by a week number, \(byOrdinalOrDay) by an ordinal or a day)")
    }

    /// February with the 30th or the 31st, and with it a week number, a week of
    /// the month, a weekday ordinal, a weekday, a week-numbering year, a year or
    /// times of day: no candidate lies in February (the day walk goes on to
    /// March), so February's approximation is out of reach. With the check the
    /// search answers what it answers without it; many are cut short, and the
    /// 29th, left to the search (it is in February in leap years), still
    /// answers 1 March through the approximation now and then.
    @Test(arguments: TestShards.of(2))
    func theThirtiethOfFebruaryNeverStandsInFebruary(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x0A45_F300 + UInt64(shard), count: 1_000, zones: Self.zones) { generator, year in
            var pattern = CalendarPattern()
            pattern[.month] = 2
            pattern[.day] = generator.chance(0.25) ? 29 : generator.int(30...31)
            if generator.chance(0.5) { pattern[.weekOfYear] = generator.int(1...12) }
            if generator.chance(0.3) { pattern[.weekOfMonth] = generator.int(1...6) }
            if generator.chance(0.3) { pattern[.weekdayOrdinal] = generator.int(1...5) }
            if generator.chance(0.3) { pattern[.weekday] = generator.int(1...7) }
            if generator.chance(0.15) { pattern[.year] = year + generator.int(-2...3) }
            if generator.chance(0.1) { pattern[.yearForWeekOfYear] = year + generator.int(-2...3) }
            if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
            if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
            return pattern
        }
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        let late = comparison.outcomes.filter { ($0.pattern[.day] ?? 0) >= 30 }
        #expect(late.allSatisfy { !$0.search.februaryApproximationInReach })
        let cutShort = late.filter { $0.search.cannotAnswer(after: $0.after) }.count
        let firstsOfMarch = comparison.outcomes.filter { $0.pattern[.day] == 29 }.filter { outcome in
            guard let answer = outcome.answer else { return false }
            let fields = outcome.search.calendar.fields(answer)
            return fields.month == 3 && fields.day == 1 && fields.secondOfDay == 0
        }.count
        #expect(cutShort >= 150 && firstsOfMarch >= 1, "cut short \(cutShort) of \(late.count); 1 March for the 29th \(firstsOfMarch)")
    }

    /// `firstWeekAfterFebruary` over a 400-year cycle: every day of weeks 11
    /// and later lies after February, and week 10 holds a day of February
    /// in some year.
    @Test func weeksFromTheEleventhLieAfterFebruary() {
        var tenthMeetsFebruary = false
        for year in 2001...2400 {
            let firstOfMarch = CivilDate.days(year: year, month: 3, day: 1)
            let weekStart = { (week: Int) in ZoneCalendar.firstDayOfWeekYear(year) + 7 * (week - 1) }
            #expect(weekStart(CalendarSearch.firstWeekAfterFebruary) >= firstOfMarch, "\(year)")
            if weekStart(CalendarSearch.firstWeekAfterFebruary - 1) < firstOfMarch { tenthMeetsFebruary = true }
        }
        #expect(tenthMeetsFebruary)
    }

    /// The approximation for a missing day needs a candidate off the month or
    /// the day set: sets with a month, a day (any, 29–31 too) and a week of
    /// the month or a weekday ordinal (1–6 and 1–5: the day before or after
    /// where they start), sometimes both, a weekday, a year or a time of day.
    /// With the check the search answers what it answers without it; the
    /// check cuts short the sets whose candidates keep the month and day, and
    /// others still answer with the 1st of the following month.
    @Test(arguments: TestShards.of(2))
    func candidatesThatKeepTheMonthAndDayNeverReachTheMissingDay(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x0A45_D1A0 + UInt64(shard), count: 1_500, zones: Self.zones) { generator, year in
            var pattern = CalendarPattern()
            pattern[.month] = generator.int(1...12)
            pattern[.day] = generator.chance(0.25) ? generator.int(29...31) : generator.int(1...28)
            switch generator.int(0...4) {
            case 0, 1: pattern[.weekdayOrdinal] = generator.int(1...5)
            case 2, 3: pattern[.weekOfMonth] = generator.int(1...6)
            default:
                pattern[.weekdayOrdinal] = generator.int(1...5)
                pattern[.weekOfMonth] = generator.int(1...6)
            }
            if generator.chance(0.15) { pattern[.weekday] = generator.int(1...7) }
            // A year behind the start keeps the search going past the checks.
            if generator.chance(0.3) { pattern[.year] = year + generator.int(-4...2) }
            if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
            if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
            return pattern
        }
        let keeping = comparison.outcomes.filter { $0.search.candidatesKeepTheMonthAndDay }
        let cutShort = keeping.filter { $0.search.cannotAnswer(after: $0.after) }.count
        let firstOfNextMonth = comparison.firstsOfTheFollowingMonth
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(cutShort >= 200 && firstOfNextMonth >= 20, "cut short \(cutShort) of \(keeping.count); 1st of the next month \(firstOfNextMonth)")
    }

    /// A month, a day and a week number alone: the missing day's
    /// approximation needs a candidate off the month or the day, which the
    /// week walk leaves possible only when week w can hold a day of the month
    /// after the day set. The sets lean to the edge of that rule (a week that
    /// meets the month or the next one, any day 1–31, the next month's 1st in
    /// week w half the time), with a year behind the start now and then and
    /// times of day. With the check the search answers what it answers
    /// without it; the rule cuts short sets that took all 101 yearly steps,
    /// and sets it leaves to the search still answer with the 1st of the
    /// following month.
    @Test(arguments: TestShards.of(2))
    func aWeekNumberThatNeverReachesPastTheDayKeepsTheMonthAndDay(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x0A45_D1B0 + UInt64(shard), count: 1_200, zones: Self.zones) { generator, year in
            var pattern = CalendarPattern()
            let month = generator.int(1...12)
            pattern[.month] = month
            pattern[.day] = generator.int(1...31)
            // Weeks that meet this month or the first days of the next (week 1 for December).
            let firstWeek = max(1, (CivilDate.days(year: 2001, month: month, day: 1) - CivilDate.days(year: 2001, month: 1, day: 1)) / 7 - 1)
            pattern[.weekOfYear] = month == 12 && generator.chance(0.3) ? 1 : min(53, firstWeek + generator.int(0...7))
            if generator.chance(0.2) { pattern[.year] = year + generator.int(-6...3) }
            if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
            if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
            return pattern
        }
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        let ruled = comparison.outcomes.filter { outcome in
            guard let month = outcome.pattern[.month], let day = outcome.pattern[.day], let week = outcome.pattern[.weekOfYear] else { return false }
            return day <= CivilDate.daysInMonth(year: 2001, month: month) && (CalendarSearch.latestDayOfMonth(month, inWeekOfYear: week) ?? 0) < day
        }
        let cutShort = ruled.filter { $0.search.candidatesKeepTheMonthAndDay && $0.search.cannotAnswer(after: $0.after) }.count
        let firstOfNextMonth = comparison.firstsOfTheFollowingMonth
        // Every set the rule takes is one the search answers nil for, and the rule takes many.
        #expect(ruled.allSatisfy { $0.answer == nil }, "\(ruled.filter { $0.answer != nil }.map { "\($0.pattern)" }.prefix(5))")
        #expect(cutShort >= 100 && firstOfNextMonth >= 20,
                "cut short \(cutShort) of \(ruled.count) under the rule; 1st of the next month \(firstOfNextMonth)")
    }

    /// A month, a day, a weekday k, and a week of the month w or a weekday
    /// ordinal o up to the 4th: the walk from week w finds the weekday on or
    /// before the `7w + k`th (the `7w`th for Saturday), the walk from the 1st
    /// to the o-th such weekday on or before the `7o`th, so a day on or after
    /// that keeps every candidate in the month. The days lean to that edge,
    /// with a year behind the start now and then and times of day. With the
    /// check the search answers what it answers without it; many are cut
    /// short, and those whose walk may pass the day still answer with the 1st
    /// of the following month.
    @Test(arguments: [(0, CalendarUnit.weekOfMonth), (1, .weekOfMonth), (0, .weekdayOrdinal), (1, .weekdayOrdinal)])
    func aWeekdayAfterAWeekOrAnOrdinalKeepsTheMonthAndDay(shard: Int, walk: CalendarUnit) throws {
        let seed = (walk == .weekOfMonth ? 0x0A45_D1C0 : 0x0A45_D1D0) + UInt64(shard)
        let comparison = try EarlyNilComparison(seed: seed, count: 1_200, zones: Self.zones) { generator, year in
            var pattern = CalendarPattern()
            pattern[.month] = generator.int(1...12)
            let number = generator.int(1...4)
            pattern[walk] = number
            pattern[.weekday] = generator.int(1...7)
            pattern[.day] = min(31, 7 * (number - 1) + generator.int(walk == .weekOfMonth ? 1...17 : 1...14))
            if generator.chance(0.2) { pattern[.year] = year + generator.int(-6...3) }
            if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
            if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
            return pattern
        }
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        let cutShort = comparison.cutShortKeepingTheMonthAndDay, firstOfNextMonth = comparison.firstsOfTheFollowingMonth
        #expect(cutShort >= 100 && firstOfNextMonth >= 10, "cut short \(cutShort); 1st of the next month \(firstOfNextMonth)")
    }

    /// `latestDayOfMonth(_:inWeekOfYear:)`, built from the 28 years from 2001,
    /// against every day of the 400-year cycle from 1601.
    @Test func theLatestDayOfAMonthInAWeekHoldsOverFourHundredYears() {
        var latest = [[Int]](repeating: [Int](repeating: 0, count: 54), count: 13)
        for year in 1601...2000 {
            for month in 1...12 {
                for day in 1...CivilDate.daysInMonth(year: year, month: month) {
                    let week = ZoneCalendar.weekOfYear(ofDay: CivilDate.days(year: year, month: month, day: day), inYear: year).week
                    latest[month][week] = max(latest[month][week], day)
                }
            }
        }
        var wrong: [String] = []
        for month in 1...12 {
            for week in 1...53 where (CalendarSearch.latestDayOfMonth(month, inWeekOfYear: week) ?? 0) != latest[month][week] {
                wrong.append("month \(month) week \(week): \(String(describing: CalendarSearch.latestDayOfMonth(month, inWeekOfYear: week))), walked \(latest[month][week])")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
        // Week 41 never reaches September; December's 31st can be week 1.
        #expect(CalendarSearch.latestDayOfMonth(9, inWeekOfYear: 41) == nil)
        #expect(CalendarSearch.latestDayOfMonth(12, inWeekOfYear: 1) == 31)
    }

    /// `someDay(showing:onOrAfter:)` against a plain walk over forty years of
    /// days, for sets of date units alone (its own candidates are only a
    /// month, a week or a year of each kind).
    ///
    /// In the second shard every set has a weekday, and half of them nothing
    /// else to narrow the days down (no month, week number, year or day): a
    /// weekday alone narrows them to one in seven, so those are looked at in
    /// full too, and "some" must then be right as well.
    @Test(arguments: 0..<2)
    func someDayAgreesWithAWalkOverTheDays(shard: Int) throws {
        var generator = CalendarQueryGenerator(seed: 0x0A45_D0 + UInt64(shard))
        var wrong: [String] = []
        var unnarrowedWithAWeekday = 0, noDay = 0
        for _ in 0..<300 {
            var pattern = Self.pattern(&generator, year: 2010)
            pattern[.hour] = nil
            pattern[.minute] = nil
            if shard == 1 {
                pattern[.weekday] = generator.int(1...7)
                if generator.chance(0.5) {
                    for unit in [CalendarUnit.month, .weekOfYear, .year, .yearForWeekOfYear, .day] { pattern[unit] = nil }
                    unnarrowedWithAWeekday += 1
                }
            }
            guard !pattern.set.isEmpty else { continue }
            let firstDay = CivilDate.days(year: 2005, month: 1, day: 1)
            let claimed = CalendarSearch.someDay(showing: pattern, onOrAfter: firstDay)
            var found = false
            for day in firstDay..<(firstDay + 40 * 366) {
                let fields = ZoneCalendar.fields(localSeconds: day * 86_400)
                if pattern.set.rawValue != 0, CalendarUnit.allCases.allSatisfy({ unit in
                    pattern[unit].map { fields.value(of: unit) == $0 } ?? true
                }) {
                    found = true
                    break
                }
            }
            if !found { noDay += 1 }
            // "None" must be right; "some" may also mean "too many days to
            // look at" (no month, week number, year, day or weekday to narrow them down).
            let narrowed = [CalendarUnit.month, .weekOfYear, .year, .yearForWeekOfYear, .day, .weekday].contains { pattern[$0] != nil }
            if claimed != found && (!claimed || narrowed) { wrong.append("\(pattern): claimed \(claimed), found \(found)") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ, first: \(wrong.prefix(5).joined(separator: "\n"))")
        // Both answers occur, and the second shard's unnarrowed sets are there.
        #expect(noDay >= 20, "only \(noDay) sets without a day")
        #expect(shard == 0 || unnarrowedWithAWeekday >= 100, "\(unnarrowedWithAWeekday) sets narrowed by a weekday alone")
    }

    /// Sets the check cuts short, in the same zones: the first two fire dates
    /// agree with Foundation's (nil, in all but the approximations' corners).
    @Test(arguments: TestShards.of(2))
    func contradictorySetsAgreeWithFoundation(shard: Int) throws {
        try CalendarOracle.expectAgreement(seed: 0x0A45_F000 + UInt64(shard), count: 300, zones: Self.zones) { generator, year in
            var components = DateComponents()
            switch generator.int(0...6) {
            case 0:
                components.month = generator.int(1...12)
                components.weekOfYear = generator.int(1...53)
            case 1:
                components.weekOfMonth = 6
                // February, which never has a sixth week, one time in three.
                components.month = generator.chance(0.35) ? 2 : generator.int(1...12)
                if components.month == 2 && generator.chance(0.6) { components.day = generator.int(1...31) }
            case 2:
                components.year = year - generator.int(1...3)
                components.month = generator.int(1...12)
            case 3:
                components.yearForWeekOfYear = year - generator.int(0...2)
                components.weekOfYear = generator.int(1...53)
            case 4:
                // A year three or more behind, with days, ordinals or weeks of
                // the month (February's approximation in reach) but no month.
                components.year = year - generator.int(3...8)
                switch generator.int(0...2) {
                case 0: components.day = generator.int(1...31)
                case 1: components.weekdayOrdinal = generator.int(1...5)
                default: components.weekOfMonth = generator.int(1...6)
                }
            case 5:
                // A day up to the 28th against a week number, no month.
                components.day = generator.int(1...28)
                components.weekOfYear = generator.int(1...53)
            default:
                // A day of a month (some of them missing from it) against a
                // week number or a weekday ordinal.
                components.month = generator.int(1...12)
                components.day = generator.chance(0.3) ? generator.int(29...31) : generator.int(1...28)
                if generator.chance(0.5) {
        components.weekOfYear = generator.int(1...53)
                } else {
        components.weekdayOrdinal = generator.int(1...5)
                }
            }
            if generator.chance(0.4) { components.weekday = generator.int(1...7) }
            if generator.chance(0.5) { components.hour = generator.int(0...23) }
            if generator.chance(0.3) { components.minute = generator.int(0...59) }
            return components
        }
    }
}
