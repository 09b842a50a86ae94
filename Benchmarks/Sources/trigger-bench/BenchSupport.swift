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
}
