import Testing
import TestSupport
@testable import TriggerEngine

/// `ShortestDecimal` (the events' coordinates written without `String`) against
/// `Double.description`, the text it replaces, byte for byte.
@Suite("ShortestDecimal: the coordinates' text is Double.description's")
struct ShortestDecimalTests {
    private static func text(_ value: Double) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ShortestDecimal.maximumLength) { buffer in
            let count = ShortestDecimal.write(value, to: buffer.baseAddress!)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }

    @Test func decimalsFromLogsReadBackAsDescriptionWritesThem() {
        var random = SplitMix64(seed: 21)
        var fast = 0
        for _ in 0..<300_000 {
            // 1 to 18 digits, the point anywhere, either sign: what a log may hold.
            let digits = 1 + Int(random.next() % 18)
            var mantissa: UInt64 = 0
            for _ in 0..<digits { mantissa = mantissa * 10 + random.next() % 10 }
            let scale = Int(random.next() % 19)
            guard var value = Double("\(mantissa)e-\(scale)") else { continue }
            if random.next() & 1 == 1 { value = -value }
            let tookFastPath = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: ShortestDecimal.maximumLength) {
                ShortestDecimal.writeFast(value, to: $0.baseAddress!) != nil
            }
            if tookFastPath { fast += 1 }
            #expect(Self.text(value) == value.description, "\(mantissa)e-\(scale)")
        }
        // Most of them take the fast path; the rest must still match.
        #expect(fast > 100_000)
    }

    @Test func arbitraryDoublesAndTheEdgesOfTheFastPath() {
        var random = SplitMix64(seed: 22)
        for _ in 0..<200_000 {
            // Any double within a coordinate's range, most with 16 or 17 digits.
            let value = random.nextDouble(in: -200...200)
            #expect(Self.text(value) == value.description, "\(value.bitPattern)")
        }
        let edges: [Double] = [0, -0.0, 0.001, 0.000999, 0.0009999999999999, 0.0010000000000000002, 1e-4, 1e-5, .leastNonzeroMagnitude,
                               1, 48, -180, 180, 90.5, 0.1 + 0.2, 999_999_999_999_999, 1e15, 1e15 - 0.5, 1e16, 123_456_789.123_456,
                               .pi, .infinity, -.infinity, .nan, .greatestFiniteMagnitude, .leastNormalMagnitude, 0.1, 0.005, 0.0123]
        for value in edges {
            #expect(Self.text(value) == value.description, "\(value)")
            #expect(Self.text(value.nextUp) == value.nextUp.description, "\(value) up")
            #expect(Self.text(value.nextDown) == value.nextDown.description, "\(value) down")
        }
    }
}
