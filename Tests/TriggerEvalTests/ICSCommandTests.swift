import Foundation
import Testing
import TriggerEngine

/// `trigger-eval ics` run as a process: stdout lines, stderr and exit codes.
@Suite struct ICSCommandTests {
    static func write(_ body: String) throws -> (folder: URL, path: String) {
        let folder = try CLIRunner.temporaryDirectory()
        let path = folder.appendingPathComponent("calendar.ics").path
        try ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + body + "END:VCALENDAR\r\n").write(toFile: path, atomically: true, encoding: .utf8)
        return (folder, path)
    }

    static let weekly = """
        BEGIN:VEVENT\r
        UID:w\r
        SUMMARY:Weekly "sync"\r
        DTSTART;TZID=Europe/Berlin:20260302T093000\r
        DTEND;TZID=Europe/Berlin:20260302T100000\r
        RRULE:FREQ=WEEKLY;COUNT=3\r
        BEGIN:VALARM\r
        ACTION:DISPLAY\r
        DESCRIPTION:Soon\r
        TRIGGER:-PT10M\r
        END:VALARM\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:a\r
        SUMMARY:Holiday\r
        DTSTART;VALUE=DATE:20260309\r
        END:VEVENT\r

        """

    @Test func occurrencesAreNDJSONSortedWithZoneOffsetsAndDates() throws {
        let (_, path) = try Self.write(Self.weekly)
        let result = try CLIRunner.run(["ics", path, "--from", "2026-03-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z"])
        #expect(result.status == 0)
        #expect(result.stderr.hasPrefix("ics: 4 occurrences from 2 series, 0 warnings; "))
        // 2, 9, 16 March 09:30 CET (+01:00; Berlin changes on 29 March). 9 March: the all-day holiday starts at
        // 00:00Z, before 08:30Z.
        #expect(result.stdout.split(separator: "\n") == [
            #"{"uid":"w","summary":"Weekly \"sync\"","start":"2026-03-02T09:30:00+01:00","end":"2026-03-02T10:00:00+01:00","all_day":false}"#,
            #"{"uid":"a","summary":"Holiday","start":"2026-03-09","end":"2026-03-10","all_day":true}"#,
            #"{"uid":"w","summary":"Weekly \"sync\"","start":"2026-03-09T09:30:00+01:00","end":"2026-03-09T10:00:00+01:00","all_day":false}"#,
            #"{"uid":"w","summary":"Weekly \"sync\"","start":"2026-03-16T09:30:00+01:00","end":"2026-03-16T10:00:00+01:00","all_day":false}"#,
        ])
    }

    @Test func alarmsListEachFiringInTheWindow() throws {
        let (_, path) = try Self.write(Self.weekly)
        let result = try CLIRunner.run(["ics", path, "--from", "2026-03-09T00:00:00Z", "--to", "2026-03-10T00:00:00Z", "--alarms"])
        #expect(result.status == 0)
        // 09:30 CET − 10 min = 09:20 CET = 08:20Z.
        #expect(result.stdout == #"{"uid":"w","alarm":"2026-03-09T08:20:00Z","start":"2026-03-09T09:30:00+01:00","action":"DISPLAY","description":"Soon"}"# + "\n")
    }

    @Test func importWritesRequestsTheCenterDecodes() throws {
        let (_, path) = try Self.write(Self.weekly)
        let result = try CLIRunner.run(["ics", path, "--from", "2026-03-09T00:00:00Z", "--to", "2026-03-10T00:00:00Z", "--import"])
        #expect(result.status == 0)
        let requests = try result.stdout.split(separator: "\n").map { try NotificationRequest(json: Data($0.utf8)) }
        #expect(requests.map(\.identifier) == ["a/2026-03-09T00:00:00Z", "w/2026-03-09T08:30:00Z/alarm-1"])
        #expect(requests.map(\.content.body) == ["", "Soon"])
        guard case .calendar(let trigger)? = requests.last?.trigger else { Issue.record("not a calendar trigger"); return }
        #expect(trigger.dateComponents.hour == 8 && trigger.dateComponents.minute == 20 && trigger.dateComponents.day == 9)
        #expect(trigger.repeats == false)
    }

    @Test func badDateWarnsAndTheRestIsReadStrictExits65() throws {
        let (folder, path) = try Self.write("BEGIN:VEVENT\r\nUID:x\r\nDTSTART:2026-03-01\r\nEND:VEVENT\r\n" + Self.weekly)
        let output = folder.appendingPathComponent("out.ndjson").path
        let window = ["--from", "2026-03-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z"]
        let lenient = try CLIRunner.run(["ics", path] + window + ["-o", output])
        #expect(lenient.status == 0)
        let stderr = lenient.stderr.split(separator: "\n")
        #expect(stderr.first == "warning: \(path):5: bad date '2026-03-01' in DTSTART; skipped the component")
        #expect(stderr.last?.hasPrefix("ics: 4 occurrences from 2 series, 1 warning; ") == true)
        #expect(try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").count == 4)
        try FileManager.default.removeItem(atPath: output)
        let strict = try CLIRunner.run(["ics", path, "--strict"] + window + ["-o", output])
        #expect(strict.status == 65)
        #expect(strict.stderr == "error: \(path):5: bad date '2026-03-01' in DTSTART; skipped the component\n")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func everyWarningIsOneLineAndTheSummaryCountsThem() throws {
        // No UID (line 3), an unknown RRULE part (line 6), a VALARM without TRIGGER (line 7), a mistyped END (line 10).
        let (_, path) = try Self.write("BEGIN:VEVENT\r\nSUMMARY:x\r\nDTSTART:20260302T100000Z\r\nRRULE:FREQ=DAILY;COUNT=2;BYDAYZ=MO\r\n"
                                       + "BEGIN:VALARM\r\nACTION:DISPLAY\r\nEND:VALARM\r\nEND:VEVNT\r\nEND:VEVENT\r\n")
        let result = try CLIRunner.run(["ics", path, "--from", "2026-03-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z", "--alarms"])
        #expect(result.status == 0)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines.prefix(4).map { $0.split(separator: ":").dropFirst(2).first.map(String.init) ?? "" } == ["3", "6", "7", "10"])
        #expect(lines.prefix(4).allSatisfy { $0.hasPrefix("warning: \(path):") })
        #expect(lines[1].hasSuffix("RRULE part BYDAYZ=MO: unknown rule part 'BYDAYZ'; ignored the part"))
        #expect(lines[4].hasPrefix("ics: 0 alarm firings from 1 series, 4 warnings; "))
    }

    @Test func deepNestingIsAWarningNotACrash() throws {
        // 60,000 nested components once overflowed the stack (SIGSEGV, no message) when freed.
        let depth = 60_000
        let (_, path) = try Self.write(String(repeating: "BEGIN:X\r\n", count: depth) + String(repeating: "END:X\r\n", count: depth) + Self.weekly)
        let result = try CLIRunner.run(["ics", path, "--from", "2026-03-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 4)
        #expect(result.stderr.hasPrefix("warning: \(path):34: BEGIN:X is nested more than 32 components deep; skipped it with its content\n"))
    }

    @Test func fifoWithoutWriterFailsWith66InsteadOfHanging() throws {
        let folder = try CLIRunner.temporaryDirectory()
        let fifo = folder.appendingPathComponent("calendar.ics").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let began = Date()
        let result = try CLIRunner.run(["ics", fifo, "--from", "2026-03-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z", "--fifo-wait", "0.3"])
        #expect(result.status == 66)
        #expect(result.stderr == "error: \(fifo): is a FIFO and nothing was written to it within 0.3 s (no writer?)\n")
        #expect(Date().timeIntervalSince(began) < 20)
    }

    @Test func fifoWithAWriterIsRead() throws {
        let folder = try CLIRunner.temporaryDirectory()
        let fifo = folder.appendingPathComponent("calendar.ics").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // The writer connects after the reader waits, writes, and closes.
        let writer = Thread {
            Thread.sleep(forTimeInterval: 0.5)
            let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:f\r\nDTSTART:20260302T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"
            let handle = FileHandle(forWritingAtPath: fifo)
            handle?.write(Data(text.utf8))
            try? handle?.close()
        }
        writer.start()
        let result = try CLIRunner.run(["ics", fifo, "--from", "2026-03-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z"])
        #expect(result.status == 0)
        #expect(result.stdout == #"{"uid":"f","summary":"","start":"2026-03-02T10:00:00+00:00","end":"2026-03-02T10:00:00+00:00","all_day":false}"# + "\n")
    }

    @Test func missingFileExits66AndBadWindowExits64() throws {
        let missing = try CLIRunner.run(["ics", "/nonexistent/cal.ics", "--from", "2026-03-01T00:00:00Z", "--to", "2026-04-01T00:00:00Z"])
        #expect(missing.status == 66)
        let (_, path) = try Self.write(Self.weekly)
        let usage = try CLIRunner.run(["ics", path, "--from", "yesterday", "--to", "2026-04-01T00:00:00Z"])
        #expect(usage.status == 64)
    }

    @Test func instanceCapWarnsOnStderr() throws {
        let (_, path) = try Self.write("BEGIN:VEVENT\r\nUID:s\r\nDTSTART:20260101T000000Z\r\nRRULE:FREQ=MINUTELY\r\nEND:VEVENT\r\n")
        let result = try CLIRunner.run(["ics", path, "--from", "2026-01-01T00:00:00Z", "--to", "2126-01-01T00:00:00Z", "--max-instances", "50"])
        #expect(result.status == 0)
        #expect(result.stdout.split(separator: "\n").count == 50)
        #expect(result.stderr.hasPrefix("warning: \(path):3: UID s: more than 50 instances"))
        let strict = try CLIRunner.run(["ics", path, "--from", "2026-01-01T00:00:00Z", "--to", "2126-01-01T00:00:00Z", "--max-instances", "50", "--strict"])
        #expect(strict.status == 65)
        #expect(strict.stdout.isEmpty)
    }
}
