import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `CalendarSearch+WeekOfMonthCandidates` against the whole search.
///
/// Counts in the tests' comments are of all their shards: by default each runs the first
/// half of them (`TestShards`; `TRIGGERENGINE_ALL_SHARDS=1` runs all).
@Suite("Calendar search: a week of the month and a week number")
struct WeekOfMonthCandidatesTests {
    /// Zones whose transitions leave midnight alone, where the proof applies,
    /// and two where a day starts at 01:00 (Santiago, every year) or was lost
    /// (Apia, 2011), where it must decline until they stop.
    static let zones = ["Europe/Berlin", "Australia/Sydney", "America/New_York", "Asia/Kolkata", "UTC",
                        "America/Santiago", "Pacific/Apia"]

    /// The two shapes the check takes.
    enum Shape: CaseIterable, Sendable {
        /// A day and the sixth week of the month.
        case sixthWeekWithADay
        /// Any week of the month (the sixth less often) and no day.
        case weekOfMonthWithoutADay
    }

    /// The shapes of the slow sets: a week number (53 often) and a week of
    /// the month, with a day (then the sixth week) or without, with or without
    /// a weekday, an ordinal (the 5th often, whose walk runs for months) and a
    /// time of day.
    static func pattern(_ generator: inout CalendarQueryGenerator, _ shape: Shape) -> CalendarPattern {
        var pattern = CalendarPattern()
        switch shape {
        case .sixthWeekWithADay:
            pattern[.day] = generator.chance(0.3) ? generator.int(29...31) : generator.int(1...28)
            pattern[.weekOfMonth] = 6
        case .weekOfMonthWithoutADay:
            pattern[.weekOfMonth] = generator.chance(0.2) ? 6 : generator.int(1...5)
        }
        pattern[.weekOfYear] = generator.chance(0.2) ? 53 : generator.int(1...53)
        if generator.chance(0.5) { pattern[.weekday] = generator.int(1...7) }
        if generator.chance(0.4) { pattern[.weekdayOrdinal] = generator.chance(0.4) ? 5 : generator.int(1...4) }
        if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
        if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
        if generator.chance(0.3) { pattern[.second] = generator.int(0...59) }
        return pattern
    }

    /// 3,000 seeded sets and starts of each shape: with the checks the search
    /// answers exactly what it answers without them; the proof holds for many
    /// of them (so the comparison is not empty), declines in the zones that
    /// lose days, and some sets are answered by February's approximation (1
    /// March), where it must not hold.
    @Test(arguments: Shape.allCases, TestShards.of(2))
    func theProofNeverChangesAnAnswer(shape: Shape, shard: Int) throws {
        let seed = (shape == .sixthWeekWithADay ? 0x0006_EEC0 : 0x0006_EED0) + UInt64(shard)
        let comparison = try EarlyNilComparison(seed: seed, count: 1_500, zones: Self.zones) { generator, _ in
            Self.pattern(&generator, shape)
        }
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        let proven = comparison.outcomes.filter { $0.search.weekOfMonthCandidatesMissFebruary(after: $0.after) }
        #expect(proven.count >= 300, "the proof held for \(proven.count) of 1,500")
        #expect(proven.allSatisfy(Self.answersExactlyOrNot), "an approximation where the proof held")
        // Santiago changes its clocks at midnight, every year; Apia lost 30 December 2011.
        let lossy = proven.filter { outcome in
            let zone = outcome.search.calendar.rules.identifier
            return zone == "America/Santiago" || (zone == "Pacific/Apia" && outcome.after < 1_325_376_000)
        }
        #expect(lossy.isEmpty, "the proof held where a day starts late or is lost: \(lossy.count)")
        #expect(comparison.firstsOfMarch >= 10, "February's approximation answered \(comparison.firstsOfMarch)")
    }

    /// Whether the query's answer, if any, shows every unit of its set (no approximation).
    static func answersExactlyOrNot(_ outcome: EarlyNilComparison.Outcome) -> Bool {
        guard let answer = outcome.answer else { return true }
        return outcome.search.mismatches(at: answer, outcome.pattern).isEmpty
    }

