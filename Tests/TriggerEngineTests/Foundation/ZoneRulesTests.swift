import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

@Suite("ZoneRules: transition tables read from Foundation")
struct ZoneRulesTests {
    static let zones = ["Europe/Berlin", "America/New_York", "Australia/Sydney", "America/Santiago",
                        "Asia/Kolkata", "Asia/Kathmandu", "Australia/Lord_Howe", "Pacific/Apia",
                        "America/St_Johns", "Africa/Casablanca", "Europe/London", "UTC", "Asia/Tokyo",
                        "Pacific/Chatham", "America/Sao_Paulo", "Europe/Dublin"]

    @Test(arguments: zones)
    func offsetsAgreeWithFoundationAtSeededInstants(zone: String) throws {
        let rules = try ZoneRules.named(zone)
        let foundation = TimeZone(identifier: zone)!
        var random = SplitMix64(seed: UInt64(zone.utf8.count))
        for _ in 0..<3_000 {
            // 1900 … 2600, past the end of the table, which folds by 400-year cycles.
            let instant = Int.random(in: -2_208_988_800...20_000_000_000, using: &random)
            #expect(rules.offset(atUTC: instant) == foundation.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))),
                    "\(zone) at \(instant)")
        }
    }

    @Test(arguments: zones)
    func wallTimesResolveToInstantsThatShowThem(zone: String) throws {
        let rules = try ZoneRules.named(zone)
        var random = SplitMix64(seed: 99)
        for _ in 0..<3_000 {
            let wall = LocalDateTime(localSeconds: Int.random(in: 0...4_102_444_800, using: &random))
            switch rules.resolve(wall) {
            case .unique(let instant):
                #expect(rules.localTime(atUTC: instant) == wall)
            case .repeated(let first, let second):
                #expect(first < second)
                #expect(rules.localTime(atUTC: first) == wall && rules.localTime(atUTC: second) == wall)
            case .skipped(let transition, let before, let after):
                #expect(after > before)
                #expect(wall.localSeconds >= transition + before && wall.localSeconds < transition + after)
            }
        }
    }

    /// Wall times around every transition from 1900 to 2600 (past the table's
    /// end too, where it folds by 400-year cycles), every quarter of an hour
    /// from four hours before the wall time it starts at to four after,
    /// resolved against a brute force: every offset the zone ever uses, kept
    /// where the instant it gives shows that offset.
    @Test(arguments: zones)
    func wallTimesNearTransitionsResolveAsTheBruteForceDoes(zone: String) throws {
        let rules = try ZoneRules.named(zone)
        let table = rules.transitionTable
        let offsets = Set([table.initialOffset] + table.transitions.map(\.offset))
        var after = -2_208_988_800, transitions = 0
        while let transition = rules.firstTransition(after: after), transition.at < 19_880_000_000 {
            transitions += 1
            for step in -16...16 {
                let wall = transition.at + transition.offsetBefore + 900 * step
                let instants = offsets.map { wall - $0 }.filter { rules.offset(atUTC: $0) == wall - $0 }.sorted()
                let resolved = rules.resolve(LocalDateTime(localSeconds: wall))
                switch instants.count {
                case 0:
                    guard case let .skipped(at, before, after) = resolved else {
                        Issue.record("\(zone): wall \(wall) shows no instant, resolved as \(resolved)"); continue
                    }
                    #expect(rules.offset(atUTC: at - 1) == before && rules.offset(atUTC: at) == after, "\(zone) wall \(wall)")
                    #expect(wall >= at + before && wall < at + after, "\(zone) wall \(wall)")
                case 1:
                    #expect(resolved == .unique(instants[0]), "\(zone) wall \(wall)")
                default:
                    #expect(resolved == .repeated(first: instants[0], second: instants[instants.count - 1]), "\(zone) wall \(wall)")
                }
            }
            after = transition.at
        }
        // Every zone here but UTC changed its clocks at least twice; those with
        // daylight time today twice a year to 2600, through the folded cycles.
        #expect(transitions >= (zone == "UTC" ? 0 : 2), "\(zone): \(transitions) transitions")
        if ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Europe/London"].contains(zone) {
            #expect(transitions > 1_200, "\(zone): \(transitions) transitions")
        }
    }

    @Test func springForwardGapInBerlinShiftsForwardByTheGap() throws {
        let berlin = try ZoneRules.named("Europe/Berlin")
        // 2026-03-29 02:30 does not exist in Berlin; RFC 5545 makes it 03:30 CEST = 01:30Z.
        let wall = LocalDateTime.valid(year: 2026, month: 3, day: 29, hour: 2, minute: 30)!
        #expect(berlin.resolve(wall) == .skipped(transition: 1_774_746_000, offsetBefore: 3600, offsetAfter: 7200))
        #expect(berlin.instant(of: wall) == 1_774_747_800)  // 2026-03-29T01:30:00Z
        // 2026-10-25 02:30 happens twice; the first is 00:30Z.
        let twice = LocalDateTime.valid(year: 2026, month: 10, day: 25, hour: 2, minute: 30)!
        #expect(berlin.instant(of: twice) == 1_792_888_200)
    }

    @Test func apiaSkippedTheThirtiethOfDecember2011() throws {
        let apia = try ZoneRules.named("Pacific/Apia")
        let skipped = LocalDateTime.valid(year: 2011, month: 12, day: 30, hour: 12)!
        guard case .skipped(_, let before, let after) = apia.resolve(skipped) else {
            Issue.record("2011-12-30 should not exist in Apia"); return
        }
        #expect(after - before == 86_400)
    }

    @Test func unknownZoneIsADataError() {
        #expect(throws: DataError.self) { try ZoneRules.named("Mars/Olympus_Mons") }
    }
}
