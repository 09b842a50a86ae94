import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `CalendarSearch+YearsBeforeThePinnedYear` against the whole search.
///
/// Counts in the tests' comments are of all their shards: by default each runs the first
/// half of them (`TestShards`; `TRIGGERENGINE_ALL_SHARDS=1` runs all).
@Suite("Calendar search: the years before a set's year")
struct YearsBeforeThePinnedYearTests {
    static let zones = WeekWalkTests.zones + ["UTC", "Asia/Kolkata"]

    /// A set with a year 1–40 years after the start's, with any other units:
    /// a month and a day (29–31 often, for the missing day's approximation),
    /// February (its look four years ahead), week units (a week-numbering
    /// year's end), a weekday, a time of day.
    static func pattern(_ generator: inout CalendarQueryGenerator, year: Int) -> CalendarPattern {
        var pattern = CalendarPattern()
        pattern[.year] = year + generator.int(1...40)
        if generator.chance(0.6) { pattern[.month] = generator.chance(0.3) ? 2 : generator.int(1...12) }
        if generator.chance(0.6) { pattern[.day] = generator.chance(0.3) ? generator.int(29...31) : generator.int(1...28) }
        if generator.chance(0.4) { pattern[.weekday] = generator.int(1...7) }
        if generator.chance(0.15) { pattern[.weekdayOrdinal] = generator.int(1...5) }
        if generator.chance(0.15) { pattern[.weekOfMonth] = generator.int(1...6) }
        if generator.chance(0.15) { pattern[.weekOfYear] = generator.int(1...53) }
        if generator.chance(0.1) { pattern[.yearForWeekOfYear] = pattern[.year]! + generator.int(-1...1) }
        if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
        if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
        if generator.chance(0.2) { pattern[.second] = generator.int(0...59) }
        if generator.chance(0.3) {
            // The bench's slow shape: a date and a weekday it rarely falls on.
            pattern[.month] = generator.int(1...12)
            pattern[.day] = generator.int(1...31)
            pattern[.weekday] = generator.int(1...7)
            pattern[.weekOfYear] = nil
            pattern[.yearForWeekOfYear] = nil
        }
        return pattern
    }

