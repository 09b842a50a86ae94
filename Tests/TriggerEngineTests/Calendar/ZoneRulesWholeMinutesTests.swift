import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine
import TestSupport

/// `ZoneRules.offsetsAreWholeMinutes(from:)` against the transition list.
@Suite("Zone rules: offsets of whole minutes")
struct ZoneRulesWholeMinutesTests {
    /// Zones with offsets of seconds once: local mean times (New York's to
    /// 1883, Amsterdam's +0:19:32 to 1937, Dublin's −0:25:21 to 1916,
    /// Monrovia's −0:44:30 to 1972, Kolkata's Madras time), and zones without.
    static let zones = ["America/New_York", "Europe/Amsterdam", "Europe/Dublin", "Africa/Monrovia", "Asia/Kolkata",
                        "Australia/Sydney", "UTC", "Pacific/Chatham"]

    /// 3,000 seeded instants from 1800 to 2600 (past the table's end, where
    /// instants fold by 400-year cycles): the answer is whether the offset
    /// there and after every transition listed from there on (to the
    /// table's end, or a whole cycle on, which every later offset repeats)
    /// is a multiple of 60; both answers come up.
    @Test func theAnswerIsTheTransitionListsFromThereOn() throws {
        var generator = SplitMix64(seed: 0x60_5EC0)
        var wrong: [String] = [], whole = 0, notWhole = 0
        let low = -5_364_662_400, high = 19_880_899_200  // 1800 and 2600
        for _ in 0..<3_000 {
            let zone = Self.zones[Int.random(in: 0..<Self.zones.count, using: &generator)]
            let rules = try ZoneRules.named(zone)
            let from = Int.random(in: low...high, using: &generator)
            let through = max(ZoneRules.tableEnd, from + ZoneRules.cycleSeconds)
            let expected = rules.offset(atUTC: from) % 60 == 0
                && rules.transitions(between: from, and: through).allSatisfy { $0.offsetAfter % 60 == 0 }
            let answer = rules.offsetsAreWholeMinutes(from: from)
            if answer { whole += 1 } else { notWhole += 1 }
            if answer != expected { wrong.append("\(zone) from \(from): \(answer), expected \(expected)") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong: \(wrong.prefix(5).joined(separator: "\n"))")
        #expect(whole >= 500 && notWhole >= 300, "whole \(whole), not \(notWhole)")
    }
}
