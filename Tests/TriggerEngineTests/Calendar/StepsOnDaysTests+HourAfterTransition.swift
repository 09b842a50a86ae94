import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `CalendarSearch+StepsOnDays` on the days of transitions whose set time
/// lies an hour, or about an hour, after the transition's later wall
/// reading: the margin `hasTransition` allows, at its edge.
extension StepsOnDaysTests {
    /// Zones with daylight time of an hour, half an hour (Lord Howe), two
    /// hours (Troll), at 2:45 (Chatham), backwards in winter (Dublin), and
    /// Casablanca's changes around Ramadan.
    static let transitionHourZones = daylightZones + ["Antarctica/Troll", "Europe/Dublin", "Africa/Casablanca"]

    /// A set whose time `timeOfDay` gives (from the transition's earlier and
    /// later wall readings as seconds of its day, nil to skip), on a day the
    /// set's date units may show (its day, or its weekday with an ordinal or a
    /// week of the month, or a week number), with its hour (or, with `hour`
    /// false, its minute and maybe second alone, the time within the first
    /// hour), and a start up to two years before: nil when the zone has no
    /// transition near a random date, or the transition's day or the time does not fit.
    static func setOnTransitionDay(_ generator: inout CalendarQueryGenerator, in rules: ZoneRules, hour: Bool = true,
                                   timeOfDay: (inout CalendarQueryGenerator, _ earlier: Int, _ later: Int) -> Int?)
        -> (pattern: CalendarPattern, after: Double, day: Int, time: Int)? {
        let base = generator.int(788_918_400...2_208_988_800)
        guard let transition = rules.transitions(between: base, and: base + 400 * 86_400).first else { return nil }
        let earlier = transition.at + min(transition.offsetBefore, transition.offsetAfter)
        let later = transition.at + max(transition.offsetBefore, transition.offsetAfter)
        let (day, laterTime) = CivilDate.floorDivide(later, 86_400)
        let (earlierDay, earlierTime) = CivilDate.floorDivide(earlier, 86_400)
        // A transition across midnight makes the check stand back: not the case here.
        guard earlierDay == day, let time = timeOfDay(&generator, earlierTime, laterTime), time >= 0,
              time < (hour ? 86_400 : 3600) else { return nil }
        let fields = ZoneCalendar(rules: rules).fields(Double(transition.at))
        var pattern = CalendarPattern()
        if hour { pattern[.hour] = time / 3600 }
        if !hour || time / 60 % 60 != 0 || generator.chance(0.5) { pattern[.minute] = time / 60 % 60 }
        if time % 60 != 0 || generator.chance(0.3) { pattern[.second] = time % 60 }
        switch generator.int(0...3) {
        case 0:
            pattern[.day] = fields.day
            pattern[.weekOfMonth] = generator.chance(0.5) ? fields.weekOfMonth : generator.int(1...6)
        case 1:
            pattern[.day] = fields.day
            pattern[.weekday] = fields.weekday
            pattern[.weekdayOrdinal] = generator.chance(0.5) ? fields.weekdayOrdinal : generator.int(1...5)
        case 2:
            pattern[.weekday] = fields.weekday
            pattern[.weekdayOrdinal] = generator.chance(0.5) ? fields.weekdayOrdinal : generator.int(1...5)
            pattern[.weekOfMonth] = generator.chance(0.5) ? fields.weekOfMonth : generator.int(1...6)
        default:
            pattern[.day] = fields.day
            pattern[.weekOfYear] = generator.chance(0.5) ? fields.weekOfYearAndYear.week : generator.int(1...53)
        }
        let after = Double(transition.at - generator.int(1...800) * 86_400 + generator.int(0...86_399))
        return (pattern, after, day, time)
    }

