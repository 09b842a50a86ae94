import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The two-thread helpers of loading and indexing against their one-thread equivalents.
@Suite("ParallelChunks: files read in halves and tables joined in parts, as one thread would")
struct ParallelChunksTests {
    @Test func aFileReadInHalvesHasTheBytesOfAnOrdinaryRead() throws {
        var random = SplitMix64(seed: 31)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-read-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for size in [0, 1, 2, 3, 4_095, 4_096, 1_000_001, 3 << 20] {
            let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let path = folder.appendingPathComponent("file-\(size)").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let read = ParallelChunks.contents(ofRegularFile: path, minimumSize: 0)
            if ProcessInfo.processInfo.activeProcessorCount > 1 {
                #expect(read == Data(bytes), "size \(size)")
            } else {
                #expect(read == nil)
            }
            // Below the minimum size: left to the ordinary read.
            #expect(ParallelChunks.contents(ofRegularFile: path, minimumSize: size + 1) == nil)
        }
        // Not regular files, or none at all: left to the ordinary read and its errors.
        #expect(ParallelChunks.contents(ofRegularFile: folder.path, minimumSize: 0) == nil)
        #expect(ParallelChunks.contents(ofRegularFile: folder.appendingPathComponent("missing").path, minimumSize: 0) == nil)
        #expect(ParallelChunks.contents(ofRegularFile: "/dev/null", minimumSize: 0) == nil)
    }

    @Test func tablesJoinedInPartsAreTheConcatenation() {
        var random = SplitMix64(seed: 32)
        for sizes in [[], [0], [5], [300_000, 0, 700_001], [1 << 20, 3, 1 << 19], [0, 0]] {
            let pieces = sizes.map { size in (0..<size).map { _ in UInt32(truncatingIfNeeded: random.next()) } }
            let joined = ParallelChunks.concatenated(pieces)
            #expect(joined.count == sizes.reduce(0, +))
            #expect(joined == Array(pieces.joined()), "\(sizes)")
        }
    }

    @Test func bucketsByCountingSortHoldTheListsInOrder() {
        var random = SplitMix64(seed: 33)
        // Items put in buckets in no order of bucket, as grid cells receive them.
        let puts = (0..<2_000).map { _ in (bucket: Int(random.next() % 500), item: Int(random.next() % 1_000)) }
        var lists = [[Int]](repeating: [], count: 500)
        for put in puts { lists[put.bucket].append(put.item) }
        let counted = Buckets<Int>(count: lists.count) { put in
            for entry in puts { put(entry.bucket, entry.item) }
        }
        let listed = Buckets(lists)
        #expect(counted.starts == listed.starts)
        #expect(counted.items == listed.items)
        #expect(counted.items.count == 2_000)
    }
}
