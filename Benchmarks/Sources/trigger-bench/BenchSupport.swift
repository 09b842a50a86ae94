import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// An output file for a benchmark's events or map: created (truncated), written
/// in large chunks, closed. The CLI's crash-safe output sink is not needed here.
final class BenchFile {
    private let handle: FileHandle

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    func write(_ bytes: [UInt8]) throws { try handle.write(contentsOf: bytes) }

    func close() throws { try handle.close() }
}

/// Instants as text, as the CLI writes them (RFC 3339, whole seconds).
enum BenchText {
    /// `2026-11-25T10:00:00Z`, or with `utcOffset` seconds east of UTC `+01:00`.
    static func rfc3339(epochSeconds: Int, utcOffset: Int = 0) -> String {
        let local = Date(timeIntervalSince1970: Double(epochSeconds + utcOffset))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: local)
        let stamp = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.year!, parts.month!, parts.day!,
                           parts.hour!, parts.minute!, parts.second!)
        guard utcOffset != 0 else { return stamp + "Z" }
        let sign = utcOffset < 0 ? "-" : "+", minutes = abs(utcOffset) / 60
        return stamp + String(format: "%@%02d:%02d", sign, minutes / 60, minutes % 60)
    }

    static func rfc3339(_ date: Date) -> String { rfc3339(epochSeconds: Int(date.timeIntervalSince1970.rounded(.down))) }

    /// An iCalendar time as `trigger-eval ics` prints it: `YYYY-MM-DD` for a
    /// date, RFC 3339 with the zone's offset otherwise.
    static func ics(_ time: ICSTime) -> String {
        if time.isDate {
            let fields = time.local.fields
            return String(format: "%04d-%02d-%02d", fields.year, fields.month, fields.day)
        }
        let instant = Int(time.date.timeIntervalSince1970)
        return rfc3339(epochSeconds: instant, utcOffset: time.zone.offset(atUTC: instant))
    }
}

/// Where the repository's files are, found from this source file's path, so
/// that `trigger-bench` runs from any folder.
enum Repository {
    /// The repository's root (this file is `Benchmarks/Sources/trigger-bench/BenchSupport.swift`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `relative` under the root.
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The release `trigger-eval` that benchmarks of the command line run as a
    /// child, as a user runs it (`Benchmarks/run` builds it).
    static func triggerEval() throws -> URL {
        let url = root.appendingPathComponent(".build/release/trigger-eval")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw ValidationError("\(url.path) is missing: build it with `swift build -c release --product trigger-eval` "
                                  + "in the repository root, or run the benchmarks through Benchmarks/run")
        }
        return url
    }
}
