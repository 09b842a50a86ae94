import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// `--tz` of `next` and `run`, where wall times are the user's own: the
/// contract's default is the `TZ` environment variable, else UTC.
struct ZoneOption: ParsableArguments {
    @Option(name: .customLong("tz"),
            help: "IANA zone of wall times without an offset, and of the output's offsets (default: $TZ, else UTC).")
    var name: String?

    /// The zone's name: `--tz`, else `$TZ` when set and not empty, else UTC.
    var resolvedName: String {
        name ?? ProcessInfo.processInfo.environment["TZ"].flatMap { $0.isEmpty ? nil : $0 } ?? "UTC"
    }

    /// The zone's rules.
    /// - Throws: `DataError` for a name Foundation does not know.
    func rules() throws(DataError) -> ZoneRules { try ZoneRules.named(resolvedName) }
}

/// `--tz` of `geofence` and `ics`, where wall times without an offset come from
/// a file (a log's CSV times, a calendar's floating times): UTC unless `--tz`
/// says otherwise, as the contract has it, so that the machine's `TZ` never
/// changes what a file means.
struct FileZoneOption: ParsableArguments {
    @Option(name: .customLong("tz"), help: "IANA zone of the file's wall times without an offset (default: UTC).")
    var name: String?

    /// The zone's rules: `--tz`, else UTC.
    /// - Throws: `DataError` for a name Foundation does not know.
    func rules() throws(DataError) -> ZoneRules { try ZoneRules.named(name ?? "UTC") }
}

/// `-o/--output`, shared by the subcommands that write a result: a file
/// written under a temporary name and renamed at the end, or standard output.
struct OutputOption: ParsableArguments {
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?
}
