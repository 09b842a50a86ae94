import Foundation
import Testing
import TestSupport

/// The waits every test's child processes go through (TestSupport): a child
/// that does not end is killed at the deadline and its test fails by name,
/// rather than holding the whole run until CI's own deadline.
@Suite("Child processes: waited for with a deadline")
struct ChildProcessDeadlineTests {
    static func sleeper(_ seconds: Int) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sleep")
        process.arguments = [String(seconds)]
        return process
    }

    @Test("a child past its deadline is killed and the wait throws, naming the command")
    func hungChildIsKilledAtItsDeadline() throws {
        let process = Self.sleeper(60)
        let began = ContinuousClock.now
        let error = #expect(throws: ChildProcessDeadline.self) {
            _ = try process.runToEnd(atMost: .seconds(1))
        }
        #expect(ContinuousClock.now - began < .seconds(15))
        #expect(!process.isRunning)
        #expect(error?.description.contains("/bin/sleep 60") == true, "\(String(describing: error))")
    }

    @Test("a child that ends in time gives its output, its input read, and its status")
    func childInTimeGivesItsOutput() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "tr a-z A-Z; echo oops >&2; exit 3"]
        // More than a pipe holds, both ways: neither side may block the other.
        let input = String(repeating: "abcdefgh\n", count: 40_000)
        let finished = try process.runToEnd(input: Data(input.utf8), atMost: .seconds(60))
        #expect(finished.status == 3)
        #expect(finished.reason == .exit)
        #expect(finished.output == input.uppercased())
        #expect(finished.errors == "oops\n")
    }

    /// Foundation's `Process` on Linux counts a child as running until a
    /// socket the child inherits is closed: a grandchild left behind (a
    /// server started without closing its descriptors) keeps the child
    /// "running", and its pipes open, after the child itself is gone.
    @Test("a grandchild left behind ends the wait at the deadline")
    func grandchildLeftBehindEndsTheWait() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "sleep 60 & exit 0"]
        let began = ContinuousClock.now
        #expect(throws: ChildProcessDeadline.self) {
            _ = try process.runToEnd(atMost: .seconds(2), outputAtMost: .seconds(2))
        }
        // The deadline, and the ten seconds given to a killed child.
        #expect(ContinuousClock.now - began < .seconds(20))
    }

    @Test("a command run at exit is bounded too, and its status is told")
    func exitTimeCommandIsBounded() {
        #expect(ExitTimeCommand.run("/bin/sh", ["-c", "exit 0"], atMostSeconds: 30))
        #expect(!ExitTimeCommand.run("/bin/sh", ["-c", "exit 4"], atMostSeconds: 30))
        let began = ContinuousClock.now
        #expect(!ExitTimeCommand.run("/bin/sleep", ["60"], atMostSeconds: 1))
        #expect(ContinuousClock.now - began < .seconds(15))
    }
}
