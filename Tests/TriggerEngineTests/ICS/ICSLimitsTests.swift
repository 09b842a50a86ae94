import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The bounds `ICSLimits` puts on what a file can ask for, each hit by the
/// input that used to crash or hang the reader (issue 14): deep nesting, long
/// lines, many components, dense VTIMEZONE rules, durations with repeated parts.
@Suite struct ICSLimitsTests {
    static func write(_ text: String) throws -> String {
        let path = ScratchFolder.path("ics-limits-\(UUID()).ics").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let event = "BEGIN:VEVENT\nUID:after\nDTSTART:20260310T100000Z\nEND:VEVENT\n"

    @Test func sixtyThousandNestedComponentsAreSkippedNotRecursedInto() throws {
        // Used to overflow the stack when the component tree was freed.
        let depth = 60_000
        let path = try Self.write("BEGIN:VCALENDAR\n" + String(repeating: "BEGIN:X\n", count: depth) + String(repeating: "END:X\n", count: depth)
                                  + Self.event + "END:VCALENDAR\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let calendar = try ICSCalendar.load(path: path)
        #expect(calendar.warnings.map(\.kind) == [.nestedTooDeep("X", limit: 32)])
        #expect(calendar.warnings.first?.location.line == 1 + 32)
        #expect(calendar.series.compactMap(\.master?.uid) == ["after"])
    }

    @Test func aHundredThousandNestedAlarmsCostOneWarningAndTheEventStays() throws {
        let depth = 100_000
        let path = try Self.write("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:deep\nDTSTART:20260310T100000Z\n"
                                  + String(repeating: "BEGIN:VALARM\nTRIGGER:-PT5M\n", count: depth) + String(repeating: "END:VALARM\n", count: depth)
                                  + "END:VEVENT\nEND:VCALENDAR\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let calendar = try ICSCalendar.load(path: path)
        #expect(calendar.warnings.map(\.kind) == [.nestedTooDeep("VALARM", limit: 32)])
        // Only the outermost VALARM is the event's; the ones inside it are no alarms of the event.
        #expect(calendar.series.first?.master?.alarms.count == 1)
    }

    @Test func longLinesFoldedOrNotAreSkipped() throws {
        var limits = ICSLimits()
        limits.maximumLineBytes = 100
        let long = String(repeating: "x", count: 150)
        let folded = "DESCRIPTION:" + stride(from: 0, to: 300, by: 60).map { _ in String(repeating: "y", count: 60) }.joined(separator: "\n ")
        let path = try Self.write("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:long\nSUMMARY:\(long)\n\(folded)\nDTSTART:20260310T100000Z\nEND:VEVENT\nEND:VCALENDAR\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let calendar = try ICSCalendar.load(path: path, limits: limits)
        #expect(calendar.warnings.map(\.kind) == [.lineTooLong(bytes: 8 + 150, limit: 100), .lineTooLong(bytes: 12 + 300, limit: 100)])
        #expect(calendar.warnings.map { $0.location.line } == [4, 5])
        #expect(calendar.series.first?.master.map { ($0.summary, $0.description) } ?? ("?", "?") == ("", ""))
    }

    @Test func componentsPastTheLimitEndTheRead() throws {
        var limits = ICSLimits()
        limits.maximumComponents = 10
        let events = (0..<20).map { "BEGIN:VEVENT\nUID:e\($0)\nDTSTART:20260310T100000Z\nEND:VEVENT\n" }.joined()
        let path = try Self.write("BEGIN:VCALENDAR\n" + events + "END:VCALENDAR\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let calendar = try ICSCalendar.load(path: path, limits: limits)
        // VCALENDAR and 9 events are the first 10 components; the 11th BEGIN (line 38) stops the read.
        #expect(calendar.warnings.map(\.kind) == [.tooManyComponents(limit: 10)])
        #expect(calendar.warnings.first?.location.line == 2 + 9 * 4)
        #expect(calendar.series.count == 9)
    }

    @Test func denseStandardRuleInAFileLoadsWithAWarning() throws {
        // The 249-byte file that ran past 10 s: a STANDARD observance with RRULE:FREQ=HOURLY from 1601.
        let path = try Self.write("""
            BEGIN:VCALENDAR
            BEGIN:VTIMEZONE
            TZID:X
            BEGIN:STANDARD
            DTSTART:16010101T000000
            RRULE:FREQ=HOURLY
            TZOFFSETFROM:+0100
            TZOFFSETTO:+0200
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:u
            DTSTART;TZID=X:20260101T100000
            END:VEVENT
            END:VCALENDAR

            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let calendar = try ICSCalendar.load(path: path)
        #expect(calendar.warnings.map(\.kind) == [
            .badTimeZone("X", reason: "the RRULE of the observance of line 4 changes the offset more than 12 times in 1601; ignored the rule"),
        ])
        // The observance's DTSTART still turns the zone to +02:00 from 1601: 10:00 is 08:00Z.
        #expect(calendar.series.first?.master?.start.instant == ICSCalendarTests.instant("2026-01-01T08:00:00Z"))
    }

    @Test func countRuleFarFromTheWindowIsCutWithAWarningNotWalkedForMinutes() throws {
        // COUNT counts from DTSTART: reaching 2030 from 2000 one second at a time took minutes.
        let path = try Self.write("BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:c\nDTSTART:20000101T000000Z\nRRULE:FREQ=SECONDLY;COUNT=999999999\nEND:VEVENT\nEND:VCALENDAR\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let calendar = try ICSCalendar.load(path: path)
        var warnings: [ICSWarning] = []
        let far = calendar.occurrences(from: ICSCalendarTests.instant("2030-01-01T00:00:00Z"), to: ICSCalendarTests.instant("2030-01-01T00:00:10Z"), warnings: &warnings)
        #expect(far.isEmpty)
        #expect(warnings.map(\.kind) == [.countWalkTooLong(uid: "c", limit: 1_000_000)])
        #expect(warnings.first?.location.line == 2)
        // Near DTSTART the same rule is exact: the seconds of 1 January 2000 from 00:00:05, no warning.
        warnings = []
        let near = calendar.occurrences(from: ICSCalendarTests.instant("2000-01-01T00:00:05Z"), to: ICSCalendarTests.instant("2000-01-01T00:00:08Z"), warnings: &warnings)
        #expect(near.map { RFC3339.string(epochSeconds: $0.startInstant) } == ["2000-01-01T00:00:05Z", "2000-01-01T00:00:06Z", "2000-01-01T00:00:07Z"])
        #expect(warnings.isEmpty)
    }

    @Test func durationsTakeEachPartOnceInOrderAndStayUnderTenThousandYears() {
        #expect(ICSDuration(parsing: "PT1H30M") == ICSDuration(seconds: 5_400))
        #expect(ICSDuration(parsing: "-P2DT1S") == ICSDuration(days: -2, seconds: -1))
        #expect(ICSDuration(parsing: "P3W") == ICSDuration(days: 21))
        // Repeated parts once summed past Int.max seconds (a trap); now they are malformed.
        #expect(ICSDuration(parsing: String(repeating: "P99999999W", count: 1) + String(repeating: "99999999W", count: 1_000)) == nil)
        #expect(ICSDuration(parsing: "P1W2D") == nil)
        #expect(ICSDuration(parsing: "PT1M1H") == nil)
        #expect(ICSDuration(parsing: "P3652425D") != nil)
        #expect(ICSDuration(parsing: "P3652426D") == nil)
        #expect(ICSDuration(parsing: "PT99999999H") == nil)
    }
}
