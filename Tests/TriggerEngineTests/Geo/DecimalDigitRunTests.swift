import Foundation
import Testing
import TestSupport
@_spi(Internals) @testable import TriggerEngine

/// `DecimalParsing+DigitRuns` against reading the same bytes one at a time:
/// seeded buffers of digits mixed with points, signs, letters and bytes of
/// 0xF0 and above (whose carry, when six is added to every byte, must not
/// disturb the count), of every length up to 24, read from every offset.
@Suite("Decimal digits eight at a time: the byte-by-byte reading, at every offset")
struct DecimalDigitRunTests {
    /// A byte that is a digit most of the time, else something that is not.
    static func byte(_ random: inout SplitMix64) -> UInt8 {
        let others: [UInt8] = [0x2E, 0x2D, 0x2B, 0x2C, 0x65, 0x2F, 0x3A, 0x00, 0x20, 0xFA, 0xFF, 0xF9, 0xC3, 0x39 + 6]
        return random.next() % 4 == 0 ? others[Int(random.next() % UInt64(others.count))] : 0x30 + UInt8(random.next() % 10)
    }

    @Test func runsAreTheDigitsReadOneByOne() {
        var random = SplitMix64(seed: 0xD161_7000)
        var runsOfEight = 0, wrapped = 0
        var wrong: [String] = []
        for _ in 0..<6_000 {
            let length = Int(random.next() % 25)
            let bytes = (0..<length).map { _ in Self.byte(&random) }
            bytes.withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                for start in 0..<length {
                    // One word: its leading digits (at most eight) and their value.
                    var expectedCount = 0
                    var expectedValue: UInt64 = 0
                    while expectedCount < 8, start + expectedCount < length,
                          case let digit = bytes[start + expectedCount] &- 0x30, digit < 10 {
                        expectedValue = expectedValue * 10 + UInt64(digit)
                        expectedCount += 1
                    }
                    // The word as the readers load it (bytes past the end read as 0, not a digit).
                    var word: UInt64 = 0
                    for offset in 0..<min(8, length - start) { word |= UInt64(bytes[start + offset]) << UInt64(8 * offset) }
                    let (count, value) = DecimalParsing.leadingDigits(of: word)
                    if count != expectedCount || value != expectedValue { wrong.append("\(bytes) from \(start): \(count) digits, \(value)") }
                    if count == 8 { runsOfEight += 1 }
                    // The whole run into a mantissa that already holds something (wrapping like the readers).
                    var expectedMantissa: UInt64 = 12_345
                    var end = start
                    while end < length, case let digit = bytes[end] &- 0x30, digit < 10 {
                        expectedMantissa = expectedMantissa &* 10 &+ UInt64(digit)
                        end += 1
                    }
                    var mantissa: UInt64 = 12_345
                    var index = start
                    let read = DecimalParsing.appendDigits(base, count: length, at: &index, to: &mantissa)
                    if read != end - start || index != end || mantissa != expectedMantissa {
                        wrong.append("\(bytes) from \(start): run of \(read) to \(index), mantissa \(mantissa)")
                    }
                    if end - start > 15 { wrapped += 1 }
                }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(3))")
        #expect(runsOfEight > 500 && wrapped > 5, "runs of eight \(runsOfEight), past 2^64 \(wrapped)")
    }

    /// Log fields with 1 to 19 digits, leading zeros, long integer parts and
    /// fractions, read exactly as the standard library reads them.
    @Test func logFieldsOfEveryLengthParseAsTheStandardLibraryDoes() {
        var random = SplitMix64(seed: 0xD161_7001)
        var wrong: [String] = []
        for _ in 0..<30_000 {
            let integer = String((0..<Int(random.next() % 12)).map { _ in Character(String(random.next() % 10)) })
            let fraction = String((0..<Int(random.next() % 20)).map { _ in Character(String(random.next() % 10)) })
            let sign = ["", "-", "+"][Int(random.next() % 3)]
            let text = sign + integer + (fraction.isEmpty && random.next() % 2 == 0 ? "" : "." + fraction)
            var bytes = Array(text.utf8)
            let parsed = bytes.withUnsafeMutableBufferPointer { FieldParsing.number(UnsafeBufferPointer($0)) }
            let expected = integer.isEmpty && fraction.isEmpty ? nil : Double(text)
            if parsed != expected { wrong.append("\(text): \(parsed.map { "\($0)" } ?? "nil")") }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(3))")
    }

    /// Fields shaped like a log's coordinates, `FieldParsing.shortDecimal`'s
    /// case (8 to 16 bytes, a sign, 1 to 7 integer digits, a point, 1 to 8
    /// fraction digits), and the same fields with one byte replaced by a
    /// non-digit or a second point or sign, or cut or grown by a byte: each
    /// read as the standard library reads it, nil where it refuses it.
    @Test func coordinateShapedFieldsParseAsTheStandardLibraryDoes() {
        var random = SplitMix64(seed: 0xC00D_1A7E)
        var wrong: [String] = []
        var shortPath = 0
        let intruders: [UInt8] = [0x2E, 0x2D, 0x2B, 0x65, 0x2F, 0x3A, 0x00, 0x20, 0xFA, 0xFF, 0x39 + 6]
        for round in 0..<60_000 {
            let digits = { (count: Int) in (0..<count).map { _ in 0x30 + UInt8(random.next() % 10) } }
            var bytes = (random.next() % 2 == 0 ? [] : [UInt8(ascii: "-")])
                + digits(1 + Int(random.next() % 7)) + [0x2E] + digits(1 + Int(random.next() % 8))
            switch round % 4 {
            case 1: bytes[Int(random.next() % UInt64(bytes.count))] = intruders[Int(random.next() % UInt64(intruders.count))]
            case 2: if random.next() % 2 == 0 { bytes.removeLast() } else { bytes.append(0x30 + UInt8(random.next() % 10)) }
            default: break
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let (parsed, short) = bytes.withUnsafeBufferPointer { (FieldParsing.number($0), FieldParsing.shortDecimal($0)) }
            // The standard library also reads "nan", "inf", hexadecimal and spaces, which no mutation here makes.
            let numeric = bytes.allSatisfy { $0 == 0x2B || $0 == 0x2D || $0 == 0x2E || $0 == 0x65 || ($0 >= 0x30 && $0 <= 0x39) }
            // A log field that overflows is refused, not read as infinity.
            let expected = numeric ? Double(text).flatMap { $0.isFinite ? $0 : nil } : nil
            if parsed != expected || (short != nil && short != expected) {
                wrong.append("\(text): \(parsed.map { "\($0)" } ?? "nil"), short \(short.map { "\($0)" } ?? "nil")")
            }
            if short != nil { shortPath += 1 }
        }
        #expect(wrong.count == 0, "first: \(wrong.prefix(3))")
        // Most unmutated fields of 8 bytes or more take the short way.
        #expect(shortPath > 20_000, "\(shortPath) fields read the short way")
    }
}
