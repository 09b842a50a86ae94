import Foundation

/// What a program run to its end printed, and how it ended.
public struct FinishedProcess: Sendable {
    public var status: Int32
    public var reason: Process.TerminationReason
    public var standardOutput: Data
    public var standardError: Data

    /// Standard output as text (UTF-8, invalid bytes replaced).
    public var output: String { String(decoding: standardOutput, as: UTF8.self) }
    /// Standard error as text (UTF-8, invalid bytes replaced).
    public var errors: String { String(decoding: standardError, as: UTF8.self) }
}

extension Process {
    /// Runs the configured process to its end: `input` goes to its standard
    /// input, which is then closed; both outputs are read while it runs (so
    /// neither pipe fills up and blocks it). Waits at most `limit` for the
    /// exit, and `outputLimit` more for the output to end, and throws
    /// ``ChildProcessDeadline`` past either (the process is killed).
    public func runToEnd(input: Data = Data(), atMost limit: Duration = ChildProcessDeadline.defaultLimit,
                         outputAtMost outputLimit: Duration = .seconds(60)) throws -> FinishedProcess {
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        standardInput = stdin
        standardOutput = stdout
        standardError = stderr
        try run()
        let readers = DispatchGroup()
        let outData = OutputBox(), errData = OutputBox()
        DispatchQueue.global().async(group: readers) { outData.data = stdout.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: readers) { errData.data = stderr.fileHandleForReading.readDataToEndOfFile() }
        // Written apart from the wait: a child that never reads its input
        // must not keep this thread from its deadline.
        DispatchQueue.global().async {
            if !input.isEmpty { try? stdin.fileHandleForWriting.write(contentsOf: input) }
            try? stdin.fileHandleForWriting.close()
        }
        try waitUntilExit(atMost: limit)
        try readers.wait(for: self, atMost: outputLimit)
        return FinishedProcess(status: terminationStatus, reason: terminationReason,
                               standardOutput: outData.data, standardError: errData.data)
    }
}

/// One pipe's bytes, set by its reader before the group it runs in is left.
private final class OutputBox: @unchecked Sendable {
    var data = Data()
}
