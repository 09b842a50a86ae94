import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The early nil of `CalendarSearch+PinnedYear` against the whole search, and
/// the sets it cuts short against Foundation.
///
/// Counts in the tests' comments are of all their shards: by default each runs the first
/// half of them (`TestShards`; `TRIGGERENGINE_ALL_SHARDS=1` runs all).
@Suite("Calendar search: sets pinned to a year left behind")
struct PinnedYearTests {
    static let zones = WeekWalkTests.zones
    /// The zones of the comparisons with Foundation: daylight time in both
    /// hemispheres, a half-hour offset, a lost day (Apia, 30 December 2011).
    static let foundationZones = ["America/New_York", "Australia/Sydney", "Asia/Kolkata", "Europe/Berlin", "UTC",
                                  "Pacific/Apia", "America/Santiago"]

    /// A random set with a year or a week-numbering year near `year` (behind
    /// it, around it, ahead of it) and any mix of the other units, months and
    /// days included (the sets the check leaves out must still answer right).
    static func pattern(_ generator: inout CalendarQueryGenerator, year: Int) -> CalendarPattern {
        var pattern = CalendarPattern()
        if generator.chance(0.6) { pattern[.year] = year + generator.int(-12...4) }
        if pattern[.year] == nil || generator.chance(0.2) { pattern[.yearForWeekOfYear] = year + generator.int(-24...4) }
        if generator.chance(0.25) { pattern[.month] = generator.int(1...12) }
        if generator.chance(0.3) { pattern[.day] = generator.chance(0.3) ? generator.int(29...31) : generator.int(1...28) }
        if generator.chance(0.3) { pattern[.weekOfYear] = generator.chance(0.3) ? 53 : generator.int(1...52) }
        if generator.chance(0.2) { pattern[.weekOfMonth] = generator.int(1...6) }
        if generator.chance(0.2) { pattern[.weekdayOrdinal] = generator.int(1...5) }
        if generator.chance(0.3) { pattern[.weekday] = generator.int(1...7) }
        if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
        if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
        if generator.chance(0.2) { pattern[.second] = generator.int(0...59) }
        return pattern
    }

