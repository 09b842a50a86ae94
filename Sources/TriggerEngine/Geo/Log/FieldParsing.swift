#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Numbers and instants parsed straight from a row's bytes.
package enum FieldParsing {
    /// The instants a log may hold, as epoch seconds: `InstantBounds`, refused
    /// where they are read when outside.
    package static let instantRange = InstantBounds.seconds

    /// The message for a time field whose instant is outside `instantRange`.
    package static func outOfRangeMessage(_ field: String, _ text: String) -> String {
        "\(field) '\(text)' is outside years 1–9999 (RFC 3339's range)"
    }

    private static let powersOfTen: [Double] = (0...22).map { pow(10, Double($0)) }

    /// A decimal number (`-12.5`, `3`, `1e-3`), or `nil`.
    ///
    /// Plain decimals of up to 19 digits are rounded by `DecimalParsing` (exactly
    /// as `strtod` would); anything else goes to `strtod`.
    @inline(__always)
    package static func number(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        if let value = shortDecimal(bytes) { return value }
        var index = 0
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return nil }
        var negative = false
        if bytes[0] == UInt8(ascii: "-") { negative = true; index = 1 } else if bytes[0] == UInt8(ascii: "+") { index = 1 }
        // Digits, a point, digits (`DecimalParsing.appendDigits`, eight at a time).
        var mantissa: UInt64 = 0
        var digits = DecimalParsing.appendDigits(base, count: count, at: &index, to: &mantissa)
        var fractionDigits = 0
        if index < count && bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = DecimalParsing.appendDigits(base, count: count, at: &index, to: &mantissa)
            digits += fractionDigits
        }
        if index == count && digits > 0 && digits <= 19,
           let value = DecimalParsing.nearestDouble(mantissa: mantissa, scale: fractionDigits) {
            return negative ? -value : value
        }
        return slowNumber(bytes)
    }

    /// The value of a field of 8 to 16 bytes written `[-]I.F`, with 1 to 7
    /// integer digits I and 1 to 8 fraction digits F (a coordinate in a log:
    /// `48.928458`, `-2.270277`), or `nil` for anything else, which `number`
    /// then reads the general way.
    ///
    /// Two words, no loop: the first holds the sign, the integer digits and
    /// the point; the field's last eight bytes, shifted down, hold the
    /// fraction. Same mantissa and scale as the general way, so the same
    /// rounding (`DecimalParsing.nearestDouble`). On the hard geofence
    /// benchmark's log, two such fields a row, the general way took about 190
    /// instructions a field.
    @inline(__always)
    static func shortDecimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let count = bytes.count
        guard count >= 8, count <= 16, let base = bytes.baseAddress else { return nil }
        let raw = UnsafeRawPointer(base)
        let first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let negative = first & 0xFF == UInt64(UInt8(ascii: "-"))
        let sign = negative ? 1 : 0
        // Shifted past the sign, the top byte is a zero: not a digit, so the run stops in the word.
        let (integerDigits, integer) = DecimalParsing.leadingDigits(of: first &>> UInt64(8 &* sign))
        let point = sign &+ integerDigits
        guard integerDigits > 0, point < 8, (first &>> UInt64(8 &* point)) & 0xFF == UInt64(UInt8(ascii: ".")) else { return nil }
        let fractionDigits = count &- point &- 1
        guard fractionDigits >= 1, fractionDigits <= 8 else { return nil }
        let last = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
        let (digits, fraction) = DecimalParsing.leadingDigits(of: last &>> UInt64(8 &* (8 &- fractionDigits)))
        guard digits == fractionDigits,
              let value = DecimalParsing.nearestDouble(mantissa: integer &* DecimalParsing.integerPowersOfTen[fractionDigits] &+ fraction,
                                                       scale: fractionDigits) else { return nil }
        return negative ? -value : value
    }

    private static func slowNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard bytes.count > 0, bytes.count < 64 else { return nil }
        var text = [CChar](repeating: 0, count: bytes.count + 1)
        for (index, byte) in bytes.enumerated() {
            // strtod would accept "inf", "nan", hex and leading blanks: a row has none.
            guard (byte >= 48 && byte <= 57) || byte == 0x2E || byte == 0x2D || byte == 0x2B
                    || byte == 0x65 || byte == 0x45 else { return nil }
            text[index] = CChar(bitPattern: byte)
        }
        return text.withUnsafeBufferPointer { buffer -> Double? in
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &end)
            guard let end, end - UnsafeMutablePointer(mutating: buffer.baseAddress!) == bytes.count else { return nil }
            return value.isFinite ? value : nil
        }
    }

    /// An instant as epoch seconds: RFC 3339 (`2026-01-26T15:57:02Z`, with an
    /// offset), `YYYY-MM-DD HH:MM:SS[.fff]` without an offset (local time in
    /// `zone`), or integer or fractional epoch seconds. `nil` otherwise.
    package static func instant(_ bytes: UnsafeBufferPointer<UInt8>, zone: ZoneRules) -> Double? {
        guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-") else {
            return number(bytes)
        }
        func digits(_ start: Int, _ width: Int) -> Int? {
            var value = 0
            for index in start..<(start + width) {
                let digit = Int(bytes[index]) &- 48
                guard digit >= 0 && digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        let separator = bytes[10]
        guard let year = digits(0, 4), let month = digits(5, 2), bytes[7] == UInt8(ascii: "-"), let day = digits(8, 2),
              separator == UInt8(ascii: "T") || separator == UInt8(ascii: " ") || separator == UInt8(ascii: "t"),
              let hour = digits(11, 2), bytes[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
              bytes[16] == UInt8(ascii: ":"), let second = digits(17, 2),
              (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: year, month: month),
              hour < 24, minute < 60, second < 61 else { return nil }
        var index = 19
        var fraction = 0.0
        if index < bytes.count && bytes[index] == UInt8(ascii: ".") {
            // Digits as an integer over an exact power of ten: 0.25 stays 0.25.
            index += 1
            let start = index
            var numerator: UInt64 = 0
            while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                if index - start < 15 { numerator = numerator * 10 + UInt64(bytes[index] - 48) }
                index += 1
            }
            if index == start { return nil }
            fraction = Double(numerator) / powersOfTen[min(index - start, 15)]
        }
        let local = CivilDate.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        if index == bytes.count {
            // No offset: a wall time in the log's zone (UTC unless --tz).
            return Double(zone.instant(of: LocalDateTime(localSeconds: local))) + fraction
        }
        let sign = bytes[index]
        if (sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z")) && index + 1 == bytes.count {
            return Double(local) + fraction
        }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), bytes.count == index + 6,
              let hours = digits(index + 1, 2), bytes[index + 3] == UInt8(ascii: ":"), let minutes = digits(index + 4, 2),
              hours < 24, minutes < 60 else { return nil }
        let offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        return Double(local - offset) + fraction
    }
}
