import ArgumentParser
import Foundation
@_spi(Internals) import TriggerEngine

/// An output file for a benchmark's events or map: created (truncated), written
/// in large chunks, closed. The CLI's crash-safe output sink is not needed here.
final class BenchFile {
    private let handle: FileHandle

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    }

    func write(_ bytes: [UInt8]) throws { try handle.write(contentsOf: bytes) }

    func close() throws { try handle.close() }
}

/// Where the repository's files are, found from this source file's path, so
/// that `trigger-bench` runs from any folder.
enum Repository {
    /// The repository's root (this file is `Benchmarks/Sources/trigger-bench/BenchSupport.swift`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// `relative` under the root.
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The release `trigger-eval` that benchmarks of the command line run as a
    /// child, as a user runs it (`Benchmarks/run` builds it).
    static func triggerEval() throws -> URL {
        let url = root.appendingPathComponent(".build/release/trigger-eval")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw ValidationError("\(url.path) is missing: build it with `swift build -c release --product trigger-eval` "
                                  + "in the repository root, or run the benchmarks through Benchmarks/run")
        }
        return url
    }

    /// Runs the release `trigger-eval` with `arguments` to its end, as a
    /// user would: its wall time and its user and system CPU time.
    /// - Throws: when it exits with anything but 0.
    static func timeTriggerEval(_ arguments: [String]) throws -> (wall: Double, cpu: Double) {
        let cpuBefore = childrenCPUSeconds()
        let process = Process()
        process.executableURL = try triggerEval()
        process.arguments = arguments
        let began = Date()
        try process.run()
        process.waitUntilExit()
        let wall = Date().timeIntervalSince(began)
        guard process.terminationStatus == 0 else {
            throw ValidationError("trigger-eval \(arguments.first ?? "") exited \(process.terminationStatus)")
        }
        return (wall, childrenCPUSeconds() - cpuBefore)
    }

    /// User and system CPU seconds of this process's finished children.
    private static func childrenCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
