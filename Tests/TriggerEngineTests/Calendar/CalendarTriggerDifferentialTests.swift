import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// Counts in the tests' comments are of all their shards: by default each runs the first
/// half of them (`TestShards`; `TRIGGERENGINE_ALL_SHARDS=1` runs all).
@Suite("CalendarTrigger: differential against Foundation's Calendar.nextDate")
struct CalendarTriggerDifferentialTests {
    /// 20,000 seeded random component sets × random `after` × 13 zones (DST in
    /// both hemispheres, Kolkata, Kathmandu, Lord Howe, Apia, Chatham, St John's):
    /// the first two fire dates agree with Foundation's, nil included.
    @Test(arguments: TestShards.of(8))
    func randomComponentSetsAgreeWithFoundation(shard: Int) throws {
        let mismatches = try CalendarOracle.mismatches(seed: 0xCA1E_0000 + UInt64(shard), count: 2_500,
                                                       zones: CalendarQueryGenerator.zones) { generator, year in
            generator.components(near: year)
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(15).joined(separator: "\n"))")
    }

    /// The shapes answered in closed form (weekly, monthly, yearly, nth weekday
    /// of the month, with a time of day; a month without a day; a weekday
    /// or a second alone), 10,000 seeded queries whose `after`
    /// lies up to 400 days before one of the zone's transitions, so that most
    /// answers lie past it: the first three fire dates agree with Foundation's.
    @Test(arguments: TestShards.of(4))
    func closedFormShapesAcrossTransitionsAgreeWithFoundation(shard: Int) throws {
        var generator = CalendarQueryGenerator(seed: 0xD1EC_7000 + UInt64(shard))
        var mismatches: [String] = []
        for _ in 0..<2_500 {
            let zone = CalendarQueryGenerator.zones[generator.int(0...CalendarQueryGenerator.zones.count - 1)]
            let calendar = CalendarOracle.calendar(zone)
            let rules = try ZoneRules.named(zone)
            var at = generator.int(788_918_400...2_208_988_800)
            if let transition = rules.transitions(between: at, and: at + 800 * 86_400).first {
                at = transition.at - generator.int(0...400 * 86_400)
            }
            let after = Date(timeIntervalSince1970: Double(at))
            var components = DateComponents(hour: generator.int(0...23))
            if generator.chance(0.8) { components.minute = generator.int(0...59) }
            if generator.chance(0.2) { components.second = generator.int(0...59) }
            switch generator.int(0...6) {
            case 0: components.weekday = generator.int(1...7)
            case 1: components.day = generator.int(1...31)
            case 2: components.month = generator.int(1...12); components.day = generator.int(1...31)
            case 3: components.weekday = generator.int(1...7); components.weekdayOrdinal = generator.int(1...5)
            case 4: components.month = generator.int(1...12); if generator.chance(0.3) { components.hour = nil }
            case 5: components = generator.chance(0.5) ? DateComponents(weekday: generator.int(1...7))
                                                       : DateComponents(second: generator.int(0...59))
            default: components.hour = nil; components.day = generator.int(1...31)
            }
            // Half of them aim at the wall time of a transition on the way, give
            // or take a day and an hour: a skipped, repeated or shifted answer.
            if generator.chance(0.5), let transition = rules.transitions(between: at, and: at + 400 * 86_400).first {
                let wall = calendar.dateComponents(in: calendar.timeZone, from: Date(timeIntervalSince1970: Double(
                    transition.at + generator.int(-1...1) * 86_400 + generator.int(-1...1) * 3600)))
                if components.hour != nil { components.hour = wall.hour }
                if components.day != nil { components.day = wall.day }
                if components.month != nil { components.month = wall.month }
                if components.weekday != nil { components.weekday = wall.weekday }
                if components.weekdayOrdinal != nil { components.weekdayOrdinal = wall.weekdayOrdinal }
                if components.minute != nil, generator.chance(0.5) { components.minute = wall.minute }
            }
            let trigger = try CalendarTrigger(dateMatching: components, repeats: true, timeZone: .fixed(rules))
            if let mismatch = CalendarOracle.firstMismatch(of: trigger, components, after: after, in: calendar, zone: zone, fires: 3) {
                mismatches.append(mismatch)
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(15).joined(separator: "\n"))")
    }
}
