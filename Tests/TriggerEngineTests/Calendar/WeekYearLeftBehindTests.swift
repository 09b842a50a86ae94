import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `CalendarSearch+WeekYearLeftBehind`: the search with the check against the
/// search without, what the check claims against the search from any date
/// past the week year, and such sets against Foundation.
///
/// Counts in the tests' comments are of all their shards: by default each runs the first
/// half of them (`TestShards`; `TRIGGERENGINE_ALL_SHARDS=1` runs all).
@Suite("Calendar search: a day in a week-numbering year left behind")
struct WeekYearLeftBehindTests {
    /// A set with a day (a fifth of them days some months lack) and a
    /// week-numbering year from two years before the start's to four after,
    /// with up to two of a weekday, a weekday ordinal, a week of the month and
    /// a week number, maybe a time of day; now and then a month or a year,
    /// which the check must refuse.
    static func pattern(_ generator: inout CalendarQueryGenerator, year: Int) -> CalendarPattern {
        var pattern = CalendarPattern()
        pattern[.day] = generator.chance(0.2) ? generator.int(29...31) : generator.int(1...28)
        pattern[.yearForWeekOfYear] = year + generator.int(-2...4)
        generator.set(generator.int(0...2), of: [.weekday, .weekdayOrdinal, .weekOfMonth, .weekOfYear], in: &pattern)
        if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
        if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
        if generator.chance(0.05) { pattern[.month] = generator.int(1...12) }
        if generator.chance(0.05) { pattern[.year] = year + generator.int(-1...2) }
        return pattern
    }

    /// 6,000 seeded sets and starts in 21 zones (a third of the starts near a
    /// transition): the search with the check answers what it answers without.
    @Test(arguments: TestShards.of(3))
    func theCheckNeverChangesAnAnswer(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x3EE4_1000 + UInt64(shard), count: 2_000, zones: StepsOnDaysTests.zones) {
            generator, year in Self.pattern(&generator, year: year)
        }
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
    }

    /// From a date in one of the three calendar years after the week year
    /// (any time of any day), what the check says the search comes to is what
    /// the search from that date answers (the whole step budget, no checks):
    /// nil for many, an answer for some. On 4,000 seeded sets and starts.
    @Test(arguments: TestShards.of(2))
    func whatTheCheckClaimsFromAnyDatePastTheWeekYear(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x3EE4_2000 + UInt64(shard), count: 2_000, zones: StepsOnDaysTests.zones) {
            generator, year in Self.pattern(&generator, year: year)
        }
        var generator = CalendarQueryGenerator(seed: 0x3EE4_2F00 + UInt64(shard))
        var wrong: [String] = [], toNil = 0, answered = 0
        for outcome in comparison.outcomes {
            guard let weekYear = outcome.search.weekYearOfDaySearch else { continue }
            let day = CivilDate.days(year: weekYear + generator.int(1...3), month: 1, day: 1) + generator.int(0...364)
            let from = max(outcome.after, Double(day * 86_400 + generator.int(0...86_399)))
            guard let claim = outcome.search.firstStepAfterWeekYear(weekYear, start: outcome.after, searching: from) else { continue }
            let answer = outcome.search.next(after: outcome.after, searchingFrom: from)
            if claim.answer == nil { toNil += 1 } else { answered += 1 }
            if claim.answer != answer {
                wrong.append("\(outcome.pattern) after \(outcome.after) from \(from): claimed \(String(describing: claim.answer)) "
                             + "(\(claim.stepsAhead) steps on), the search answers \(String(describing: answer))")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5).joined(separator: "\n"))")
        #expect(toNil >= 500 && answered >= 50, "claimed nil \(toNil), an answer \(answered)")
    }

    /// Such sets against Foundation in seven zones: the first two fire dates agree.
    @Test(arguments: TestShards.of(2))
    func setsWithADayAndAWeekYearAgreeWithFoundation(shard: Int) throws {
        try CalendarOracle.expectAgreement(seed: 0x3EE4_F000 + UInt64(shard), count: 300,
                                           zones: PinnedYearTests.foundationZones) { generator, year in
            Self.pattern(&generator, year: year).dateComponents
        }
    }
}
