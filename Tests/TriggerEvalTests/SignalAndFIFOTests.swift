import Foundation
import Testing

/// Issue 14's command-line findings outside the readers: a run killed by a
/// signal (a trap is SIGILL) left its `.partial` output file behind, and
/// `simulate` called a FIFO a permission problem.
@Suite("trigger-eval: signals and FIFOs")
struct SignalAndFIFOTests {
    /// Starts `next --batch - -o FILE` with a stdin that stays open, waits until its
    /// `.partial` file exists, sends `signal`, and returns the folder's files after
    /// the process ended, with how it ended.
    ///
    /// Swift's backtracer is turned off in the child: it would take a SIGILL that
    /// `kill` sent for a fault, report it, and return, and the process would go
    /// on (a real trap comes back when the faulting instruction runs again).
    static func killedWhileWriting(with signal: Int32) throws -> (files: [String], reason: Process.TerminationReason, status: Int32) {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = CLIRunner.executable
        process.arguments = ["next", "--batch", "-", "-o", folder.appendingPathComponent("fires.ndjson").path]
        let input = Pipe()
        process.standardInput = input
        process.standardError = FileHandle.nullDevice
        process.environment = ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 }
        try process.run()
        // One query answered, so the run has written into its temporary file.
        input.fileHandleForWriting.write(Data("{\"interval\":60,\"repeats\":true,\"after\":\"2026-01-01T00:00:00Z\",\"count\":3}\n".utf8))
        let deadline = Date().addingTimeInterval(30)
        while try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, Date() < deadline {
            usleep(10_000)
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(before.count == 1 && before[0].hasSuffix(".partial"), "the run should be writing its temporary file: \(before)")
        kill(process.processIdentifier, signal)
        let killDeadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < killDeadline { usleep(10_000) }
        if process.isRunning {
            Issue.record("the process outlived signal \(signal) by 30 s")
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        return (try FileManager.default.contentsOfDirectory(atPath: folder.path), process.terminationReason, process.terminationStatus)
    }

    @Test("a trap (SIGILL) leaves no .partial file and still ends the process with SIGILL")
    func trapRemovesTemporaryFile() throws {
        let ended = try Self.killedWhileWriting(with: SIGILL)
        #expect(ended.files.isEmpty, "left behind: \(ended.files)")
        #expect(ended.reason == .uncaughtSignal)
        #expect(ended.status == SIGILL)
    }

    @Test("an interrupt (SIGINT) or SIGTERM leaves no .partial file", arguments: [SIGINT, SIGTERM])
    func interruptRemovesTemporaryFile(signal: Int32) throws {
        let ended = try Self.killedWhileWriting(with: signal)
        // ThreadSanitizer's runtime holds a signal back until its next safe
        // point, the one the handler raises again to end the process too: the
        // run goes on a moment without its temporary file and exits 66. What
        // it defers is the runtime's, not ours; in every other build the
        // signal ends the process at once.
        withKnownIssue("the signal is deferred under ThreadSanitizer", isIntermittent: true) {
            #expect(ended.files.isEmpty, "left behind: \(ended.files)")
            #expect(ended.reason == .uncaughtSignal)
            #expect(ended.status == signal)
        } when: {
            Self.underThreadSanitizer
        }
    }

    /// Whether this test process (and so the `trigger-eval` built with it)
    /// runs under ThreadSanitizer (`scripts/sanitize thread`).
    static let underThreadSanitizer: Bool = {
        guard let process = dlopen(nil, RTLD_NOW) else { return false }
        return dlsym(process, "__tsan_init") != nil
    }()

    @Test("simulate reads its scenario from a FIFO")
    func simulateReadsAFIFO() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("scenario.json").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let scenario = #"{"from":"2026-01-01T00:00:00Z","to":"2026-01-01T01:00:00Z","requests":[{"identifier":"tea","content":{"title":"Tea"},"trigger":{"timeInterval":{"interval":600,"repeats":false}}}]}"#
        // Opening a FIFO for writing waits for its reader: write from another thread.
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(Data(scenario.utf8))
                try? handle.close()
            }
        }
        writer.start()
        let result = try CLIRunner.run(["simulate", fifo])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "{\"time\":\"2026-01-01T00:10:00Z\",\"identifier\":\"tea\",\"trigger\":\"timeInterval\",\"title\":\"Tea\"}\n")
        #expect(!result.stderr.contains("permission"))
    }

    /// `-o` naming something other than a regular file is written in place: the
    /// temporary file renamed over `/dev/null` once replaced the device with a
    /// file (as root). A FIFO stands in for the device here, so that a
    /// regression cannot break the machine's `/dev/null`.
    @Test("an output FIFO gets the output and stays a FIFO")
    func anOutputFIFOIsWrittenInPlace() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fires.fifo").path
        try #require(mkfifo(fifo, 0o600) == 0)
        // Opening a FIFO for writing waits for its reader: read on another thread.
        let received = ReceivedBytes()
        let done = DispatchSemaphore(value: 0)
        let reader = Thread {
            // Plain blocking POSIX reads: Foundation's file readers may open
            // without waiting for a writer and see an empty FIFO.
            var data = Data()
            let descriptor = open(fifo, O_RDONLY)
            if descriptor >= 0 {
                var chunk = [UInt8](repeating: 0, count: 4_096)
                while true {
                    let count = read(descriptor, &chunk, chunk.count)
                    if count <= 0 { break }
                    data.append(contentsOf: chunk[0..<count])
                }
                close(descriptor)
            }
            received.set(data)
            done.signal()
        }
        reader.start()
        let result = try CLIRunner.run(["next", "--components", "hour=7,minute=0", "--tz", "UTC",
                                        "--after", "2026-01-01T00:00:00Z", "--count", "2", "-o", fifo])
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(received.get().map { String(decoding: $0, as: UTF8.self) } == "2026-01-01T07:00:00Z\n2026-01-02T07:00:00Z\n")
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && (status.st_mode & S_IFMT) == S_IFIFO, "the FIFO was replaced")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["fires.fifo"])
    }

    @Test("-o naming a folder is refused before the run, and nothing is written")
    func anOutputFolderIsRefused() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLIRunner.run(["next", "--components", "hour=7", "--count", "1", "-o", folder.path])
        #expect(result.status == 66)
        #expect(result.stderr == "error: \(folder.path): is a directory\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        // No temporary file beside it either (named after the folder, so other tests' do not count).
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(".\(folder.lastPathComponent).") }.isEmpty)
    }

    @Test("simulate given a folder says it is a folder")
    func simulateRefusesAFolder() throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try CLIRunner.run(["simulate", folder.path])
        #expect(result.status == 66)
        #expect(result.stderr == "error: \(folder.path): is a directory\n")
    }
}

/// Bytes handed from a reader thread to the test, under a lock.
private final class ReceivedBytes: @unchecked Sendable {
    private let lock = NSLock()
    private var bytes: Data?

    func set(_ value: Data?) { lock.withLock { bytes = value } }
    func get() -> Data? { lock.withLock { bytes } }
}
