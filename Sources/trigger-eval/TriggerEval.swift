import ArgumentParser
@_spi(Internals) import TriggerEngine

/// `trigger-eval`: the command line over TriggerEngine. Each subcommand parses its
/// options, calls the library, and formats what the library returns; the
/// contract is documented in README ("The command line by example") and each command's --help.
@main
struct TriggerEval: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trigger-eval",
        abstract: "Evaluate notification triggers: next fire dates, geofence events, iCalendar occurrences, dispatcher runs.",
        discussion: """
            Instants are RFC 3339; zones are IANA names. Machine output goes to stdout, \
            diagnostics to stderr. Exit codes: 0 ok, 64 usage, 65 bad input data, \
            66 input file missing or unreadable, 70 internal error.
            """,
        version: TriggerEngineInfo.version,
        subcommands: TriggerEval.allSubcommands
    )

    /// Parses the command line and runs the chosen subcommand, turning every
    /// failure into the contract's one-line message and exit code.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            Failure.exit(with: error)
        }
    }
}
