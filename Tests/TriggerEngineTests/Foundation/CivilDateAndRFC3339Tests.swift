import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

@Suite("Civil dates and RFC 3339")
struct CivilDateAndRFC3339Tests {
    @Test func dayNumbersAgreeWithFoundationOnSeededDates() {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        var random = SplitMix64(seed: 42)
        for _ in 0..<5_000 {
            // Foundation's .gregorian is Julian before 1582-10-15 (day -141_427);
            // CivilDate is proleptic Gregorian, so compare from 1583 on.
            let days = Int.random(in: -141_000...800_000, using: &random)
            let date = Date(timeIntervalSince1970: Double(days) * 86_400)
            let parts = utc.dateComponents([.year, .month, .day, .weekday], from: date)
            let civil = CivilDate.date(fromDays: days)
            #expect(civil.year == parts.year && civil.month == parts.month && civil.day == parts.day)
            #expect(CivilDate.days(year: civil.year, month: civil.month, day: civil.day) == days)
            #expect(CivilDate.weekday(ofDays: days) == parts.weekday)
        }
    }

    @Test func parsesOffsetsAndFractionsAndRejectsGarbage() {
        #expect(RFC3339.date(from: "2026-11-22T09:30:00Z")?.timeIntervalSince1970 == 1_795_339_800)
        #expect(RFC3339.date(from: "2026-11-22T10:30:00+01:00")?.timeIntervalSince1970 == 1_795_339_800)
        #expect(RFC3339.date(from: "2026-11-22T04:00:00-05:30")?.timeIntervalSince1970 == 1_795_339_800)
        #expect(RFC3339.date(from: "2026-11-22T09:30:00.25Z")?.timeIntervalSince1970 == 1_795_339_800.25)
        for bad in ["2026-11-22T09:30:00", "2026-02-30T00:00:00Z", "2026-11-22T25:00:00Z",
                    "2026-11-22", "yesterday", "2026-11-22T09:30:00+0100", "2026-11-22T09:30:00Zjunk"] {
            #expect(RFC3339.date(from: bad) == nil, "\(bad) should not parse")
        }
    }

    @Test func formatsWithOffsetAndOnlyNeededFractions() {
        let instant = Date(timeIntervalSince1970: 1_795_339_800)
        #expect(RFC3339.string(from: instant) == "2026-11-22T09:30:00Z")
        #expect(RFC3339.string(from: instant, utcOffset: -18_000) == "2026-11-22T04:30:00-05:00")
        #expect(RFC3339.string(from: instant, utcOffset: 20_700) == "2026-11-22T15:15:00+05:45")
        #expect(RFC3339.string(from: instant.addingTimeInterval(0.5)) == "2026-11-22T09:30:00.5Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
    }

    @Test func roundTripsSeededInstants() {
        var random = SplitMix64(seed: 7)
        for _ in 0..<2_000 {
            let seconds = Int.random(in: -2_000_000_000...4_000_000_000, using: &random)
            let offset = Int.random(in: -50...56, using: &random) * 900
            let text = RFC3339.string(epochSeconds: seconds, utcOffset: offset)
            #expect(RFC3339.date(from: text)?.timeIntervalSince1970 == Double(seconds), "\(text)")
        }
    }
}