    /// 4,000 seeded sets and starts in nine zones: with the checks (this one,
    /// and `cannotAnswer`'s for a week-numbering year well behind), the search
    /// answers exactly what it answers without them, and they cut a good
    /// share of the nil answers short (so the comparison is not empty).
    @Test(arguments: TestShards.of(2))
    func theCheckNeverChangesAnAnswer(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x9179_0000 + UInt64(shard), count: 2_000, zones: Self.zones) { generator, year in
            Self.pattern(&generator, year: year)
        }
        let nils = comparison.outcomes.filter { $0.answer == nil }
        let pinnedNils = nils.filter { $0.search.lastYearStepsDependOn != nil }.count
        let farBehind = comparison.outcomes.filter { outcome in
            outcome.pattern[.year] == nil && (outcome.pattern[.month] != nil || outcome.pattern[.day] != nil)
                && outcome.search.cannotAnswer(after: outcome.after)
        }.count
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(pinnedNils >= 400, "nil for \(pinnedNils) pinned sets of 2,000")
        #expect(farBehind >= 50, "\(farBehind) week-year sets with a month or a day cut short (`cannotAnswer`)")
        #expect(nils.count <= 1_800, "answers for \(2_000 - nils.count) of 2,000")
    }

    /// Week-numbering years just behind the start (0–3 years) with the units
    /// that move a search least (`yearsPastWeekYear` asks two years for them):
    /// with the checks the search answers what it answers without them,
    /// including the searches that answer after more than four steps in the
    /// week year itself.
    @Test func weekYearsJustBehindTheStart() throws {
        let comparison = try EarlyNilComparison(seed: 0x9179_2B00, count: 1_500, zones: Self.zones) { generator, year in
            var pattern = CalendarPattern()
            pattern[.yearForWeekOfYear] = year - generator.int(0...3)
            pattern[.day] = generator.chance(0.3) ? generator.int(29...31) : generator.int(1...28)
            if generator.chance(0.3) { pattern[.month] = generator.int(1...12) }
            if generator.chance(0.5) { pattern[.weekday] = generator.int(1...7) }
            if generator.chance(0.3) { pattern[.weekdayOrdinal] = generator.int(1...5) }
            if generator.chance(0.5) { pattern[.hour] = generator.int(0...23) }
            return pattern
        }
        let cutShort = comparison.outcomes.filter { $0.search.cannotAnswer(after: $0.after) }.count
        let answered = comparison.outcomes.filter { $0.answer != nil }.count
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(cutShort >= 300 && answered >= 100, "cut short \(cutShort), answered \(answered) of 1,500")
    }

    /// A week-numbering year up to two years behind the start, with any mix
    /// of months, days, week numbers up to 52, weeks of the month, ordinals,
    /// weekdays and times.
    static func patternOfAWeekYearJustBehind(_ generator: inout CalendarQueryGenerator, year: Int) -> CalendarPattern {
        var pattern = CalendarPattern()
        pattern[.yearForWeekOfYear] = year - generator.int(0...2)
        if generator.chance(0.3) { pattern[.month] = generator.int(1...12) }
        if generator.chance(0.6) { pattern[.day] = generator.chance(0.2) ? generator.int(29...31) : generator.int(1...28) }
        if generator.chance(0.2) { pattern[.weekOfYear] = generator.int(1...52) }
        if generator.chance(0.2) { pattern[.weekOfMonth] = generator.int(1...5) }
        if generator.chance(0.2) { pattern[.weekdayOrdinal] = generator.int(1...5) }
        if generator.chance(0.4) { pattern[.weekday] = generator.int(1...7) }
        if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
        if generator.chance(0.2) { pattern[.minute] = generator.int(0...59) }
        return pattern
    }

    /// 3,000 such sets and starts: the check in days (`daysPastWeekYearStart`)
    /// ends a good share of them where the two-year rule would not, and the
    /// search answers what it answers without the checks (many sets with the
    /// start's own week year answer).
    @Test(arguments: TestShards.of(2))
    func weekYearsJustBehindInDays(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x9179_DA50 + UInt64(shard), count: 1_500, zones: Self.zones) { generator, year in
            Self.patternOfAWeekYearJustBehind(&generator, year: year)
        }
        let byDays = comparison.outcomes.filter { outcome in
            let startDay = outcome.search.calendar.dayNumber(at: outcome.after)
            return outcome.search.startIsPastEveryMatch(ofWeekYear: outcome.pattern[.yearForWeekOfYear]!, startDay: startDay)
                && CivilDate.date(fromDays: startDay).year < outcome.pattern[.yearForWeekOfYear]! + outcome.search.yearsPastWeekYear
        }.count
        let answered = comparison.outcomes.filter { $0.answer != nil }.count
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(byDays >= 400 && answered >= 150, "ended by the days alone \(byDays), answered \(answered) of 1,500")
    }

    /// Starts in the first 500 days after a week-numbering year ends, with
    /// sets whose matches reach past its end (the last weeks, December, a
    /// day December lacks, a 5th week or ordinal), where the days counted
    /// decide: with the checks the search answers what it answers without.
    @Test func startsJustPastTheWeekYearsEnd() throws {
        var generator = CalendarQueryGenerator(seed: 0x9179_DA5E)
        var differences: [String] = []
        var byDays = 0, answered = 0
        for _ in 0..<3_000 {
            let zone = Self.zones[generator.int(0...Self.zones.count - 1)]
            let weekYear = generator.int(2000...2035)
            var pattern = Self.patternOfAWeekYearJustBehind(&generator, year: weekYear)
            pattern[.yearForWeekOfYear] = weekYear
            if generator.chance(0.5) { pattern[.month] = [1, 2, 11, 12][generator.int(0...3)] }
            if generator.chance(0.3) { pattern[.weekOfYear] = generator.int(49...52) }
            let day = ZoneCalendar.firstDayOfWeekYear(weekYear + 1) + generator.int(0...500)
            let rules = try ZoneRules.named(zone)
            let after = Double(day * 86_400 + generator.int(0...86_399) - rules.offset(atUTC: day * 86_400))
            var search = CalendarSearch(calendar: ZoneCalendar(rules: rules, near: after), pattern: pattern)
            let checked = search.next(after: after)
            search.askingWhetherAnyAnswer = false
            let whole = search.next(after: after)
            if checked != whole {
                differences.append("\(zone) \(pattern) after \(after): with the checks \(String(describing: checked)), without \(String(describing: whole))")
            }
            if whole != nil { answered += 1 }
            if search.startIsPastEveryMatch(ofWeekYear: weekYear, startDay: search.calendar.dayNumber(at: after)) { byDays += 1 }
        }
        #expect(differences.isEmpty, "\(differences.count) differ, first: \(differences.prefix(5).joined(separator: "\n"))")
        #expect(byDays >= 1_000, "ended by the days \(byDays), answered \(answered) of 3,000")
    }

    /// Those sets against Foundation in seven zones: the first two fire dates agree.
    @Test(arguments: TestShards.of(2))
    func weekYearsJustBehindAgreeWithFoundation(shard: Int) throws {
        try CalendarOracle.expectAgreement(seed: 0x9179_DAF0 + UInt64(shard), count: 300, zones: Self.foundationZones) { generator, year in
            Self.patternOfAWeekYearJustBehind(&generator, year: year).dateComponents
        }
    }

    /// A set with a year, a month and a day (a fifth of the days missing from
    /// some months), the year up to ten behind the start, with any of the
    /// other units.
    static func patternWithMonthAndDay(_ generator: inout CalendarQueryGenerator, year: Int) -> CalendarPattern {
        var pattern = CalendarPattern()
        pattern[.year] = year - generator.int(-1...10)
        pattern[.month] = generator.int(1...12)
        pattern[.day] = generator.chance(0.2) ? generator.int(29...31) : generator.int(1...28)
        if generator.chance(0.4) { pattern[.weekday] = generator.int(1...7) }
        if generator.chance(0.15) { pattern[.weekdayOrdinal] = generator.int(1...5) }
        if generator.chance(0.15) { pattern[.weekOfMonth] = generator.int(1...6) }
        if generator.chance(0.15) { pattern[.weekOfYear] = generator.int(1...53) }
        if generator.chance(0.25) { pattern[.yearForWeekOfYear] = year - generator.int(-2...10) }
        if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
        if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
        if generator.chance(0.1) { pattern[.second] = generator.int(0...59) }
        return pattern
    }

    /// 3,000 such sets and starts: a set qualifies when the candidate every
    /// step past its year finds keeps out of the missing day's
    /// approximation. With the checks the search answers what it answers
    /// without them; many nil answers come from the check, and some sets
    /// answer years past their own year (the missing day's approximation,
    /// which the check leaves to the search).
    @Test(arguments: TestShards.of(2))
    func setsWithAMonthAndADayNeverChangeAnAnswer(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x9179_3D00 + UInt64(shard), count: 1_500, zones: Self.zones) { generator, year in
            Self.patternWithMonthAndDay(&generator, year: year)
        }
        let pinnedNils = comparison.outcomes.filter { $0.answer == nil && $0.search.lastYearStepsDependOn != nil }.count
        let answeredPastTheYear = comparison.outcomes.filter { outcome in
            guard let answer = outcome.answer, let year = outcome.pattern[.year] else { return false }
            return outcome.search.calendar.fields(answer).year > year + 1
        }.count
        // With a week-numbering year, pinned once the search is past it too.
        let pinnedByWeekYear = comparison.outcomes.filter { outcome in
            guard outcome.answer == nil, let weekYear = outcome.pattern[.yearForWeekOfYear],
                  let last = outcome.search.lastYearStepsDependOn else { return false }
            return last == max(outcome.pattern[.year] ?? .min, weekYear)
        }.count
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(pinnedNils >= 500 && pinnedByWeekYear >= 100,
                "nil for \(pinnedNils) pinned sets of 1,500, \(pinnedByWeekYear) with a week-numbering year")
        #expect(answeredPastTheYear >= 20, "\(answeredPastTheYear) answered past their year")
    }

    /// A week-numbering year W with a month and no year, W from a year
    /// before the start's to six after (so that the search passes W within
    /// its steps), with any of a day, a week number (53 now and then), a
    /// week of the month, an ordinal, a weekday and times of day.
    static func patternWithMonthAndWeekYear(_ generator: inout CalendarQueryGenerator, year: Int) -> CalendarPattern {
        var pattern = CalendarPattern()
        pattern[.yearForWeekOfYear] = year + generator.int(-1...6)
        pattern[.month] = generator.int(1...12)
        if generator.chance(0.5) { pattern[.day] = generator.chance(0.2) ? generator.int(29...31) : generator.int(1...28) }
        if generator.chance(0.2) { pattern[.weekOfYear] = generator.chance(0.2) ? 53 : generator.int(1...52) }
        generator.set(generator.int(0...2), of: [.weekday, .weekdayOrdinal, .weekOfMonth], in: &pattern)
        if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
        if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
        if generator.chance(0.2) { pattern[.second] = generator.int(0...59) }
        return pattern
    }

    /// 3,000 such sets and starts: with the checks the search answers what
    /// it answers without them; a good share answer within W (the check
    /// never reaches them) and the nils past W + `yearsPastWeekYear` come
    /// from the check.
    @Test(arguments: TestShards.of(2))
    func setsWithAMonthAndAWeekYearNeverChangeAnAnswer(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x9179_3E00 + UInt64(shard), count: 1_500, zones: Self.zones) { generator, year in
            Self.patternWithMonthAndWeekYear(&generator, year: year)
        }
        let pinnedNils = comparison.outcomes.filter { $0.answer == nil && $0.search.lastYearStepsDependOn != nil }.count
        let answered = comparison.outcomes.filter { $0.answer != nil }.count
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(pinnedNils >= 500 && answered >= 200, "nil for \(pinnedNils) pinned sets, \(answered) answered, of 1,500")
    }

    /// Those sets against Foundation in seven zones: the first two fire dates agree.
    @Test(arguments: TestShards.of(2))
    func setsWithAMonthAndAWeekYearAgreeWithFoundation(shard: Int) throws {
        try CalendarOracle.expectAgreement(seed: 0x9179_3EF0 + UInt64(shard), count: 300, zones: Self.foundationZones) { generator, year in
            Self.patternWithMonthAndWeekYear(&generator, year: year).dateComponents
        }
    }

    /// Those sets against Foundation in seven zones: the first two fire dates agree.
    @Test(arguments: TestShards.of(2))
    func setsWithAMonthAndADayAgreeWithFoundation(shard: Int) throws {
        try CalendarOracle.expectAgreement(seed: 0x9179_3DF0 + UInt64(shard), count: 300, zones: Self.foundationZones) { generator, year in
            Self.patternWithMonthAndDay(&generator, year: year).dateComponents
        }
    }

    /// The sets the check applies to, against Foundation: the first two fire
    /// dates agree (nil for a year behind, dates for a year ahead).
    @Test(arguments: TestShards.of(2))
    func pinnedSetsAgreeWithFoundation(shard: Int) throws {
        try CalendarOracle.expectAgreement(seed: 0x9179_F000 + UInt64(shard), count: 300, zones: Self.zones) { generator, year in
            var components = DateComponents()
            if generator.chance(0.6) {
                components.year = year + generator.int(-6...2)
                if generator.chance(0.5) { components.month = generator.int(1...12) } else if generator.chance(0.6) { components.day = generator.int(1...31) }
            } else {
                components.yearForWeekOfYear = year + generator.int(-6...2)
            }
            if generator.chance(0.4) { components.weekOfYear = generator.int(1...53) }
            if generator.chance(0.3) { components.weekOfMonth = generator.int(1...6) }
            if generator.chance(0.3) { components.weekdayOrdinal = generator.int(1...5) }
            if generator.chance(0.4) { components.weekday = generator.int(1...7) }
            if generator.chance(0.5) { components.hour = generator.int(0...23) }
            if generator.chance(0.3) { components.minute = generator.int(0...59) }
            return components
        }
    }
}
