import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `CalendarSearch+StepsOnDays`: the search with the steps followed on days
/// against the search without, from the start and from later dates, what the
/// check claims against the whole search, and such sets against Foundation.
///
/// Counts in the tests' comments are of all their shards: by default each runs the first
/// half of them (`TestShards`; `TRIGGERENGINE_ALL_SHARDS=1` runs all).
@Suite("Calendar search: sets without a month followed on day numbers")
struct StepsOnDaysTests {
    /// Zones whose transitions leave midnight alone (where the check can
    /// answer) and zones whose transitions do not, or that lose a day (where
    /// it must stand back).
    static let zones = StepsBeforeTheMonthTests.zones + ["Europe/London", "Australia/Lord_Howe", "America/St_Johns"]

    /// A set with a day (a fifth of them days some months lack) and a week of
    /// the month, a weekday ordinal, a week number or a weekday (one or two
    /// of them), maybe a time of day; now and then a month, a year or a
    /// week-numbering year, which the check must refuse.
    static func pattern(_ generator: inout CalendarQueryGenerator, year: Int) -> CalendarPattern {
        var pattern = CalendarPattern()
        pattern[.day] = generator.chance(0.2) ? generator.int(29...31) : generator.int(1...28)
        generator.set(generator.chance(0.7) ? 1 : 2, of: [.weekOfMonth, .weekdayOrdinal, .weekOfYear, .weekday], in: &pattern)
        addTimeAndNowAndThenAYear(to: &pattern, &generator, year: year)
        return pattern
    }

    /// Maybe a time of day (any of hour, minute and second), and now and then
    /// a month, a year or a week-numbering year, which the check must refuse.
    static func addTimeAndNowAndThenAYear(to pattern: inout CalendarPattern, _ generator: inout CalendarQueryGenerator, year: Int) {
        if generator.chance(0.4) { pattern[.hour] = generator.int(0...23) }
        if generator.chance(0.3) { pattern[.minute] = generator.int(0...59) }
        if generator.chance(0.15) { pattern[.second] = generator.int(0...59) }
        if generator.chance(0.03) { pattern[.month] = generator.int(1...12) }
        if generator.chance(0.03) { pattern[.year] = year + generator.int(-1...2) }
        if generator.chance(0.03) { pattern[.yearForWeekOfYear] = year + generator.int(-1...2) }
    }

    /// A set without a day: half the time a weekday, its ordinal and a week
    /// of the month (the rare-match sets, such as a fifth weekday in a week
    /// the month lacks), else one to three of the week of the month, the
    /// weekday ordinal, the week number and the weekday; maybe a time of day
    /// (any of hour, minute and second, so that each can be the highest
    /// unit); now and then a month, a year or a week-numbering year.
    static func patternWithoutADay(_ generator: inout CalendarQueryGenerator, year: Int) -> CalendarPattern {
        var pattern = CalendarPattern()
        if generator.chance(0.5) {
            generator.set(3, of: [.weekday, .weekdayOrdinal, .weekOfMonth, .weekOfYear], in: &pattern)
            for unit in [CalendarUnit.weekday, .weekdayOrdinal, .weekOfMonth] where pattern[unit] == nil {
                pattern[unit] = generator.int(unit.validRange)
            }
        } else {
            generator.set(generator.int(1...3), of: [.weekOfMonth, .weekdayOrdinal, .weekOfYear, .weekday], in: &pattern)
        }
        addTimeAndNowAndThenAYear(to: &pattern, &generator, year: year)
        return pattern
    }