    /// 8,000 seeded sets, 60 % of them with a time exactly an hour after a
    /// transition's later wall reading, the others from an hour before it to
    /// 90 minutes after it (the check stands back below an hour after it), on
    /// a day the set may show: the search following its steps on days
    /// answers exactly what it answers without, some of them on the
    /// transition's day at that time. (Without the check of transitions on
    /// the matched days it fails: a time in a skipped hour. No seeded set
    /// tells the margin of an hour from none: where the walk misses the
    /// skipped hour the approximation lands on the same instant, so the
    /// margin is the proof's, above.)
    @Test(arguments: TestShards.of(4))
    func setsAnHourAfterATransition(shard: Int) throws {
        var generator = CalendarQueryGenerator(seed: 0xDA75_9000 + UInt64(shard))
        let (comparison, nils, onTheTransitionDay) = try Self.compareOnTransitionDays(&generator) { generator, _, later in
            later + (generator.chance(0.6) ? 3600 : [-3600, -1800, -600, 300, 900, 1800, 2700, 3540, 3599, 3601, 3660, 5400][generator.int(0...11)])
        }
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(nils >= 200 && onTheTransitionDay >= 100, "nil \(nils), on the transition's day at the set's time \(onTheTransitionDay)")
    }

    /// 8,000 seeded sets, 70 % of them at a transition's later wall reading
    /// itself (New York's 3:00 on the day its clocks go from 2:00 to 3:00),
    /// the others a second to half an hour either side of it: where the
    /// clocks jump ahead from a reading on the hour to the set's time, the
    /// steps on days pass the transition (the hour walk lands on it), and
    /// the search following them answers exactly what it answers without.
    /// (About 2,400 transition days are passed so in the four shards. With
    /// the check passing every transition, sets in the skipped hour answer
    /// otherwise; without the earlier reading on the hour, the equality or
    /// the direction of the jump they answer the same: no zone here has a
    /// jump ahead from off the hour that ends on its hour, and a time later
    /// in the hour after the jump comes out the same, so those conditions
    /// are the proof's, in `hasTransition`.)
    @Test(arguments: TestShards.of(4))
    func setsAtTheEndOfAJumpAhead(shard: Int) throws {
        var generator = CalendarQueryGenerator(seed: 0xDA75_9500 + UInt64(shard))
        let (comparison, nils, onTheTransitionDay) = try Self.compareOnTransitionDays(&generator) { generator, _, later in
            later + (generator.chance(0.7) ? 0 : [-1800, -60, -1, 1, 60, 1800][generator.int(0...5)])
        }
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(nils >= 200 && onTheTransitionDay >= 100, "nil \(nils), on the transition's day at the set's time \(onTheTransitionDay)")
    }

    /// 300 sets at the later wall reading of a transition against Foundation:
    /// the first two fires agree.
    @Test func setsAtTheEndOfAJumpAheadAgreeWithFoundation() throws {
        var generator = CalendarQueryGenerator(seed: 0xDA75_95F0)
        try Self.expectFoundationAgrees(count: 300, in: PinnedYearTests.foundationZones, &generator) { generator, rules in
            Self.setOnTransitionDay(&generator, in: rules, timeOfDay: { _, _, later in later }).map { ($0.pattern, $0.after) }
        }
    }

    /// 2,000 sets on transition days in `transitionHourZones` (see
    /// `setOnTransitionDay`) searched with the checks and without; how many
    /// answered nil, and how many on the transition's day at the set's time.
    static func compareOnTransitionDays(_ generator: inout CalendarQueryGenerator, hour: Bool = true,
                                        timeOfDay: (inout CalendarQueryGenerator, Int, Int) -> Int?)
        throws -> (comparison: EarlyNilComparison, nils: Int, onTheTransitionDay: Int) {
        var comparison = EarlyNilComparison()
        var nils = 0, onTheTransitionDay = 0
        while comparison.outcomes.count < 2_000 {
            let zone = transitionHourZones[generator.int(0...transitionHourZones.count - 1)]
            let rules = try ZoneRules.named(zone)
            guard let (pattern, after, day, time) = setOnTransitionDay(&generator, in: rules, hour: hour, timeOfDay: timeOfDay)
            else { continue }
            comparison.compare(pattern, in: rules, named: zone, after: after)
            guard let answer = comparison.outcomes.last?.answer else { nils += 1; continue }
            let fields = ZoneCalendar(rules: rules).fields(answer)
            if fields.dayNumber == day && fields.secondOfDay == time { onTheTransitionDay += 1 }
        }
        return (comparison, nils, onTheTransitionDay)
    }