    /// Sets of both shapes, in a zone the proof applies to: where it holds,
    /// the search from each of twelve starts over four centuries (2100's
    /// missing leap day among them) answers nil or an exact match without
    /// the checks.
    @Test func whereTheProofHoldsNoStepAnswers() throws {
        let rules = try ZoneRules.named("UTC")
        var generator = CalendarQueryGenerator(seed: 0x0006_EEC9)
        var proven = 0
        for index in 0..<400 {
            let pattern = Self.pattern(&generator, index % 2 == 0 ? .sixthWeekWithADay : .weekOfMonthWithoutADay)
            let starts = (0..<12).map { _ in Double(generator.int(-1_000_000_000...12_000_000_000)) }
            var search = CalendarSearch(calendar: ZoneCalendar(rules: rules, near: starts[0]), pattern: pattern)
            guard search.weekOfMonthCandidatesMissFebruary(after: starts[0]) else { continue }
            proven += 1
            search.askingWhetherAnyAnswer = false
            for start in starts {
                let answer = search.next(after: start)
                #expect(answer == nil || search.mismatches(at: answer!, pattern).isEmpty,
                        "\(pattern) after \(start): \(String(describing: answer)), an approximation")
            }
        }
        #expect(proven >= 100, "the proof held for \(proven) of 400")
    }

    /// Four sets February's approximation answers (Foundation's answers, 1
    /// March): one through a day February lacks (the day walk from 31
    /// January to the 30th stops on 29 February), one through the week of the
    /// month (5 February, in its first week), one without a day (the first
    /// Sunday of a February in week 5 is in the month's second week), and one
    /// with a day and an earlier week of the month, from a February the search
    /// adds (17 February is never in the second week): the proof declines them.
    @Test(arguments: [
        ([CalendarUnit.day: 30, .weekOfMonth: 6, .weekOfYear: 37], "2015-08-31T12:00:00Z", "2016-03-01T00:00:00Z"),
        ([CalendarUnit.day: 5, .weekOfMonth: 6, .weekOfYear: 48], "2001-02-01T00:00:00Z", "2005-03-01T00:00:00Z"),
        ([CalendarUnit.weekday: 1, .weekOfMonth: 1, .weekOfYear: 5], "1997-05-12T16:19:26Z", "1999-03-01T00:00:00Z"),
        ([CalendarUnit.day: 17, .weekOfMonth: 2, .weekOfYear: 53], "2026-02-01T00:00:00Z", "2029-03-01T00:00:00Z"),
    ])
    func theProofDeclinesSetsFebruaryAnswers(units: [CalendarUnit: Int], after: String, answer: String) throws {
        let search = try Self.search(units, in: "UTC", after: after)
        let start = try #require(ISO8601DateFormatter().date(from: after)).timeIntervalSince1970
        let expected = try #require(ISO8601DateFormatter().date(from: answer)).timeIntervalSince1970
        #expect(!search.weekOfMonthCandidatesMissFebruary(after: start))
        #expect(search.next(after: start) == expected)
    }

    /// A slow set of the bench without a day (a Wednesday in the fourth week
    /// of a month in week 53, which lies in a December's fifth or sixth week):
    /// the proof holds, the search answers nil at its 4th step, and so does
    /// Foundation.
    @Test func aFourthWeekInWeekFiftyThreeAnswersNilEarly() throws {
        let search = try Self.search([.weekday: 4, .weekOfMonth: 4, .weekOfYear: 53], in: "Europe/Berlin",
                                     after: "2001-02-04T22:18:08Z")
        let start = 981_325_088.0
        #expect(search.weekOfMonthCandidatesMissFebruary(after: start))
        #expect(search.cannotAnswer(after: start))
        #expect(search.next(after: start) == nil)
    }

    /// The search for `units` in `zone`, its calendar centred on `after`.
    static func search(_ units: [CalendarUnit: Int], in zone: String, after: String) throws -> CalendarSearch {
        var pattern = CalendarPattern()
        for (unit, value) in units { pattern[unit] = value }
        let start = try #require(ISO8601DateFormatter().date(from: after)).timeIntervalSince1970
        return CalendarSearch(calendar: ZoneCalendar(rules: try ZoneRules.named(zone), near: start), pattern: pattern)
    }

    /// The fact the proof rests on for a step that adds February: from every
    /// day of February, in every year of 2001–2028 (every kind of year and
    /// of the year after), the match's walks through the sixth week and
    /// every day, weekday and ordinal (set or not) end outside February.
    @Test func aMatchFromFebruaryThroughTheSixthWeekLeavesIt() throws {
        let search = CalendarSearch(calendar: ZoneCalendar(rules: .fixed(offset: 0)), pattern: CalendarPattern())
        var walked = 0
        for year in 2001...2028 {
            for day in 1...CivilDate.daysInMonth(year: year, month: 2) {
                let from = DayCursor(dayNumber: CivilDate.days(year: year, month: 2, day: day))
                let landed = try #require(CalendarSearch.walk(toWeekOfMonth: 6, from: from, walkStart: from.dayNumber))
                #expect(landed.weekOfMonth == 6 && landed.month >= 3 && landed.month <= 11 && landed.year == year)
                for wantedDay in 1...31 {
                    for weekday in [nil] + Array(1...7) {
                        for ordinal in [nil] + Array(1...5) {
                            var below = CalendarPattern()
                            below[.day] = wantedDay
                            if let weekday { below[.weekday] = weekday }
                            if let ordinal { below[.weekdayOrdinal] = ordinal }
                            let candidate = try #require(search.matchedDay(from: landed, below, before: Int.max))
                            walked += 1
                            if candidate.month == 2 {
                                Issue.record("\(year)-02-\(day) with \(below): the candidate is \(candidate.year)-02-\(candidate.day)")
                            }
                        }
                    }
                }
            }
        }
        #expect(walked == 28 * (28 * 31 * 48) + 7 * 31 * 48)
    }
}
