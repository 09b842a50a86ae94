import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// Recurrence ends with year 9999, where RFC 3339 (and every instant the project
/// reads or writes) does: a series stops there, and a COUNT that would run past
/// it is resolved by walking at most to there (the fuzzer's `FREQ=MONTHLY;COUNT=2000012`
/// walked a million periods, over a second, before being refused).
@Suite("RecurrenceTrigger: series end with year 9999")
struct RecurrenceRangeTests {
    static let berlin = try! ZoneRules.named("Europe/Berlin")

    static func instant(_ text: String) -> Int { Int(RFC3339.date(from: text)!.timeIntervalSince1970) }

    @Test func countPastYear9999EndsTheSeriesThere() throws {
        // The 31st of each month with 31 days, 10:00 Berlin (CET in December: 09:00Z).
        let trigger = try RecurrenceTrigger(rule: try RecurrenceRule(parsing: "FREQ=MONTHLY;COUNT=2000012"),
                                            start: LocalDateTime.valid(year: 2026, month: 1, day: 31, hour: 10)!, timeZone: .fixed(Self.berlin))
        #expect(trigger.nextTriggerInstant(after: Self.instant("9999-12-01T00:00:00Z")) == Self.instant("9999-12-31T09:00:00Z"))
        #expect(trigger.nextTriggerInstant(after: Self.instant("9999-12-31T09:00:00Z")) == nil)
        // A COUNT that ends before 9999 is unchanged: 31 January, 31 March, 31 May (no 31 February).
        let short = try RecurrenceTrigger(rule: try RecurrenceRule(parsing: "FREQ=MONTHLY;COUNT=3"),
                                          start: LocalDateTime.valid(year: 2026, month: 1, day: 31, hour: 10)!, timeZone: .fixed(Self.berlin))
        #expect(short.nextTriggerInstant(after: Self.instant("2026-03-01T00:00:00Z")) == Self.instant("2026-03-31T08:00:00Z"))
        #expect(short.nextTriggerInstant(after: Self.instant("2026-03-31T08:00:00Z")) == Self.instant("2026-05-31T08:00:00Z"))
        #expect(short.nextTriggerInstant(after: Self.instant("2026-05-31T08:00:00Z")) == nil)
    }

    @Test func openSeriesHasNoInstanceAfter9999() throws {
        let trigger = try RecurrenceTrigger(rule: try RecurrenceRule(parsing: "FREQ=DAILY"),
                                            start: LocalDateTime.valid(year: 2026, month: 1, day: 1, hour: 23, minute: 30)!, timeZone: .fixed(.utc))
        #expect(trigger.nextTriggerInstant(after: Self.instant("9999-12-31T12:00:00Z")) == Self.instant("9999-12-31T23:30:00Z"))
        #expect(trigger.nextTriggerInstant(after: Self.instant("9999-12-31T23:30:00Z")) == nil)
        let instances = RecurrenceRule.Frequency.allCases.map { frequency in
            Array(try! RecurrenceRule(frequency: frequency).instances(startingAt: LocalDateTime.valid(year: 9999, month: 12, day: 31, hour: 23, minute: 59, second: 58)!).prefix(5)).count
        }
        // SECONDLY: :58 and :59; MINUTELY … YEARLY: only DTSTART.
        #expect(instances == [2, 1, 1, 1, 1, 1, 1])
    }
}
