import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `CalendarSearch+WeekOfYearReach`: the days a match moves on from its
/// numbered week, against the search's own match, and the February check it
/// narrows against the whole search and against Foundation.
///
/// Counts in the tests' comments are of all their shards: by default each runs the first
/// half of them (`TestShards`; `TRIGGERENGINE_ALL_SHARDS=1` runs all).
@Suite("Calendar search: a week number keeping February out of reach")
struct WeekOfYearReachTests {
    static let zones = WeekWalkTests.zones + ["Asia/Kolkata", "UTC"]

    /// A set with a week number and neither a month nor a day: a week of the
    /// month or a weekday ordinal (or both), maybe a weekday, a time of day,
    /// a year or a week-numbering year. Half the week numbers lie within ten
    /// weeks of a February, where the bound decides.
    static func pattern(_ generator: inout CalendarQueryGenerator, year: Int) -> CalendarPattern {
        var pattern = CalendarPattern()
        pattern[.weekOfYear] = generator.chance(0.5) ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53][generator.int(0...22)]
                                                      : generator.int(1...53)
        switch generator.int(0...2) {
        case 0: pattern[.weekOfMonth] = generator.int(1...6)
        case 1: pattern[.weekdayOrdinal] = generator.int(1...5)
        default:
            pattern[.weekOfMonth] = generator.int(1...5)
            pattern[.weekdayOrdinal] = generator.int(1...5)
        }
        if generator.chance(0.4) { pattern[.weekday] = generator.int(1...7) }
        if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
        if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
        if generator.chance(0.2) { pattern[.second] = generator.int(0...59) }
        if generator.chance(0.1) { pattern[.yearForWeekOfYear] = year + generator.int(-1...3) }
        if generator.chance(0.05) { pattern[.year] = year + generator.int(0...2) }
        return pattern
    }

    /// 20,000 seeded starts and sets (a fifth in UTC anywhere in a 400-year
    /// cycle, the rest in zones that skip, repeat or lose days): the first
    /// candidate of a step, `matchingDate`, lies at most `candidateReach` days
    /// after the day its week-number walk lands on.
    @Test func candidatesStayWithinTheReach() throws {
        var generator = CalendarQueryGenerator(seed: 0x3EAC_0000)
        var wrong: [String] = []
        var checked = 0, widest = 0
        for round in 0..<20_000 {
            let zone = round % 5 == 0 ? "UTC" : Self.zones[generator.int(0...Self.zones.count - 1)]
            let after = round % 5 == 0 ? Double(generator.int(946_684_800...13_569_465_600))
                                       : generator.after(in: zone).timeIntervalSince1970
            var pattern = Self.pattern(&generator, year: 1970 + Int(after / 31_556_952))
            pattern[.year] = nil
            pattern[.yearForWeekOfYear] = nil
            guard let reach = CalendarSearch.candidateReach(after: pattern) else { continue }
            let search = CalendarSearch(calendar: ZoneCalendar(rules: try ZoneRules.named(zone), near: after), pattern: pattern)
            guard let landed = try? search.walk(from: after, by: .weekOfYear, until: .weekOfYear, is: pattern[.weekOfYear]!),
                  let candidate = try? search.matchingDate(after: after, pattern) else { continue }
            checked += 1
            let days = search.calendar.dayNumber(at: candidate) - search.calendar.dayNumber(at: landed)
            widest = max(widest, days - reach)
            if days > reach || days < -1 {
                wrong.append("\(zone) \(pattern) after \(after): \(days) days on, reach \(reach)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5).joined(separator: "\n"))")
        #expect(checked >= 15_000, "checked \(checked)")
        // The bounds are the calendar's own gaps: some match comes within the slack of one.
        #expect(widest >= -CalendarSearch.weekOfYearReachSlack, "the widest match stayed \(-widest) days inside its reach")
    }

    /// 3,000 seeded sets and starts: with the early checks the search answers
    /// exactly what it answers without them, the week number decides the
    /// February check for many sets, and some of the rest answer 1 March.
    @Test(arguments: TestShards.of(2))
    func theCheckNeverChangesAnAnswer(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x3EAC_1000 + UInt64(shard), count: 1_500, zones: Self.zones) { generator, year in
            Self.pattern(&generator, year: year)
        }
        let outOfReach = comparison.outcomes.filter { $0.search.weekOfYearKeepsCandidatesFromFebruary }
        let cutShort = outOfReach.filter { $0.search.cannotAnswer(after: $0.after) }.count
        let marches = comparison.firstsOfMarch
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(cutShort >= 300, "cut short by the week number: \(cutShort) of 1,500")
        #expect(marches >= 30, "answered 1 March 00:00: \(marches) of 1,500")
    }

    /// A sixth week of the month with a week number: sets with a day (up to
    /// the 28th mostly) or without, an ordinal or a weekday sometimes, times
    /// of day, half their weeks near a February. With the check the search
    /// answers what it answers without it; the sixth week keeps many of them
    /// from February, and some still answer 1 March.
    @Test(arguments: TestShards.of(2))
    func aSixthWeekLandsInTheMonthsThatHaveOne(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x3EAC_6000 + UInt64(shard), count: 1_500, zones: Self.zones) { generator, year in
            var pattern = Self.pattern(&generator, year: year)
            pattern[.weekOfMonth] = 6
            pattern[.year] = nil
            if generator.chance(0.6) { pattern[.day] = generator.chance(0.1) ? generator.int(29...31) : generator.int(1...28) }
            return pattern
        }
        let outOfReach = comparison.outcomes.filter { $0.search.weekOfYearKeepsCandidatesFromFebruary }
        let withDay = outOfReach.filter { $0.pattern[.day] != nil && $0.search.cannotAnswer(after: $0.after) }.count
        let marches = comparison.firstsOfMarch
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(withDay >= 200 && marches >= 10, "cut short with a day: \(withDay) of \(outOfReach.count) out of reach; 1 March: \(marches)")
    }

    /// Such sets against Foundation in seven zones (daylight time in both
    /// hemispheres, a half-hour offset, a lost day): the first two fire dates
    /// agree.
    @Test(arguments: TestShards.of(2))
    func weekNumberSetsAgreeWithFoundation(shard: Int) throws {
        try CalendarOracle.expectAgreement(seed: 0x3EAC_F000 + UInt64(shard), count: 400,
                                           zones: PinnedYearTests.foundationZones) { generator, year in
            Self.pattern(&generator, year: year).dateComponents
        }
    }
}
