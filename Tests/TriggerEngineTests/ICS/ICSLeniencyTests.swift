import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// Real calendars are messy: a defect confined to one component is a typed
/// warning with its line and the rest is read (`Fixtures/ics/lenient-*.ics`,
/// `bad-*.ics`, one defect each); `strict` makes the first one an error.
@Suite struct ICSLeniencyTests {
    /// The warnings of `name` as (kind, line), and its occurrences in March
    /// 2026 as "uid start end summary".
    static func read(_ name: String) throws -> (warnings: [ICSWarning], occurrences: [String]) {
        let calendar = try ICSCalendar.load(path: ICSCalendarTests.path(name))
        var expansion: [ICSWarning] = []
        let items = calendar.occurrences(from: ICSCalendarTests.instant("2026-01-01T00:00:00Z"),
                                         to: ICSCalendarTests.instant("2026-04-01T00:00:00Z"), warnings: &expansion)
        #expect(expansion.isEmpty)
        return (calendar.warnings, items.map {
            "\($0.uid) \(ICSCalendarTests.text($0.start)) \(ICSCalendarTests.text($0.end)) \($0.summary)".trimmingCharacters(in: .whitespaces)
        })
    }

    static func lines(_ warnings: [ICSWarning]) -> [Int] { warnings.map { $0.location.line ?? 0 } }

    @Test func brokenLineIsSkippedAndTheEventKept() throws {
        let (warnings, occurrences) = try Self.read("bad-broken-line.ics")
        #expect(warnings.map(\.kind) == [.brokenLine("THIS LINE HAS NO COLON")])
        #expect(Self.lines(warnings) == [6])
        #expect(occurrences == ["x 2026-01-01T10:00:00Z 2026-01-01T10:00:00Z"])
    }

    @Test func badDtstartSkipsOnlyItsComponent() throws {
        let (warnings, occurrences) = try Self.read("bad-date.ics")
        #expect(warnings.map(\.kind) == [.badStart(property: "DTSTART", value: "20261340T100000Z")])
        #expect(Self.lines(warnings) == [5])
        #expect(occurrences.isEmpty)
    }

    @Test func unknownTzidIsReadAsFloatingTime() throws {
        // Floating is UTC here: 10:00 wall = 10:00Z.
        let (warnings, occurrences) = try Self.read("bad-unknown-tzid.ics")
        #expect(warnings.map(\.kind) == [.unknownTimeZone("Mars/Olympus")])
        #expect(Self.lines(warnings) == [6])
        #expect(occurrences == ["x 2026-01-01T10:00:00Z 2026-01-01T10:00:00Z y"])
    }

    @Test func endOfTheCalendarClosesAnOpenEvent() throws {
        let (warnings, occurrences) = try Self.read("bad-unclosed.ics")
        #expect(warnings.map(\.kind) == [.unclosedComponent("VEVENT", line: 3)])
        #expect(Self.lines(warnings) == [6])
        #expect(occurrences == ["x 2026-01-01T10:00:00Z 2026-01-01T10:00:00Z"])
    }

    @Test func outOfRangeRulePartIsIgnored() throws {
        // FREQ=DAILY;BYMONTHDAY=40: without BYMONTHDAY, every day from 1 January.
        let (warnings, occurrences) = try Self.read("bad-rrule.ics")
        #expect(warnings.map(\.kind) == [.badRulePart("BYMONTHDAY", reason: "BYMONTHDAY=40 is not allowed (expected ±1…31)")])
        #expect(Self.lines(warnings) == [6])
        #expect(occurrences.count == 31 + 28 + 31)
        #expect(occurrences.first == "x 2026-01-01T10:00:00Z 2026-01-01T10:00:00Z")
    }

