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

    /// The text of seeded instants (years 1600–9998, with and without
    /// microseconds, in UTC and at offsets of whole quarter hours) against
    /// fields Foundation's Gregorian calendar reads off them at that offset.
    @Test func formatsLikeFoundationOnSeededInstants() {
        var random = SplitMix64(seed: 3339)
        var calendar = Calendar(identifier: .gregorian)
        var wrong: [String] = []
        for _ in 0..<5_000 {
            let seconds = Int.random(in: -11_676_096_000...253_370_764_800, using: &random)
            let microseconds = Bool.random(using: &random) ? 0 : Int.random(in: 0..<1_000_000, using: &random)
            let offset: Int? = Bool.random(using: &random) ? nil : Int.random(in: -56...56, using: &random) * 900
            calendar.timeZone = TimeZone(secondsFromGMT: offset ?? 0)!
            let fields = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                                 from: Date(timeIntervalSince1970: Double(seconds)))
            var expected = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", fields.year!, fields.month!, fields.day!,
                                  fields.hour!, fields.minute!, fields.second!)
            if microseconds != 0 {
                var fraction = String(format: "%06d", microseconds)
                while fraction.hasSuffix("0") { fraction.removeLast() }
                expected += "." + fraction
            }
            if let offset {
                expected += String(format: "%@%02d:%02d", offset < 0 ? "-" : "+", abs(offset) / 3600, abs(offset) / 60 % 60)
            } else {
                expected += "Z"
            }
            let text = RFC3339.string(epochSeconds: seconds, microseconds: microseconds, utcOffset: offset)
            if text != expected { wrong.append("\(seconds) \(microseconds) \(String(describing: offset)): \(text), expected \(expected)") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) differ, first: \(wrong.prefix(5).joined(separator: "\n"))")
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
