import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

@Suite("LineReader")
struct LineReaderTests {
    @Test func readsLinesAcrossBlockBoundariesWithCRLFAndNoFinalNewline() throws {
        var random = SplitMix64(seed: 3)
        var expected: [String] = []
        var text = ""
        for index in 0..<3_000 {
            let line = "row \(index) " + String(repeating: "x", count: Int.random(in: 0...300, using: &random))
            expected.append(line)
            text += line + (index % 3 == 0 ? "\r\n" : "\n")
        }
        text += "last line without newline"
        expected.append("last line without newline")
        let url = ScratchFolder.path("linereader-\(UUID()).txt")
        try text.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        // A small block forces refills and growth for lines longer than the block.
        let reader = try LineReader(path: url.path, blockSize: 4096)
        var lines: [String] = []
        try reader.forEachLine { lines.append(String(decoding: $0, as: UTF8.self)) }
        #expect(lines == expected)
        #expect(reader.lineNumber == expected.count)
    }

    @Test func missingFileAndDirectoryAreInputFileErrors() {
        #expect(throws: InputFileError.self) { try LineReader(path: "/nonexistent/file.csv") }
        #expect(throws: InputFileError.self) { try LineReader(path: "/tmp") }
    }

    /// `readToEnd()` after some lines returns exactly the rest, across many
    /// refills and growths of a small block (a scenario read whole).
    @Test func readToEndReturnsTheRestAfterTheLinesRead() throws {
        var random = SplitMix64(seed: 14)
        let bytes = (0..<50_000).map { _ in UInt8.random(in: 0...255, using: &random) | 0x01 }
        let text = Array("first\r\nsecond\n".utf8) + bytes
        let url = ScratchFolder.path("linereader-\(UUID()).bin")
        try Data(text).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let reader = try LineReader(path: url.path, blockSize: 4096)
        #expect(try reader.nextLine().map { String(decoding: $0, as: UTF8.self) } == "first")
        #expect(try reader.nextLine().map { String(decoding: $0, as: UTF8.self) } == "second")
        #expect(try reader.readToEnd() == bytes)
        #expect(try reader.readToEnd().isEmpty)
        #expect(try reader.nextLine() == nil)
    }

    /// `nextLine(stoppingToWait: true)` on a pipe: the buffered lines, then
    /// nil with `stoppedToWait` where only part of a line has come, the line
    /// once the rest is written, and at the end nil without `stoppedToWait`
    /// (the last line first). On a regular file it never stops to wait.
    @Test func nextLineStopsToWaitOnlyWhereAPipeHasNoWholeLine() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let writer = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        let reader = LineReader(descriptor: ends[0], path: "pipe", blockSize: 4096)
        func next() throws -> String? { try reader.nextLine(stoppingToWait: true).map { String(decoding: $0, as: UTF8.self) } }
        #expect(try next() == nil)
        #expect(reader.stoppedToWait)
        try writer.write(contentsOf: Data("first\nsecond\nthi".utf8))
        #expect(try next() == "first")
        #expect(!reader.stoppedToWait)
        #expect(try next() == "second")
        #expect(try next() == nil)
        #expect(reader.stoppedToWait)
        try writer.write(contentsOf: Data("rd\n".utf8))
        #expect(try next() == "third")
        try writer.write(contentsOf: Data("last".utf8))
        try writer.close()
        #expect(try next() == "last")
        #expect(!reader.stoppedToWait)
        #expect(try next() == nil)
        #expect(!reader.stoppedToWait)
        #expect(reader.lineNumber == 4)

        let url = ScratchFolder.path("linereader-\(UUID()).txt")
        try Data("a\nb".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let file = try LineReader(path: url.path)
        var lines: [String] = []
        while let line = try file.nextLine(stoppingToWait: true) { lines.append(String(decoding: line, as: UTF8.self)) }
        #expect(lines == ["a", "b"])
        #expect(!file.stoppedToWait)
    }
}
