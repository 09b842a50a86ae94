import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `RecurrenceEngine.maximumSetSize`: a BYSETPOS past every position a period
/// can hold makes the rule empty at once, instead of a search of 100,000
/// periods (a fuzz timeout: `FREQ=MONTHLY;BYSETPOS=4;COUNT=01;BYDAY=4SU,-1SU`).
@Suite("Recurrence: BYSETPOS out of reach, and the set-size bound")
struct RecurrenceSetSizeTests {
    @Test func aSetPositionPastEveryPeriodsSetMatchesNothingAtOnce() throws {
        let start = LocalDateTime.valid(year: 1197, month: 9, day: 7, hour: 9, minute: 0, second: 2)!
        let empty = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYSETPOS=4;COUNT=01;BYDAY=4SU,-1SU")
        // The fastest of three tries: one try can lose a time slice on a CI
        // machine running the other suites beside it; a search of 100,000
        // periods takes seconds every time.
        var fastest = Duration.seconds(3_600)
        for _ in 0..<3 {
            let began = ContinuousClock.now
            #expect(Array(empty.instances(startingAt: start).prefix(3)).isEmpty)
            fastest = min(fastest, ContinuousClock.now - began)
        }
        #expect(fastest < .milliseconds(50))
        #expect(RecurrenceEngine.maximumSetSize(empty) == 2)
        // Position 2 is within reach: the last Sunday of a month with five
        // (with four, the fourth is the last, and the set has one day).
        let last = try RecurrenceRule(parsing: "FREQ=MONTHLY;BYSETPOS=2;COUNT=2;BYDAY=4SU,-1SU")
        let from2026 = LocalDateTime.valid(year: 2026, month: 1, day: 1, hour: 9)!
        #expect(Array(last.instances(startingAt: from2026)) == [LocalDateTime.valid(year: 2026, month: 3, day: 29, hour: 9)!,
                                                                 LocalDateTime.valid(year: 2026, month: 5, day: 31, hour: 9)!])
    }

    /// Seeded rules without BYSETPOS, INTERVAL 1: no period (year, month, ISO
    /// week from Monday, day, hour) holds more instances than the bound.
    @Test func theBoundHoldsForEveryPeriodOfSeededRules() throws {
        var random = SplitMix64(seed: 5_545)
        let days = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
        var checked = 0
        for _ in 0..<300 {
            let frequency = ["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY"].randomElement(using: &random)!
            var parts = ["FREQ=\(frequency)", "WKST=MO"]
            func some(_ range: ClosedRange<Int>, _ most: Int) -> String {
                (0..<Int.random(in: 1...most, using: &random)).map { _ in String(Int.random(in: range, using: &random)) }.joined(separator: ",")
            }
            if Bool.random(using: &random) {
                parts.append("BYDAY=" + (0..<Int.random(in: 1...4, using: &random)).map { _ in
                    let ordinal = frequency == "MONTHLY" || frequency == "YEARLY" ? [nil, 1, 2, -1, 4].randomElement(using: &random)! : nil
                    return (ordinal.map(String.init) ?? "") + days.randomElement(using: &random)!
                }.joined(separator: ","))
            }
            if Int.random(in: 0..<3, using: &random) == 0, frequency != "WEEKLY" { parts.append("BYMONTHDAY=" + some(-31...31, 3).replacingOccurrences(of: ",0", with: ",1").replacingOccurrences(of: "=0", with: "=1")) }
            if Int.random(in: 0..<3, using: &random) == 0, frequency == "YEARLY" { parts.append("BYMONTH=" + some(1...12, 3)) }
            if Int.random(in: 0..<2, using: &random) == 0 { parts.append("BYHOUR=" + some(0...23, 3)) }
            if Int.random(in: 0..<3, using: &random) == 0 { parts.append("BYMINUTE=" + some(0...59, 2)) }
            let text = parts.joined(separator: ";").replacingOccurrences(of: "BYMONTHDAY=0", with: "BYMONTHDAY=1")
            guard let rule = try? RecurrenceRule(parsing: text) else { continue }
            let bound = RecurrenceEngine.maximumSetSize(rule)
            let start = LocalDateTime.valid(year: 2024, month: 1, day: 1)!
            var perPeriod: [Int: Int] = [:]
            for instance in rule.instances(startingAt: start).prefix(3_000) {
                let (year, month, _, hour, _, _) = instance.fields
                let key: Int
                switch rule.frequency {
                case .yearly: key = year
                case .monthly: key = year * 12 + month
                case .weekly: key = (instance.dayNumber + 3) / 7   // ISO weeks from Monday (1970-01-01 was a Thursday)
                case .daily: key = instance.dayNumber
                default: key = instance.dayNumber * 24 + hour
                }
                perPeriod[key, default: 0] += 1
            }
            let most = perPeriod.values.max() ?? 0
            #expect(most <= bound, "\(text): a period holds \(most), bound \(bound)")
            checked += 1
        }
        #expect(checked > 200)
    }
}
