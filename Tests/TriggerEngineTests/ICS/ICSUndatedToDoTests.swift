import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// A VTODO without DTSTART and DUE (`ICSEvent.isUndated`).
@Suite("ICS: undated to-dos")
struct ICSUndatedToDoTests {
    static func calendar(_ todos: String) throws -> ICSCalendar {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\n" + todos + "END:VCALENDAR\r\n"
        let path = ScratchFolder.path("undated-\(UUID()).ics").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try ICSCalendar.load(path: path)
    }

    @Test func anOpenUndatedToDoIsListedFrom1970To2038AndNeverImported() throws {
        let calendar = try Self.calendar("""
            BEGIN:VTODO\r\nUID:open\r\nSUMMARY:Water the plants\r\nSTATUS:NEEDS-ACTION\r\n\
            BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER:-PT5M\r\nDESCRIPTION:x\r\nEND:VALARM\r\nEND:VTODO\r\n\
            BEGIN:VTODO\r\nUID:done\r\nSTATUS:COMPLETED\r\nEND:VTODO\r\n\
            BEGIN:VTODO\r\nUID:completed-at\r\nCOMPLETED:20260101T000000Z\r\nEND:VTODO\r\n\
            BEGIN:VTODO\r\nUID:dated\r\nDUE:20260301T090000Z\r\nEND:VTODO\r\n

            """)
        var warnings: [ICSWarning] = []
        let year2026 = (from: 1_767_225_600, to: 1_798_761_600)
        let listed = calendar.occurrences(from: year2026.from, to: year2026.to, warnings: &warnings)
        #expect(listed.map(\.uid) == ["dated"], "an all-day occurrence is listed when its start is in the window")
        let all = calendar.occurrences(from: 0, to: 2_208_988_800, warnings: &warnings)
        let open = try #require(all.first { $0.uid == "open" })
        #expect(open.isAllDay && open.isUndated && open.alarms.isEmpty)
        #expect(open.startInstant == 0 && open.endInstant == 2_145_916_800) // 1970-01-01, 2038-01-01
        #expect(Set(all.map(\.uid)) == ["open", "dated"])
        #expect(calendar.alarmFirings(from: 0, to: 2_208_988_800, warnings: &warnings).isEmpty)
        #expect(calendar.notificationRequests(from: 0, to: 2_208_988_800, warnings: &warnings).map(\.identifier)
                == ["dated/2026-03-01T09:00:00Z"])
    }
}
