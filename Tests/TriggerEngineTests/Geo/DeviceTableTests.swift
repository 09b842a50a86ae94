import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

@Suite("DeviceTable: interning device names, with the guess from the last round")
struct DeviceTableTests {
    /// A name of `length` bytes from the generator, over a small alphabet so
    /// that names share prefixes and differ in one byte.
    static func name(_ length: Int, _ generator: inout SplitMix64) -> [UInt8] {
        (0..<length).map { _ in UInt8(ascii: "a") + UInt8(generator.next() % 3) }
    }

    /// Rounds of a fleet (most devices in the order of the last round, some
    /// swapped, some missing, some new), checked against a dictionary: the
    /// index is the order of first appearance, every time.
    @Test(arguments: [1 as UInt64, 2, 3, 4])
    func indexesAgreeWithADictionaryOverRoundsOfAFleet(seed: UInt64) {
        var generator = SplitMix64(seed: seed)
        var table = DeviceTable()
        var oracle: [[UInt8]: Int32] = [:]
        var fleet: [[UInt8]] = []
        var looked = 0
        for _ in 0..<60 {
            // New devices join; names of every length up to 40 (word compares,
            // the tail word, and `memcmp` past 32), near misses of existing ones.
            for _ in 0..<Int(generator.next() % 12) {
                let length = Int(generator.next() % 41)
                var name = Self.name(length, &generator)
                if let some = fleet.randomElement(using: &generator), !some.isEmpty, generator.next() % 2 == 0 {
                    // The same length as one already known, one byte different.
                    name = some
                    let position = Int(generator.next() % UInt64(name.count))
                    name[position] = name[position] == UInt8(ascii: "z") ? UInt8(ascii: "y") : UInt8(ascii: "z")
                }
                fleet.insert(name, at: Int(generator.next() % UInt64(fleet.count + 1)))
            }
            // Some swap places, some skip this round.
            for _ in 0..<Int(generator.next() % 4) where fleet.count > 1 {
                fleet.swapAt(Int(generator.next() % UInt64(fleet.count)), Int(generator.next() % UInt64(fleet.count)))
            }
            for name in fleet where generator.next() % 10 != 0 {
                let index = name.withUnsafeBufferPointer { table.index(of: $0) }
                let expected = oracle[name] ?? Int32(oracle.count)
                oracle[name] = expected
                #expect(index == expected, "\(String(decoding: name, as: UTF8.self))")
                looked += 1
            }
        }
        #expect(table.names.count == oracle.count)
        for (name, index) in oracle { #expect(table.names[Int(index)] == String(decoding: name, as: UTF8.self)) }
        #expect(looked > 2_000)
    }

    /// Equal strings, and strings one byte apart at every position, of every
    /// length up to 48, against `Array`'s `==`.
    @Test func shortBytesAgreesWithArrayEquality() {
        var generator = SplitMix64(seed: 7)
        var compared = 0
        for length in 0...48 {
            let first = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            var cases = [first]
            for position in 0..<length {
                var other = first
                other[position] ^= UInt8(1) << UInt8(generator.next() % 8)
                cases.append(other)
            }
            for second in cases {
                let equal = first.withUnsafeBufferPointer { a in
                    second.withUnsafeBufferPointer { b in
                        length == 0 || ShortBytes.equal(a.baseAddress!, b.baseAddress!, count: length)
                    }
                }
                #expect(equal == (first == second), "length \(length)")
                compared += 1
            }
        }
        #expect(compared == 49 + (0...48).reduce(0, +))
    }
}
