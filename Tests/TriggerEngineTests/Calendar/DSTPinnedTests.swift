import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// Calendar and recurrence triggers across DST transitions, pinned to literal
/// instants (seconds since 1970), as swift-foundation's own recurrence tests
/// pin theirs: the differential tests compare with this toolchain's
/// Foundation, so a Foundation change would move the oracle and us together,
/// silently; these would fail.
///
/// Five zones, each at both of its 2026 transitions, with a wall time inside
/// the gap and inside the repeated hour: New York and Berlin (one-hour shifts
/// at 02:00 and 02:00/03:00), Lord Howe (a 30-minute shift), Santiago (at
/// midnight), Chatham (at 02:45/03:45). The values were checked against an
/// independent oracle (Python's zoneinfo with the rules below); they agree
/// except where marked.
///
/// - Calendar (`UNCalendarNotificationTrigger`, Foundation's `.nextTime`,
///   `.first`): a wall time in the gap fires at the next existing time, a
///   repeated one at its first occurrence. Marked: this Foundation fires a
///   missing 03:00 in Chatham at 04:00 (the next hour) rather than at the
///   gap's end (03:45), and skips Lord Howe's missing 02:15 for that day
///   altogether; we follow it (the contract is Foundation's `nextDate`).
/// - Recurrence (RFC 5545 §3.3.5): a wall time in the gap is shifted forward
///   by the gap's length, a repeated one is its first occurrence.
@Suite("DST: calendar and recurrence fires pinned to literal instants")
struct DSTPinnedTests {
    struct CalendarCase: Sendable, CustomTestStringConvertible {
        var zone: String, hour: Int, minute: Int, after: String, fires: [Int]
        init(_ zone: String, hour: Int, minute: Int, after: String, fires: [Int]) {
            (self.zone, self.hour, self.minute, self.after, self.fires) = (zone, hour, minute, after, fires)
        }
        var testDescription: String { "\(zone) \(hour):\(minute) after \(after)" }
    }

    struct RecurrenceCase: Sendable, CustomTestStringConvertible {
        var zone: String, dtstart: String, after: String, fires: [Int]
        init(_ zone: String, dtstart: String, after: String, fires: [Int]) {
            (self.zone, self.dtstart, self.after, self.fires) = (zone, dtstart, after, fires)
        }
        var testDescription: String { "\(zone) DAILY from \(dtstart)" }
    }

    static let calendarCases = [
        CalendarCase("America/New_York", hour: 2, minute: 30, after: "2026-03-06T12:00:00Z", fires: [1772868600, 1772953200, 1773037800, 1773124200]),
        CalendarCase("America/New_York", hour: 1, minute: 30, after: "2026-10-30T12:00:00Z", fires: [1793424600, 1793511000, 1793601000, 1793687400]),
        CalendarCase("Europe/Berlin", hour: 2, minute: 30, after: "2026-03-27T12:00:00Z", fires: [1774661400, 1774746000, 1774830600, 1774917000]),
        CalendarCase("Europe/Berlin", hour: 2, minute: 30, after: "2026-10-23T12:00:00Z", fires: [1792801800, 1792888200, 1792978200, 1793064600]),
        CalendarCase("Australia/Lord_Howe", hour: 1, minute: 45, after: "2026-04-02T12:00:00Z", fires: [1775141100, 1775227500, 1775313900, 1775402100]),
        CalendarCase("Australia/Lord_Howe", hour: 2, minute: 15, after: "2026-10-01T12:00:00Z", fires: [1790869500, 1790955900, 1791126900, 1791213300]),  // Foundation; "the next existing time" would be [1790869500, 1790955900, 1791041400, 1791126900]
        CalendarCase("America/Santiago", hour: 23, minute: 30, after: "2026-04-02T12:00:00Z", fires: [1775183400, 1775269800, 1775356200, 1775446200]),
        CalendarCase("America/Santiago", hour: 0, minute: 30, after: "2026-09-04T12:00:00Z", fires: [1788582600, 1788667200, 1788751800, 1788838200]),
        CalendarCase("Pacific/Chatham", hour: 3, minute: 0, after: "2026-04-02T12:00:00Z", fires: [1775135700, 1775222100, 1775308500, 1775398500]),
        CalendarCase("Pacific/Chatham", hour: 3, minute: 0, after: "2026-09-25T12:00:00Z", fires: [1790345700, 1790432100, 1790514900, 1790601300]),  // Foundation; "the next existing time" would be [1790345700, 1790431200, 1790514900, 1790601300]
    ]

