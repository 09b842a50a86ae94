import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// The ICS corpus (`Fixtures/ics`, one feature per file) against instants worked
/// out by hand from the zone rules in force (each working in a comment).
@Suite struct ICSCalendarTests {
    static func path(_ name: String) -> String {
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/ics")!.path
    }

    static func instant(_ text: String) -> Int { Int(RFC3339.date(from: text)!.timeIntervalSince1970) }

    /// "uid start end" per occurrence: UTC RFC 3339, or YYYY-MM-DD for all-day ones.
    static func occurrences(_ name: String, _ from: String, _ to: String, floating: ZoneRules = .utc) throws -> [String] {
        let calendar = try ICSCalendar.load(path: path(name), floatingZone: floating)
        var warnings: [ICSWarning] = []
        let items = calendar.occurrences(from: instant(from), to: instant(to), warnings: &warnings)
        #expect(warnings.isEmpty)
        return items.map { "\($0.uid) \(text($0.start)) \(text($0.end))" }
    }

    static func text(_ time: ICSTime) -> String {
        guard time.isDate else { return RFC3339.string(epochSeconds: time.instant) }
        let fields = time.local.fields
        return String(format: "%04d-%02d-%02d", fields.year, fields.month, fields.day)
    }

    @Test func allDayEventsListDatesWithYearlyRuleAndDateRdate() throws {
        // Yearly on 5 March, COUNT=3; the offsite runs 10–12 April (DTEND exclusive) and again from the
        // RDATE 1 June for the same two days.
        #expect(try Self.occurrences("all-day.ics", "2026-01-01T00:00:00Z", "2029-01-01T00:00:00Z") == [
            "birthday 2026-03-05 2026-03-06", "offsite 2026-04-10 2026-04-12", "offsite 2026-06-01 2026-06-03",
            "birthday 2027-03-05 2027-03-06", "birthday 2028-03-05 2028-03-06",
        ])
    }

    @Test func floatingTimesFollowXWRTimeZoneAcrossSpringForward() throws {
        // New York springs forward on Sunday 8 March 2026 (second Sunday): 09:00 EST = 14:00Z on the 7th,
        // then 09:00 EDT = 13:00Z. X-WR-TIMEZONE wins over the caller's floating zone.
        #expect(try Self.occurrences("floating-wr-timezone.ics", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z",
                                     floating: try ZoneRules.named("Asia/Tokyo")) == [
            "floating 2026-03-07T14:00:00Z 2026-03-07T15:00:00Z",
            "floating 2026-03-08T13:00:00Z 2026-03-08T14:00:00Z",
            "floating 2026-03-09T13:00:00Z 2026-03-09T14:00:00Z",
        ])
    }

    @Test func fileVTimeZoneGivesOffsetsOnBothSidesOfItsDaylightRule() throws {
        // Custom/Berlin: last Sunday of March (29 March 2026) to +02:00. 12:00+01:00 = 11:00Z, 12:00+02:00 = 10:00Z.
        #expect(try Self.occurrences("vtimezone.ics", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z") == [
            "custom-zone 2026-03-28T11:00:00Z 2026-03-28T12:00:00Z",
            "custom-zone 2026-03-29T10:00:00Z 2026-03-29T11:00:00Z",
        ])
    }

    @Test func vTimeZoneAfterTheEventThatUsesItStillApplies() throws {
        // The file of the test above with its VTIMEZONE moved to the end: the event waits for it.
        #expect(try Self.occurrences("vtimezone-after-event.ics", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z") == [
            "custom-zone 2026-03-28T11:00:00Z 2026-03-28T12:00:00Z",
            "custom-zone 2026-03-29T10:00:00Z 2026-03-29T11:00:00Z",
        ])
    }

    @Test func lateVTimeZoneReplacesTheSystemZoneOfTheSameName() throws {
        // The file defines America/New_York as a fixed -05:00 after the event that uses it. The file's
        // definition wins over the system's (which would give 16:00Z from 8 March): 12:00-05:00 = 17:00Z daily.
        #expect(try Self.occurrences("late-vtimezone-replaces-system-zone.ics", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z") == [
            "late-zone 2026-03-07T17:00:00Z 2026-03-07T18:00:00Z",
            "late-zone 2026-03-08T17:00:00Z 2026-03-08T18:00:00Z",
            "late-zone 2026-03-09T17:00:00Z 2026-03-09T18:00:00Z",
        ])
    }

    @Test func xWRTimeZoneAfterTheEventsStillGovernsFloatingTimes() throws {
        // floating-wr-timezone.ics with X-WR-TIMEZONE written after the VEVENT: the same instants.
        #expect(try Self.occurrences("late-wr-timezone.ics", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z",
                                     floating: try ZoneRules.named("Asia/Tokyo")) == [
            "floating 2026-03-07T14:00:00Z 2026-03-07T15:00:00Z",
            "floating 2026-03-08T13:00:00Z 2026-03-08T14:00:00Z",
            "floating 2026-03-09T13:00:00Z 2026-03-09T14:00:00Z",
        ])
    }

    @Test func ianaTzidWithoutVTimeZoneUsesSystemRules() throws {
        // London leaves BST on Sunday 25 October 2026: 10:00 BST = 09:00Z, then 10:00 GMT = 10:00Z.
        #expect(try Self.occurrences("iana-tzid.ics", "2026-10-01T00:00:00Z", "2026-11-01T00:00:00Z") == [
            "london 2026-10-24T09:00:00Z 2026-10-24T09:30:00Z",
            "london 2026-10-25T10:00:00Z 2026-10-25T10:30:00Z",
        ])
    }

    @Test func windowsZoneNameMapsToIANA() throws {
        // W. Europe Standard Time = Europe/Berlin; 08:00 CET in January = 07:00Z.
        #expect(try Self.occurrences("windows-tzid.ics", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z") == [
            "outlook-windows-name 2026-01-15T07:00:00Z 2026-01-15T08:00:00Z",
        ])
    }

    @Test func rdateDateTimesAndPeriodsAddInstances() throws {
        // DTSTART plus two RDATEs keep the 1-hour length; the PERIOD brings its own 2 hours.
        #expect(try Self.occurrences("rdate.ics", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z") == [
            "rdates 2026-01-01T10:00:00Z 2026-01-01T11:00:00Z", "rdates 2026-01-05T10:00:00Z 2026-01-05T11:00:00Z",
            "rdates 2026-01-10T15:00:00Z 2026-01-10T16:00:00Z", "rdates 2026-01-20T10:00:00Z 2026-01-20T12:00:00Z",
        ])
    }

    @Test func exdateRemovesAnInstanceButStillCountsTowardsCount() throws {
        // Mondays 5, 12, 19, 26 January (COUNT=4); 12 January excluded (RFC 5545 §3.8.5.1).
        #expect(try Self.occurrences("exdate.ics", "2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z") == [
            "mondays 2026-01-05T09:00:00Z 2026-01-05T09:30:00Z", "mondays 2026-01-19T09:00:00Z 2026-01-19T09:30:00Z",
            "mondays 2026-01-26T09:00:00Z 2026-01-26T09:30:00Z",
        ])
    }

    @Test func overridesMoveInstancesIntoAndOutOfTheWindow() throws {
        // 2 Feb moved to 20 Feb (out of [1 Feb, 6 Feb)); 5 March moved to 4 Feb 12:00 (into it).
        #expect(try Self.occurrences("override-moves.ics", "2026-02-01T00:00:00Z", "2026-02-06T00:00:00Z") == [
            "daily 2026-02-01T10:00:00Z 2026-02-01T10:30:00Z", "daily 2026-02-03T10:00:00Z 2026-02-03T10:30:00Z",
            "daily 2026-02-04T10:00:00Z 2026-02-04T10:30:00Z", "daily 2026-02-04T12:00:00Z 2026-02-04T12:30:00Z",
            "daily 2026-02-05T10:00:00Z 2026-02-05T10:30:00Z",
        ])
        // On 20 Feb both the master's own instance and the moved one of 2 Feb; 5 March is gone.
        #expect(try Self.occurrences("override-moves.ics", "2026-02-20T00:00:00Z", "2026-02-21T00:00:00Z").count == 2)
        #expect(try Self.occurrences("override-moves.ics", "2026-03-05T00:00:00Z", "2026-03-06T00:00:00Z").isEmpty)
    }

    @Test func thisAndFutureShiftsTheRestOfTheSeries() throws {
        // RANGE=THISANDFUTURE at 19 January moves it and every later Monday by +2 h.
        let calendar = try ICSCalendar.load(path: Self.path("thisandfuture.ics"))
        var warnings: [ICSWarning] = []
        let items = calendar.occurrences(from: Self.instant("2026-01-01T00:00:00Z"), to: Self.instant("2026-03-01T00:00:00Z"), warnings: &warnings)
        #expect(items.map { RFC3339.string(epochSeconds: $0.startInstant) } == [
            "2026-01-05T09:00:00Z", "2026-01-12T09:00:00Z", "2026-01-19T11:00:00Z", "2026-01-26T11:00:00Z",
            "2026-02-02T11:00:00Z", "2026-02-09T11:00:00Z",
        ])
        #expect(items.map(\.summary) == ["Weekly", "Weekly", "Weekly later", "Weekly later", "Weekly later", "Weekly later"])
        #expect(items[2].recurrenceID.map { RFC3339.string(epochSeconds: $0.instant) } == "2026-01-19T09:00:00Z")
    }

    @Test func cancelledInstancesAndEventsAreDropped() throws {
        #expect(try Self.occurrences("cancelled.ics", "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z") == [
            "series 2026-03-01T08:00:00Z 2026-03-01T09:00:00Z", "series 2026-03-03T08:00:00Z 2026-03-03T09:00:00Z",
        ])
    }

    @Test func alarmsRelativeToStartAndEndAbsoluteAndRepeated() throws {
        // Start 10:00Z, end 11:00Z: −PT15M → 09:45; END+PT5M → 11:05; absolute 31 March 20:00Z;
        // −PT30M with REPEAT 2 every 10 min → 09:30, 09:40, 09:50.
        let calendar = try ICSCalendar.load(path: Self.path("alarms.ics"))
        var warnings: [ICSWarning] = []
        let firings = calendar.alarmFirings(from: Self.instant("2026-03-31T00:00:00Z"), to: Self.instant("2026-04-02T00:00:00Z"), warnings: &warnings)
        #expect(firings.map { "\(RFC3339.string(epochSeconds: $0.time)) \($0.alarm.action)" } == [
            "2026-03-31T20:00:00Z EMAIL", "2026-04-01T09:30:00Z AUDIO", "2026-04-01T09:40:00Z AUDIO",
            "2026-04-01T09:45:00Z DISPLAY", "2026-04-01T09:50:00Z AUDIO", "2026-04-01T11:05:00Z DISPLAY",
        ])
        // A window that holds only the end alarm.
        let late = calendar.alarmFirings(from: Self.instant("2026-04-01T11:00:00Z"), to: Self.instant("2026-04-01T12:00:00Z"), warnings: &warnings)
        #expect(late.map(\.alarm.description) == ["Write the minutes"])
    }

    @Test func importMakesOneRequestPerAlarmFiringOrStart() throws {
        let calendar = try ICSCalendar.load(path: Self.path("alarms.ics"))
        var warnings: [ICSWarning] = []
        let requests = calendar.notificationRequests(from: Self.instant("2026-04-01T09:44:00Z"), to: Self.instant("2026-04-01T09:46:00Z"), warnings: &warnings)
        #expect(requests.map(\.identifier) == ["meeting/2026-04-01T10:00:00Z/alarm-1"])
        #expect(requests.first?.body == "In 15 minutes")
        #expect(requests.first?.title == "Meeting")
        let todo = try ICSCalendar.load(path: Self.path("todo-due.ics"))
        let due = todo.notificationRequests(from: Self.instant("2026-07-01T00:00:00Z"), to: Self.instant("2026-08-01T00:00:00Z"), warnings: &warnings)
        #expect(due.map { "\($0.identifier) \(RFC3339.string(epochSeconds: $0.fireTime))" } == ["taxes/2026-07-31T23:59:00Z 2026-07-31T23:59:00Z"])
    }

    @Test func rfc5545DailyForTenOccurrences() throws {
        // RFC 5545 §3.8.5.3: 2–11 September 1997, 09:00 EDT = 13:00Z.
        let starts = try Self.occurrences("rfc5545-daily-10.ics", "1997-01-01T00:00:00Z", "1998-01-01T00:00:00Z").map { String($0.split(separator: " ")[1]) }
        #expect(starts == (2...11).map { String(format: "1997-09-%02dT13:00:00Z", $0) })
    }

    @Test func outlookExportWithWindowsNamedVTimeZoneUntilAndExdate() throws {
        // Wednesdays 09:30 from 21 Oct 2026 (CEST, 07:30Z); 28 Oct excluded; 4 Nov 09:30 CET = 08:30Z = UNTIL (inclusive).
        #expect(try Self.occurrences("outlook-export.ics", "2026-10-01T00:00:00Z", "2026-12-01T00:00:00Z") == [
            "040000008200E00074C5B7101A82E00800000000 2026-10-21T07:30:00Z 2026-10-21T08:00:00Z",
            "040000008200E00074C5B7101A82E00800000000 2026-11-04T08:30:00Z 2026-11-04T09:00:00Z",
        ])
    }

    @Test func thunderbirdExportUnfoldsLinesAndReadsItsVTimeZone() throws {
        // First Monday of June (1 June) and July (6 July) 2026, 18:00 CEST = 16:00Z.
        let calendar = try ICSCalendar.load(path: Self.path("thunderbird-export.ics"))
        var warnings: [ICSWarning] = []
        let items = calendar.occurrences(from: Self.instant("2026-05-01T00:00:00Z"), to: Self.instant("2026-09-01T00:00:00Z"), warnings: &warnings)
        #expect(items.map { RFC3339.string(epochSeconds: $0.startInstant) } == ["2026-06-01T16:00:00Z", "2026-07-06T16:00:00Z"])
        #expect(items.first?.summary == "A long summary that Thunderbird folds over more than one line because it is longer than seventy-five octets")
    }

    @Test func googleExportOverrideAcrossFallBack() throws {
        // Los Angeles falls back on 1 November 2026. 30 Oct 09:00 PDT = 16:00Z; 31 Oct excluded; 1 Nov 09:00 PST
        // (17:00Z) moved to 10:00 PST = 18:00Z; 2 Nov 09:00 PST = 17:00Z = UNTIL, kept.
        #expect(try Self.occurrences("google-export.ics", "2026-10-01T00:00:00Z", "2026-12-01T00:00:00Z") == [
            "abc123@google.com 2026-10-30T16:00:00Z 2026-10-30T17:00:00Z",
            "abc123@google.com 2026-11-01T18:00:00Z 2026-11-01T19:00:00Z",
            "abc123@google.com 2026-11-02T17:00:00Z 2026-11-02T18:00:00Z",
        ])
    }

    @Test func unboundedRuleOverHugeWindowStopsAtTheCapWithAWarning() throws {
        var calendar = try ICSCalendar.load(path: Self.path("unbounded-secondly.ics"))
        calendar.maxInstances = 1_000
        var warnings: [ICSWarning] = []
        let items = calendar.occurrences(from: Self.instant("2026-01-01T00:00:00Z"), to: Self.instant("2126-01-01T00:00:00Z"), warnings: &warnings)
        #expect(items.count == 1_000)
        #expect(warnings.map(\.kind) == [.instanceCap(uid: "x", limit: 1_000)])
        #expect(warnings.first?.location.line == 3)
    }
}
