import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// `--tz`, shared by every subcommand that reads wall times: one option, one
/// default (the `TZ` environment variable, else UTC).
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

/// `-o/--output`, shared by the subcommands that write a result: a file
/// written under a temporary name and renamed at the end, or standard output.
struct OutputOption: ParsableArguments {
    @Option(name: .shortAndLong, help: "Write to this file instead of standard output.")
    var output: String?
}