    /// 12,000 seeded sets with a day and starts (a third of them near a
    /// transition), and 8,000 without a day (shards 6 to 9), whose steps
    /// follow one another a week, a month or two apart (the match again plus
    /// a week, a day for the weekday, or the next month or week): the search
    /// following the steps on days answers exactly what it answers without;
    /// many searches are followed to nil and some to an answer.
    // By default three shards with a day and two without (TestShards).
    @Test(arguments: TestShards.all ? Array(0..<10) : [0, 1, 2, 6, 7])
    func followingTheStepsNeverChangesAnAnswer(shard: Int) throws {
        let withADay = shard < 6
        let seed = withADay ? 0xDA75_1000 + UInt64(shard) : 0xDA75_5000 + UInt64(shard - 6)
        let comparison = try EarlyNilComparison(seed: seed, count: 2_000, zones: Self.zones) { generator, year in
            withADay ? Self.pattern(&generator, year: year) : Self.patternWithoutADay(&generator, year: year)
        }
        let (toNil, skipped, answeredAfterSkipping) = Self.stepsFollowed(in: comparison)
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        // Without a day, fewer reach the steps since `CalendarSearch+WeekOfMonthCandidates`
        // ends a week of the month with a week number at the 4th step (42–45 to nil, 29 Nov 2026).
        #expect(toNil >= (withADay ? 100 : 30) && skipped >= 100 && answeredAfterSkipping >= 50,
                "followed to nil \(toNil), skipped \(skipped) (answered \(answeredAfterSkipping)) of 2,000")
    }

    /// 1,200 seeded sets with a 53rd week (a year in five or six has one, up
    /// to eleven years apart), with a day or without, the week of the month,
    /// the weekday ordinal or the weekday, maybe a time of day: the search
    /// following their steps, whose walks reach that far, answers exactly
    /// what it answers without, and follows the steps of many of them (of
    /// those `cannotAnswer` lets through).
    @Test(arguments: TestShards.of(2))
    func setsWithAFiftyThirdWeekAreFollowedAcrossTheYearsBetween(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0xDA75_5300 + UInt64(shard), count: 600, zones: Self.zones) { generator, year in
            var pattern = generator.chance(0.5) ? Self.pattern(&generator, year: year) : Self.patternWithoutADay(&generator, year: year)
            for unit in [CalendarUnit.month, .year, .yearForWeekOfYear] { pattern[unit] = nil }
            pattern[.weekOfYear] = 53
            return pattern
        }
        let (toNil, skipped, _) = Self.stepsFollowed(in: comparison)
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        // (115–117 since `CalendarSearch+WeekOfMonthCandidates` ends more of them at the 4th step.)
        #expect(toNil + skipped >= 90, "followed to nil \(toNil), skipped \(skipped) of 600")
    }

    /// What the check claims from 40 days after the start of each search
    /// of `comparison` that `cannotAnswer` lets through: how many it follows
    /// to nil, how many to a later step that may answer, and how many of
    /// those the search answers.
    static func stepsFollowed(in comparison: EarlyNilComparison) -> (toNil: Int, skipped: Int, answeredAfterSkipping: Int) {
        var toNil = 0, skipped = 0, answeredAfterSkipping = 0
        for outcome in comparison.outcomes where !outcome.search.cannotAnswer(after: outcome.after) {
            let from = outcome.search.calendar.addingDays(40, to: outcome.after)
            switch outcome.search.stepsOnDays(from: from, start: outcome.after, stepsLeft: 97) {
            case .noAnswer:
                toNil += 1
            case let .stepFrom(_, steps) where steps > 0:
                skipped += 1
                if outcome.answer != nil { answeredAfterSkipping += 1 }
            default:
                break
            }
        }
        return (toNil, skipped, answeredAfterSkipping)
    }

    /// Zones with daylight time in both hemispheres: Lord Howe's change of
    /// half an hour, Santiago's at midnight and Chatham's offset of 12:45 among them.
    static let daylightZones = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe",
                                "America/Santiago", "Europe/London", "Pacific/Chatham"]

    /// 6,000 seeded sets with an hour, in zones with daylight time (a
    /// half-hour one among them), whose candidates fall near the ends of
    /// months, where transitions fall (a day from the 24th, a Sunday or a
    /// late week of the month): the steps on transition days, where the set's
    /// time lies over an hour after the transition or less, answer exactly
    /// what the search answers without following them.
    @Test(arguments: TestShards.of(3))
    func setsWithAnHourOnTransitionDays(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0xDA75_7000 + UInt64(shard), count: 2_000, zones: Self.daylightZones) { generator, _ in
            var pattern = CalendarPattern()
            pattern[.day] = generator.int(24...31)
            if generator.chance(0.5) { pattern[.weekday] = 1 } else { pattern[.weekOfMonth] = generator.int(4...6) }
            if generator.chance(0.3) { pattern[.weekdayOrdinal] = generator.int(4...5) }
            pattern[.hour] = generator.int(0...23)
            if generator.chance(0.4) { pattern[.minute] = generator.int(0...59) }
            return pattern
        }
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(comparison.outcomes.filter { $0.answer == nil }.count >= 200)
    }

    /// The same for 6,000 seeded sets without a day, with an hour (and half
    /// the time a minute), whose candidates fall on Sundays (mostly) in the
    /// last weeks of months, where transitions fall, and that match rarely
    /// (a 4th or 5th Sunday in a week of the month that may not hold it).
    @Test(arguments: TestShards.of(3))
    func setsWithoutADayWithAnHourOnTransitionDays(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0xDA75_8000 + UInt64(shard), count: 2_000, zones: Self.daylightZones) { generator, _ in
            var pattern = CalendarPattern()
            pattern[.weekday] = generator.chance(0.7) ? 1 : generator.int(1...7)
            pattern[.weekOfMonth] = generator.int(4...6)
            if generator.chance(0.7) { pattern[.weekdayOrdinal] = generator.int(4...5) }
            pattern[.hour] = generator.int(0...23)
            if generator.chance(0.5) { pattern[.minute] = generator.int(0...59) }
            return pattern
        }
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        let (toNil, skipped, _) = Self.stepsFollowed(in: comparison)
        #expect(toNil + skipped >= 400, "followed to nil \(toNil), skipped \(skipped) of 2,000")
    }

    /// 8,000 seeded sets (half of them without a day) and starts in zones
    /// whose transitions skip or repeat
    /// midnight or lose a day, where the check must stand back: the search
    /// answers what it answers without it.
    // By default shards 0 and 1 (TestShards): one of each kind.
    @Test(arguments: TestShards.of(4))
    func zonesWhoseTransitionsTouchMidnight(shard: Int) throws {
        let comparison = try EarlyNilComparison(seed: 0xDA75_4000 + UInt64(shard), count: 2_000, zones: WeekWalkTests.zones) { generator, year in
            shard % 2 == 0 ? Self.pattern(&generator, year: year) : Self.patternWithoutADay(&generator, year: year)
        }
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
    }

    /// 12,000 seeded sets (with a day in the even shards, without in the odd
    /// ones), starts and dates from a day to three years after the
    /// start, at any time of day: the search stepping from that date answers
    /// the same with the check and without; nil wherever the check says no
    /// step can answer; and, where it says the first step that may answer is
    /// the one from a later date, what the search from that date answers
    /// (when the search answers at all: from that date it has more steps left).
    // By default shards 0 and 1 (TestShards): one of each kind.
    @Test(arguments: TestShards.of(4))
    func whatTheCheckClaimsFromAnyDate(shard: Int) throws {
        var generator = CalendarQueryGenerator(seed: 0xDA75_2000 + UInt64(shard))
        var wrong: [String] = []
        var toNil = 0, skipped = 0, answered = 0
        for _ in 0..<3_000 {
            let zone = Self.zones[generator.int(0...Self.zones.count - 1)]
            let rules = try ZoneRules.named(zone)
            let start = generator.after(in: zone).timeIntervalSince1970
            let year = 1970 + Int(start / 31_556_952)
            let pattern = shard % 2 == 0 ? Self.pattern(&generator, year: year) : Self.patternWithoutADay(&generator, year: year)
            let searched = start + Double(generator.int(86_400...3 * 366 * 86_400))
            let (whole, claim) = Self.searchAndClaim(pattern, in: rules, named: zone, from: searched, after: start, wrong: &wrong)
            if whole != nil { answered += 1 }
            switch claim {
            case .noAnswer: toNil += 1
            case let .stepFrom(_, steps) where steps > 0: skipped += 1
            default: break
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5).joined(separator: "\n"))")
        #expect(toNil >= 200 && skipped >= 200 && answered >= 1_000, "to nil \(toNil), skipped \(skipped), answered \(answered) of 3,000")
    }

    /// A set with a day, week units and a week-numbering year W a year
    /// behind to two ahead (so that many searches step through W), maybe a
    /// time of day: from the start and from dates within W and around it,
    /// the search answers the same with the steps followed and without,
    /// the check's claims hold, and it follows steps within W for over a
    /// hundred of them (none to nil: leaving W hands the step back).
    @Test(arguments: TestShards.of(2))
    func aWeekNumberingYearIsFollowedWithinItsDays(shard: Int) throws {
        var generator = CalendarQueryGenerator(seed: 0xDA75_3000 + UInt64(shard))
        var wrong: [String] = []
        var followed = 0, toNil = 0, answered = 0
        for _ in 0..<2_000 {
            let zone = Self.zones[generator.int(0...Self.zones.count - 1)]
            let rules = try ZoneRules.named(zone)
            let start = generator.after(in: zone).timeIntervalSince1970
            let year = 1970 + Int(start / 31_556_952)
            var pattern = Self.pattern(&generator, year: year)
            pattern[.month] = nil
            pattern[.year] = nil
            let weekYear = year + generator.int(-1...2)
            pattern[.yearForWeekOfYear] = weekYear
            // From the start, or from a day of W or just outside it.
            let weekYearStart = Double(ZoneCalendar.firstDayOfWeekYear(weekYear) * 86_400)
            let searched = generator.chance(0.3) ? start : max(start + 86_400, weekYearStart + Double(generator.int(-20...390) * 86_400))
            let (whole, claim) = Self.searchAndClaim(pattern, in: rules, named: zone, from: searched, after: start, wrong: &wrong)
            if whole != nil { answered += 1 }
            switch claim {
            case .noAnswer: toNil += 1
            case let .stepFrom(_, steps) where steps > 0: followed += 1
            default: break
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5).joined(separator: "\n"))")
        #expect(followed >= 90 && answered >= 500, "followed \(followed), to nil \(toNil), answered \(answered) of 2,000")
    }

    /// The search for `pattern` in `rules` from `searched`, with and without
    /// its checks (`EarlyNilComparison.answerFrom`), and what `stepsOnDays`
    /// claims from there, checked (`claim`); mismatches go to `wrong`.
    static func searchAndClaim(_ pattern: CalendarPattern, in rules: ZoneRules, named zone: String, from searched: Double,
                               after start: Double, wrong: inout [String]) -> (whole: Double?, claim: CalendarSearch.DayStepSkip) {
        var search = CalendarSearch(calendar: ZoneCalendar(rules: rules, near: searched), pattern: pattern)
        let label = "\(zone) \(pattern) after \(start) from \(searched)"
        let whole = EarlyNilComparison.answerFrom(searched, after: start, &search, label: label, wrong: &wrong)
        return (whole, claim(of: search, from: searched, after: start, whole: whole, label: label, wrong: &wrong))
    }

    /// What `stepsOnDays` claims from `searched`, checked against `whole`, the
    /// search's answer from there: no step can answer only where it answers
    /// nil; the first step that may answer being a later date's, only where the
    /// search from that date answers the same (when the search answers at all:
    /// that step may answer with an earlier date, as a December's missing day
    /// gives the 1st of January of the same year).
    static func claim(of search: CalendarSearch, from searched: Double, after start: Double, whole: Double?,
                      label: String, wrong: inout [String]) -> CalendarSearch.DayStepSkip {
        let claim = search.stepsOnDays(from: searched, start: start, stepsLeft: CalendarSearch.stepLimit)
        switch claim {
        case .noAnswer:
            if let whole { wrong.append("\(label): no step can answer, the search answers \(whole)") }
        case let .stepFrom(date, steps) where steps > 0:
            if let whole, whole != search.next(after: start, searchingFrom: date) {
                wrong.append("\(label): steps may answer from \(date) (\(steps) on), the search answers \(whole)")
            }
        default:
            break
        }
        return claim
    }

    /// The walk on days ends where the search's own match does (in UTC,
    /// from any time of any day, through the week units, the weekday and the
    /// day, with or without a day, with a month half the time), on 20,000
    /// seeded sets and days.
    @Test func theWalkOnDaysIsTheSearchsMatch() throws {
        var generator = CalendarQueryGenerator(seed: 0xDA75_3000)
        var wrong: [String] = []
        let search = CalendarSearch(calendar: ZoneCalendar(rules: .utc), pattern: CalendarPattern())
        for round in 0..<20_000 {
            let day = round % 5 == 0 ? generator.int(-135_000...157_000) : generator.int(9_000...26_000)
            var pattern = round % 2 == 0 ? Self.pattern(&generator, year: 2000) : Self.patternWithoutADay(&generator, year: 2000)
            for unit in [CalendarUnit.hour, .minute, .second, .year, .yearForWeekOfYear] { pattern[unit] = nil }
            if generator.chance(0.5) { pattern[.month] = CivilDate.date(fromDays: day).month }
            let from = day * 86_400 + generator.int(0...86_399)
            guard let match = try? search.matchingDate(after: Double(from), pattern) else { continue }
            let walked = search.matchedDay(from: DayCursor(dayNumber: day), pattern, before: day + 100_000)
            // A walk that moves ends at a midnight; without a day to walk to,
            // a match on the day itself keeps the time it was searched from.
            let expected = walked.map { $0.dayNumber == day && pattern[.day] == nil ? from : $0.dayNumber * 86_400 }
            if expected != Int(match) {
                wrong.append("\(pattern) from \(from): walked to \(String(describing: walked?.dayNumber)), matched \(match)")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5).joined(separator: "\n"))")
    }

    /// The walk to a week of the month taken a month at a time ends where
    /// the search's walk, week by week, does, and gives up (nil) exactly
    /// when that one passes its limit: 60,000 seeded days, weeks and walk
    /// starts (some far enough back that the limit falls mid-walk).
    @Test func theWalkToAWeekOfTheMonthIsTheWeekByWeekWalk() {
        func weekByWeek(_ week: Int, from start: DayCursor, walkStart: Int) -> DayCursor? {
            var cursor = start
            while cursor.weekOfMonth != week {
                if week == 1 && cursor.weekOfMonth == cursor.weeksInMonth {
                    cursor.stepToNextMonth()
                } else {
                    cursor.advance(days: 8 - cursor.weekday)
                }
                guard cursor.dayNumber - walkStart <= CalendarSearch.dayStepWalkLimit else { return nil }
            }
            return cursor
        }
        var generator = CalendarQueryGenerator(seed: 0x3EE6_0F30)
        var wrong: [String] = [], gaveUp = 0, moved = 0
        for _ in 0..<60_000 {
            let day = generator.int(-140_000...160_000)
            let week = generator.int(1...6)
            let walkStart = day - (generator.chance(0.2) ? generator.int(700...800) : generator.int(0...40))
            let expected = weekByWeek(week, from: DayCursor(dayNumber: day), walkStart: walkStart)
            let walked = CalendarSearch.walk(toWeekOfMonth: week, from: DayCursor(dayNumber: day), walkStart: walkStart)
            if expected == nil { gaveUp += 1 } else if expected?.dayNumber != day { moved += 1 }
            if walked?.dayNumber != expected?.dayNumber {
                wrong.append("week \(week) from day \(day), walk from \(walkStart): \(String(describing: walked?.dayNumber)) "
                             + "instead of \(String(describing: expected?.dayNumber))")
            } else if let walked, !walked.hasTheFields(of: DayCursor(dayNumber: walked.dayNumber)) {
                // The walk carries the month's fields along rather than converting the day again.
                wrong.append("week \(week) from day \(day): the cursor's fields are not the day's")
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5).joined(separator: "\n"))")
        // Both outcomes are exercised: walks that give up and walks that move.
        #expect(gaveUp > 500)
        #expect(moved > 40_000)
    }

    /// Such sets against Foundation in seven zones (daylight time in both
    /// hemispheres, a half-hour offset, a lost day): the first two fire dates agree.
    @Test(arguments: TestShards.of(2))
    func setsWithADayAndNoMonthAgreeWithFoundation(shard: Int) throws {
        try CalendarOracle.expectAgreement(seed: 0xDA75_F000 + UInt64(shard), count: 300,
                                           zones: PinnedYearTests.foundationZones) { generator, year in
            Self.pattern(&generator, year: year).dateComponents
        }
    }

    /// Sets without a day against Foundation in the same zones.
    @Test(arguments: TestShards.of(2))
    func setsWithoutADayAgreeWithFoundation(shard: Int) throws {
        try CalendarOracle.expectAgreement(seed: 0xDA75_E000 + UInt64(shard), count: 300,
                                           zones: PinnedYearTests.foundationZones) { generator, year in
            Self.patternWithoutADay(&generator, year: year).dateComponents
        }
    }
}

extension DayCursor {
    /// Whether every field equals `other`'s.
    func hasTheFields(of other: DayCursor) -> Bool {
        (dayNumber, year, month, day, weekday, monthLength) == (other.dayNumber, other.year, other.month, other.day, other.weekday, other.monthLength)
    }
}
