import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The byte reader with chunks parsed from guessed feature starts by two
/// threads (`GeoJSONChunkParse`) against the same reader on one thread: the
/// same features, or the same decline, wherever the guesses fall.
@Suite("GeoJSON read in chunks by two threads: one thread's answer wherever the guesses fall")
struct GeoJSONChunkParseTests {
    /// The features (as comparable text) read on one thread.
    static func oneThread(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            var alone = GeoJSONScanner(buffer.baseAddress!, count: buffer.count)
            return String(describing: try? alone.featureCollection())
        }
    }

    /// The features (as comparable text) read in chunks from the likely feature
    /// starts at or after each of `offsets`, and whether the chunks' parse was
    /// taken; nil when no start was found (the read is then one thread's).
    static func chunked(_ bytes: [UInt8], guessesAfter offsets: [Int]) -> (chunked: String, taken: Bool?)? {
        bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            let starts = Array(Set(offsets.compactMap { GeoJSONScanner.likelyFeatureStart(base, count: buffer.count, after: $0) })).sorted()
            guard !starts.isEmpty else { return nil }
            var split = GeoJSONScanner(base, count: buffer.count)
            let chunks = GeoJSONChunkParse(base, count: buffer.count, starts: starts)
            split.chunks = chunks
            let chunked = String(describing: try? split.featureCollection())
            chunks.finish()
            return (chunked, chunks.taken)
        }
    }

    /// One to six guesses at seeded offsets.
    static func guesses(_ random: inout SplitMix64, count: Int) -> [Int] {
        (0..<(1 + Int(random.next() % 6))).map { _ in Int(random.next() % UInt64(count)) }
    }

    @Test func everySplitOfGeneratedFilesReadsTheSameFeatures() throws {
        var random = SplitMix64(seed: 2_026_112_504)
        var taken = 0, dropped = 0
        for round in 0..<12 {
            var text = GeoJSONReaderTests.generatedCollection(&random, features: 8 + round)
            // Decoys: objects after commas that are not features (in a property's
            // array, in a string), and members after the features array.
            text = text.replacingOccurrences(of: #""type":"Feature""#,
                                             with: #""type":"Feature","x":[{"a":1}, {"b":[2,{"c":3}]}],"s":", {\"type\":1}""#)
            let bytes = Array(text.utf8)
            #expect(GeoJSONFeatureCollection(parsing: Data(bytes)) != nil, "round \(round)")
            // The one-thread read, once per file (the same for every split).
            let one = Self.oneThread(bytes)
            for offset in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)) {
                // One guess at each offset, and with it several more at seeded ones.
                for offsets in [[offset], [offset] + Self.guesses(&random, count: bytes.count)] {
                    guard let (chunked, wasTaken) = Self.chunked(bytes, guessesAfter: offsets) else { continue }
                    #expect(one == chunked, "round \(round), guesses after \(offsets)")
                    if wasTaken == true { taken += 1 } else if wasTaken == false { dropped += 1 }
                }
            }
        }
        // Both kinds of guess were met: right ones (taken) and decoys (dropped).
        #expect(taken > 1_000 && dropped > 500, "taken \(taken), dropped \(dropped)")
    }

    /// Mutated files: whatever the bytes, chunks decline or read exactly as one thread.
    @Test func mutatedFilesDeclineOrReadAsOneThreadDoes() throws {
        var random = SplitMix64(seed: 404)
        let alphabet = Array(#"{}[]",:.-+eE0123456789 \ntruefalsnul"#.utf8) + [0x00, 0xC3, 0xFF]
        var declined = 0, read = 0
        for _ in 0..<1_500 {
            var bytes = Array(GeoJSONReaderTests.generatedCollection(&random, features: 2 + Int(random.next() % 6)).utf8)
            let at = Int(random.next() % UInt64(bytes.count))
            switch random.next() % 3 {
            case 0: bytes[at] = alphabet[Int(random.next() % UInt64(alphabet.count))]
            case 1: bytes.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: at)
            default: bytes.remove(at: at)
            }
            let one = Self.oneThread(bytes)
            let chunked = Self.chunked(bytes, guessesAfter: Self.guesses(&random, count: bytes.count))?.chunked ?? one
            #expect(one == chunked, "\(String(decoding: bytes, as: UTF8.self))")
            if one == "nil" { declined += 1 } else { read += 1 }
        }
        #expect(declined > 100 && read > 100, "declined \(declined), read \(read)")
    }

    /// Through the front door: a file above the split size reads to the
    /// features of the same file read on one thread.
    @Test func largeFilesReadToTheOneThreadRegions() throws {
        var random = SplitMix64(seed: 7)
        let data = Data(GeoJSONReaderTests.generatedCollection(&random, features: 300).utf8)
        let alone = try #require(GeoJSONFeatureCollection(parsing: data, splitAbove: .max))
        #expect(alone.features.count == 300)
        // Two chunks, and sixteen (the most a document is cut into).
        for chunkSize in [data.count, data.count / 20] {
            let split = try #require(GeoJSONFeatureCollection(parsing: data, splitAbove: 0, chunkSize: chunkSize))
            #expect(String(describing: split.features) == String(describing: alone.features), "chunks of \(chunkSize) bytes")
        }
    }
}
