import ArgumentParser
import Foundation
import Testing
import TriggerEngine
@testable import trigger_eval

@Suite("trigger-eval: one place for exit codes and output files")
struct FailureAndOutputTests {
    @Test func libraryErrorsMapToSysexitsWithFileAndLine() {
        let data = Failure.classify(DataError("latitude 91 is out of range", at: InputLocation(file: "fixes.csv", line: 12)))
        #expect(data.code == 65)
        #expect(data.message == "fixes.csv:12: latitude 91 is out of range")
        let missing = Failure.classify(InputFileError(path: "nope.csv", reason: "No such file or directory"))
        #expect(missing.code == 66)
        #expect(missing.message == "nope.csv: No such file or directory")
        #expect(Failure.classify(GEOSError(function: "GEOSWKTReader_read_r", message: "ParseException")).code == 65)
        #expect(Failure.classify(ICalError(code: "MALFORMEDDATA", context: "RRULE x")).code == 65)
        #expect(Failure.classify(ExitCode(65)).code == 65)
        #expect(Failure.classify(ExitCode(65)).message == nil)
        struct Surprise: Error {}
        let unexpected = Failure.classify(Surprise())
        #expect(unexpected.code == 70)
        #expect(unexpected.message?.hasPrefix("internal error:") == true)
    }

    @Test func usageErrorsAreOneLowercaseLineWithCode64() {
        do {
            _ = try TriggerEval.parseAsRoot(["--definitely-not-an-option"])
            Issue.record("parsing should fail")
        } catch {
            let usage = Failure.classify(error)
            #expect(usage.code == 64)
            #expect(usage.message?.contains("\n") == false)
            #expect(usage.message?.first?.isLowercase == true)
        }
    }

    @Test func fileOutputAppearsOnlyOnCommitAndNothingIsLeftOnFailure() async throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("events.ndjson").path

        struct Boom: Error {}
        await #expect(throws: Boom.self) {
            try await OutputSink.writing(to: target) { sink in
                for index in 0..<100_000 { try sink.writeLine("{\"n\":\(index)}") }  // more than one buffer
                throw Boom()
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "no partial or temporary file")

        try await OutputSink.writing(to: target) { sink in
            try sink.writeLine("one")
            try sink.writeLine("two")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "one\ntwo\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["events.ndjson"])
    }

    @Test func writesOfEverySizeComeOutWholeAndInOrder() async throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("events.ndjson").path
        // Seeded sizes around the buffer's 64 KB (written through it, or past it
        // after what it holds), lines and raw bytes mixed.
        var state: UInt64 = 77
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var expected: [UInt8] = []
        try await OutputSink.writing(to: target) { sink in
            for piece in 0..<300 {
                let size = [next(100), 65_535 + next(3), next(200_000), 1 << 16][next(4)]
                if next(5) == 0 {
                    let line = "line \(piece)"
                    try sink.writeLine(line)
                    expected += Array(line.utf8) + [0x0A]
                } else {
                    let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ piece) }
                    try bytes.withUnsafeBufferPointer { try sink.write($0) }
                    expected += bytes
                }
            }
        }
        let written = try Data(contentsOf: URL(fileURLWithPath: target))
        #expect(written.count == expected.count)
        #expect(written == Data(expected))
    }

    /// A large `-o` file asks the kernel to start writing back every 8 MB as
    /// it grows (so that the rename at the end does not wait for all of it),
    /// and comes out whole.
    @Test func largeFilesStartWritebackAsTheyGrow() async throws {
        let folder = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("events.ndjson").path
        let megabyte = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let started = try await OutputSink.writing(to: target) { sink in
            for _ in 0..<20 { try megabyte.withUnsafeBufferPointer { try sink.write($0) } }
            return sink.writebacksStarted
        }
        #if os(Linux)
        // After 8 and 16 of the 20 MB; the rest is left to the rename.
        #expect(started == 2)
        #endif
        let written = try Data(contentsOf: URL(fileURLWithPath: target))
        #expect(written == Data(Array([[UInt8]](repeating: megabyte, count: 20).joined())))
    }

    @Test func outputToAnUncreatableFileIsAnInputFileError() {
        #expect(throws: InputFileError.self) { try OutputSink(path: "/nonexistent-folder/out.ndjson") }
    }
}
