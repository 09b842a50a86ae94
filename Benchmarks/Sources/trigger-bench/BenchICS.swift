import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// `trigger-bench ics`: a generated calendar (single events, weekly and
/// monthly rules, EXDATEs, overrides, alarms) expanded over two years by
/// `ICSCalendar` and by python's recurring-ical-events on the same file, checking
/// both list the same occurrences (count and a hash of the sorted (uid, start)).
struct BenchICS: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ics",
        abstract: "Calendar expansion (load + occurrences) against recurring-ical-events (same file, one run)."
    )

    @Option(help: "Events to generate.")
    var events = 5_000

    @Option(help: "Timed runs of each contender; the median is reported.")
    var runs = 3

    @Option(help: "Seed of the generated calendar.")
    var seed: UInt64 = 42

    @Flag(help: "Skip the recurring-ical-events peer.")
    var noPeer = false

    @Option(help: "Keep the generated calendar at this path instead of deleting it.")
    var keep: String?

    @Flag(help: "Compare libical's parser with ours instead: time and peak memory on the generated calendar, files read of --corpus.")
    var parsers = false

    @Option(help: "With --parsers: a folder of .ics files; says which files each parser reads.")
    var corpus: String?

    @Option(help: .hidden)
    var parseOnly: String?

    /// 2026-01-01T00:00:00Z and 2028-01-01T00:00:00Z.
    static let from = 1_767_225_600
    static let to = 1_830_297_600

    func run() throws {
        if let parseOnly, let keep { return try Self.parseOnce(parseOnly, path: keep) }
        let path = keep ?? FileManager.default.temporaryDirectory.appendingPathComponent("bench-ics-\(getpid()).ics").path
        defer { if keep == nil { try? FileManager.default.removeItem(atPath: path) } }
        let text = generate()
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        if parsers { return try compareParsers(path: path, bytes: text.utf8.count) }
        print("trigger-bench ics: \(events) events (\(text.utf8.count / 1024) KiB), 2026-01-01 … 2028-01-01, medians of \(runs) runs")
        print("ours = ICSCalendar.load + occurrences(in:); peer = icalendar.Calendar.from_ical + recurring_ical_events.of(…).between(…)")
        var times: [Double] = []
        var lines: [String] = []
        for _ in 0..<runs {
            let began = DispatchTime.now().uptimeNanoseconds
            let calendar = try ICSCalendar.load(path: path)
            let items = calendar.occurrences(in: DateInterval(start: Date(timeIntervalSince1970: Double(Self.from)),
                                                              end: Date(timeIntervalSince1970: Double(Self.to)))).value
            times.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9)
            lines = items.map { item in
                let start = item.isAllDay ? item.start.text : String(Int(item.startDate.timeIntervalSince1970))
                return "\(item.uid)|\(start)"
            }
        }
        lines.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let hash = Self.fnv1a(lines)
        let ours = median(times)
        print(String(format: "  ours      median %.4f s (%@)   %d occurrences, hash %016llx", ours,
                     times.map { String(format: "%.4f", $0) }.joined(separator: ", "), lines.count, hash))
        try timeZoneExpansion()
        guard !noPeer, let peer = peer(path: path) else { return }
        let theirs = median(peer.seconds)
        print(String(format: "  peer      median %.4f s (%@)   %d occurrences, hash %@ (recurring-ical-events %@)", theirs,
                     peer.seconds.map { String(format: "%.4f", $0) }.joined(separator: ", "), peer.count, peer.hash, peer.version))
        let same = peer.count == lines.count && peer.hash == String(format: "%016llx", hash)
        print(same ? "  same occurrences: yes" : "  same occurrences: NO (count or hash differ)")
        print(String(format: "  ours/peer %.1f×", theirs / ours))
        if !same { throw ExitCode(70) }
    }

    /// An Outlook VTIMEZONE (two yearly observances from 1601), as Exchange writes it.
    static let outlookZone = """
        BEGIN:VTIMEZONE
        TZID:W. Europe Standard Time
        BEGIN:STANDARD
        DTSTART:16010101T030000
        TZOFFSETFROM:+0200
        TZOFFSETTO:+0100
        RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=10
        END:STANDARD
        BEGIN:DAYLIGHT
        DTSTART:16010101T020000
        TZOFFSETFROM:+0100
        TZOFFSETTO:+0200
        RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=-1SU;BYMONTH=3
        END:DAYLIGHT
        END:VTIMEZONE
        """

    /// Times reading `outlookZone` into a zone: ours (`ICSTimeZoneResolver.add`,
    /// the exact table from 1601 to 2401) and libical's (`icaltimezone_set_component`
    /// and one offset in 2026, which makes it expand its changes up to 2026).
    private func timeZoneExpansion() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("bench-zone-\(getpid()).ics").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "BEGIN:VCALENDAR\n\(Self.outlookZone)\nEND:VCALENDAR\n".write(toFile: path, atomically: true, encoding: .utf8)
        var found: ICSComponentText?
        try ICSFileReader.read(path: path, warn: { _ in }, calendarProperty: { _ in }, component: { found = $0 })
        guard let component = found else { throw ValidationError("bench ics: no VTIMEZONE read") }
        var ours: [Double] = [], theirs: [Double] = []
        let instant2026 = 1_780_000_000
        for _ in 0..<20 {
            var began = DispatchTime.now().uptimeNanoseconds
            var resolver = ICSTimeZoneResolver()
            resolver.add(vtimezone: component, file: "zone") { _ in }
            guard let zone = resolver.zone(named: "W. Europe Standard Time"), zone.offset(atUTC: instant2026) == 7200 else {
                throw ValidationError("bench ics: the Outlook zone did not expand")
            }
            ours.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
            began = DispatchTime.now().uptimeNanoseconds
            let libical = try ICalTimeZone.from(vtimezone: try ICalComponent.parse(Self.outlookZone))
            guard libical.utcOffset(atEpochSeconds: instant2026) == 7200 else { throw ValidationError("bench ics: libical's zone") }
            theirs.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6)
        }
        print(String(format: "  VTIMEZONE from 1601 (Outlook): ours median %.2f ms (exact table 1601–2401, then 400-year cycles); libical median %.2f ms (to 2026)",
                     median(ours), median(theirs)))
    }

    /// The parsers `--parsers` compares, each run alone in a child process so
    /// that its peak memory is its own: `none` (the process's baseline), our
    /// `reader` (`ICSFileReader`, components as text), our `load`
    /// (`ICSCalendar.load`: every event resolved), and `libical`
    /// (`icalparser_parse` of the file, then a walk reading UID, DTSTART, RRULE).
    static let parserNames = ["none", "reader", "load", "libical"]

    /// Child mode: one parse of `path`, then a JSON line with the seconds, the
    /// peak resident memory (KiB) and the components seen.
    static func parseOnce(_ parser: String, path: String) throws {
        let began = DispatchTime.now().uptimeNanoseconds
        var items = 0
        switch parser {
        case "none": break
        case "reader":
            try ICSFileReader.read(path: path, warn: { _ in }, calendarProperty: { _ in }, component: { _ in items += 1 })
        case "load": items = try ICSCalendar.load(path: path).series.count
        case "libical": items = try ICalParser.parse(file: path).walkEventsAndTodos()
        default: throw ValidationError("--parse-only: one of \(parserNames.joined(separator: ", "))")
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        // VmHWM, the peak resident set of this process image: getrusage's
        // ru_maxrss would carry the parent's peak across exec.
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }?
            .split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? -1
        print("{\"seconds\":\(seconds),\"rss_kb\":\(peak),\"items\":\(items)}")
    }

    /// `--parsers`: each parser `runs` times in a child process on the
    /// generated file, then (with `--corpus`) which files each reads.
    private func compareParsers(path: String, bytes: Int) throws {
        print("trigger-bench ics --parsers: \(events) events (\(bytes / 1024) KiB), medians of \(runs) runs, each in its own process")
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        for name in Self.parserNames {
            var seconds: [Double] = [], peak = 0, items = 0
            for _ in 0..<runs {
                let process = Process()
                process.executableURL = executable
                process.arguments = ["ics", "--parse-only", name, "--keep", path]
                let output = Pipe()
                process.standardOutput = output
                try process.run()
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                guard process.terminationStatus == 0, let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
                      let time = object["seconds"] as? Double, let rss = object["rss_kb"] as? Int else {
                    print("  \(name): failed (status \(process.terminationStatus))")
                    break
                }
                seconds.append(time)
                peak = max(peak, rss)
                items = object["items"] as? Int ?? 0
            }
            guard !seconds.isEmpty else { continue }
            print(String(format: "  %@ median %.3f s (%@)   peak %6.1f MB resident   %d components",
                         name.padding(toLength: 8, withPad: " ", startingAt: 0), median(seconds),
                         seconds.map { String(format: "%.3f", $0) }.joined(separator: ", "), Double(peak) / 1024, items))
        }
        guard let corpus else { return }
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus).filter { $0.hasSuffix(".ics") }.sorted()
        var ours = (read: 0, warned: 0, refused: [String]()), libical = (read: 0, flagged: 0, refused: [String]())
        for file in files {
            let filePath = (corpus as NSString).appendingPathComponent(file)
            do {
                if try !ICSCalendar.load(path: filePath).warnings.isEmpty { ours.warned += 1 }
                ours.read += 1
            } catch { ours.refused.append(file) }
            do {
                let root = try ICalParser.parse(file: filePath)
                libical.read += 1
                if root.hasParseErrors { libical.flagged += 1 }
            } catch { libical.refused.append(file) }
        }
        print("  \(corpus): \(files.count) .ics files")
        print("  ours     reads \(ours.read) (\(ours.warned) with warnings), refuses \(ours.refused.count): \(ours.refused.joined(separator: ", "))")
        print("  libical  reads \(libical.read) (\(libical.flagged) with X-LIC-ERROR), refuses \(libical.refused.count): \(libical.refused.joined(separator: ", "))")
    }

    static func fnv1a(_ lines: [String]) -> UInt64 {
        var value: UInt64 = 0xCBF2_9CE4_8422_2325
        for line in lines {
            for byte in line.utf8 + [0x0A] {
                value ^= UInt64(byte)
                value = value &* 0x100_0000_01B3
            }
        }
        return value
    }

    private func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

    /// The generated calendar: 40 % single events (some all-day), 35 % weekly
    /// rules (some with COUNT, EXDATE, an override), 25 % monthly rules; a third
    /// carry an alarm; zones UTC, Europe/Berlin and America/New_York (IANA TZIDs).
    func generate() -> String {
        var random = BenchRandom(seed: seed)
        func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
        let zones = ["Europe/Berlin", "America/New_York"]
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//TriggerEngine//bench ics//EN\r\n"
        func stamp(_ day: Int, _ minutes: Int) -> String {
            let fields = LocalDateTime(localSeconds: day * 86_400 + minutes * 60).fields
            return String(format: "%04d%02d%02dT%02d%02d00", fields.year, fields.month, fields.day, fields.hour, fields.minute)
        }
        let firstDay = 20_089 // 2025-01-01
        for index in 0..<events {
            let kind = pick(100)
            let day = firstDay + pick(900)
            let minutes = (7 + pick(12)) * 60 + 15 * pick(4)
            let zone = zones[pick(2)]
            text += "BEGIN:VEVENT\r\nUID:ev-\(index)@bench\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Event \(index)\r\n"
            var override: String?
            if kind < 8 {
                let fields = LocalDateTime(localSeconds: day * 86_400).fields
                text += String(format: "DTSTART;VALUE=DATE:%04d%02d%02d\r\n", fields.year, fields.month, fields.day)
            } else if kind < 40 {
                text += "DTSTART:\(stamp(day, minutes))Z\r\nDURATION:PT\(30 * (1 + pick(4)))M\r\n"
            } else {
                text += "DTSTART;TZID=\(zone):\(stamp(day, minutes))\r\nDTEND;TZID=\(zone):\(stamp(day, minutes + 45))\r\n"
                if kind < 75 {
                    let weekday = ["MO", "TU", "WE", "TH", "FR"][pick(5)]
                    let weekdayOfStart = ["TH", "FR", "SA", "SU", "MO", "TU", "WE"][((day % 7) + 7) % 7]
                    text += "RRULE:FREQ=WEEKLY;BYDAY=\(weekdayOfStart == weekday ? weekday : "\(weekdayOfStart),\(weekday)")" + (pick(3) == 0 ? ";COUNT=\(10 + pick(60))" : "") + "\r\n"
                    if pick(2) == 0 { text += "EXDATE;TZID=\(zone):\(stamp(day + 7 * (1 + pick(20)), minutes))\r\n" }
                    if pick(3) == 0 {
                        let moved = day + 7 * (1 + pick(30))
                        override = "BEGIN:VEVENT\r\nUID:ev-\(index)@bench\r\nDTSTAMP:20260101T000000Z\r\nSUMMARY:Event \(index) moved\r\n"
                            + "RECURRENCE-ID;TZID=\(zone):\(stamp(moved, minutes))\r\nDTSTART;TZID=\(zone):\(stamp(moved + 1, minutes + 120))\r\n"
                            + "DTEND;TZID=\(zone):\(stamp(moved + 1, minutes + 150))\r\nEND:VEVENT\r\n"
                    }
                } else {
                    let fields = LocalDateTime(localSeconds: day * 86_400).fields
                    text += pick(2) == 0 ? "RRULE:FREQ=MONTHLY;BYMONTHDAY=\(fields.day)\r\n"
                                         : "RRULE:FREQ=MONTHLY;INTERVAL=\(1 + pick(2))" + (pick(2) == 0 ? ";UNTIL=20271001T000000Z" : "") + "\r\n"
                }
            }
            if pick(3) == 0 { text += "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:Reminder\r\nTRIGGER:-PT15M\r\nEND:VALARM\r\n" }
            text += "END:VEVENT\r\n"
            if let override { text += override }
        }
        return text + "END:VCALENDAR\r\n"
    }

    /// Runs `Benchmarks/Peers/bench-ics-peer.py`; `nil` (with a message) when python3 or
    /// recurring-ical-events is missing.
    private func peer(path: String) -> (seconds: [Double], count: Int, hash: String, version: String)? {
        guard let object = PythonPeer.run(script: "bench-ics-peer.py",
                                          arguments: [path, String(Self.from), String(Self.to), String(runs)],
                                          label: "peer", module: "recurring-ical-events"),
              let seconds = object["seconds"] as? [Double] else { return nil }
        return (seconds, object["count"] as? Int ?? -1, object["hash"] as? String ?? "?", object["version"] as? String ?? "?")
    }
}