    static let recurrenceCases = [
        RecurrenceCase("America/New_York", dtstart: "2026-03-06T02:30:00", after: "2026-03-06T00:00:00Z", fires: [1772782200, 1772868600, 1772955000, 1773037800]),
        RecurrenceCase("America/New_York", dtstart: "2026-10-30T01:30:00", after: "2026-10-30T00:00:00Z", fires: [1793338200, 1793424600, 1793511000, 1793601000]),
        RecurrenceCase("Europe/Berlin", dtstart: "2026-03-27T02:30:00", after: "2026-03-26T00:00:00Z", fires: [1774575000, 1774661400, 1774747800, 1774830600]),
        RecurrenceCase("Europe/Berlin", dtstart: "2026-10-23T02:30:00", after: "2026-10-22T00:00:00Z", fires: [1792715400, 1792801800, 1792888200, 1792978200]),
        RecurrenceCase("Australia/Lord_Howe", dtstart: "2026-10-02T02:15:00", after: "2026-10-01T00:00:00Z", fires: [1790869500, 1790955900, 1791042300, 1791126900]),
        RecurrenceCase("Australia/Lord_Howe", dtstart: "2026-04-03T01:45:00", after: "2026-04-02T00:00:00Z", fires: [1775141100, 1775227500, 1775313900, 1775402100]),
        RecurrenceCase("America/Santiago", dtstart: "2026-09-04T00:30:00", after: "2026-09-03T00:00:00Z", fires: [1788496200, 1788582600, 1788669000, 1788751800]),
        RecurrenceCase("America/Santiago", dtstart: "2026-04-02T23:30:00", after: "2026-04-02T00:00:00Z", fires: [1775183400, 1775269800, 1775356200, 1775446200]),
        RecurrenceCase("Pacific/Chatham", dtstart: "2026-09-25T03:00:00", after: "2026-09-24T00:00:00Z", fires: [1790259300, 1790345700, 1790432100, 1790514900]),
        RecurrenceCase("Pacific/Chatham", dtstart: "2026-04-03T03:00:00", after: "2026-04-02T00:00:00Z", fires: [1775135700, 1775222100, 1775308500, 1775398500]),
    ]

    @Test("daily calendar triggers", arguments: calendarCases)
    func calendarTrigger(_ pinned: CalendarCase) throws {
        let trigger = try CalendarTrigger(dateMatching: DateComponents(hour: pinned.hour, minute: pinned.minute), repeats: true,
                                          timeZone: .fixed(ZoneRules.named(pinned.zone)))
        let after = try #require(RFC3339.date(from: pinned.after))
        let fires = Array(trigger.fireDates(after: after).prefix(pinned.fires.count)).map { Int($0.timeIntervalSince1970) }
        #expect(fires == pinned.fires)
    }

    @Test("daily RRULEs", arguments: recurrenceCases)
    func recurrenceTrigger(_ pinned: RecurrenceCase) throws {
        let parts = pinned.dtstart.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        let start = try #require(LocalDateTime.valid(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4],
                                               second: parts[5]))
        let trigger = try RecurrenceTrigger(rule: RecurrenceRule(parsing: "FREQ=DAILY"), start: start,
                                            timeZone: .fixed(ZoneRules.named(pinned.zone)))
        var instant = Int(try #require(RFC3339.date(from: pinned.after)).timeIntervalSince1970)
        var fires: [Int] = []
        while fires.count < pinned.fires.count, let next = trigger.nextTriggerInstant(after: instant) {
            fires.append(next)
            instant = next
        }
        #expect(fires == pinned.fires)
    }
}
