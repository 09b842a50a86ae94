import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// Issue 14: instants outside years 1–9999 are refused where they enter, a
/// series that would leave the range ends, and whatever is written reads back.
@Suite("Instant bounds: years 1–9999 in, out and in between")
struct InstantBoundsTests {
    @Test func rfc3339RefusesInstantsOutsideYears1To9999InUTC() {
        // Year 0 in UTC, whatever the text's own year.
        for outside in ["0000-01-01T00:00:00Z", "0000-01-01T00:00:12+12:00", "0001-01-01T00:30:00+01:00",
                        "9999-12-31T23:59:59-00:01"] {
            #expect(RFC3339.date(from: outside) == nil, "\(outside) is outside years 1–9999")
        }
        #expect(RFC3339.date(from: "0001-01-01T00:00:00Z") == InstantBounds.earliest)
        #expect(RFC3339.date(from: "0001-01-01T01:00:00+01:00") == InstantBounds.earliest)
        #expect(RFC3339.date(from: "9999-12-31T23:59:59Z")?.timeIntervalSince1970 == 253_402_300_799)
        // A Double cannot hold .999999 here: the instant read stays inside, and is written inside.
        let last = try! #require(RFC3339.date(from: "9999-12-31T23:59:59.999999Z"))
        #expect(InstantBounds.contains(last))
        #expect(RFC3339.string(from: last).hasPrefix("9999-12-31T23:59:59.99"))
    }

    @Test func offsetsWithSecondsAreWrittenToTheMinuteAndReadBack() throws {
        // New York's local mean time, before 1883: -04:56:02.
        let instant = Date(timeIntervalSince1970: -30_000_000_000)
        let text = RFC3339.string(from: instant, utcOffset: -17_762)
        #expect(text.hasSuffix("-04:56"), "\(text)")
        #expect(RFC3339.date(from: text) == instant)
        // Halves go away from zero; the wall time moves with the offset.
        #expect(RFC3339.string(epochSeconds: 0, utcOffset: 90) == "1970-01-01T00:02:00+00:02")
        #expect(RFC3339.string(epochSeconds: 0, utcOffset: -29) == "1970-01-01T00:00:00+00:00")
    }

    @Test func aWallTimePastTheRangeIsWrittenInUTC() {
        let lastSecond = Date(timeIntervalSince1970: 253_402_300_799)
        #expect(RFC3339.string(from: lastSecond, utcOffset: 50_400) == "9999-12-31T23:59:59Z")
        #expect(RFC3339.string(from: InstantBounds.earliest, utcOffset: -3_600) == "0001-01-01T00:00:00Z")
        #expect(RFC3339.string(from: lastSecond, utcOffset: -3_600) == "9999-12-31T22:59:59-01:00")
    }

    @Test func instantsOutsideTheRangeAreWrittenAtItsEdgeNeverTrapping() {
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: 6e66)) == "9999-12-31T23:59:59.999999Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: -.infinity)) == "0001-01-01T00:00:00Z")
        #expect(RFC3339.string(from: Date(timeIntervalSince1970: .nan)) == "0001-01-01T00:00:00Z")
        #expect(RFC3339.string(epochSeconds: .max, utcOffset: 3_600) == "9999-12-31T23:59:59Z")
    }

    /// Seeded: every written instant, at every offset a zone ever had (to the
    /// second), reads back as itself.
    @Test func seededInstantsAtAnyOffsetReadBack() {
        var random = SplitMix64(seed: 14)
        for _ in 0..<5_000 {
            let seconds = Int.random(in: Int(InstantBounds.seconds.lowerBound)..<Int(InstantBounds.seconds.upperBound), using: &random)
            let offset = Int.random(in: -15 * 3600...15 * 3600, using: &random)
            let text = RFC3339.string(epochSeconds: seconds, utcOffset: offset)
            #expect(RFC3339.date(from: text)?.timeIntervalSince1970 == Double(seconds), "\(text)")
        }
    }

    @Test func aTimeIntervalLongerThanTheRangeIsRefused() {
        #expect(throws: DataError.self) { try TimeIntervalTrigger(timeInterval: 1e13, repeats: false) }
        #expect(throws: DataError.self) { try TimeIntervalTrigger(timeInterval: 1e308, repeats: true) }
        #expect((try? TimeIntervalTrigger(timeInterval: TimeIntervalTrigger.maximumInterval, repeats: false)) != nil)
    }

    @Test func aRepeatingIntervalEndsBeforeYear10000() throws {
        let trigger = try TimeIntervalTrigger(timeInterval: 1e11, repeats: true)
        let added = Date(timeIntervalSince1970: 0)
        // 1e11, 2e11 are inside; 3e11 is past 253,402,300,800.
        let fires = Array(trigger.fireDates(after: added, addedAt: added).prefix(10))
        #expect(fires.map(\.timeIntervalSince1970) == [1e11, 2e11])
        let once = try TimeIntervalTrigger(timeInterval: 3e11, repeats: false)
        #expect(once.nextTriggerDate(after: added, addedAt: added) == nil)
        #expect(trigger.nextTriggerDate(after: InstantBounds.end, addedAt: added) == nil)
    }

    @Test func aCalendarMatchPastYear9999EndsTheSeries() throws {
        // Foundation answers 20046-04-08 here; the series ends with 9999 instead.
        let far = try CalendarTrigger(dateMatching: DateComponents(yearForWeekOfYear: 20_046), repeats: true, timeZone: .fixed(.utc))
        #expect(far.nextTriggerDate(after: Date(timeIntervalSince1970: 0)) == nil)
        let last = try CalendarTrigger(dateMatching: DateComponents(month: 12, day: 31, hour: 12), repeats: true, timeZone: .fixed(.utc))
        let fires = Array(last.fireDates(after: Date(timeIntervalSince1970: 253_370_000_000)).prefix(5))
        #expect(fires.map { RFC3339.string(from: $0) } == ["9998-12-31T12:00:00Z", "9999-12-31T12:00:00Z"])
    }
}
