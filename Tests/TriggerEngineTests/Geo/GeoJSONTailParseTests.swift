import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// The byte reader with a second thread parsing from a guessed feature start
/// (`GeoJSONTailParse`) against the same reader on one thread: the same
/// features, or the same decline, wherever the guess falls.
@Suite("GeoJSON read by two threads: one thread's answer wherever the split falls")
struct GeoJSONTailParseTests {
    /// The features (as comparable text) read on one thread, and with a tail
    /// parse from the likely feature start at or after `offset`; whether it was taken.
    static func bothWays(_ bytes: [UInt8], splitAfter offset: Int) -> (one: String, two: String, taken: Bool?) {
        bytes.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            var alone = GeoJSONScanner(base, count: buffer.count)
            let one = String(describing: try? alone.featureCollection())
            var split = GeoJSONScanner(base, count: buffer.count)
            guard let start = GeoJSONScanner.likelyFeatureStart(base, count: buffer.count, after: offset) else {
                return (one, one, nil)
            }
            let tail = GeoJSONTailParse(base, count: buffer.count, start: start)
            split.tail = tail
            let two = String(describing: try? split.featureCollection())
            tail.finish()
            return (one, two, tail.taken)
        }
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
            for offset in stride(from: 0, to: bytes.count, by: max(1, bytes.count / 400)) {
                let (one, two, wasTaken) = Self.bothWays(bytes, splitAfter: offset)
                #expect(one == two, "round \(round), split after \(offset)")
                if wasTaken == true { taken += 1 } else if wasTaken == false { dropped += 1 }
            }
        }
        // Both kinds of guess were met: right ones (taken) and decoys (dropped).
        #expect(taken > 500 && dropped > 500, "taken \(taken), dropped \(dropped)")
    }

    /// Mutated files: whatever the bytes, two threads decline or read exactly as one.
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
            let (one, two, _) = Self.bothWays(bytes, splitAfter: Int(random.next() % UInt64(bytes.count)))
            #expect(one == two, "\(String(decoding: bytes, as: UTF8.self))")
            if one == "nil" { declined += 1 } else { read += 1 }
        }
        #expect(declined > 100 && read > 100, "declined \(declined), read \(read)")
    }

    /// Through the front door: a file above the split size reads to the regions
    /// of the same file read on one thread.
    @Test func largeFilesReadToTheOneThreadRegions() throws {
        var random = SplitMix64(seed: 7)
        let data = Data(GeoJSONReaderTests.generatedCollection(&random, features: 300).utf8)
        let split = try #require(GeoJSONFeatureCollection(parsing: data, splitAbove: 0))
        let alone = try #require(GeoJSONFeatureCollection(parsing: data, splitAbove: .max))
        #expect(split.features.count == 300)
        #expect(String(describing: split.features) == String(describing: alone.features))
    }
}
