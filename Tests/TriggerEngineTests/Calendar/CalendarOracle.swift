import TestSupport
import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// Foundation's answer, the oracle every calendar test compares against: a
/// Gregorian `Calendar` of the zone, first weekday Sunday, minimum days in the
/// first week 1, searched with `.nextTime` / `.first` / `.forward`.
enum CalendarOracle {
    static func calendar(_ zone: String) -> Calendar {
        CalendarTrigger.foundationCalendar(in: TimeZone(identifier: zone)!)
    }

    static func next(_ components: DateComponents, after date: Date, in calendar: Calendar) -> Date? {
        calendar.nextDate(after: date, matching: components, matchingPolicy: .nextTime,
                          repeatedTimePolicy: .first, direction: .forward)
    }

    /// The first of `fires` successive fires where `trigger` and Foundation
    /// disagree, described for a failure message; nil when they agree.
    static func firstMismatch(of trigger: CalendarTrigger, _ components: DateComponents, after: Date, in calendar: Calendar,
                              zone: String, fires: Int) -> String? {
        var ours = trigger.fireDates(after: after).makeIterator()
        var cursor = after
        for fire in 0..<fires {
            let expected = next(components, after: cursor, in: calendar)
            let actual = ours.next()
            if expected != actual {
                return "\(zone) \(components) after \(cursor.timeIntervalSince1970) fire \(fire): "
                    + "Foundation \(expected.map { "\($0.timeIntervalSince1970)" } ?? "nil") "
                    + "ours \(actual.map { "\($0.timeIntervalSince1970)" } ?? "nil")"
            }
            guard let expected else { return nil }
            cursor = expected
        }
        return nil
    }

    /// `count` seeded queries in `zones`, each an `after` from the generator and
    /// the component set `components` makes (given the generator and the year
    /// of `after` in the zone): the mismatches of their first two fires.
    static func mismatches(seed: UInt64, count: Int, zones: [String],
                           components: (inout CalendarQueryGenerator, Int) -> DateComponents) throws -> [String] {
        var generator = CalendarQueryGenerator(seed: seed)
        var mismatches: [String] = []
        for _ in 0..<count {
            let zone = zones[generator.int(0...zones.count - 1)]
            let calendar = Self.calendar(zone)
            let after = generator.after(in: zone)
            let set = components(&generator, calendar.component(.year, from: after))
            let trigger = try CalendarTrigger(dateMatching: set, repeats: true, timeZone: .fixed(try ZoneRules.named(zone)))
            if let mismatch = firstMismatch(of: trigger, set, after: after, in: calendar, zone: zone, fires: 2) {
                mismatches.append(mismatch)
            }
        }
        return mismatches
    }

    /// `mismatches(seed:count:zones:components:)`, expected to be none (the
    /// first ten described where some are).
    static func expectAgreement(seed: UInt64, count: Int, zones: [String], sourceLocation: SourceLocation = #_sourceLocation,
                                components: (inout CalendarQueryGenerator, Int) -> DateComponents) throws {
        let mismatches = try mismatches(seed: seed, count: count, zones: zones, components: components)
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(10).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
    }
}

/// Seeded random component sets over every unit a calendar trigger takes,
/// including odd and impossible combinations, and `after` instants that
/// cluster around DST transitions.
struct CalendarQueryGenerator {
    var random: SplitMix64

    static let zones = ["America/New_York", "Europe/Berlin", "Australia/Sydney", "America/Santiago",
                        "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Apia",
                        "America/Sao_Paulo", "Europe/London", "UTC", "Pacific/Chatham", "America/St_Johns"]

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func chance(_ p: Double) -> Bool { random.nextDouble(in: 0...1) < p }
    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    /// Gives `count` units drawn from `units` (one may be drawn twice) random
    /// values in their valid ranges in `pattern`.
    mutating func set(_ count: Int, of units: [CalendarUnit], in pattern: inout CalendarPattern) {
        for _ in 0..<count {
            let unit = units[int(0...units.count - 1)]
            pattern[unit] = int(unit.validRange)
        }
    }

    /// An instant between 1995 and 2040; a third of them within a day of one of
    /// the zone's transitions, and some in Apia's skipped December 2011.
    mutating func after(in zone: String) -> Date {
        let rules = try! ZoneRules.named(zone)
        let base = int(788_918_400...2_208_988_800)
        if chance(0.35) {
            let near = rules.transitions(between: base, and: base + 400 * 86_400)
            if let transition = near.first {
                return Date(timeIntervalSince1970: Double(transition.at + int(-90_000...90_000)))
            }
        }
        if zone == "Pacific/Apia", chance(0.3) {
            return Date(timeIntervalSince1970: Double(1_325_000_000 + int(-400_000...400_000)))
        }
        return Date(timeIntervalSince1970: Double(base) + (chance(0.1) ? random.nextDouble(in: 0...1) : 0))
    }

    /// A component set: half of them shaped like real triggers (a time of day,
    /// maybe a weekday, day or month), half any subset of the eleven units
    /// with any value Foundation accepts.
    mutating func components(near year: Int) -> DateComponents {
        var c = DateComponents()
        if chance(0.5) {
            c.hour = int(0...23)
            if chance(0.8) { c.minute = chance(0.5) ? int(0...59) : [0, 15, 30, 45][int(0...3)] }
            if chance(0.2) { c.second = int(0...59) }
            switch int(0...5) {
            case 0: c.weekday = int(1...7)
            case 1: c.day = int(1...31)
            case 2: c.month = int(1...12); c.day = int(1...31)
            case 3: c.weekday = int(1...7); c.weekdayOrdinal = int(1...5)
            case 4: c.month = 2; c.day = 29
            default: break
            }
            return c
        }
        repeat {
            if chance(0.15) { c.year = year + int(-1...4) }
            if chance(0.3) { c.month = int(1...12) }
            if chance(0.3) { c.day = int(1...31) }
            if chance(0.4) { c.hour = int(0...23) }
            if chance(0.4) { c.minute = int(0...59) }
            if chance(0.25) { c.second = int(0...59) }
            if chance(0.3) { c.weekday = int(1...7) }
            if chance(0.15) { c.weekdayOrdinal = int(1...5) }
            if chance(0.15) { c.weekOfMonth = int(1...6) }
            if chance(0.15) { c.weekOfYear = int(1...53) }
            if chance(0.1) { c.yearForWeekOfYear = year + int(-1...3) }
        } while c == DateComponents()
        return c
    }
}
