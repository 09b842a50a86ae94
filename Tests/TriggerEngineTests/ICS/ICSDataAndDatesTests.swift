import Foundation
import Testing
@_spi(Internals) @testable import TriggerEngine

/// The embedder's face of the iCalendar reader: a calendar from bytes reads as
/// the same file read from its path (with the given name in its messages), and
/// expansion over a `DateInterval` gives the epoch-second expansion's answer
/// and warnings, on every file of the real-world corpus.
@Suite("ICS from Data, expanded over a DateInterval")
struct ICSDataAndDatesTests {
    static func lines(_ items: [ICSOccurrence]) -> [String] {
        items.map { "\($0.uid)|\($0.startDate.timeIntervalSince1970)|\($0.endDate.timeIntervalSince1970)|\($0.summary)" }
    }

    @Test func everyCorpusFileReadsTheSameFromBytesAndFromItsPath() throws {
        let window = DateInterval(start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 2_208_988_800))
        var compared = 0, refused = 0
        for name in ICSCorpusDifferentialTests.corpus {
            let url = ICSCorpusDifferentialTests.folder.appendingPathComponent(name)
            let fromPath: ICSCalendar
            do {
                fromPath = try ICSCalendar.load(path: url.path)
            } catch {
                // Refused from its path: refused from its bytes, with the same message under the given name.
                refused += 1
                let message = "\(error)".replacingOccurrences(of: url.path, with: name)
                do {
                    _ = try ICSCalendar.load(data: try Data(contentsOf: url), name: name)
                    Issue.record("\(name): refused from its path, read from its bytes")
                } catch {
                    #expect("\(error)" == message, "\(name)")
                }
                continue
            }
            let fromData = try ICSCalendar.load(data: try Data(contentsOf: url), name: name)
            #expect(fromData.warnings.map(\.description)
                    == fromPath.warnings.map { $0.description.replacingOccurrences(of: url.path, with: name) }, "\(name)")
            var warnings: [ICSWarning] = []
            let expected = fromPath.occurrences(from: 0, to: 2_208_988_800, warnings: &warnings)
            let expansion = fromData.occurrences(in: window)
            #expect(Self.lines(expansion.value) == Self.lines(expected), "\(name)")
            #expect(expansion.warnings.count == warnings.count, "\(name)")
            let alarms = fromData.alarmFirings(in: window)
            var alarmWarnings: [ICSWarning] = []
            #expect(alarms.value.map(\.date) == fromPath.alarmFirings(from: 0, to: 2_208_988_800, warnings: &alarmWarnings)
                .map { Date(timeIntervalSince1970: Double($0.time)) }, "\(name)")
            compared += 1
        }
        #expect(compared > 60 && refused > 0, "\(compared) compared, \(refused) refused")
    }

    @Test func anIntervalCoversItsFractionalEnds() throws {
        let text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//t//t//EN\r\nBEGIN:VEVENT\r\nUID:a\r\nDTSTAMP:20260101T000000Z\r\n"
            + "DTSTART:20260105T090000Z\r\nDURATION:PT1H\r\nRRULE:FREQ=DAILY;COUNT=3\r\nSUMMARY:Stand-up\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
        let calendar = try ICSCalendar.load(data: Data(text.utf8), name: "standup.ics")
        // 2026-01-06T09:00:00Z is 1_767_690_000: an interval starting half a second before it and ending half a second after it.
        let interval = DateInterval(start: Date(timeIntervalSince1970: 1_767_689_999.5), end: Date(timeIntervalSince1970: 1_767_690_000.5))
        #expect(calendar.occurrences(in: interval).value.map(\.startDate) == [Date(timeIntervalSince1970: 1_767_690_000)])
        #expect(calendar.occurrences(in: DateInterval(start: Date(timeIntervalSince1970: 1_767_700_000), duration: 86_400 * 3))
            .value.map(\.startDate.timeIntervalSince1970) == [1_767_776_400])
        expectInputDataError { try ICSCalendar.load(data: Data("not a calendar".utf8), name: "x.ics") }
    }
}