    @Test func missingUIDGetsAStableSyntheticOne() throws {
        let (warnings, occurrences) = try Self.read("lenient-missing-uid.ics")
        guard case .missingUID("VEVENT", let uid)? = warnings.first?.kind else {
            Issue.record("no missing-UID warning: \(warnings)")
            return
        }
        #expect(Self.lines(warnings) == [3])
        #expect(uid.hasPrefix("synthetic-") && uid.count == 26)
        #expect(occurrences == ["\(uid) 2026-03-10T09:00:00Z 2026-03-10T10:00:00Z No UID"])
        // The same event exported again (another DTSTAMP) keeps its UID; another event gets another.
        let text = try String(contentsOfFile: ICSCalendarTests.path("lenient-missing-uid.ics"), encoding: .utf8)
        let folder = ScratchFolder.path("ics-uid-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let again = folder.appendingPathComponent("again.ics").path, other = folder.appendingPathComponent("other.ics").path
        try text.replacingOccurrences(of: "DTSTAMP:20260101", with: "DTSTAMP:20270505").write(toFile: again, atomically: true, encoding: .utf8)
        try text.replacingOccurrences(of: "SUMMARY:No UID", with: "SUMMARY:Another").write(toFile: other, atomically: true, encoding: .utf8)
        #expect(try ICSCalendar.load(path: again).series.first?.master?.uid == uid)
        #expect(try ICSCalendar.load(path: other).series.first?.master?.uid != uid)
    }

    @Test func duplicateUIDKeepsTheHigherSequenceElseTheFirst() throws {
        let (warnings, occurrences) = try Self.read("lenient-duplicate-uid.ics")
        #expect(warnings.map(\.kind) == [.duplicateUID("dup-seq", keptLine: 9), .duplicateUID("dup-tie", keptLine: 15)])
        #expect(Self.lines(warnings) == [9, 20])
        #expect(occurrences == ["dup-seq 2026-03-03T10:00:00Z 2026-03-03T10:00:00Z new",
                                "dup-tie 2026-03-04T10:00:00Z 2026-03-04T10:00:00Z first"])
    }

    @Test func endBeforeStartEndsTheInstanceAtItsStart() throws {
        let (warnings, occurrences) = try Self.read("lenient-end-before-start.ics")
        #expect(warnings.map(\.kind) == [.endBeforeStart(property: "DTEND"), .endBeforeStart(property: "DTEND")])
        #expect(Self.lines(warnings) == [6, 11])
        // An all-day event's end is its start day: listed as starting that day.
        #expect(occurrences == ["backwards 2026-03-10T10:00:00Z 2026-03-10T10:00:00Z", "backwards-all-day 2026-03-12 2026-03-12"])
    }

    @Test func misspeltEmptyAndOutOfRangeRuleParts() throws {
        let (warnings, occurrences) = try Self.read("lenient-rrule-parts.ics")
        #expect(warnings.map(\.kind) == [
            .badRulePart("BYDAYS=TU", reason: "unknown rule part 'BYDAYS'"),
            .badRule(reason: "empty rule (expected FREQ=…)"),
            .badRulePart("BYMONTHDAY", reason: "BYMONTHDAY=40 is not allowed (expected ±1…31)"),
        ])
        #expect(Self.lines(warnings) == [6, 11, 16])
        // Weekly on DTSTART's Monday, three times (the trailing ';' is fine); the
        // empty rule leaves DTSTART; daily twice without BYMONTHDAY.
        #expect(occurrences.map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == [
            "misspelt 2026-03-02T10:00:00Z", "empty 2026-03-03T10:00:00Z", "out-of-range 2026-03-04T10:00:00Z",
            "out-of-range 2026-03-05T10:00:00Z", "misspelt 2026-03-09T10:00:00Z", "misspelt 2026-03-16T10:00:00Z",
        ])
    }

    @Test func alarmWithoutTriggerIsSkippedAndTheOtherFires() throws {
        let calendar = try ICSCalendar.load(path: ICSCalendarTests.path("lenient-valarm.ics"))
        #expect(calendar.warnings.map(\.kind) == [.badAlarm(reason: "without TRIGGER")])
        #expect(Self.lines(calendar.warnings) == [6])
        var warnings: [ICSWarning] = []
        let firings = calendar.alarmFirings(from: ICSCalendarTests.instant("2026-03-10T00:00:00Z"),
                                            to: ICSCalendarTests.instant("2026-03-11T00:00:00Z"), warnings: &warnings)
        #expect(firings.map { "\(RFC3339.string(epochSeconds: $0.time)) \($0.alarm.description) \($0.alarm.index)" } == ["2026-03-10T09:50:00Z Ten minutes 1"])
    }

    @Test func mistypedEndClosesAtTheNextComponent() throws {
        let (warnings, occurrences) = try Self.read("lenient-mistyped-end.ics")
        #expect(warnings.map(\.kind) == [.mistypedEnd(found: "VTOOD", open: "VTODO", openLine: 3)])
        #expect(Self.lines(warnings) == [7])
        #expect(occurrences == ["todo 2026-03-10T08:00:00Z 2026-03-10T09:00:00Z", "after 2026-03-10T10:00:00Z 2026-03-10T10:00:00Z"])
    }

    @Test(arguments: ["bad-broken-line.ics", "bad-date.ics", "bad-unknown-tzid.ics", "bad-unclosed.ics", "bad-rrule.ics",
                      "lenient-missing-uid.ics", "lenient-duplicate-uid.ics", "lenient-end-before-start.ics",
                      "lenient-rrule-parts.ics", "lenient-valarm.ics", "lenient-mistyped-end.ics"])
    func strictRefusesAtTheFirstWarning(file: String) throws {
        let first = try ICSCalendar.load(path: ICSCalendarTests.path(file)).warnings.first
        do {
            _ = try ICSCalendar.load(path: ICSCalendarTests.path(file), strict: true)
            Issue.record("\(file) loaded in strict mode")
        } catch let failure {
            guard case .data(let error) = failure else { throw failure }
            #expect(error == first?.error)
        }
    }

    @Test func notICalendarAtAllIsAnErrorEitherWay() throws {
        let folder = ScratchFolder.path("ics-garbage-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, bytes) in [("jcal.ics", Data(#"["vcalendar", [["version", {}, "text", "2.0"]], []]"#.utf8)),
                              ("nul.ics", Data([0x42, 0x65, 0x47, 0x49, 0x4E, 0x3A, 0x00, 0x0A])),
                              ("empty.ics", Data()), ("indented.ics", Data("  BEGIN:VCALENDAR\n".utf8))] {
            let path = folder.appendingPathComponent(name).path
            try bytes.write(to: URL(fileURLWithPath: path))
            do {
                _ = try ICSCalendar.load(path: path)
                Issue.record("\(name) loaded")
            } catch let failure {
                guard case .data(let error) = failure else { throw failure }
                #expect(error.message.hasPrefix("not an iCalendar file"), "\(name): \(error)")
                #expect(error.location?.line == 1)
            }
        }
    }

    /// A file whose first component is not VCALENDAR is not iCalendar (the
    /// contract); a component after the calendar's END is a defect of its own, read.
    @Test func aBareComponentIsNotICalendarButOneAfterTheCalendarIsRead() throws {
        let folder = ScratchFolder.path("ics-bare-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bare = folder.appendingPathComponent("bare.ics").path, after = folder.appendingPathComponent("after.ics").path
        try "BEGIN:VEVENT\nUID:bare\nDTSTART:20260310T100000Z\nEND:VEVENT\n".write(toFile: bare, atomically: true, encoding: .utf8)
        try "BEGIN:VCALENDAR\nBEGIN:VEVENT\nUID:inside\nDTSTART;VALUE=DATE:20260311\nEND:VEVENT\nEND:VCALENDAR\n"
            .appending("BEGIN:VEVENT\nUID:after\nDTSTART;VALUE=DATE:20260312\nEND:VEVENT\nX-TRAILER:1\n")
            .write(toFile: after, atomically: true, encoding: .utf8)
        let error = expectInputDataError { try ICSCalendar.load(path: bare) }
        #expect(error?.message == "not an iCalendar file (expected BEGIN:VCALENDAR, found 'BEGIN:VEVENT')")
        #expect(error?.location?.line == 1)
        let calendar = try ICSCalendar.load(path: after)
        // The trailing VEVENT is read as if a calendar held it, its trailing property with it.
        #expect(calendar.warnings.map(\.kind) == [.componentOutsideCalendar("VEVENT", asCalendar: false)])
        #expect(Self.lines(calendar.warnings) == [7])
        #expect(calendar.series.compactMap(\.master?.uid).sorted() == ["after", "inside"])
    }
}
