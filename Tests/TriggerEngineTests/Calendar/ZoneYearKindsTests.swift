import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// `ZoneRules.yearKindsFrom`, against the zone's transitions as listed.
struct ZoneYearKindsTests {
    /// A year's transitions as `transitions(between:and:)` lists them: each at
    /// its wall-clock second of the year (on the clock before it) with its new
    /// offset, and the offset at the year's start.
    static func signature(of year: Int, in rules: ZoneRules) -> [Int] {
        let januaryFirst = CivilDate.days(year: year, month: 1, day: 1), next = CivilDate.days(year: year + 1, month: 1, day: 1)
        var signature = [rules.offset(atUTC: januaryFirst * 86_400 - rules.offset(atUTC: januaryFirst * 86_400))]
        for transition in rules.transitions(between: januaryFirst * 86_400 - 2 * 86_400, and: next * 86_400 + 2 * 86_400) {
            let wall = transition.at + transition.offsetBefore
            guard wall >= januaryFirst * 86_400, wall < next * 86_400 else { continue }
            signature += [wall - januaryFirst * 86_400, transition.offsetAfter]
        }
        return signature
    }

    /// The kind of a year: the weekday of its 1 January and whether it is a leap year.
    static func kind(of year: Int) -> Int {
        CivilDate.weekday(ofDays: CivilDate.days(year: year, month: 1, day: 1)) + (CivilDate.isLeapYear(year) ? 8 : 0)
    }

    @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Sydney", "America/Santiago", "Asia/Kolkata",
                      "Australia/Lord_Howe", "Pacific/Apia", "Europe/London", "Pacific/Chatham", "America/St_Johns",
                      "Asia/Tehran", "Africa/Casablanca", "UTC"])
    func fromThatYearOnEachKindOfYearHasOneSignature(zone: String) throws {
        let rules = try ZoneRules.named(zone)
        let from = rules.yearKindsFrom
        #expect(from < 2100, "\(zone): \(from)")
        var byKind: [Int: [Int]] = [:]
        var differing: [Int] = []
        for year in max(from, 1850)...2700 {
            let signature = Self.signature(of: year, in: rules)
            if let seen = byKind[Self.kind(of: year)] {
                if seen != signature { differing.append(year) }
            } else {
                byKind[Self.kind(of: year)] = signature
            }
        }
        #expect(differing.isEmpty, "\(zone) from \(from): \(differing.prefix(5))")
        // And the year before differs from some year of its kind after it (the first such year is the earliest).
        if from > 1850 && from != Int.min {
            #expect(byKind[Self.kind(of: from - 1)] != Self.signature(of: from - 1, in: rules), "\(zone): \(from - 1)")
        }
    }

    @Test func aZoneWithOneOffsetAndATableThatStopsChanging() {
        #expect(ZoneRules.utc.yearKindsFrom == Int.min)
        // Daylight time in 2001 and 2002 only, then one offset forever: from 2003.
        let days = { (year: Int, month: Int, day: Int) in CivilDate.days(year: year, month: month, day: day) * 86_400 }
        let rules = ZoneRules(identifier: "Test/Two", initialOffset: 3_600, transitions: [
            (days(2001, 3, 25), 7_200), (days(2001, 10, 28), 3_600), (days(2002, 3, 31), 7_200), (days(2002, 10, 27), 3_600),
        ])
        #expect(rules.yearKindsFrom == 2003)
        // The same table ending in 2010, past which instants fold back 400 years
        // into years that change offset: no year counts.
        let folding = ZoneRules(identifier: "Test/Folding", initialOffset: 3_600, transitions: [
            (days(2001, 3, 25), 7_200), (days(2001, 10, 28), 3_600), (days(2002, 3, 31), 7_200), (days(2002, 10, 27), 3_600),
        ], coverageEnd: days(2010, 1, 1))
        #expect(folding.yearKindsFrom == Int.max)
    }
}
