import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// `CalendarSearch+SixthWeekCandidates` against the whole search.
@Suite("Calendar search: a day in the sixth week of a month and a week number")
struct SixthWeekCandidatesTests {
    /// Zones whose transitions leave midnight alone, where the proof applies,
    /// and two where a day starts at 01:00 (Santiago, every year) or was lost
    /// (Apia, 2011), where it must decline until they stop.
    static let zones = ["Europe/Berlin", "Australia/Sydney", "America/New_York", "Asia/Kolkata", "UTC",
                        "America/Santiago", "Pacific/Apia"]

    /// The shape of the slow sets: a day, the sixth week of the month and a
    /// week number (53 often), with or without a weekday, an ordinal (the
    /// 5th often, whose walk runs for months) and a time of day.
    static func pattern(_ generator: inout CalendarQueryGenerator) -> CalendarPattern {
        var pattern = CalendarPattern()
        pattern[.day] = generator.chance(0.3) ? generator.int(29...31) : generator.int(1...28)
        pattern[.weekOfMonth] = 6
        pattern[.weekOfYear] = generator.chance(0.2) ? 53 : generator.int(1...53)
        if generator.chance(0.5) { pattern[.weekday] = generator.int(1...7) }
        if generator.chance(0.4) { pattern[.weekdayOrdinal] = generator.chance(0.4) ? 5 : generator.int(1...4) }
        if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
        if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
        if generator.chance(0.3) { pattern[.second] = generator.int(0...59) }
        return pattern
    }

    /// 3,000 seeded sets and starts: with the checks the search answers
    /// exactly what it answers without them; the proof holds for many of them
    /// (so the comparison is not empty), declines in the zones that lose
    /// days, and some sets are answered by February's approximation (1 March),
    /// where it must not hold.
    @Test(arguments: 0..<2)
    func theProofNeverChangesAnAnswer(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0x0006_EEC0 + UInt64(shard), count: 1_500, zones: Self.zones) { generator, _ in
            Self.pattern(&generator)
        }
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        let proven = comparison.outcomes.filter { $0.search.sixthWeekCandidatesMissFebruary(after: $0.after) }
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

    /// Every set of the shape with its week number and day, in a zone the
    /// proof applies to: where it holds, the search from each of twelve
    /// starts over four centuries (2100's missing leap day among them)
    /// answers nil without the checks.
    @Test func whereTheProofHoldsNoStepAnswers() throws {
        let rules = try ZoneRules.named("UTC")
        var generator = CalendarQueryGenerator(seed: 0x0006_EEC9)
        var proven = 0
        for _ in 0..<400 {
            let pattern = Self.pattern(&generator)
            let starts = (0..<12).map { _ in Double(generator.int(-1_000_000_000...12_000_000_000)) }
            var search = CalendarSearch(calendar: ZoneCalendar(rules: rules, near: starts[0]), pattern: pattern)
            guard search.sixthWeekCandidatesMissFebruary(after: starts[0]) else { continue }
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

    /// Two sets February's approximation answers (Foundation's answers, 1
    /// March), one through a day February lacks (the day walk from 31
    /// January to the 30th stops on 29 February) and one through the week of
    /// the month (5 February, in its first week): the proof declines both.
    @Test(arguments: [
        ([CalendarUnit.day: 30, .weekOfMonth: 6, .weekOfYear: 37], "2015-08-31T12:00:00Z", "2016-03-01T00:00:00Z"),
        ([CalendarUnit.day: 5, .weekOfMonth: 6, .weekOfYear: 48], "2001-02-01T00:00:00Z", "2005-03-01T00:00:00Z"),
    ])
    func theProofDeclinesSetsFebruaryAnswers(units: [CalendarUnit: Int], after: String, answer: String) throws {
        var pattern = CalendarPattern()
        for (unit, value) in units { pattern[unit] = value }
        let start = try #require(ISO8601DateFormatter().date(from: after)).timeIntervalSince1970
        let expected = try #require(ISO8601DateFormatter().date(from: answer)).timeIntervalSince1970
        let search = CalendarSearch(calendar: ZoneCalendar(rules: .fixed(offset: 0), near: start), pattern: pattern)
        #expect(!search.sixthWeekCandidatesMissFebruary(after: start))
        #expect(search.next(after: start) == expected)
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
