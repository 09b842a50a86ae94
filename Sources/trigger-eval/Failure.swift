import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// The contract's error rules, implemented once for every subcommand: one line on
/// stderr, `error: ` then `FILE:LINE: ` where it applies, then what is wrong; and a
/// sysexits code.
enum Failure {
    /// sysexits(3) codes used by the contract.
    enum Code: Int32 {
        case ok = 0
        case usage = 64       // EX_USAGE
        case data = 65        // EX_DATAERR
        case noInput = 66     // EX_NOINPUT
        case software = 70    // EX_SOFTWARE
    }

    /// The exit code and message line for `error`; `nil` message means print nothing.
    static func classify(_ error: any Error) -> (code: Int32, message: String?, toStdout: Bool) {
        switch error {
        // A reader's error is classified by what is inside: the input's fault,
        // or (`handler`) this tool's own output failing.
        case let error as InputError: return classify(error.underlying)
        case let error as DataError: return (Code.data.rawValue, error.description, false)
        case let error as InputFileError: return (Code.noInput.rawValue, error.description, false)
        case let error as GEOSError: return (Code.data.rawValue, error.description, false)
        case let error as ICalError: return (Code.data.rawValue, error.description, false)
        case let error as ExitCode: return (error.rawValue, nil, false)
        default: break
        }
        let code = TriggerEval.exitCode(for: error)
        if code == .success {
            // --help and --version arrive as errors that carry their text.
            return (0, TriggerEval.fullMessage(for: error), true)
        }
        if code == .validationFailure {
            let text = TriggerEval.message(for: error)
                .split(separator: "\n").first.map(String.init) ?? "invalid usage"
            return (Code.usage.rawValue, lowercasedFirst(text) + " (see 'trigger-eval --help')", false)
        }
        return (Code.software.rawValue, "internal error: \(error)", false)
    }

    /// Prints the message for `error` and exits with its code.
    static func exit(with error: any Error) -> Never {
        let (code, message, toStdout) = classify(error)
        if let message {
            if toStdout {
                print(message)
            } else {
                Diagnostics.write("error: \(message)\n")
            }
        }
        Foundation.exit(code)
    }

    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first, first.isUppercase,
              text.dropFirst().first?.isLowercase ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }
}

/// Writes to standard error, unbuffered: warnings, summaries, errors.
enum Diagnostics {
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(2, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { return }
                offset += written
            }
        }
    }

    /// `warning: ` and the message, on one line.
    static func warn(_ message: String) {
        write("warning: \(message)\n")
    }
}