    /// 300 such sets an hour after a transition against Foundation: the first two fires agree.
    @Test func setsAnHourAfterATransitionAgreeWithFoundation() throws {
        var generator = CalendarQueryGenerator(seed: 0xDA75_9F00)
        try Self.expectFoundationAgrees(count: 300, in: PinnedYearTests.foundationZones, &generator) { generator, rules in
            Self.setOnTransitionDay(&generator, in: rules, timeOfDay: { _, _, later in later + 3600 }).map { ($0.pattern, $0.after) }
        }
    }

    /// Expects the first two fires of `count` sets that `set` makes (nil to
    /// skip) in `zones` to be Foundation's.
    static func expectFoundationAgrees(count: Int, in zones: [String], _ generator: inout CalendarQueryGenerator,
                                       sourceLocation: SourceLocation = #_sourceLocation,
                                       set: (inout CalendarQueryGenerator, ZoneRules) -> (CalendarPattern, Double)?) throws {
        var mismatches: [String] = [], compared = 0
        while compared < count {
            let zone = zones[generator.int(0...zones.count - 1)]
            let rules = try ZoneRules.named(zone)
            guard let (pattern, after) = set(&generator, rules) else { continue }
            compared += 1
            let trigger = try CalendarTrigger(dateMatching: pattern.dateComponents, repeats: true, timeZone: .fixed(rules))
            if let mismatch = CalendarOracle.firstMismatch(of: trigger, pattern.dateComponents, after: Date(timeIntervalSince1970: after),
                                                          in: CalendarOracle.calendar(zone), zone: zone, fires: 2) {
                mismatches.append(mismatch)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
    }

    /// 4,000 seeded sets without an hour (a minute, maybe a second, so a time
    /// in the day's first hour) whose time lies from a second to an hour
    /// before a transition's earlier wall reading, on a day the set may show
    /// (the transitions at 1:00–2:00: New York's and London's in autumn,
    /// London's and Dublin's in spring, Lord Howe's 2:00 → 1:30): the search
    /// following its steps on days, which passes such a transition more
    /// than a minute after the time, answers exactly what it answers without;
    /// and 200 of them against Foundation.
    @Test(arguments: TestShards.of(2))
    func setsWithoutAnHourBeforeATransition(shard: Int) throws {
        var generator = CalendarQueryGenerator(seed: 0xDA75_9A00 + UInt64(shard))
        func before(_ generator: inout CalendarQueryGenerator, _ earlier: Int, _: Int) -> Int? {
            let gap = generator.chance(0.2) ? [1, 30, 59, 60, 61][generator.int(0...4)] : generator.int(62...3600)
            return earlier - gap
        }
        let (comparison, nils, onTheTransitionDay) = try Self.compareOnTransitionDays(&generator, hour: false, timeOfDay: before)
        #expect(comparison.differences.isEmpty, "\(comparison.summary)")
        #expect(nils >= 200 && onTheTransitionDay >= 50, "nil \(nils), on the transition's day at the set's time \(onTheTransitionDay)")
        try Self.expectFoundationAgrees(count: 100, in: ["America/New_York", "Europe/London", "Australia/Lord_Howe"], &generator) {
            generator, rules in
            Self.setOnTransitionDay(&generator, in: rules, hour: false, timeOfDay: before).map { ($0.pattern, $0.after) }
        }
    }
}
