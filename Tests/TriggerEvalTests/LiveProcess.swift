import Foundation
import Synchronization
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A running `trigger-eval` that a test talks to: lines written to its
/// standard input as the test goes, its output lines collected as they come.
final class LiveProcess: Sendable {
    private let process: Process
    private let input: FileHandle
    private let lines = Mutex<[String]>([])
    private let errors = Mutex(Data())
    private let done = DispatchGroup()

    init(_ arguments: [String]) throws {
        process = Process()
        process.executableURL = CLIRunner.executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), stdin = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = stdin
        input = stdin.fileHandleForWriting
        try process.run()
        DispatchQueue.global().async(group: done) { [self] in
            var pending = Data()
            while case let chunk = out.fileHandleForReading.availableData, !chunk.isEmpty {
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    self.lines.withLock { $0.append(line) }
                    pending.removeSubrange(pending.startIndex...newline)
                }
            }
        }
        DispatchQueue.global().async(group: done) { [self] in
            let data = err.fileHandleForReading.readDataToEndOfFile()
            self.errors.withLock { $0 = data }
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// The output lines so far.
    var output: [String] { lines.withLock { $0 } }

    /// What it printed on standard error (complete once it exited).
    var standardError: String { String(decoding: errors.withLock { $0 }, as: UTF8.self) }

    /// Writes lines to its standard input.
    func send(_ commands: [String]) {
        guard !commands.isEmpty else { return }
        try? input.write(contentsOf: Data((commands.joined(separator: "\n") + "\n").utf8))
    }

    /// Closes its standard input.
    func closeInput() { try? input.close() }

    /// Waits until `condition` holds for the output, or `seconds` pass.
    @discardableResult
    func wait(seconds: Double = 20, until condition: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition(output) { return true }
            Thread.sleep(forTimeInterval: 0.002)
        }
        return condition(output)
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for it to exit, at most `limit` (then it is killed and this
    /// throws); `nil` when it was killed by a signal.
    func exitStatus(atMost limit: Duration = ChildProcessDeadline.defaultLimit) throws -> Int32? {
        try process.waitUntilExit(atMost: limit)
        try done.wait(for: process, atMost: .seconds(60))
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }
}
