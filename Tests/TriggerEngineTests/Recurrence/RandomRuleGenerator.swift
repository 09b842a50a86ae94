import TestSupport
import Foundation
@_spi(Internals) @testable import TriggerEngine

/// Seeded random RRULEs over all of RFC 5545 §3.3.10 that a valid rule may
/// combine: every FREQ, INTERVAL, COUNT or UNTIL (floating), BYMONTH,
/// BYWEEKNO with WKST, BYYEARDAY, BYMONTHDAY and BYDAY with negative values,
/// ordinal BYDAY at MONTHLY and YEARLY, BYHOUR/BYMINUTE/BYSECOND, BYSETPOS;
/// each with a DTSTART between 1995 and 2030.
struct RandomRuleGenerator {
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    /// 1 to `most` distinct values from `range`, each negated with probability
    /// `negative` percent; ascending, comma-separated.
    mutating func list(_ range: ClosedRange<Int>, most: Int, negative: Int = 0) -> String {
        var values = Set<Int>()
        let count = int(1...most)
        while values.count < count {
            let value = int(range)
            values.insert(chance(negative) ? -value : value)
        }
        return values.sorted().map(String.init).joined(separator: ",")
    }

    static let weekdays = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    /// A rule text and its DTSTART (`YYYYMMDDTHHMMSS`, floating).
    mutating func next() -> (rule: String, start: String) {
        let frequency = RecurrenceRule.Frequency.allCases[int(0...6)]
        var parts = ["FREQ=\(frequency.name)"]
        if chance(40) {
            switch frequency {
            case .secondly, .minutely: parts.append("INTERVAL=\([2, 5, 15, 45, 90][int(0...4)])")
            case .hourly: parts.append("INTERVAL=\([2, 3, 5, 7][int(0...3)])")
            default: parts.append("INTERVAL=\(int(2...4))")
            }
        }
        var dayParts = false
        if chance(30) { parts.append("BYMONTH=" + list(1...12, most: 3)); dayParts = true }
        let weekNumbers = frequency == .yearly && chance(20)
        if weekNumbers { parts.append("BYWEEKNO=" + list(1...53, most: 2, negative: 30)); dayParts = true }
        if [.yearly, .hourly, .minutely, .secondly].contains(frequency), chance(12) {
            parts.append("BYYEARDAY=" + list(1...366, most: 3, negative: 30))
            dayParts = true
        }
        if frequency != .weekly, chance(25) { parts.append("BYMONTHDAY=" + list(1...31, most: 3, negative: 30)); dayParts = true }
        if chance(35) {
            var days = Set<String>()
            let count = int(1...3)
            let ordinals = (frequency == .monthly || frequency == .yearly) && !weekNumbers && chance(40)
            while days.count < count {
                let day = Self.weekdays[int(0...6)]
                if ordinals {
                    let ordinal = frequency == .yearly && chance(30) ? int(1...53) : int(1...5)
                    days.insert("\(chance(35) ? -ordinal : ordinal)\(day)")
                } else {
                    days.insert(day)
                }
            }
            parts.append("BYDAY=" + days.sorted().joined(separator: ","))
            dayParts = true
        }
        var timeParts = false
        if chance(25) { parts.append("BYHOUR=" + list(0...23, most: 3)); timeParts = true }
        if chance(20) { parts.append("BYMINUTE=" + list(0...59, most: 3)); timeParts = true }
        if chance(10) { parts.append("BYSECOND=" + list(0...59, most: 2)); timeParts = true }
        // BYSETPOS at every frequency. Sub-daily periods hold few instances, so
        // there it picks the first or last; a position past the end of every
        // period's set never matches, and dateutil would walk to the horizon.
        if dayParts || timeParts, chance(20) {
            parts.append("BYSETPOS=" + (frequency < .daily ? ["1", "-1"][int(0...1)] : list(1...2, most: 2, negative: 40)))
        }
        if weekNumbers || chance(15) { parts.append("WKST=" + Self.weekdays[int(0...6)]) }
        let year = int(1995...2030), month = int(1...12), day = int(1...CivilDate.daysInMonth(year: year, month: month))
        let (hour, minute, second) = (int(0...23), int(0...59), frequency <= .minutely || chance(20) ? int(0...59) : 0)
        let start = String(format: "%04d%02d%02dT%02d%02d%02d", year, month, day, hour, minute, second)
        switch int(0...99) {
        case 0..<40: parts.append("COUNT=\(int(1...12))")
        case 40..<65:
            let span = frequency >= .daily ? int(1...3 * 365) * 86_400 : int(1...5 * 86_400)
            let until = LocalDateTime(localSeconds: RFC5545Text.wall(start).localSeconds + span).fields
            parts.append(String(format: "UNTIL=%04d%02d%02dT%02d%02d%02d", until.year, until.month, until.day,
                                until.hour, until.minute, until.second))
        default: break
        }
        // Parts in a shuffled order: a reader must not depend on it.
        return (parts.shuffled(using: &random).joined(separator: ";"), start)
    }
}