    /// 6,000 seeded sets and starts: with the checks the search answers
    /// exactly what it answers without them, and the steps passed over are
    /// many (so the comparison is not empty): the step from the start of the
    /// year after the start's finds nothing and goes on to the next year,
    /// with years left to pass over, in a sixth of them (most sets find the
    /// set's year at that step).
    @Test(arguments: TestShards.of(4))
    func passingOverNeverChangesAnAnswer(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x7EA8_0000 + UInt64(shard), count: 1_500, zones: Self.zones) { generator, year in
            Self.pattern(&generator, year: year)
        }
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        var passedOver = 0
        for outcome in comparison.outcomes {
            guard let skip = Self.passOver(outcome) else { continue }
            let search = outcome.search
            passedOver += 1
            // Where it goes is where the steps go: the start of the year before the set's.
            #expect(search.calendar.fields(skip.searching).year == outcome.pattern[.year]! - 1)
            #expect(skip.searching == search.calendar.interval(of: .year, containing: skip.searching).start)
        }
        let answered = comparison.outcomes.filter { $0.answer != nil }.count
        #expect(passedOver >= 120 && answered >= 300, "passed over in \(passedOver), answered \(answered) of 1,500")
    }

    /// Where the search passes over to after the step from the start of the
    /// year after `outcome`'s start, when that step finds nothing and goes on
    /// to the next year with years left to pass over; nil otherwise.
    static func passOver(_ outcome: EarlyNilComparison.Outcome) -> (searching: Double, passedOver: Int)? {
        let search = outcome.search
        let yearAfter = search.calendar.interval(of: .year, containing: outcome.after).end
        guard let (result, next) = try? search.step(start: outcome.after, searching: yearAfter), result == nil else { return nil }
        return search.yearsBeforeThePinnedYear(after: yearAfter, next: next)
    }

    /// The same with a week-numbering year W (1–40 years after the start's)
    /// and a month instead of a year, the other units as above: 6,000 seeded
    /// sets and starts answer the same with the checks, and the steps from the
    /// year after the start's pass over to W − 1's start in about 300 of each
    /// 1,500 (most others find a match in W that answers, or the search hands
    /// the next step to W itself).
    @Test(arguments: TestShards.of(4))
    func passingOverBeforeAWeekYearWithAMonthNeverChangesAnAnswer(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x7EA8_1000 + UInt64(shard), count: 1_500, zones: Self.zones) { generator, year in
            var pattern = Self.pattern(&generator, year: year)
            pattern[.yearForWeekOfYear] = pattern[.year]
            pattern[.year] = nil
            if pattern[.month] == nil { pattern[.month] = generator.chance(0.3) ? 2 : generator.int(1...12) }
            return pattern
        }
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        var passedOver = 0
        for outcome in comparison.outcomes {
            guard let skip = Self.passOver(outcome) else { continue }
            let search = outcome.search
            passedOver += 1
            #expect(search.calendar.fields(skip.searching).year == outcome.pattern[.yearForWeekOfYear]! - 1)
            // What the search finds from there, with every step it passed over still to go, is what it answers.
            let fromThere = search.next(after: outcome.after, searchingFrom: skip.searching)
            if outcome.answer != nil { #expect(fromThere == outcome.answer, "\(outcome.pattern) after \(outcome.after)") }
        }
        #expect(passedOver >= 150, "passed over in \(passedOver) of 1,500")
    }

    /// Three of the bench's slow sets: the answer (Foundation's) and how many
    /// steps the passing over saves them (2001–2027, 2002–2035 and 2007–2030).
    @Test func theBenchsSlowSets() throws {
        let cases: [([CalendarUnit: Int], String, Double, Double)] = [
            ([.year: 2029, .month: 3, .day: 4, .weekday: 2], "Australia/Sydney", 974_151_594, 1_901_192_400),
            ([.year: 2038, .month: 4, .day: 2, .hour: 7, .second: 17, .weekday: 3], "Asia/Kolkata", 992_848_212, 2_219_423_400),
        ]
        // With a week-numbering year and a month: nil, the steps of 2006–2029 passed over.
        var weekYearSet = CalendarPattern()
        for (unit, value) in [CalendarUnit.month: 2, .day: 1, .weekdayOrdinal: 5, .yearForWeekOfYear: 2032] { weekYearSet[unit] = value }
        let kolkata = CalendarSearch(calendar: ZoneCalendar(rules: try ZoneRules.named("Asia/Kolkata"), near: 1_107_728_908),
                                     pattern: weekYearSet)
        #expect(kolkata.next(after: 1_107_728_908) == nil)
        let yearAfterStart = kolkata.calendar.interval(of: .year, containing: 1_107_728_908).end
        let (kolkataResult, kolkataNext) = try kolkata.step(start: 1_107_728_908, searching: yearAfterStart)
        #expect(kolkataResult == nil)
        #expect(kolkata.yearsBeforeThePinnedYear(after: yearAfterStart, next: kolkataNext)?.passedOver == 2032 - 2 - 2006)
        for (units, zone, after, answer) in cases {
            var pattern = CalendarPattern()
            for (unit, value) in units { pattern[unit] = value }
            let search = CalendarSearch(calendar: ZoneCalendar(rules: try ZoneRules.named(zone), near: after), pattern: pattern)
            #expect(search.next(after: after) == answer)
            let yearAfter = search.calendar.interval(of: .year, containing: after).end
            let (result, next) = try search.step(start: after, searching: yearAfter)
            #expect(result == nil)
            let skip = try #require(search.yearsBeforeThePinnedYear(after: yearAfter, next: next))
            #expect(skip.passedOver == pattern[.year]! - 2 - search.calendar.fields(yearAfter).year && skip.passedOver >= 18)
        }
    }
}
