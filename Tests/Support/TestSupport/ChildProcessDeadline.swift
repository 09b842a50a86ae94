import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A child process, or the readers of its pipes, that did not finish in time.
///
/// Foundation's `Process.waitUntilExit()` and a pipe's `readDataToEndOfFile()`
/// wait for ever. One child that hangs then holds the whole test run until
/// CI's own deadline, which ends it with no word on which test it was. So
/// does a grandchild left running: Foundation on Linux counts a child as
/// running until a socket the child inherited is closed, and the grandchild
/// holds it (and the pipes) after the child has exited. The waits below end
/// instead, kill the child, and throw this, naming the command, so the test
/// that started it fails with a message and the run goes on.
public struct ChildProcessDeadline: Error, CustomStringConvertible {
    /// The command line, for the message.
    public var command: String
    /// What was waited for: the process's exit, or the end of its output.
    public var what: String
    /// How long it was given.
    public var limit: Duration

    public var description: String {
        "\(command): \(what) did not come within \(limit.components.seconds) s (the process was killed)"
    }

    /// How long a test waits for a child by default: well past what any of
    /// them takes on a loaded 2-core machine (the slowest, a debug build's CLI
    /// run, takes seconds), and well within CI's time.
    public static let defaultLimit: Duration = .seconds(300)
}

extension Process {
    /// The executable and its arguments, for messages.
    public var commandLine: String {
        ([executableURL?.path ?? "?"] + (arguments ?? [])).joined(separator: " ")
    }

    /// Waits until the process exits, at most `limit`. Past it, kills the
    /// process (SIGKILL), gives that ten seconds, and throws
    /// ``ChildProcessDeadline``.
    public func waitUntilExit(atMost limit: Duration) throws {
        guard waitWhileRunning(atMost: limit) else {
            kill(processIdentifier, SIGKILL)
            _ = waitWhileRunning(atMost: .seconds(10))
            throw ChildProcessDeadline(command: commandLine, what: "its exit", limit: limit)
        }
        // Returns at once now; it settles the termination status and reason.
        waitUntilExit()
    }

    /// Polls until the process no longer runs; false when `limit` passed first.
    private func waitWhileRunning(atMost limit: Duration) -> Bool {
        let deadline = ContinuousClock.now + limit
        while isRunning {
            guard ContinuousClock.now < deadline else { return false }
            usleep(1_000)
        }
        return true
    }
}

extension DispatchGroup {
    /// Waits for the group's work (the readers of `process`'s pipes), at most
    /// `limit`. Past it, kills `process` if it still runs and throws
    /// ``ChildProcessDeadline``: a reader that does not end means something
    /// else holds the pipe open, most often a grandchild that outlived it.
    public func wait(for process: Process, atMost limit: Duration) throws {
        let seconds = Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
        guard wait(timeout: .now() + seconds) == .timedOut else { return }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        throw ChildProcessDeadline(command: process.commandLine, what: "the end of its output", limit: limit)
    }
}
