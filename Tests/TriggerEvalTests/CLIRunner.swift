import Foundation
import TestSupport

/// Runs the built `trigger-eval` binary and captures what it prints.
struct CLIResult {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum CLIRunner {
    /// The `trigger-eval` built next to the test bundle.
    static var executable: URL { built("trigger-eval") }

    /// The kill -9 test's child process (`Tests/Support/CrashTestChild`), built next to the test bundle.
    static var crashTestChild: URL { built("crash-test-child") }

    /// The product `name` built next to the test bundle.
    static func built(_ name: String) -> URL {
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: ".build/debug/\(name)")
    }

    /// Runs `trigger-eval arguments…` (or `program`), feeding `stdin`, in `directory`.
    /// A run that takes longer than `limit` is killed and throws ``ChildProcessDeadline``.
    static func run(_ arguments: [String], stdin: String? = nil, in directory: URL? = nil,
                    environment: [String: String]? = nil, program: URL = executable,
                    atMost limit: Duration = ChildProcessDeadline.defaultLimit) throws -> CLIResult {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let finished = try process.runToEnd(input: Data((stdin ?? "").utf8), atMost: limit)
        return CLIResult(status: finished.status, stdout: finished.output, stderr: finished.errors)
    }

    /// A fresh temporary folder.
    static func temporaryDirectory() throws -> URL {
        let url = ScratchFolder.path("trigger-eval-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
