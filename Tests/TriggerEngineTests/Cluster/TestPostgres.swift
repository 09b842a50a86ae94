#if PostgreSQL
import Foundation
import TestSupport
@_spi(Internals) @testable import TriggerEngine
@testable import TriggerEngineCluster

/// A throwaway PostgreSQL server for the tests of this process: started on
/// first use by `scripts/postgres-server` (which installs PostgreSQL with apt
/// when it is missing), on a free port of 127.0.0.1, and stopped when the
/// process exits. Each test gets a database of its own.
enum TestPostgres {
    /// The repository's root: the nearest folder above this file with `scripts/postgres-server`
    /// (this file is also linked into the CLI's tests, one level higher).
    static let root: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/",
              !FileManager.default.fileExists(atPath: directory.appendingPathComponent("scripts/postgres-server").path) {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    /// The server's URL (its `triggerengine` database), or why it did not start.
    static let server: Result<String, TestPostgresError> = {
        stopServersOfEndedProcesses()
        let directory = "\(directoryPrefix)\(ProcessInfo.processInfo.processIdentifier)"
        let result = runScript(["start", directory])
        guard result.status == 0 else {
            return .failure(TestPostgresError("scripts/postgres-server start failed: \(result.stderr)"))
        }
        atexit { TestPostgres.stopServer() }
        return .success(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
    }()

    /// Where each test process's server lives, before its process identifier.
    private static let directoryPrefix = "/tmp/triggerengine-tests-pg-"

    /// Stops this process's server, from `atexit`: through ``ExitTimeCommand``,
    /// not Foundation's `Process`, and for at most two minutes (the script's
    /// own waits add up to 90 s). A server left running is stopped by the next
    /// test process, or by `scripts/test` once the run has ended.
    private static func stopServer() {
        ExitTimeCommand.run("/bin/bash", [root.appendingPathComponent("scripts/postgres-server").path, "stop",
                                          "\(directoryPrefix)\(getpid())"], atMostSeconds: 120)
    }

    /// Stops the servers of test processes that ended without stopping theirs
    /// (killed, or crashed: `atexit` did not run), and removes their folders.
    private static func stopServersOfEndedProcesses() {
        let prefix = URL(fileURLWithPath: directoryPrefix)
        for folder in ScratchFolder.foldersOfEndedProcesses(in: prefix.deletingLastPathComponent(), prefix: prefix.lastPathComponent) {
            _ = runScript(["stop", folder.path])
        }
    }

    /// A store on `url` whose first contact (the schema's creation) may take a
    /// minute: the library's 15 seconds were passed twice on this 2-core
    /// machine with two benchmarks and a release build sharing it (29 Nov
    /// 2026), which says nothing of the behaviour under test.
    static func store(_ url: PostgresURL) async throws -> PostgresStore {
        try await PostgresStore(url: url, connectTimeout: .seconds(60))
    }

    /// A new, empty database on the server.
    static func freshDatabase() throws -> PostgresURL {
        let url = try server.get()
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let result = run("/usr/bin/env", ["psql", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", "CREATE DATABASE \(name)"])
        guard result.status == 0 else { throw TestPostgresError("CREATE DATABASE failed: \(result.stderr)") }
        var parsed = try PostgresURL(url)
        parsed.database = name
        return parsed
    }

    /// Runs `scripts/postgres-server`. A start may install PostgreSQL with apt
    /// (when `scripts/bootstrap` did not), hence its longer limit.
    private static func runScript(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        run(root.appendingPathComponent("scripts/postgres-server").path, arguments, atMost: .seconds(900))
    }

    /// Runs a program to its end, at most `limit`: past it, the program is
    /// killed and the status is -1, with the reason on standard error.
    static func run(_ executable: String, _ arguments: [String],
                    atMost limit: Duration = ChildProcessDeadline.defaultLimit) -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        do {
            let finished = try process.runToEnd(atMost: limit)
            return (finished.status, finished.output, finished.errors)
        } catch {
            return (-1, "", "\(error)")
        }
    }
}

struct TestPostgresError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
#endif
