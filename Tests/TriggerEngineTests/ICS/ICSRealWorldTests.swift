import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// What real calendars mix (`Fixtures/ics/real-world-mixes.ics`): several RRULEs
/// in one event, DATE and DATE-TIME values together, THISANDFUTURE with plain
/// overrides, overrides of no instance. Our reading, worked out by hand, and
/// recurring-ical-events 3.8.2's (`real-world-mixes-peer.json`), which differs
/// on the five series named in `departures`, each for the reason given.
@Suite struct ICSRealWorldTests {
    static func ours() throws -> [String] {
        let calendar = try ICSCalendar.load(path: ICSCalendarTests.path("real-world-mixes.ics"))
        #expect(calendar.warnings.isEmpty)
        var warnings: [ICSWarning] = []
        return calendar.occurrences(from: 0, to: ICSCorpusDifferentialTests.window.to, warnings: &warnings).map {
            "\($0.uid)|\(ICSCorpusDifferentialTests.text($0.start))|\(ICSCorpusDifferentialTests.text($0.end))"
        }
    }

    @Test func mixedValuesOverridesAndRulesAsWorkedOut() throws {
        let ours = try Self.ours()
        func series(_ uid: String) -> [String] { ours.filter { $0.hasPrefix(uid + "|") }.map { String($0.dropFirst(uid.count + 1)) } }
        // Two RRULEs: their union, DTSTART once (daily 10–12 March, Fridays 13 and 20 March).
        #expect(series("two-rules").map { String($0.prefix(10)) } == ["2026-03-10", "2026-03-11", "2026-03-12", "2026-03-13", "2026-03-20"])
        // An override without a master, and one of an instance the rule never makes: listed at their own
        // start, as Google and recurring-ical-events show them.
        #expect(series("orphan") == ["2026-03-20T12:00:00Z|2026-03-20T12:00:00Z"])
        #expect(series("no-such-instance").last == "2026-04-05T12:00:00Z|2026-04-05T12:00:00Z")
        // THISANDFUTURE from 3 March moves every later instance to 12:00 for 30 min; the plain override of
        // 5 March (by its original 10:00) still wins for that instance.
        #expect(series("future").map { String($0.prefix(20)) } == ["2026-03-01T10:00:00Z", "2026-03-02T10:00:00Z", "2026-03-03T12:00:00Z",
                                                                 "2026-03-04T12:00:00Z", "2026-03-05T15:00:00Z", "2026-03-06T12:00:00Z",
                                                                 "2026-03-07T12:00:00Z", "2026-03-08T12:00:00Z"])
        // DTSTART (a Monday) is the first instance though the rule says Tuesdays; COUNT counts the rule's.
        #expect(series("unsynchronised").map { String($0.prefix(10)) } == ["2026-03-02", "2026-03-03", "2026-03-10"])
        // Timed Berlin series: the DATE EXDATE removes 3 March; the DATE RDATE is that midnight in Berlin
        // (23:00Z the day before) for the series' hour.
        #expect(series("timed-date-exdate-rdate").map { String($0.prefix(20)) } == [
            "2026-03-02T09:00:00Z", "2026-03-04T09:00:00Z", "2026-03-05T09:00:00Z", "2026-03-06T09:00:00Z", "2026-03-09T23:00:00Z"])
        // All-day series: DATE-TIME EXDATEs remove the days they fall on (3 and 4 March); the DATE-TIME RDATE is its date.
        #expect(series("all-day-datetime-exdate-rdate").map { String($0.prefix(10)) } == ["2026-03-02", "2026-03-05", "2026-03-06", "2026-03-10"])
        // All-day with a UTC UNTIL at 23:59:59 on 4 April: 2, 3 and 4 April.
        #expect(series("all-day-utc-until").count == 3)
        // Timed series with a DATE UNTIL: up to and including that day (2, 3 and 4 May at 10:00 CEST).
        #expect(series("timed-date-until").map { String($0.prefix(20)) } == ["2026-05-02T08:00:00Z", "2026-05-03T08:00:00Z", "2026-05-04T08:00:00Z"])
        // A DATE RECURRENCE-ID in a timed series names that day's instance (3 June 10:00 → 15:00 CEST).
        #expect(series("timed-date-recurrence-id").map { String($0.prefix(20)) } == ["2026-06-02T08:00:00Z", "2026-06-03T13:00:00Z", "2026-06-04T08:00:00Z"])
        // A DATE-TIME RECURRENCE-ID in an all-day series names the instance of its date (3 July → 10 July).
        #expect(series("all-day-datetime-recurrence-id").map { String($0.prefix(10)) } == ["2026-07-02", "2026-07-04", "2026-07-10"])
        // An all-day event ending at 12:00 the next day covers both days; a timed one ending on a DATE ends at that midnight.
        #expect(series("all-day-datetime-end") == ["2026-08-02|2026-08-04"])
        #expect(series("timed-date-end") == ["2026-09-02T10:00:00Z|2026-09-04T00:00:00Z"])
        // An all-day DTSTART has no hours: BYHOUR does not apply, two days.
        #expect(series("all-day-byhour") == ["2026-10-02|2026-10-03", "2026-10-03|2026-10-04"])
    }

    /// Where recurring-ical-events reads this file otherwise, and why we do not follow it.
    static let departures: [String: String] = [
        "all-day-byhour": "an all-day DTSTART ignores BYHOUR (RFC 5545 §3.3.10: times come from DTSTART, which has none); "
            + "the peer lists 2 October three times",
        "all-day-datetime-end": "DTEND must have DTSTART's type (§3.6.1); we keep the event all-day and end it with the day "
            + "its DTEND falls in; the peer turns it into a timed event from midnight UTC",
        "all-day-datetime-exdate-rdate": "an EXDATE in an all-day series removes its day; the peer removes it only when "
            + "the DATE-TIME is that midnight (so 4 March 10:00 Berlin stays)",
        "timed-date-recurrence-id": "a DATE RECURRENCE-ID names that day's instance; the peer matches nothing and lists "
            + "the moved instance beside the original",
        "timed-date-until": "a DATE UNTIL on a timed series includes that day (as a user who picked 'until 4 May' means); "
            + "the peer stops at its midnight",
    ]

    @Test func recurringICalEventsDiffersOnlyWhereNamed() throws {
        let peer = try ICSCorpusDifferentialTests.answers(Data(contentsOf: Bundle.module.url(
            forResource: "real-world-mixes-peer", withExtension: "json", subdirectory: "Fixtures/ics")!))
        guard case .occurrences(let theirs)? = peer.files["real-world-mixes.ics"] else { Issue.record("no recorded answer"); return }
        let ours = try Self.ours()
        let uids = Set((Set(ours).symmetricDifference(Set(theirs)).map { String($0.split(separator: "|")[0]) }
                       + (ours.count == Set(ours).count && theirs.count == Set(theirs).count ? [] : ["all-day-byhour"])))
        #expect(uids == Set(Self.departures.keys))
        // Everything else is the same, line for line.
        func rest(_ lines: [String]) -> [String] { lines.filter { Self.departures[String($0.split(separator: "|")[0])] == nil }.sorted() }
        #expect(rest(ours) == rest(theirs))
        #expect(rest(ours).count == 33)
    }
}
